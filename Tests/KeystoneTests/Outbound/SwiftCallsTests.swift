// SwiftCallsTests.swift — Swift's calls of the page's handlers that have not settled, as a pure value.
import Foundation
import Testing

@testable import Keystone

@Suite("Swift's calls of the page")
struct SwiftCallsTests {
    @Test func aCallSettlesOnceAndAMultiResponseCallTakesEveryAnswerUntilTheComplete() throws {
        var calls = SwiftCalls<String>(limit: 4)
        let call = try calls.open(method: "page.add", isMultiResponse: false, pending: "call", hasParts: false).get()
        let stream = try calls.open(method: "page.count", isMultiResponse: true, pending: "stream", hasParts: true).get()
        guard case (.deliver("call", complete: true), nil) = calls.answer(id: call, complete: false) else {
            Issue.record("the call's first answer was not delivered")
            return
        }
        #expect(calls.pendingCount == 1)  // the call is open, settled, for the answers said to follow
        guard case (.repeated(method: "page.add"), let closed?) = calls.answer(id: call, complete: true), !closed.hasParts else {
            Issue.record("a settled call's last answer was not reported as repeated")
            return
        }
        guard case (.deliver("stream", complete: false), nil) = calls.answer(id: stream, complete: false),
            case (.deliver("stream", complete: true), let ended?) = calls.answer(id: stream, complete: true), ended.hasParts
        else {
            Issue.record("the stream did not take each answer")
            return
        }
        guard case (.unknown, nil) = calls.answer(id: stream, complete: true) else {
            Issue.record("a closed call was answered")
            return
        }
    }

    @Test func atMostTheLimitAreOpenAndEveryOpenCallFailsWithThePage() throws {
        var calls = SwiftCalls<String>(limit: 2)
        _ = try calls.open(method: "a", isMultiResponse: false, pending: "a", hasParts: false).get()
        let b = try calls.open(method: "b", isMultiResponse: false, pending: "b", hasParts: false).get()
        #expect((try? calls.open(method: "c", isMultiResponse: false, pending: "c", hasParts: false).get()) == nil)
        #expect(calls.cancel(id: b)?.pending == "b")
        #expect(calls.cancel(id: b) == nil)
        let posted = calls.nextId()
        #expect(posted > b)  // ids never repeat, posted calls' included
        #expect(calls.removeAll() == ["a"])
        #expect(calls.pendingCount == 0)
    }
}
