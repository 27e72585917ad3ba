// InstructionGate.swift — the speed bar as counted instructions: deterministic on a busy machine.
import Foundation
import Keystone

/// Counts, in one process under valgrind's callgrind, the instructions of N sync calls and of N
/// runs of the floor for every payload size, of hostile inputs from 1 KB to 1 MB, of N isolated
/// async calls until each one's script is handed on, and of a page's stream gathered for a `Data`
/// method at two lengths, and of a tiny sync call traced to a file, and holds them to their bars.
///
/// Instruction counts do not depend on what else the machine is doing, so this can decide a test
/// run where a timer cannot. Callgrind collects only inside ``countedRegion(_:)`` and writes one
/// total per region; everything else the process does (start-up, building inputs, the warm-up) is
/// not counted.
enum InstructionGate {
    /// The measured region and the marker that ends it, by the names callgrind matches (`*`
    /// covers Swift's mangling).
    static let region = "*countedRegion*"
    static let dumpMarker = "*countedRegionDidEnd*"

    /// One counted region: `iterations` runs of `run`, over `bytes` bytes of input each.
    struct Measurement {
        var iterations: Int
        var bytes: Int
        var run: () throws -> Int
    }

    /// Everything counted, in the order it runs; the same list in the process that counts and in
    /// the one that reads the counts.
    struct Plan {
        var syncCalls: [(workload: SyncCallWorkload, floor: Measurement, call: Measurement)] = []
        var hostile: [(input: HostileInput, sizes: [Measurement])] = []
        /// An isolated async call until its script is handed on (held to the tiny sync call's floor).
        var asyncCall: Measurement
        /// The same, asking for `Data` results as bytes on a host with a byte channel, as Keystone's
        /// runtime asks (held to the same bar).
        var asyncBytesCall: Measurement
        /// A page's stream gathered for a method that takes `Data`, at two lengths: its cost per byte
        /// must not grow with the length (each piece once appended in place, never the whole copied).
        var gathered: [Measurement] = []
        /// The tiny sync call on a Keystone that traces, without values, to a file (`/dev/null`: each
        /// record made into its line and written, the kernel's part not counted), held to
        /// ``tracedBar`` times the same call untraced.
        var tracedCall: Measurement

        init() throws {
            let keystone = try SyncCallWorkload.makeKeystone()
            try keystone.register(HostileInput.Hostile(), namespace: "hostile")
            for items in SyncCallWorkload.itemCounts {
                let workload = try SyncCallWorkload(items: items, keystone: keystone)
                let iterations = max(4, 400 / items)
                syncCalls.append(
                    (
                        workload,
                        Measurement(iterations: iterations, bytes: workload.dataText.count, run: workload.floor),
                        Measurement(iterations: iterations, bytes: workload.dataText.count, run: workload.call)
                    ))
            }
            let traced = try SyncCallWorkload(items: 1, keystone: try SyncCallWorkload.makeKeystone(tracing: Tracing(to: try TraceFileWriter(url: URL(fileURLWithPath: "/dev/null")))))
            tracedCall = Measurement(iterations: 400, bytes: traced.dataText.count, run: traced.call)
            asyncCall = Measurement(iterations: 400, bytes: 0, run: try AsyncHandOff().call)
            asyncBytesCall = Measurement(iterations: 400, bytes: 0, run: try AsyncHandOff(takingBytes: true).call)
            for chunks in GatheredStream.chunkCounts {
                let stream = try GatheredStream(chunks: chunks)
                gathered.append(Measurement(iterations: 1, bytes: stream.bytes, run: stream.run))
            }
            for input in HostileInput.all {
                hostile.append(
                    (
                        input,
                        HostileInput.sizes.map { size in
                            let text = input.promptText(bytes: size)
                            let method = "_dsbridge=hostile." + input.method
                            return Measurement(iterations: max(1, (1 << 16) / size), bytes: text.utf8.count) {
                                keystone.handlePrompt(method, defaultText: text)?.utf8.count ?? 0
                            }
                        }
                    ))
            }
        }

        var all: [Measurement] { syncCalls.flatMap { [$0.floor, $0.call] } + hostile.flatMap(\.sizes) + [asyncCall, asyncBytesCall] + gathered + [tracedCall] }
    }

