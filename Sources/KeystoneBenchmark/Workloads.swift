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
            methods.sync("untypedEcho") { (value: JSONValue) in value }
            methods.async("echoAsync") { (value: Int) async in value }
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
        let payload = Payload(
            items: (0..<items).map {
                Item(id: $0, name: "item \($0) \u{2028}é😀", tags: ["a", "b\"c"], score: Double($0) / 3, active: $0.isMultiple(of: 2))
            })
        self.items = items
        self.dataText = try encoder.encode(payload)
        self.promptText = #"{"data":"# + String(decoding: dataText, as: UTF8.self) + "}"
        self.keystone = keystone
    }

    /// A Keystone with the benchmark's interface under `bench`, tracing as `tracing` says.
    static func makeKeystone(tracing: Tracing? = nil) throws -> Keystone {
        let keystone = Keystone(components: KeystoneComponents(tracing: tracing))
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

    /// The same call of a method that reads and writes the payload as an untyped `JSONValue`.
    func untypedCall() -> Int {
        keystone.handlePrompt("_dsbridge=bench.untypedEcho", defaultText: promptText)?.utf8.count ?? 0
    }
}

/// The inputs that cost bridges the most per byte, at any size: values nested as deep as the
/// limits allow, many or repeated keys, escapes, long numbers. Each is sent as the `data` of a
/// synchronous call, untyped (`hostile.echo`, a `JSONValue` read and written back) and nested in a
/// typed input (`hostile.args`, `{method, args: [JSONValue]}`).
struct HostileInput: Sendable {
    struct Hostile: BridgeInterface {
        struct Call: Codable, Sendable {
            var method: String
            var args: [JSONValue]
        }

        func exposeMethods(to methods: inout MethodList) {
            methods.sync("echo") { (value: JSONValue) in value }
            methods.sync("args") { (call: Call) in call.args.count }
        }
    }

    /// The sizes every shape is measured at.
    static let sizes = [1 << 10, 1 << 14, 1 << 18, 1 << 20]

    /// How deep the nested shapes go: under Keystone's default nesting limit, with room for the
    /// call's own wrapper.
    static let depth = 120

    let shape: String
    let method: String
    /// The `data` text for about `bytes` bytes.
    let make: @Sendable (_ bytes: Int) -> String

    static let all: [HostileInput] = [
        HostileInput(shape: "strings inside nested arrays", method: "echo") { bytes in
            nested(String(repeating: #""a","#, count: max(1, bytes / 4)).dropLast())
        },
        HostileInput(shape: "the same, in a typed input", method: "args") { bytes in
            #"{"method":"m","args":["# + nested(String(repeating: #""a","#, count: max(1, bytes / 4)).dropLast()) + "]}"
        },
        HostileInput(shape: "nested arrays, again and again", method: "echo") { bytes in
            let one = nested("")
            return "[" + Array(repeating: one, count: max(1, bytes / (one.utf8.count + 1))).joined(separator: ",") + "]"
        },
        HostileInput(shape: "one object, many keys", method: "echo") { bytes in
            "{" + (0..<max(1, bytes / 12)).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        },
        HostileInput(shape: "one key, repeated", method: "echo") { bytes in
            "{" + Array(repeating: #""a":1"#, count: max(1, bytes / 6)).joined(separator: ",") + "}"
        },
        HostileInput(shape: "escapes", method: "echo") { bytes in
            "[" + Array(repeating: #""\u00e9\ud83d\ude00\n\"""#, count: max(1, bytes / 27)).joined(separator: ",") + "]"
        },
        HostileInput(shape: "one long number", method: "echo") { bytes in
            "[" + String(repeating: "7", count: max(1, bytes - 2)) + "]"
        },
    ]

    private static func nested(_ inner: some StringProtocol) -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    /// The prompt text for about `bytes` bytes of `data`.
    func promptText(bytes: Int) -> String { #"{"data":"# + make(bytes) + "}" }
}
