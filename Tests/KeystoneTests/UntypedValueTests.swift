// UntypedValueTests.swift — JSONValue through whole calls: key order kept, the reported hostile
// shapes read in one pass (their cost per byte is held by the benchmark's instruction gate).
import Foundation
import Keystone
import KeystoneTesting
import Testing

struct Untyped: BridgeInterface {
    struct Call: Codable, Sendable {
        var method: String
        var args: [JSONValue]
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("echo") { (value: JSONValue) in value }
        methods.sync("args") { (call: Call) in call.args }
    }
}

@Suite("Untyped values", .timeLimit(.minutes(1)))
struct UntypedValueTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Untyped(), namespace: "u")
        page.initialize()
    }

    @Test func anEchoedObjectKeepsItsKeysInOrder() throws {
        let text = #"{"zeta":1,"alpha":{"q":[{"y":2,"b":3}],"c":null},"mid":"m"}"#
        #expect(page.prompt("u.echo", argumentText: #"{"data":\#(text)}"#) == #"{"code":0,"data":\#(text)}"#)
        #expect(page.prompt("u.args", argumentText: #"{"data":{"method":"m","args":[\#(text)]}}"#) == #"{"code":0,"data":[\#(text)]}"#)
    }

    @Test func aSwiftCallsUntypedResultKeepsTheKeysInOrder() async throws {
        page.register("page.object") { _ in ["z": 1, "a": ["y": 2, "b": 3]] }
        let value = try await keystone.call("page.object", as: JSONValue.self)
        guard case .object(let object) = value, case .object(let inner)? = object["a"] else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.orderedKeys == ["z", "a"])
        #expect(inner.orderedKeys == ["y", "b"])
    }

    /// Strings inside arrays nested `depth` deep, about `bytes` long: the shape that took tens of
    /// seconds when JSONValue was read by trying each kind of value at every level.
    static func stringsInsideNestedArrays(depth: Int, bytes: Int) -> String {
        String(repeating: "[", count: depth) + Array(repeating: #""a""#, count: bytes / 4).joined(separator: ",") + String(repeating: "]", count: depth)
    }

    @Test(arguments: [17_000, 21_000])
    func theReportedShapesAreReadAndEchoed(bytes: Int) throws {
        let shape = Self.stringsInsideNestedArrays(depth: 120, bytes: bytes)
        #expect(page.prompt("u.echo", argumentText: #"{"data":\#(shape)}"#) == #"{"code":0,"data":\#(shape)}"#)
        #expect(page.prompt("u.args", argumentText: #"{"data":{"method":"m","args":[\#(shape)]}}"#) == #"{"code":0,"data":[\#(shape)]}"#)
    }

    @Test func theReportedShapeNestedPastTheLimitIsRefusedAtOnce() throws {
        let shape = Self.stringsInsideNestedArrays(depth: 500, bytes: 17_000)
        let answer = try #require(page.prompt("u.echo", argumentText: #"{"data":\#(shape)}"#))
        #expect(answer.contains(#""code":12"#))
    }

    @Test func aPageHandlersNestedAnswerToAnUntypedSwiftCallIsRead() async throws {
        let shape = Self.stringsInsideNestedArrays(depth: 100, bytes: 5_000)
        let expected = try DefaultJSONSerializer().decode(JSONValue.self, from: Data(shape.utf8))
        page.register("page.nested") { _ in expected }
        #expect(try await keystone.call("page.nested", as: JSONValue.self) == expected)
    }
}
