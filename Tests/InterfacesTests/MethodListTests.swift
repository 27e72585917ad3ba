// MethodListTests.swift — listing methods: kinds, names, unusable names, replacement.
import Foundation
import Interfaces
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
        let call = list.methods["a"]!.decode(Data(#"{"data":null}"#.utf8), FoundationJSONSerializer())
        guard case .success(.sync(let run)) = call.invocation else {
            Issue.record("expected a sync invocation")
            return
        }
        #expect(String(decoding: try run(), as: UTF8.self) == #""second""#)
    }

    @Test func decodesTheArgumentOnceIntoTheTypedInput() throws {
        struct Pair: Codable, Sendable { var a: Int; var b: Int }
        var list = MethodList()
        list.sync("sum") { (pair: Pair) in pair.a + pair.b }
        let call = list.methods["sum"]!.decode(Data(#"{"data":{"a":2,"b":3},"_dscbstub":"dscb7"}"#.utf8), FoundationJSONSerializer())
        #expect(call.callbackStub == "dscb7")
        guard case .success(.sync(let run)) = call.invocation else {
            Issue.record("expected a sync invocation")
            return
        }
        #expect(String(decoding: try run(), as: UTF8.self) == "5")
    }
}
