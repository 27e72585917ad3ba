// FuzzEntry.swift — runs libFuzzer over the harness, or, in a normal build, replays the corpus.
import Foundation

#if KEYSTONE_FUZZ
import CLibFuzzer
#endif

/// `keystone-fuzz`: built by `scripts/fuzz.sh` (with `-D KEYSTONE_FUZZ -sanitize=fuzzer,address`),
/// it is libFuzzer, taking libFuzzer's flags and corpus directories. Built normally,
/// `keystone-fuzz DIRECTORY…` runs every input file in the directories through the same harness,
/// without libFuzzer: a regression run of the corpus.
@main
struct KeystoneFuzz {
    static func main() throws {
        #if KEYSTONE_FUZZ
        exit(runLibFuzzer())
        #else
        var count = 0
        for directory in CommandLine.arguments.dropFirst() {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                FuzzHarness.check(Array(try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))))
                count += 1
            }
        }
        print("fuzz corpus: \(count) inputs checked")
        #endif
    }

    #if KEYSTONE_FUZZ
    /// Hands the program's arguments and the harness to libFuzzer's driver.
    static func runLibFuzzer() -> CInt {
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzHarness.check(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
    }
    #endif
}
