// ScriptRendererTests.swift — golden texts for every message kind, and the size of what is sent.
import Foundation
import KeystoneEvaluator
import KeystoneInterfaces
import Testing

@Suite("ScriptRenderer")
struct ScriptRendererTests {
    func json(_ text: String) throws -> JSONText { try JSONText(validating: Data(text.utf8)) }

    @Test func rendersAResultThatKeepsTheCallback() throws {
        let script = ScriptRenderer.render([.result(callback: "dscb0", value: try json(#"{"a":1}"#), complete: false)])
        #expect(script == #"try{window["dscb0"]({"a":1})}catch(e){}"#)
    }

    @Test func rendersAFinalResultThatDeletesTheCallback() throws {
        let script = ScriptRenderer.render([.result(callback: "dscb1", value: try json("3"), complete: true)])
        #expect(script == #"try{window["dscb1"](3)}catch(e){}delete window["dscb1"];"#)
    }

    @Test func rendersAFailureAsEmptyDataPlusAnErrorObject() {
        let error = BridgeError(code: .failed, message: "it \"broke\"")
        let script = ScriptRenderer.render([.failure(callback: "dscb2", error: error)])
        #expect(script == #"try{window["dscb2"]("",{"code":5,"message":"it \"broke\""})}catch(e){}delete window["dscb2"];"#)
    }

    @Test func rendersCompletionAndReleaseAsDeletion() {
        #expect(ScriptRenderer.render([.completion(callback: "dscb3")]) == #"delete window["dscb3"];"#)
        #expect(ScriptRenderer.render([.release(callback: "dscb4")]) == #"delete window["dscb4"];"#)
    }

    @Test func rendersANativeCallWithItsArgumentsAsAJSONString() throws {
        let script = ScriptRenderer.render([.call(method: "ns.add", callbackId: 7, arguments: try json(#"[1,"x"]"#))])
        #expect(script == #"try{window._handleMessageFromNative({"method":"ns.add","callbackId":7,"data":"[1,\"x\"]"})}catch(e){}"#)
    }

    @Test func rendersADurableCallWithItsIdBesideTheCallForBothRuntimes() throws {
        let call = PageMessage.durable(.call(method: "drafts.save", callbackId: 9, arguments: try json(#"["d"]"#)), id: "a\u{2028}\"b")
        #expect(
            ScriptRenderer.render([call])
                == #"try{window._handleMessageFromNative({"method":"drafts.save","callbackId":9,"data":"[\"d\"]","durable":"a\u2028\"b"})}catch(e){}"#)
        #expect(
            ScriptRenderer.render([call], for: .keystone)
                == #"try{window._keystone.deliver([{"method":"drafts.save","callbackId":9,"args":["d"],"durable":"a\u2028\"b"}])}catch(e){}"#)
    }

    @Test func rendersABatchInOrderAsSeparateStatements() throws {
        let script = ScriptRenderer.render([
            .result(callback: "a", value: try json("1"), complete: true),
            .result(callback: "b", value: try json("2"), complete: true),
        ])
        #expect(script == #"try{window["a"](1)}catch(e){}delete window["a"];try{window["b"](2)}catch(e){}delete window["b"];"#)
    }

    @Test func escapesLineSeparatorsThatJSONLeavesRaw() throws {
        let value = try JSONText(validating: JSONEncoder().encode("\u{2028}\u{2029}"))
        let script = ScriptRenderer.render([.result(callback: "c", value: value, complete: false)])
        #expect(script == #"try{window["c"]("\u2028\u2029")}catch(e){}"#)
        #expect(!script.unicodeScalars.contains("\u{2028}"))
    }

    @Test func aHostileCallbackNameStaysInsideItsLiteral() throws {
        let script = ScriptRenderer.render([.release(callback: #"x"];alert(1);//"#)])
        #expect(script == #"delete window["x\"];alert(1);//"];"#)
    }

    @Test func addsOnlyAFewDozenBytesAroundTheJSONItCarries() throws {
        let text = String(repeating: "é漢😀", count: 10_000)
        let value = try JSONText(validating: JSONEncoder().encode(text))
        let script = ScriptRenderer.render([.result(callback: "dscb12", value: value, complete: true)])
        #expect(script.utf8.count - value.bytes.count <= 64)
    }

    @Test func dropsEventsForADsbridgePage() throws {
        #expect(ScriptRenderer.render([.event(name: "e", value: try json("1"))]) == "")
    }

    @Test func rendersOneDeliverCallWithStructuredMessagesForKeystonesRuntime() throws {
        let script = ScriptRenderer.render(
            [
                .result(callback: "a", value: try json("1"), complete: false),
                .result(callback: "a", value: try json("2"), complete: true),
                .failure(callback: "b", error: BridgeError(code: .failed, message: "no")),
                .completion(callback: "c"),
                .release(callback: "d"),
                .call(method: "ns.m", callbackId: 3, arguments: try json(#"[1,"x"]"#)),
                .event(name: "tick", value: try json(#"{"n":1}"#)),
            ], for: .keystone)
        #expect(
            script == """
                try{window._keystone.deliver([{"callback":"a","values":[1,2],"complete":true},\
                {"callback":"b","error":{"code":5,"message":"no"}},{"callback":"c","complete":true},{"callback":"d","release":true},\
                {"method":"ns.m","callbackId":3,"args":[1,"x"]},{"event":"tick","value":{"n":1}}])}catch(e){}
                """)
    }

    @Test func sendsARunOfResultsForOneCallbackTogetherAndStopsTheRunAtItsEnd() throws {
        let script = ScriptRenderer.render(
            [
                .result(callback: "a", value: try json("1"), complete: false),
                .result(callback: "a", value: try json("2"), complete: false),
                .result(callback: "a", value: try json("3"), complete: true),
                .result(callback: "a", value: try json("4"), complete: false),  // after completion: its own
                .result(callback: "b", value: try json("5"), complete: false),
                .result(callback: "a", value: try json("6"), complete: false),
                .result(callback: "a", value: try json("7"), complete: false),
            ], for: .keystone)
        #expect(
            script == """
                try{window._keystone.deliver([{"callback":"a","values":[1,2,3],"complete":true},{"callback":"a","value":4},\
                {"callback":"b","value":5},{"callback":"a","values":[6,7]}])}catch(e){}
                """)
    }

    @Test func aFloodOfResultsCostsAFewBytesEachBeyondItsJSON() throws {
        let values = try (0..<10_000).map { try json(String($0)) }
        let messages = values.map { PageMessage.result(callback: "dscb123_k3x9", value: $0, complete: false) }
        let script = ScriptRenderer.render(messages, for: .keystone)
        let jsonBytes = values.reduce(0) { $0 + $1.bytes.count }
        #expect(script.utf8.count - jsonBytes <= values.count + 96)  // a comma each, and one wrapper
    }

    @Test func escapesLineSeparatorsInKeystonesDialectToo() throws {
        let value = try JSONText(validating: JSONEncoder().encode("\u{2028}"))
        let script = ScriptRenderer.render([.event(name: "\u{2029}", value: value)], for: .keystone)
        #expect(script == #"try{window._keystone.deliver([{"event":"\u2029","value":"\u2028"}])}catch(e){}"#)
    }
}
