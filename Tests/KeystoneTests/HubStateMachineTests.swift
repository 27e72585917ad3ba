// HubStateMachineTests.swift — the hub's shared state as a pure value: events in, actions out.
import Foundation
import Testing

@testable import Keystone

@Suite("HubStateMachine")
struct HubStateMachineTests {
    /// Pending calls and running work are plain names here: the machine only carries them.
    typealias Machine = HubStateMachine<String, String>

    let arguments = JSONText(quoting: "x")

    func call(_ id: Int, _ method: String = "m") -> PageMessage {
        .call(method: method, callbackId: id, arguments: arguments)
    }

    @Test func messagesWaitForThePageThenGoOutInOrderWrittenForItsRuntime() {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        #expect(machine.send(.completion(callback: "a"), to: nil) == [])
        guard case .made(let id, let outputs) = machine.makeCall("first", method: "m", arguments: arguments, isMultiResponse: false, to: nil) else {
            Issue.record("the call was not made")
            return
        }
        #expect(id == 1)
        #expect(outputs.isEmpty)
        #expect(machine.pageDidInitialize(runtime: .keystone).outputs == [.deliver(.completion(callback: "a"), .keystone, .first, nil), .deliver(call(1), .keystone, .first, nil)])
        #expect(machine.send(.completion(callback: "b"), to: .first) == [.deliver(.completion(callback: "b"), .keystone, .first, nil)])
        // A second bridge script announcing dsbridge.js does not take the page back.
        #expect(machine.pageDidInitialize(runtime: .dsbridge).outputs == [])
        #expect(machine.runtime == .keystone)
    }

