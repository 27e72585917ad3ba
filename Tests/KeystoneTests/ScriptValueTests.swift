// ScriptValueTests.swift — the app's script value.
import Foundation
import Keystone
import KeystoneHost
import Testing

@Suite("The app's script value")
struct ScriptValueTests {
    @Test func undefinedIsNull() throws {
        #expect(try HostCore.scriptValue(json: nil, limit: 10) == .null)
    }

    @Test func aValueDecodes() throws {
        #expect(try HostCore.scriptValue(json: Data("[1,\"a\"]".utf8), limit: 10) == .array([.number(1), .string("a")]))
    }

    @Test func aValueOverTheLimitIsRefused() {
        #expect(throws: HostCore.scriptValueTooLarge(limit: 3)) { try HostCore.scriptValue(json: Data("1234".utf8), limit: 3) }
    }

    @Test func textThatIsNotJSONFails() {
        #expect(throws: HostCore.scriptValueNotJSON) { try HostCore.scriptValue(json: Data("{".utf8), limit: 10) }
    }
}

@Suite("The app's script, measured in the page")
struct MeasuredScriptTests {
    @Test func theScriptReachesThePageAsAStringLiteral() {
        let script = HostCore.measuredScript("document.title\"); alert(1); (\"", limit: 100)
        #expect(script.hasSuffix(#"("document.title\"); alert(1); (\"",100)"#))
    }

    @Test func whatThePageMeasuredIsReadAsAValueOrARefusal() throws {
        #expect(try HostCore.measuredValue(#"=[1,"a"]"#, limit: 10) == .value([1, "a"]))
        #expect(try HostCore.measuredValue("=null", limit: 10) == .value(.null))
        #expect(try HostCore.measuredValue("\u{1}unmeasured", limit: 10) == .unmeasured)
        #expect(throws: HostCore.scriptValueTooLarge(limit: 10)) { try HostCore.measuredValue("\u{1}large", limit: 10) }
        #expect(throws: HostCore.scriptValueTooLarge(limit: 3)) { try HostCore.measuredValue("=1234", limit: 3) }
        #expect(throws: HostCore.scriptValueNotJSON) { try HostCore.measuredValue("\u{1}notjson", limit: 10) }
        #expect(throws: HostCore.scriptValueNotJSON) { try HostCore.measuredValue("[1]", limit: 10) }
        #expect(throws: HostCore.scriptValueNotJSON) { try HostCore.measuredValue(nil, limit: 10) }
    }
}
