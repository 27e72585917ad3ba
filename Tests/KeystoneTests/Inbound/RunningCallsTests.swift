// RunningCallsTests.swift — the page's calls running in Swift, as a pure value.
import Foundation
import Testing

@testable import Keystone

@Suite("The page's calls running in Swift")
struct RunningCallsTests {
    func name(_ text: String) -> MethodName {
        let dot = text.lastIndex(of: ".")!
        return MethodName(namespace: String(text[..<dot]), name: String(text[text.index(after: dot)...]))
    }

    @Test func aCallIsFoundByItsCallbackAndItsWorkHandedBackToCancel() throws {
        var running = RunningCalls<String>(limit: 2)
        let token = try running.start(callback: "dscb1", method: name("files.save")).get().token
        #expect(running.created(token: token, work: "work").unwanted == nil)
        #expect(running.cancel(callback: "dscb1") == .some("work"))
        #expect(running.cancel(callback: "dscb1") == nil)
        // Cancelled before its work existed: the work, when made, is handed back to cancel.
        let early = try running.start(callback: "dscb2", method: name("files.save")).get().token
        #expect(running.cancel(callback: "dscb2") == .some(nil))
        #expect(running.created(token: early, work: "late").unwanted == "late")
        #expect(running.count == 0)
    }

    @Test func aReusedCallbackNameNamesTheEarlierCallAndFindsItAgainWhenTheLatestEnds() throws {
        var running = RunningCalls<String>(limit: 4)
        let first = try running.start(callback: "dscb0", method: name("photos.pick")).get()
        let second = try running.start(callback: "dscb0", method: name("files.save")).get()
        #expect(first.reusedCallbackOf == nil)
        #expect(second.reusedCallbackOf == name("photos.pick"))
        _ = running.created(token: first.token, work: "first")
        _ = running.created(token: second.token, work: "second")
        running.finished(token: second.token)
        #expect(running.cancel(callback: "dscb0") == .some("first"))
    }

    /// A call is one value from its start until its task has ended and its answer is written; a
    /// cancelled one no longer counts, yet its state still takes its one last result.
    @Test func aCallsStateLastsUntilItsTaskEndsAndItsAnswerIsWrittenEvenCancelled() throws {
        var running = RunningCalls<String>(limit: 1)
        let thread: UInt = 7
        let quick = try running.start(callback: "dscb1", method: name("math.add"), answeringThread: thread).get().token
        // A method that never waits ends before its answer is written: the answer takes its result.
        let route = running.route(.value(JSONText(quoting: "r")), token: quick, on: thread)
        #expect(route == .answer)
        running.finished(token: quick)
        #expect(running.count == 1)
        let (unwanted, answer) = running.created(token: quick, work: "quick")
        #expect(unwanted == nil)
        #expect(answer?.bytes == JSONText(quoting: "r").bytes)
        #expect(running.count == 0)
        // Cancelled: its work goes back to cancel, the slot is free, and its last result still goes once.
        let slow = try running.start(callback: "dscb2", method: name("files.save")).get().token
        let created = running.created(token: slow, work: "slow")
        #expect(created.unwanted == nil && created.answer == nil)
        let cancelled = running.cancel(callback: "dscb2")
        #expect(cancelled == .some("slow"))
        #expect(running.count == 0)
        #expect((try? running.start(callback: "dscb3", method: name("files.save")).get()) != nil)
        let (last, after) = (running.send(token: slow, isFinal: true), running.send(token: slow, isFinal: true))
        #expect(last && !after)
        running.finished(token: slow)
        let gone = running.send(token: slow, isFinal: true)
        #expect(!gone)
    }

    @Test func atMostTheLimitRunAndEveryCallsWorkIsCancelledWithThePage() throws {
        var running = RunningCalls<String>(limit: 2)
        let a = try running.start(callback: nil, method: name("log.track")).get().token
        _ = try running.start(callback: "dscb1", method: name("log.track")).get()
        #expect((try? running.start(callback: "dscb2", method: name("log.track")).get()) == nil)
        _ = running.created(token: a, work: "a")
        #expect(running.cancelAll() == ["a"])
        #expect(running.count == 0)
        #expect((try? running.start(callback: "dscb2", method: name("log.track")).get()) != nil)
    }
}
