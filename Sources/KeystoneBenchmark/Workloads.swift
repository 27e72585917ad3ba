// Workloads.swift — what the benchmark measures: a sync call through a Keystone, and its floor.
import Foundation
import Keystone

/// A synchronous call of `bench.echo` carrying `items` items, and the floor it is compared with:
/// a bare `JSONDecoder` + `JSONEncoder` round trip of the same payload, the least any bridge that
/// decodes a typed argument and encodes a typed result must do.
struct SyncCallWorkload: Sendable {
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

    /// The payload sizes every measurement covers: about 90 B, 900 B, 9 KB and 95 KB.
    static let itemCounts = [1, 10, 100, 1000]

    let items: Int
    let dataText: Data
    let promptText: String
    let keystone: Keystone
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()

    init(items: Int, keystone: Keystone) throws {
        let payload = Payload(items: (0..<items).map {
            Item(id: $0, name: "item \($0) \u{2028}é😀", tags: ["a", "b\"c"], score: Double($0) / 3, active: $0.isMultiple(of: 2))
        })
        self.items = items
        self.dataText = try encoder.encode(payload)
        self.promptText = #"{"data":"# + String(decoding: dataText, as: UTF8.self) + "}"
        self.keystone = keystone
    }

    /// A Keystone with the benchmark's interface under `bench`.
    static func makeKeystone() throws -> Keystone {
        let keystone = Keystone()
        try keystone.register(Bench(), namespace: "bench")
        return keystone
    }

    var label: String { "\(items) item\(items == 1 ? "" : "s") (\(dataText.count) B)" }

    /// One run of the floor; returns a number that depends on the work, so none of it is skipped.
    func floor() throws -> Int {
        let decoded = try decoder.decode(Payload.self, from: dataText)
        return try encoder.encode(decoded).count
    }

    /// One sync call through the Keystone, as a page's `prompt` makes it.
    func call() -> Int {
        keystone.handlePrompt("_dsbridge=bench.echo", defaultText: promptText)?.utf8.count ?? 0
    }
}
