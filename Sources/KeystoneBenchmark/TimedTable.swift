// TimedTable.swift — the benchmark in seconds: best of interleaved rounds, printed, never judged.
import Foundation
import Keystone

/// Times each workload against its floor, alternating the two over several rounds and keeping the
/// best of each, and prints the ratios. Wall time on a shared machine is noisy: this is for people
/// to read (`scripts/bench.sh`); the test command's bar is ``InstructionGate``.
enum TimedTable {
    static func print() throws {
        Swift.print("Keystone benchmark: time per call as a ratio to a bare Foundation JSONDecoder + JSONEncoder (1.00 = floor)\n")
        Swift.print("payload            floor/call   keystone/call   ratio")
        let keystone = try SyncCallWorkload.makeKeystone()
        for items in SyncCallWorkload.itemCounts {
            let workload = try SyncCallWorkload(items: items, keystone: keystone)
            let (floor, call) = try measurePair(iterations: max(20, 40_000 / items), floor: workload.floor, subject: workload.call)
            Swift.print("\(pad(workload.label, 18)) \(pad(format(floor), 12)) \(pad(format(call), 15)) \(String(format: "%.2f", call / floor))")
        }

        let encoder = JSONEncoder()
        let values = try (0..<64).map { n in
            try JSONText(validating: encoder.encode(SyncCallWorkload.Payload(items: [.init(id: n, name: "v\u{2028}\(n)", tags: [], score: 1, active: true)])))
        }
        let messages = values.enumerated().map { PageMessage.result(callback: "dscb\($0.offset)", value: $0.element, complete: true) }
        // The floor for rendering: copying the batch's JSON into one string, which any script must do.
        let (copyFloor, render) = measurePair(
            iterations: 2000,
            floor: {
                var bytes: [UInt8] = []
                for value in values { bytes.append(contentsOf: value.bytes) }
                return String(decoding: bytes, as: UTF8.self).utf8.count
            },
            subject: {
                ScriptRenderer.render(messages).utf8.count
            })
        Swift.print("\nrendering a 64-message batch: \(format(render)), \(String(format: "%.2f", render / copyFloor))× copying its JSON into one string")
    }

    /// Best-of-rounds seconds per iteration for `floor` and `subject`, measured alternately.
    static func measurePair(iterations: Int, floor: () throws -> Int, subject: () throws -> Int) rethrows -> (Double, Double) {
        var best = (Double.infinity, Double.infinity)
        var sink = 0
        for _ in 0..<7 {
            best.0 = min(best.0, try time(iterations) { sink &+= try floor() })
            best.1 = min(best.1, try time(iterations) { sink &+= try subject() })
        }
        if sink == 42 { Swift.print("") }  // keeps the work observable
        return best
    }

    static func time(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try body() }
        let elapsed = start.duration(to: clock.now)
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(iterations)
    }

    static func format(_ seconds: Double) -> String {
        seconds < 1e-3 ? String(format: "%.1f µs", seconds * 1e6) : String(format: "%.2f ms", seconds * 1e3)
    }
}
