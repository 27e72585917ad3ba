// HubMachinesTests.swift — the values the hub's state is made of, each alone: the page load,
// Swift's calls waiting for the page, and the page's calls running in Swift.
import Foundation
import Testing

@testable import Keystone

@Suite("The page load")
struct PageLoadStateTests {
    let top = CallerFrame(isMainFrame: true, origin: "https://app.example")

    @Test func whatTheMainFrameEstablishedIsItsAndItsOriginsAndEndsWithThePageLoad() {
        var load = PageLoadState<String>(declarationLimit: 10)
        let granted = load.authorize(load.pageLoad, origin: "https://app.example")
        #expect(granted)
        #expect(load.access(for: top).isAuthorized)
        #expect(load.access(for: CallerFrame(isMainFrame: false, origin: "https://app.example")).isAuthorized)
        #expect(!load.access(for: CallerFrame(isMainFrame: false, origin: "https://ads.example")).isAuthorized)
        #expect(!load.access(for: .unattested).isAuthorized)
        let earlier = load.pageLoad
        load.unload()
        #expect(!load.access(for: top).isAuthorized)
        let late = load.authorize(earlier, origin: "https://app.example")
        #expect(!late)  // a grant for a page load that has gone
    }

    @Test func declarationsAddUpAndPastTheLimitAreRefusedWhole() {
        var load = PageLoadState<String>(declarationLimit: 3)
        #expect((try? load.declare(["a.x", "a.y"], origin: nil).get()) != nil)
        #expect((try? load.declare(["a.y", "a.z"], origin: nil).get()) != nil)
        #expect(load.access(for: top).declaredMethods == ["a.x", "a.y", "a.z"])
        #expect((try? load.declare(["b.w"], origin: nil).get()) == nil)
        #expect(load.access(for: top).declaredMethods == ["a.x", "a.y", "a.z"])
    }

    @Test func waitersAreToldInOrderWhenThePageInitializesAndAnUnloadKeepsThemWaiting() {
        var load = PageLoadState<String>(declarationLimit: 10)
        let first = load.wait("first")
        _ = load.wait("second")
        #expect(load.stopWaiting(try! #require(first)) == "first")
        _ = load.wait("third")
        load.unload()
        #expect(load.initialize(runtime: .keystone) == ["second", "third"])
        #expect(load.isPageReady && load.runtime == .keystone)
        #expect(load.wait("late") == nil)  // ready: told at once
        // A second bridge script announcing DSBridge after Keystone's changes nothing.
        _ = load.initialize(runtime: .dsbridge)
        #expect(load.runtime == .keystone)
        load.unload()
        #expect(!load.isPageReady && load.runtime == .dsbridge)
    }
}

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
        #expect(calls.removeAll().failed == ["a"])
        #expect(calls.pendingCount == 0)
    }

    @Test func aDurableCallOutlivesThePageBoundToTheOriginItFirstWentTo() throws {
        var calls = SwiftCalls<String>(limit: 4)
        func durable(_ name: String, _ id: Int) -> PageMessage {
            .durable(.call(method: name, callbackId: id, arguments: JSONText(quoting: "x")), id: name)
        }
        func open(_ name: String, isDurable: Bool = true) throws -> Int {
            let id = try calls.open(method: name, isMultiResponse: false, pending: name, hasParts: false).get()
            if isDurable { calls.keepDurable(id: id, message: durable(name, id), parts: nil) }
            return id
        }
        let plain = try open("plain", isDurable: false)
        let (kept, opaque, answered) = (try open("kept"), try open("opaque"), try open("answered"))
        // Unbound, a durable call may go anywhere; once it went, only to its own origin.
        #expect(calls.mayGo(id: kept, to: "https://b.example"))
        calls.went(id: kept, to: "https://a.example")
        #expect(calls.mayGo(id: kept, to: "https://a.example"))
        #expect(!calls.mayGo(id: kept, to: "https://b.example"))
        #expect(!calls.mayGo(id: kept, to: nil))
        #expect(calls.mayGo(id: plain, to: "https://b.example"))
        // A document without an origin makes it an ordinary call; an answer that says more follows settles it.
        calls.went(id: opaque, to: nil)
        calls.went(id: answered, to: "https://a.example")
        guard case (.deliver("answered", complete: true), nil) = calls.answer(id: answered, complete: false) else {
            Issue.record("the first answer did not settle the call")
            return
        }
        let (failed, redelivered) = calls.removeAll()
        #expect(Set(failed) == ["plain", "opaque"])
        #expect(redelivered.map(\.message) == [durable("kept", kept)])
        #expect(calls.pendingCount == 1)
        // A document that never handed the call to its handler (it could not fetch the bytes)
        // does not settle it: the call waits for the next document.
        guard case (.goesOn, nil) = calls.answer(id: kept, complete: true, undelivered: true) else {
            Issue.record("an undelivered durable call settled")
            return
        }
        #expect(calls.removeAll().durable.map(\.message) == [durable("kept", kept)])
        guard case (.deliver("kept", complete: true), _) = calls.answer(id: kept, complete: true) else {
            Issue.record("the next document's answer did not reach the call")
            return
        }
        #expect(calls.pendingCount == 0)
        // An ordinary call's undelivered answer settles it, with the document's error.
        let ordinary = try open("ordinary", isDurable: false)
        guard case (.deliver("ordinary", complete: true), _?) = calls.answer(id: ordinary, complete: true, undelivered: true) else {
            Issue.record("an undelivered ordinary call did not settle")
            return
        }
    }
}

