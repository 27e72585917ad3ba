// InstructionGate.swift — the speed bar as counted instructions: deterministic on a busy machine.
import Foundation

/// Counts the instructions of N sync calls and of N runs of the floor, for every payload size, in
/// one process under valgrind's callgrind, and compares their ratio with the bar.
///
/// Instruction counts do not depend on what else the machine is doing, so this can decide a test
/// run where a timer cannot. Callgrind collects only inside the two measured loops
/// (`--toggle-collect`) and writes one total per loop; everything else the
/// process does (start-up, building the payloads, the warm-up) is not counted. A dump is taken as
/// each loop ends, on entering ``loopDidEnd()``: callgrind applies one option per function, so the
/// dumps are triggered by a function of their own.
enum InstructionGate {
    /// The measured loops, by the names callgrind matches (`*` covers Swift's mangling).
    static let floorLoop = "*countedFloorLoop*"
    static let callLoop = "*countedCallLoop*"
    static let dumpMarker = "*countedLoopDidEnd*"

    struct Row {
        var label: String
        var floor: Double
        var call: Double
        var ratio: Double { call / floor }
    }

    /// Runs this executable again under callgrind with `--counted-run`, reads the totals, prints
    /// the table and returns whether every ratio is within `bar`.
    static func run(bar: Double) throws -> Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-gate-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("callgrind.out")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--quiet", "--collect-atstart=no",
            "--toggle-collect=\(floorLoop)", "--toggle-collect=\(callLoop)",
            "--dump-before=\(dumpMarker)",
            "--combine-dumps=yes", "--callgrind-out-file=\(output.path)",
            CommandLine.arguments[0], "--counted-run",
        ]
        // Swift's hashing is seeded per process; a fixed seed makes the counts repeatable.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("FAIL: valgrind exited with status \(process.terminationStatus)")
            return false
        }
        let totals = try parts(of: String(contentsOf: output, encoding: .utf8))
        let counts = SyncCallWorkload.itemCounts
        guard totals.count == 2 * counts.count else {
            print("FAIL: expected \(2 * counts.count) measured loops from callgrind, found \(totals.count)")
            return false
        }
        let rows = try counts.enumerated().map { index, items in
            let workload = try SyncCallWorkload(items: items, keystone: SyncCallWorkload.makeKeystone())
            let iterations = Double(countedIterations(items))
            return Row(label: workload.label, floor: totals[2 * index] / iterations, call: totals[2 * index + 1] / iterations)
        }
        print("Instructions per sync call (valgrind callgrind), as a ratio to a bare JSONDecoder + JSONEncoder of the same payload\n")
        print("payload               floor/call     keystone/call   ratio   bar")
        for row in rows {
            print("\(pad(row.label, 21)) \(pad(grouped(row.floor), 14)) \(pad(grouped(row.call), 15)) \(pad(String(format: "%.3f", row.ratio), 7)) \(bar)")
        }
        let worst = rows.map(\.ratio).max() ?? .infinity
        let passed = worst <= bar
        print("\n\(passed ? "PASS" : "FAIL"): the worst ratio is \(String(format: "%.3f", worst)) (bar: \(bar))")
        return passed
    }

    /// The `totals:` of each dump in a combined callgrind file triggered by a loop's end, in order.
    static func parts(of text: String) throws -> [Double] {
        var triggeredByLoop = false
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("desc: Trigger:") {
                triggeredByLoop = line.contains("countedLoopDidEnd")
                return nil
            }
            guard triggeredByLoop else { return nil }
            guard line.hasPrefix("totals:") else { return nil }
            return Double(line.dropFirst("totals:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
    }

    /// How many calls each loop makes: enough that the one-off costs inside a loop vanish.
    static func countedIterations(_ items: Int) -> Int { max(4, 400 / items) }

    /// What valgrind runs: warms every workload up, then runs each pair of counted loops.
    static func countedRun() throws {
        let keystone = try SyncCallWorkload.makeKeystone()
        let workloads = try SyncCallWorkload.itemCounts.map { try SyncCallWorkload(items: $0, keystone: keystone) }
        var sink = 0
        for workload in workloads {
            for _ in 0..<3 {
                sink &+= try workload.floor()
                sink &+= workload.call()
            }
        }
        for workload in workloads {
            let iterations = countedIterations(workload.items)
            sink &+= try countedFloorLoop(workload, iterations)
            countedLoopDidEnd()
            sink &+= countedCallLoop(workload, iterations)
            countedLoopDidEnd()
        }
        if sink == 42 { print("") }  // keeps the work observable
    }

    @inline(never)
    static func countedFloorLoop(_ workload: SyncCallWorkload, _ iterations: Int) throws -> Int {
        var sink = 0
        for _ in 0..<iterations { sink &+= try workload.floor() }
        return sink
    }

    @inline(never)
    static func countedCallLoop(_ workload: SyncCallWorkload, _ iterations: Int) -> Int {
        var sink = 0
        for _ in 0..<iterations { sink &+= workload.call() }
        return sink
    }

    /// Does nothing: entering it makes callgrind write what the loop before it counted.
    @inline(never)
    static func countedLoopDidEnd() {
        _ = getpid()
    }

    private static func grouped(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
}

func pad(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
}