    @Test func anUnloadFailsWaitingCallsCancelsRunningWorkAndDropsWhatWaits() throws {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        _ = machine.pageDidInitialize(runtime: .keystone)
        _ = machine.makeCall("call", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let token = try machine.startTask(callback: "dscb0", method: name("m"), for: .first).get().token
        #expect(machine.taskCreated(token: token, work: "task") == nil)
        let unload = machine.pageDidUnload()
        #expect(unload.failed == ["call"])
        #expect(unload.cancelled == ["task"])
        #expect(unload.outputs == [.discardQueued])
        #expect(machine.pageLoad == PageLoad.first.next)
        #expect(!machine.isPageReady)
        #expect(machine.runtime == .dsbridge)
        #expect(machine.pendingCallCount == 0)
        #expect(machine.runningCallCount == 0)
    }

    @Test func nothingBoundForAPageLoadThatHasGoneIsSentOrStarted() {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        _ = machine.pageDidUnload()
        #expect(machine.send(.completion(callback: "late"), to: .first) == nil)
        #expect(machine.post(method: "m", arguments: arguments, to: .first) == nil)
        guard case .refused(let pending, let error) = machine.makeCall("bound", method: "m", arguments: arguments, isMultiResponse: false, to: .first) else {
            Issue.record("a call for a page load that has gone was made")
            return
        }
        #expect(pending == "bound")
        #expect(error.code == .pageGone)
        #expect(throws: BridgeError.self) { try machine.startTask(callback: "dscb0", method: name("m"), for: .first).get() }
        #expect(machine.waiting.isEmpty)
    }

    @Test func aCallKeepsItsFirstAnswerAndAStreamEveryAnswerUntilTheComplete() {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        _ = machine.makeCall("call", method: "once", arguments: arguments, isMultiResponse: false, to: nil)
        _ = machine.makeCall("stream", method: "many", arguments: arguments, isMultiResponse: true, to: nil)
        guard case .deliver("call", complete: true) = machine.receiveAnswer(id: 1, complete: false) else {
            Issue.record("the call did not get its first answer")
            return
        }
        #expect(machine.pendingCallCount == 1)  // the call settled; the stream still waits
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
        var machine = Machine(pendingCallLimit: 1, runningCallLimit: 1)
        _ = machine.makeCall("one", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        guard case .refused("two", let error) = machine.makeCall("two", method: "m", arguments: arguments, isMultiResponse: false, to: nil) else {
            Issue.record("a call past the limit was made")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(machine.cancelCall(id: 1).0 == "one")
        #expect(machine.cancelCall(id: 1).0 == nil)
        #expect((try? machine.startTask(callback: "a", method: name("m"), for: .first).get())?.token == 1)
        #expect(throws: BridgeError.self) { try machine.startTask(callback: "b", method: name("m"), for: .first).get() }
    }

    @Test func aTaskCancelledBeforeItsWorkExistsHandsTheWorkBackToCancel() throws {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        let token = try machine.startTask(callback: "dscb3", method: name("m"), for: .first).get().token
        guard case .found(nil) = machine.cancelTask(callback: "dscb3") else {
            Issue.record("the task was not found")
            return
        }
        #expect(machine.taskCreated(token: token, work: "late") == "late")
        guard case .notFound = machine.cancelTask(callback: "dscb3") else {
            Issue.record("a cancelled task was found again")
            return
        }
    }

    @Test func postedCallsTakeTheirPlaceInOrderAndWaitForNoAnswer() {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        _ = machine.pageDidInitialize(runtime: .dsbridge)
        #expect(machine.post(method: "log", arguments: arguments, to: nil) == [.deliver(call(1, "log"), .dsbridge, .first, nil)])
        guard case .made(2, let outputs) = machine.makeCall("c", method: "m", arguments: arguments, isMultiResponse: false, to: nil) else {
            Issue.record("the call did not follow the post")
            return
        }
        #expect(outputs == [.deliver(call(2), .dsbridge, .first, nil)])
        guard case .unknown = machine.receiveAnswer(id: 1, complete: true) else {
            Issue.record("a posted call was waited for")
            return
        }
    }

    @Test func aCallbackNameStillOpenIsReportedWithTheEarlierCallsMethod() throws {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        let first = try machine.startTask(callback: "dscb0", method: name("photos.pick"), for: .first).get()
        #expect(first.reusedCallbackOf == nil)
        let second = try machine.startTask(callback: "dscb0", method: name("files.save"), for: .first).get()
        #expect(second.reusedCallbackOf == name("photos.pick"))
        // Calls without a callback never clash, and the latest holder of a name is the one cancelled.
        #expect(try machine.startTask(callback: nil, method: name("log.track"), for: .first).get().reusedCallbackOf == nil)
        #expect(try machine.startTask(callback: nil, method: name("log.track"), for: .first).get().reusedCallbackOf == nil)
        #expect(machine.runningCallCount == 4)
        _ = machine.taskCreated(token: second.token, work: "second")
        guard case .found("second") = machine.cancelTask(callback: "dscb0") else {
            Issue.record("the latest call under the name was not the one cancelled")
            return
        }
        // The earlier call is still running under the name: it is the one found now.
        _ = machine.taskCreated(token: first.token, work: "first")
        guard case .found("first") = machine.cancelTask(callback: "dscb0") else {
            Issue.record("the earlier call under the name was lost")
            return
        }
        #expect(try machine.startTask(callback: "dscb0", method: name("files.save"), for: .first).get().reusedCallbackOf == nil)
    }

    @Test func aWithdrawnCallIsTakenBackBeforeItGoesOutAndAnnouncedToKeystonesRuntimeAfter() {
        var machine = Machine(pendingCallLimit: 10, runningCallLimit: 10)
        _ = machine.makeCall("early", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let (early, outputs) = machine.cancelCall(id: 1)
        #expect(early == "early")
        #expect(outputs.isEmpty)
        #expect(machine.waiting.isEmpty)  // never sent
        _ = machine.pageDidInitialize(runtime: .keystone)
        _ = machine.makeCall("late", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        #expect(machine.cancelCall(id: 2).1 == [.deliver(.cancel(callbackId: 2), .keystone, .first, nil)])
        #expect(machine.cancelCall(id: 2).1 == [])  // once
        _ = machine.pageDidUnload()
        _ = machine.pageDidInitialize(runtime: .dsbridge)
        _ = machine.makeCall("plain", method: "m", arguments: arguments, isMultiResponse: false, to: nil)
        let (plain, told) = machine.cancelCall(id: 3)
        #expect(plain == "plain")
        #expect(told.isEmpty)  // dsbridge.js cannot hear it
    }
}

/// `"a.b.m"` as the resolver splits it.
private func name(_ text: String) -> MethodName {
    guard let dot = text.lastIndex(of: ".") else { return MethodName(namespace: "", name: text) }
    return MethodName(namespace: String(text[..<dot]), name: String(text[text.index(after: dot)...]))
}