    /// Runs this executable again under callgrind with `--counted-run`, reads the totals, prints
    /// the tables and returns whether every bar is met.
    static func run(bar: Double) throws -> Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-gate-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("callgrind.out")
        guard try countedRun(writingTo: output) else { return false }
        var totals = try parts(of: String(contentsOf: output, encoding: .utf8))[...]
        let plan = try Plan()
        guard totals.count == plan.all.count else {
            print("FAIL: expected \(plan.all.count) counted regions from callgrind, found \(totals.count)")
            return false
        }
        func perRun(_ measurement: Measurement) -> Double { totals.removeFirst() / Double(measurement.iterations) }
        let (syncPassed, floors) = reportSyncCalls(plan, bar: bar, perRun: perRun)
        let hostilePassed = reportHostileInputs(plan, floorPerByte: floors.perByte, perRun: perRun)
        let asyncPassed = reportAsyncCalls([perRun(plan.asyncCall), perRun(plan.asyncBytesCall)], tinyFloor: floors.tiny)
        let gatheredPassed = reportGathered(plan.gathered.map { (bytes: $0.bytes, perByte: perRun($0) / Double($0.bytes)) })
        let tracedPassed = reportTraced(perRun(plan.tracedCall), untraced: floors.tinyCall)
        let passed = syncPassed && hostilePassed && asyncPassed && gatheredPassed && tracedPassed
        print("\n\(passed ? "PASS" : "FAIL"): \(passed ? "every bar is met" : "a bar is not met")")
        return passed
    }

    /// Runs this executable again under callgrind with `--counted-run`; whether it succeeded.
    private static func countedRun(writingTo output: URL) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--quiet", "--collect-atstart=no",
            "--toggle-collect=\(region)", "--dump-before=\(dumpMarker)",
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
        return true
    }

    /// Prints the sync-call table; whether every ratio meets `bar`, the smallest payload's floor
    /// per call, and the floor's instructions per byte at the largest payload.
    private static func reportSyncCalls(
        _ plan: Plan, bar: Double, perRun: (Measurement) -> Double
    ) -> (passed: Bool, floors: (tiny: Double, perByte: Double, tinyCall: Double)) {
        print("Instructions per sync call (valgrind callgrind), as a ratio to a bare JSONDecoder + JSONEncoder of the same payload\n")
        print("payload               floor/call     keystone/call   ratio   bar")
        var passed = true
        var (tinyFloor, floorPerByte, tinyCall) = (0.0, 0.0, 0.0)
        for (workload, floor, call) in plan.syncCalls {
            let (floorCount, callCount) = (perRun(floor), perRun(call))
            if tinyFloor == 0 { (tinyFloor, tinyCall) = (floorCount, callCount) }  // the smallest payload's, measured first
            let ratio = callCount / floorCount
            passed = passed && ratio <= bar
            floorPerByte = floorCount / Double(floor.bytes)  // the largest payload's, measured last
            print("\(pad(workload.label, 21)) \(pad(grouped(floorCount), 14)) \(pad(grouped(callCount), 15)) \(pad(String(format: "%.3f", ratio), 7)) \(bar)")
        }
        return (passed, (tinyFloor, floorPerByte, tinyCall))
    }

    /// Prints the hostile-input table; whether every shape is linear and bounded.
    private static func reportHostileInputs(_ plan: Plan, floorPerByte: Double, perRun: (Measurement) -> Double) -> Bool {
        // Linear: the cost per byte at any size is at most `growth` times that at the smallest.
        // Bounded: no byte of a hostile input costs more than a byte of the largest typed floor.
        let growth = 1.5
        print("\nInstructions per byte of hostile input through a sync call, 1 KB to 1 MB (bars: at most \(growth)× the")
        print("cost per byte at 1 KB, so linear in size; and at most the typed floor's \(grouped(floorPerByte)) per byte)\n")
        print("shape                              " + HostileInput.sizes.map { pad("\($0 >> 10) KB", 10) }.joined() + "verdict")
        var passed = true
        for (input, sizes) in plan.hostile {
            let perByte = sizes.map { perRun($0) / Double($0.bytes) }
            let linear = perByte.allSatisfy { $0 <= growth * perByte[0] }
            let bounded = perByte.allSatisfy { $0 <= floorPerByte }
            passed = passed && linear && bounded
            let verdict = linear && bounded ? "ok" : (linear ? "FAIL: costs more per byte than the floor" : "FAIL: grows faster than its size")
            print(pad(input.shape, 35) + perByte.map { pad(String(format: "%.1f", $0), 10) }.joined() + verdict)
        }
        return passed
    }

    /// The most an isolated async call until its script is handed on may cost, as a ratio to the
    /// tiny sync call's floor (a bare JSONDecoder + JSONEncoder of 90 bytes). It costs about 0.28;
    /// it cost 0.39 while the evaluator's state and the package's lock looked up generic metadata
    /// for every message, which this bar would have refused.
    static let asyncBar = 0.35

    /// Prints the async calls' lines (plain, and asking for `Data` results as bytes); whether both
    /// meet ``asyncBar``.
    private static func reportAsyncCalls(_ callCounts: [Double], tinyFloor floorCount: Double) -> Bool {
        print("\nInstructions per async call until its script is handed on, as a ratio to the tiny sync call's floor\n")
        print("call                  floor/call     keystone/call   ratio   bar")
        var passed = true
        for (name, callCount) in zip(["plain", "taking bytes"], callCounts) {
            let ratio = callCount / floorCount
            print("\(pad(name, 21)) \(pad(grouped(floorCount), 14)) \(pad(grouped(callCount), 15)) \(pad(String(format: "%.3f", ratio), 7)) \(asyncBar)")
            passed = passed && ratio <= asyncBar
        }
        return passed
    }

    /// The most a tiny sync call may cost on a Keystone that traces (without values, to a file), as a
    /// ratio to the same call untraced. With each line written by `JSONEncoder` it cost 1.72×.
    static let tracedBar = 1.3

    /// Prints the traced call's line; whether it meets ``tracedBar``.
    private static func reportTraced(_ count: Double, untraced: Double) -> Bool {
        let ratio = count / untraced
        print("\nInstructions per tiny sync call traced to a file (no values), as a ratio to the same call untraced\n")
        print("untraced/call     traced/call     ratio   bar")
        print("\(pad(grouped(untraced), 17)) \(pad(grouped(count), 15)) \(pad(String(format: "%.3f", ratio), 7)) \(tracedBar)")
        return ratio <= tracedBar
    }

    /// Prints the gathered streams' line; whether the cost per byte of the longest is at most 1.5×
    /// that of the shortest (gathering that copied what it had for every piece went from 55 to 120
    /// instructions a byte between 1 MiB and 16 MiB; appending in place, from 6.4 to 4.1).
    private static func reportGathered(_ runs: [(bytes: Int, perByte: Double)]) -> Bool {
        let growth = 1.5
        print("\nInstructions per byte of a page's stream gathered for a Data method, in 16 KiB pieces (bar: at most \(growth)× the")
        print("cost per byte of the shortest, so linear in length)\n")
        print(runs.map { pad("\($0.bytes >> 20) MiB", 12) }.joined() + "verdict")
        let passed = runs.allSatisfy { $0.perByte <= growth * runs[0].perByte }
        print(runs.map { pad(String(format: "%.2f", $0.perByte), 12) }.joined() + (passed ? "ok" : "FAIL: grows faster than its length"))
        return passed
    }

    /// The `totals:` of each dump in a combined callgrind file triggered by a region's end, in order.
    static func parts(of text: String) throws -> [Double] {
        var triggeredByRegion = false
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("desc: Trigger:") {
                triggeredByRegion = line.contains("countedRegionDidEnd")
                return nil
            }
            guard triggeredByRegion, line.hasPrefix("totals:") else { return nil }
            return Double(line.dropFirst("totals:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
    }

    /// What valgrind runs: warms every measurement up, then counts each in a region of its own.
    static func countedRun() throws {
        let plan = try Plan()
        var sink = 0
        for measurement in plan.all { sink &+= try measurement.run() }
        for measurement in plan.all {
            sink &+= try countedRegion {
                var sink = 0
                for _ in 0..<measurement.iterations { sink &+= try measurement.run() }
                return sink
            }
            countedRegionDidEnd()
        }
        if sink == 42 { print("") }  // keeps the work observable
    }

    /// Callgrind counts only inside this function.
    @inline(never)
    static func countedRegion(_ body: () throws -> Int) rethrows -> Int {
        try body()
    }

    /// Does nothing: entering it makes callgrind write what the region before it counted.
    /// (Callgrind applies one option per function, so dumps get a function of their own.)
    @inline(never)
    static func countedRegionDidEnd() {
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
