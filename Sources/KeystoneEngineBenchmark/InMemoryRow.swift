// InMemoryRow.swift — what a test's call costs through an in-memory page, beside Keystone's own part
// of the same call, measured in the same run. Here, not in keystone-benchmark: this binary links
// JavaScriptCore already, and the instruction gate's binary stays as a downstream app's.
import Foundation
import Keystone
import KeystoneTesting

/// `keystone-engine-benchmark --in-memory`: the time of a tiny sync call made the way a test makes
/// it (`InMemoryPage.call`: the page runtime in JavaScriptCore wraps it, the test's value crosses
/// into the page and back), beside the floor of Keystone's part alone (the same prompt handed to
/// the hub), each the best of seven rounds.
enum InMemoryRow {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
    }

    static func measure() throws -> (call: Double, floor: Double) {
        let keystone = Keystone()
        try keystone.register(namespace: "bench") { methods in methods.sync("echo") { (item: Item) in item } }
        let page = InMemoryPage(hub: keystone)
        page.initialize()
        let item = Item(id: 7, name: "item \u{2028}é😀")
        let prompt = #"{"data":{"id":7,"name":"item \u2028é😀"}}"#
        var sink = 0
        let floor = best(iterations: 2_000) { sink &+= keystone.handlePrompt("_dsbridge=bench.echo", defaultText: prompt)?.utf8.count ?? 0 }
        let call = try best(iterations: 2_000) { sink &+= try page.call("bench.echo", item, as: Item.self).id }
        precondition(sink != 0)
        return (call, floor)
    }

    private static func best(iterations: Int, _ work: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<7 {
            let start = ContinuousClock.now
            for _ in 0..<iterations { try work() }
            let elapsed = start.duration(to: .now)
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return best / Double(iterations)
    }

    static func print() {
        do {
            let (call, floor) = try measure()
            Swift.print(String(format: "in memory: a test's tiny sync call through InMemoryPage  %.1f µs  (Keystone's part alone %.1f µs, %.1f×)", call * 1e6, floor * 1e6, call / floor))
        } catch {
            Swift.print("in memory: the row failed: \(error)")
        }
    }
}