@Suite("The page's calls running in Swift")
struct RunningCallsTests {
    func name(_ text: String) -> MethodName {
        let dot = text.lastIndex(of: ".")!
        return MethodName(namespace: String(text[..<dot]), name: String(text[text.index(after: dot)...]))
    }

    @Test func aCallIsFoundByItsCallbackAndItsWorkHandedBackToCancel() throws {
        var running = RunningCalls<String>(limit: 2)
        let token = try running.start(callback: "dscb1", method: name("files.save")).get().token
        #expect(running.created(token: token, work: "work") == nil)
        #expect(running.cancel(callback: "dscb1") == .some("work"))
        #expect(running.cancel(callback: "dscb1") == nil)
        // Cancelled before its work existed: the work, when made, is handed back to cancel.
        let early = try running.start(callback: "dscb2", method: name("files.save")).get().token
        #expect(running.cancel(callback: "dscb2") == .some(nil))
        #expect(running.created(token: early, work: "late") == "late")
        #expect(running.count == 0)
    }

    @Test func aReusedCallbackNameNamesTheEarlierCallAndFindsItAgainWhenTheLatestEnds() throws {
        var running = RunningCalls<String>(limit: 4)
        let first = try running.start(callback: "dscb0", method: name("photos.pick")).get()
        let second = try running.start(callback: "dscb0", method: name("files.save")).get()
        #expect(first.reusedCallbackOf == nil)
        #expect(second.reusedCallbackOf == name("photos.pick"))
        _ = running.created(token: first.token, work: "first")
        running.finished(token: second.token)
        #expect(running.cancel(callback: "dscb0") == .some("first"))
    }

    @Test func atMostTheLimitRunAndEveryCallsWorkIsCancelledWithThePage() throws {
        var running = RunningCalls<String>(limit: 2)
        let a = try running.start(callback: nil, method: name("log.track")).get().token
        _ = try running.start(callback: "dscb1", method: name("log.track")).get()
        #expect((try? running.start(callback: "dscb2", method: name("log.track")).get()) == nil)
        _ = running.created(token: a, work: "a")
        #expect(running.removeAll() == ["a"])
        #expect(running.count == 0)
        #expect((try? running.start(callback: "dscb2", method: name("log.track")).get()) != nil)
    }
}

@Suite("The subframe documents a page load reaches")
struct SubframesTests {
    func frame(nested: Bool, in parent: String = "https://ad.example") -> CallerFrame {
        var frame = CallerFrame(isMainFrame: false, origin: "https://widget.example")
        frame.nestedIn = nested ? parent : nil
        return frame
    }

    /// Frames inside frames (an ad's) take half the slots at most; the app's own frames the rest.
    @Test func framesInsideFramesTakeHalfTheSlotsAtMost() {
        var subframes = Subframes<String>(limit: 4)
        let document = { (number: UInt64) in FrameDocument(rawValue: number) }
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)
        #expect(subframes.enter(frame(nested: true, in: "https://b.example"), document: document(2)) == nil)
        let refused = subframes.enter(frame(nested: true, in: "https://c.example"), document: document(3))
        #expect(refused?.code == .limitExceeded)
        #expect(refused?.message.contains("half of BridgeLimits.subframeDocuments") == true)
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)  // one already kept
        #expect(subframes.enter(frame(nested: false), document: document(4)) == nil)
        #expect(subframes.enter(frame(nested: false), document: document(5)) == nil)
        #expect(subframes.enter(frame(nested: false), document: document(6))?.code == .limitExceeded)
        subframes.remove(document(1))
        #expect(subframes.enter(frame(nested: true, in: "https://c.example"), document: document(3)) == nil)
    }

    /// Frames inside frames of one parent's origin take an eighth of the slots at most: an ad's
    /// embeds leave room for those the app's widgets make.
    @Test func framesInsideFramesOfOneOriginTakeAnEighthAtMost() {
        var subframes = Subframes<String>(limit: 16)
        let document = { (number: UInt64) in FrameDocument(rawValue: number) }
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)
        #expect(subframes.enter(frame(nested: true), document: document(2)) == nil)
        let refused = subframes.enter(frame(nested: true), document: document(3))
        #expect(refused?.code == .limitExceeded)
        #expect(refused?.message.contains("an eighth") == true)
        #expect(subframes.enter(frame(nested: true, in: "https://widget.example"), document: document(3)) == nil)
        // A frame whose parent could not be told is of no parent's origin but its own share, "".
        #expect(subframes.enter(frame(nested: true, in: ""), document: document(4)) == nil)
    }
}
