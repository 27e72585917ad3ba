// DurableSwiftCallsTests.swift — Swift's durable calls of the page's handlers, as a pure value: the
// origin each is bound to, and what goes again to the next document.
import Foundation
import Testing

@testable import Keystone

@Suite("Swift's durable calls")
struct DurableSwiftCallsTests {
    func message(_ name: String, _ id: Int) -> PageMessage {
        .durable(.call(method: name, callbackId: id, arguments: JSONText(quoting: "x")), id: name)
    }

    @Test func aDurableCallIsBoundToTheOriginItFirstWentToAndGoesAgainWhileOpen() {
        var calls = DurableSwiftCalls()
        for (id, name) in [(1, "kept"), (2, "opaque"), (3, "answered")] { calls.keep(id: id, message: message(name, id), parts: nil) }
        // Unbound, a durable call may go anywhere; once it went, only to its own origin.
        #expect(calls.mayGo(id: 1, to: "https://b.example"))
        calls.went(id: 1, to: "https://a.example")
        #expect(calls.mayGo(id: 1, to: "https://a.example"))
        #expect(!calls.mayGo(id: 1, to: "https://b.example"))
        #expect(!calls.mayGo(id: 1, to: nil))
        #expect(calls.mayGo(id: 9, to: "https://b.example"))  // not a durable call
        // A document without an origin makes it an ordinary call.
        calls.went(id: 2, to: nil)
        #expect(!calls.contains(2))
        // The page went: the calls still open go again, in the order they were made.
        let again = calls.pageDidUnload { $0 != 3 }
        #expect(again.map(\.id) == [1])
        #expect(again.map(\.kept.message) == [message("kept", 1)])
        #expect(again.first?.kept.origin == "https://a.example")
        #expect(!calls.contains(3))
        calls.remove(1)
        #expect(calls.pageDidUnload { _ in true }.isEmpty)
    }

    @Test func durableIDsAre128RandomBitsThatDoNotRepeat() {
        let ids = (0..<1_000).map { _ in DurableID.next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }
}
