// ScriptValueTests.swift — the app's script value.
import Foundation
import Keystone
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
