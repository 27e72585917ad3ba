// KeystoneBenchmark.swift — the per-call cost as ratios to a bare Foundation floor, in one run.
import Foundation
import Keystone

/// `keystone-benchmark --report [--engine-samples FILE] [--chart FILE.svg]`: the table
/// scripts/bench.sh prints — the in-process rows measured now, the real-engine rows read from the
/// samples the script collected in the same run — and the chart.
///
/// `keystone-benchmark`: prints the timed table — each figure the best of interleaved rounds, as a
/// ratio to a floor measured in the same run. It decides nothing; machines are noisy.
///
/// `keystone-benchmark --gate`: the deterministic check the test command runs. It counts executed
/// instructions under valgrind's callgrind and exits 1 when a sync call costs more than
/// ``bar`` times its floor for any payload size, when a hostile input costs more per byte than it
/// should, or when an isolated async call costs more than `InstructionGate.asyncBar` times the
/// tiny sync call's floor.
@main
struct KeystoneBenchmark {
    static let bar = 1.25

    /// The argument after `flag`, if any.
    static func value(after flag: String) -> String? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--counted-run") {
            try InstructionGate.countedRun()
        } else if arguments.contains("--gate") {
            exit(try InstructionGate.run(bar: bar) ? 0 : 1)
        } else if arguments.contains("--report") {
            try BenchmarkReport.run(
                engineSamples: value(after: "--engine-samples").map(URL.init(fileURLWithPath:)),
                chart: value(after: "--chart").map(URL.init(fileURLWithPath:)))
        } else {
            try TimedTable.print()
        }
    }
}
