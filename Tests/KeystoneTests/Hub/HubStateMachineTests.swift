// HubStateMachineTests.swift — the hub's shared state as a pure value: events in, actions out.
import Foundation
import Testing

@testable import Keystone

@Suite("HubStateMachine")
struct HubStateMachineTests {
    /// Pending calls and running work are plain names here: the machine only carries them.
    typealias Machine = HubStateMachine<String, String>

    let arguments = JSONText(quoting: "x")

    func newMachine(pendingCalls: Int = 10, runningCalls: Int = 10) -> Machine {
        var limits = BridgeLimits()
        limits.pendingCalls = pendingCalls
        limits.runningCalls = runningCalls
        return Machine(limits: limits)
    }

    func call(_ id: Int, _ method: String = "m") -> PageMessage {
        .call(method: method, callbackId: id, arguments: arguments)
    }

    @Test func messagesWaitForThePageThenGoOutInOrderWrittenForItsRuntime() {
        var machine = newMachine()
        #expect(machine.send(.completion(callback: "a"), to: nil) == [])
        let (id, made) = machine.makeCall("first", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        #expect(id == 1)
        #expect(made.outputs.isEmpty && made.failed.isEmpty)
        #expect(machine.pageDidInitialize(runtime: .keystone).outputs == [.deliver(.completion(callback: "a"), .keystone, .first, nil), .deliver(call(1), .keystone, .first, nil)])
        #expect(machine.send(.completion(callback: "b"), to: .first) == [.deliver(.completion(callback: "b"), .keystone, .first, nil)])
        // A second bridge script announcing dsbridge.js does not take the page back.
        #expect(machine.pageDidInitialize(runtime: .dsbridge).outputs == [])
        #expect(machine.page.runtime == .keystone)
    }

    @Test func anUnloadFailsWaitingCallsCancelsRunningWorkAndDropsWhatWaits() throws {
        var machine = newMachine()
        _ = machine.pageDidInitialize(runtime: .keystone)
        _ = machine.makeCall("call", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let token = try machine.startTask(callback: "dscb0", method: name("m"), for: .first).get().token
        #expect(machine.running.created(token: token, work: "task").unwanted == nil)
        let unload = machine.pageDidUnload()
        #expect(unload.failed.map(\.call) == ["call"])
        #expect(unload.failed.map(\.error.code) == [.pageGone])
        #expect(unload.cancelled == ["task"])
        #expect(unload.outputs == [.discardQueued])
        #expect(machine.pageLoad == PageLoad.first.next)
        #expect(!machine.page.isPageReady)
        #expect(machine.page.runtime == .dsbridge)
        #expect(machine.swiftCalls.pendingCount == 0)
        #expect(machine.running.count == 0)
    }

    @Test func nothingBoundForAPageLoadThatHasGoneIsSentOrStarted() {
        var machine = newMachine()
        _ = machine.pageDidUnload()
        #expect(machine.send(.completion(callback: "late"), to: .first) == nil)
        let posted = machine.swiftCalls.nextId()
        #expect(machine.emit(call(posted), parts: nil, to: .first) == nil)
        let (id, refused) = machine.makeCall("bound", method: "m", arguments: arguments, isMultiResponse: false, to: .first)
        #expect(id == nil)
        #expect(refused.failed.map(\.call) == ["bound"])
        #expect(refused.failed.map(\.error.code) == [.pageGone])
        #expect(throws: BridgeError.self) { try machine.startTask(callback: "dscb0", method: name("m"), for: .first).get() }
        #expect(machine.waiting.isEmpty)
    }

    @Test func aCallKeepsItsFirstAnswerAndAStreamEveryAnswerUntilTheComplete() {
        var machine = newMachine()
        _ = machine.makeCall("call", method: "once", arguments: arguments, isMultiResponse: false, to: nil)
        _ = machine.makeCall("stream", method: "many", arguments: arguments, isMultiResponse: true, to: nil)
        guard case .deliver("call", complete: true) = machine.receiveAnswer(id: 1, complete: false) else {
            Issue.record("the call did not get its first answer")
            return
        }
        #expect(machine.swiftCalls.pendingCount == 1)  // the call settled; the stream still waits
        guard case .repeated(method: "once") = machine.receiveAnswer(id: 1, complete: false) else {
            Issue.record("a second answer was not reported")
            return
        }
        guard case .repeated = machine.receiveAnswer(id: 1, complete: true), case .unknown = machine.receiveAnswer(id: 1, complete: true) else {
            Issue.record("the closing answer did not close the call")
            return
        }
        guard case .deliver("stream", complete: false) = machine.receiveAnswer(id: 2, complete: false),
            case .deliver("stream", complete: true) = machine.receiveAnswer(id: 2, complete: true),
            case .unknown = machine.receiveAnswer(id: 2, complete: true)
        else {
            Issue.record("the stream did not get every answer until the complete one")
            return
        }
    }

    @Test func limitsRefuseTheCallOrTaskPastThem() {
        var machine = newMachine(pendingCalls: 1, runningCalls: 1)
        _ = machine.makeCall("one", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let (id, refused) = machine.makeCall("two", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        #expect(id == nil)
        #expect(refused.failed.map(\.call) == ["two"])
        #expect(refused.failed.map(\.error.code) == [.limitExceeded])
        #expect(machine.cancelCall(id: 1).failed.map(\.call) == ["one"])
        #expect(machine.cancelCall(id: 1).failed.isEmpty)
        #expect((try? machine.startTask(callback: "a", method: name("m"), for: .first).get())?.token == 1)
        #expect(throws: BridgeError.self) { try machine.startTask(callback: "b", method: name("m"), for: .first).get() }
    }

    @Test func aTaskCancelledBeforeItsWorkExistsHandsTheWorkBackToCancel() throws {
        var machine = newMachine()
        let token = try machine.startTask(callback: "dscb3", method: name("m"), for: .first).get().token
        let cancelled = machine.cancelTask(callback: "dscb3")
        #expect(cancelled.found && cancelled.effects.cancelled.isEmpty)
        #expect(machine.running.created(token: token, work: "late").unwanted == "late")
        #expect(!machine.cancelTask(callback: "dscb3").found)
    }

    @Test func postedCallsTakeTheirPlaceInOrderAndWaitForNoAnswer() {
        var machine = newMachine()
        _ = machine.pageDidInitialize(runtime: .dsbridge)
        let posted = machine.swiftCalls.nextId()
        #expect(machine.emit(call(posted, "log"), parts: nil, to: nil) == [.deliver(call(1, "log"), .dsbridge, .first, nil)])
        let (id, made) = machine.makeCall("c", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        #expect(id == 2)
        #expect(made.outputs == [.deliver(call(2), .dsbridge, .first, nil)])
        guard case .unknown = machine.receiveAnswer(id: 1, complete: true) else {
            Issue.record("a posted call was waited for")
            return
        }
    }

    @Test func aCallbackNameStillOpenIsReportedWithTheEarlierCallsMethod() throws {
        var machine = newMachine()
        let first = try machine.startTask(callback: "dscb0", method: name("photos.pick"), for: .first).get()
        #expect(first.reusedCallbackOf == nil)
        let second = try machine.startTask(callback: "dscb0", method: name("files.save"), for: .first).get()
        #expect(second.reusedCallbackOf == name("photos.pick"))
        // Calls without a callback never clash, and the latest holder of a name is the one cancelled.
        #expect(try machine.startTask(callback: nil, method: name("log.track"), for: .first).get().reusedCallbackOf == nil)
        #expect(try machine.startTask(callback: nil, method: name("log.track"), for: .first).get().reusedCallbackOf == nil)
        #expect(machine.running.count == 4)
        _ = machine.running.created(token: second.token, work: "second")
        #expect(machine.cancelTask(callback: "dscb0").effects.cancelled == ["second"])
        // The earlier call is still running under the name: it is the one found now.
        _ = machine.running.created(token: first.token, work: "first")
        #expect(machine.cancelTask(callback: "dscb0").effects.cancelled == ["first"])
        #expect(try machine.startTask(callback: "dscb0", method: name("files.save"), for: .first).get().reusedCallbackOf == nil)
    }

    @Test func aWithdrawnCallIsTakenBackBeforeItGoesOutAndAnnouncedToKeystonesRuntimeAfter() {
        var machine = newMachine()
        _ = machine.makeCall("early", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let early = machine.cancelCall(id: 1)
        #expect(early.failed.map(\.call) == ["early"])
        #expect(early.failed.map(\.error.code) == [.cancelled])
        #expect(early.outputs.isEmpty)
        #expect(machine.waiting.isEmpty)  // never sent
        _ = machine.pageDidInitialize(runtime: .keystone)
        _ = machine.makeCall("late", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        #expect(machine.cancelCall(id: 2).outputs == [.deliver(.cancel(callbackId: 2), .keystone, .first, nil)])
        #expect(machine.cancelCall(id: 2).outputs == [])  // once
        _ = machine.pageDidUnload()
        _ = machine.pageDidInitialize(runtime: .dsbridge)
        _ = machine.makeCall("plain", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let plain = machine.cancelCall(id: 3)
        #expect(plain.failed.map(\.call) == ["plain"])
        #expect(plain.outputs.isEmpty)  // dsbridge.js cannot hear it
    }
}

/// `"a.b.m"` as the resolver splits it.
private func name(_ text: String) -> MethodName {
    guard let dot = text.lastIndex(of: ".") else { return MethodName(namespace: "", name: text) }
    return MethodName(namespace: String(text[..<dot]), name: String(text[text.index(after: dot)...]))
}

@Suite("HubStateMachine: durable calls")
struct HubStateMachineDurableTests {
    typealias Machine = HubStateMachine<String, String>

    let arguments = JSONText(quoting: "x")

    func durable(_ id: Int) -> PageMessage {
        .durable(.call(method: "m", callbackId: id, arguments: arguments), id: "d\(id)")
    }

    /// A durable call outlives its page, for the next document of its origin only; a document that
    /// never handed it to its handler leaves it for the next; an ordinary call fails with the page.
    @Test func aDurableCallWaitsForTheNextDocumentOfItsOriginUntilOneAnswersIt() {
        var machine = Machine(limits: BridgeLimits())
        #expect(machine.makeCall("kept", method: "m", arguments: arguments, isMultiResponse: false, to: nil, durable: "d1").id == 1)
        #expect(machine.makeCall("plain", method: "m", arguments: arguments, isMultiResponse: false, to: nil).id == 2)
        #expect(machine.pageDidInitialize(runtime: .keystone, origin: "https://a.example").outputs.count == 2)
        let unload = machine.pageDidUnload()
        #expect(unload.failed.map(\.call) == ["plain"])
        #expect(machine.waiting.map(\.message) == [durable(1)])
        // Another origin's document does not get it; its own origin's does.
        #expect(machine.pageDidInitialize(runtime: .keystone, origin: "https://b.example").outputs.isEmpty)
        _ = machine.pageDidUnload()
        #expect(machine.pageDidInitialize(runtime: .keystone, origin: "https://a.example").outputs == [.deliver(durable(1), .keystone, PageLoad.first.next.next, nil)])
        guard case .goesOn = machine.receiveAnswer(id: 1, complete: true, undelivered: true) else {
            Issue.record("an undelivered durable call settled")
            return
        }
        _ = machine.pageDidUnload()
        #expect(machine.waiting.map(\.message) == [durable(1)])
        guard case .deliver("kept", complete: true) = machine.receiveAnswer(id: 1, complete: true) else {
            Issue.record("the next document's answer did not reach the call")
            return
        }
        _ = machine.pageDidUnload()
        #expect(machine.waiting.isEmpty)
        // An ordinary call's undelivered answer settles it, with the document's error.
        _ = machine.makeCall("ordinary", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        _ = machine.pageDidInitialize(runtime: .keystone, origin: "https://a.example")
        guard case .deliver("ordinary", complete: true) = machine.receiveAnswer(id: 3, complete: true, undelivered: true) else {
            Issue.record("an undelivered ordinary call did not settle")
            return
        }
    }
}
