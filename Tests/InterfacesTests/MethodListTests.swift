// MethodListTests.swift — listing methods: kinds, names, unusable names, replacement.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import Testing

@Suite("MethodList")
struct MethodListTests {
    @Test func recordsEachMethodWithItsKind() {
        var list = MethodList()
        list.sync("a") { (x: Int) in x }
        list.async("b") { () async in 1 }
        list.multiResponse("c") { (writer: ResponseWriter<Int>) in try await writer.write(1) }
        #expect(list.names == ["a", "b", "c"])
        #expect(list.methods["a"]?.kind == .sync)
        #expect(list.methods["b"]?.kind == .async)
        #expect(list.methods["c"]?.kind == .multiResponse)
    }

    @Test(arguments: ["", "a.b", " padded", "tab\t"])
    func refusesNamesThePageCannotCall(_ name: String) {
        var list = MethodList()
        list.sync(name) { 1 }
        #expect(list.names.isEmpty)
        #expect(list.invalidNames == [name])
    }

    @Test func listingANameTwiceKeepsTheLast() throws {
        var list = MethodList()
        list.sync("a") { "first" }
        list.sync("a") { "second" }
        guard case .sync(let run) = list.methods["a"]?.invoker else {
            Issue.record("expected a sync method")
            return
        }
        #expect(String(decoding: try run(nil, FoundationJSONSerializer(), .stub), as: UTF8.self) == #""second""#)
    }

    @Test func decodesDataStraightIntoTheTypedInput() throws {
        struct Pair: Codable, Sendable { var a: Int; var b: Int }
        var list = MethodList()
        list.sync("sum") { (pair: Pair) in pair.a + pair.b }
        guard case .sync(let run) = list.methods["sum"]?.invoker else {
            Issue.record("expected a sync method")
            return
        }
        let serializer = FoundationJSONSerializer()
        #expect(String(decoding: try run(Data(#"{"a":2,"b":3}"#.utf8), serializer, .stub), as: UTF8.self) == "5")
        let invalid = #expect(throws: InvalidArgument.self) { try run(Data(#"{"a":2}"#.utf8), serializer, .stub) }
        #expect(invalid?.reason == #"missing key "b" at data"#)
        #expect(throws: InvalidArgument.self) { try run(nil, serializer, .stub) }
    }

    @Test func anAsyncMethodDecodesItsInputBeforeItsWorkStarts() throws {
        let ran = Locked(false)
        var list = MethodList()
        list.async("work") { (n: Int) async in
            ran.withLock { $0 = true }; return n
        }
        guard case .async(let start) = list.methods["work"]?.invoker else {
            Issue.record("expected an async method")
            return
        }
        #expect(throws: InvalidArgument.self) { _ = try start(Data(#""x""#.utf8), FoundationJSONSerializer(), .stub) }
        #expect(!ran.withLock { $0 })
    }

    @Test func aMethodThatAsksForTheContextReceivesTheCallersFrame() throws {
        var list = MethodList()
        list.sync("origin") { (_: JSONValue?, context: CallContext) in context.frame.origin ?? "none" }
        guard case .sync(let run) = list.methods["origin"]?.invoker else {
            Issue.record("expected a sync method")
            return
        }
        let context = CallContext(frame: CallerFrame(isMainFrame: true, origin: "https://a.example"), page: NoPage())
        #expect(String(decoding: try run(nil, FoundationJSONSerializer(), context), as: UTF8.self) == #""https:\/\/a.example""#)
    }

    @Test func aMultiResponseMethodCanFinishWithAValueInTheSameMessage() async throws {
        var list = MethodList()
        list.multiResponse("count") { (writer: ResponseWriter<Int>) in
            try await writer.write(1)
            try await writer.finish(with: 2)
        }
        guard case .multiResponse(let start) = list.methods["count"]?.invoker else {
            Issue.record("expected a multi-response method")
            return
        }
        let sent = Locked<[String]>([])
        try await start(nil, DefaultJSONSerializer(), .stub)(
            ResponseSink { json, isFinal in
                sent.withLock { $0.append("\(String(decoding: json, as: UTF8.self))\(isFinal ? " final" : "")") }
            })
        #expect(sent.withLock { $0 } == ["1", "2 final"])
    }
}

/// A page connection for contexts that never reach a page.
struct NoPage: PageConnection {
    func call<Result: Decodable & Sendable>(_ method: String, arguments: [any Encodable & Sendable], as: Result.Type) async throws(BridgeError) -> Result {
        throw BridgeError(code: .pageGone, message: "no page")
    }

    func stream<Element: Decodable & Sendable>(_ method: String, arguments: [any Encodable & Sendable], of: Element.Type) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { $0.finish(throwing: BridgeError(code: .pageGone, message: "no page")) }
    }

    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        throw BridgeError(code: .pageGone, message: "no page")
    }
}

extension CallContext {
    static let stub = CallContext(frame: .mainFrame, page: NoPage())
}
