// KeystoneBenchmark.swift — the per-call cost as ratios to a bare Foundation floor, in one run.
import Foundation
import Keystone

/// Measures a synchronous call through a Keystone against the floor of a bare `JSONDecoder` +
/// `JSONEncoder` of the same payload, and rendering a batch against copying its JSON. Each
/// figure is the best of several interleaved rounds; ratios, not times, are the result.
///
/// `keystone-benchmark [--check]`: with `--check`, exits 1 when a sync call costs more than 1.25×
/// the floor in two measurements in a row (one noisy measurement is measured again).
@main
struct KeystoneBenchmark {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var tags: [String]
        var score: Double
        var active: Bool
    }

    struct Payload: Codable, Sendable {
        var items: [Item]
    }

    struct Bench: BridgeInterface {
        func exposeMethods(to methods: inout MethodList) {
            methods.sync("echo") { (payload: Payload) in payload }
        }
    }

    static let bar = 1.25

    static func main() throws {
        let check = CommandLine.arguments.contains("--check")
        let keystone = Keystone()
        try keystone.register(Bench(), namespace: "bench")
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()

        print("Keystone benchmark: cost as a ratio to a bare Foundation JSONDecoder + JSONEncoder (1.00 = floor)\n")
        print("payload            floor/call   keystone/call   ratio")
        var worst = 0.0
        for count in [1, 10, 100, 1000] {
            var ratio = try measureSyncCall(count: count, keystone: keystone, decoder: decoder, encoder: encoder)
            if check && ratio > bar {
                print("  over the bar: measuring again")
                ratio = try measureSyncCall(count: count, keystone: keystone, decoder: decoder, encoder: encoder)
            }
            worst = max(worst, ratio)
        }

        let values = try (0..<64).map { n in
            try JSONText(validating: encoder.encode(Payload(items: [Item(id: n, name: "v\u{2028}\(n)", tags: [], score: 1, active: true)])))
        }
        let messages = values.enumerated().map { PageMessage.result(callback: "dscb\($0.offset)", value: $0.element, complete: true) }
        // The floor for rendering: copying the batch's JSON into one string, which any script must do.
        let (copyFloor, render) = measurePair(iterations: 2000, floor: {
            var bytes: [UInt8] = []
            for value in values { bytes.append(contentsOf: value.bytes) }
            return String(decoding: bytes, as: UTF8.self).utf8.count
        }, subject: {
            ScriptRenderer.render(messages).utf8.count
        })
        print("\nrendering a 64-message batch: \(format(render)), \(String(format: "%.2f", render / copyFloor))× copying its JSON into one string")
        print("\nworst sync-call ratio: \(String(format: "%.2f", worst)) (bar: \(bar))")
        if check && worst > bar {
            print("FAIL: a sync call costs more than \(bar)× the floor")
            exit(1)
        }
    }

    /// Measures one payload size and prints its line; returns the ratio to the floor.
    static func measureSyncCall(count: Int, keystone: Keystone, decoder: JSONDecoder, encoder: JSONEncoder) throws -> Double {
        let payload = Payload(items: (0..<count).map {
            Item(id: $0, name: "item \($0) \u{2028}é😀", tags: ["a", "b\"c"], score: Double($0) / 3, active: $0.isMultiple(of: 2))
        })
        let dataText = String(decoding: try encoder.encode(payload), as: UTF8.self)
        let promptText = #"{"data":"# + dataText + "}"
        let iterations = max(20, 40_000 / count)

        let (floor, subject) = try measurePair(iterations: iterations, floor: {
            let decoded = try decoder.decode(Payload.self, from: Data(dataText.utf8))
            return try encoder.encode(decoded).count
        }, subject: {
            keystone.handlePrompt("_dsbridge=bench.echo", defaultText: promptText)!.utf8.count
        })
        let ratio = subject / floor
        print("\(pad("\(count) item\(count == 1 ? "" : "s") (\(dataText.utf8.count) B)", 18)) \(pad(format(floor), 12)) \(pad(format(subject), 15)) \(String(format: "%.2f", ratio))")
        return ratio
    }

    /// Best-of-rounds seconds per iteration for `floor` and `subject`, measured alternately.
    static func measurePair(iterations: Int, floor: () throws -> Int, subject: () throws -> Int) rethrows -> (Double, Double) {
        var best = (Double.infinity, Double.infinity)
        var sink = 0
        for _ in 0..<7 {
            best.0 = min(best.0, try time(iterations) { sink &+= try floor() })
            best.1 = min(best.1, try time(iterations) { sink &+= try subject() })
        }
        if sink == 42 { print("") }  // keeps the work observable
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

    static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }
}
