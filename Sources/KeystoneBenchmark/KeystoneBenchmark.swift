// KeystoneBenchmark.swift — the per-call cost as ratios to a bare Foundation floor, in one run.
import Foundation
import Keystone

/// `keystone-benchmark`: prints the timed table — each figure the best of interleaved rounds, as a
/// ratio to a floor measured in the same run. It decides nothing; machines are noisy.
///
/// `keystone-benchmark --gate`: the deterministic check the test command runs. It counts executed
/// instructions under valgrind's callgrind and exits 1 when a sync call costs more than
/// ``bar`` times its floor for any payload size.
@main
struct KeystoneBenchmark {
    static let bar = 1.25

    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--counted-run") {
            try InstructionGate.countedRun()
        } else if arguments.contains("--gate") {
            exit(try InstructionGate.run(bar: bar) ? 0 : 1)
        } else {
            try TimedTable.print()
        }
    }
}
