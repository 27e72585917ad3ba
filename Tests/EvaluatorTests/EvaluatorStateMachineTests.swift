// EvaluatorStateMachineTests.swift — the evaluator's state machine on its own: events in, actions out.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@testable import KeystoneEvaluator

@Suite("EvaluatorStateMachine")
struct EvaluatorStateMachineTests {
    typealias Machine = EvaluatorStateMachine

    let a = PageMessage.completion(callback: "a")
    let b = PageMessage.completion(callback: "b")
    let c = PageMessage.completion(callback: "c")
    let d = PageMessage.completion(callback: "d")

    func at(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

    @Test func returnsDeliverScheduleAndNothingAsTheRulesSay() {
        var machine = Machine(window: .milliseconds(50), policy: .fixedWindow)
        #expect(machine.send([a], runtime: .dsbridge, now: at(1)) == .deliver([ScriptBatch(messages: [a])]))
        #expect(machine.send([b], runtime: .dsbridge, now: at(2)) == .scheduleFlush(at: at(51)))
        #expect(machine.send([c], runtime: .dsbridge, now: at(3)) == .none)
        #expect(machine.windowDidEnd(now: at(51)) == .deliver([ScriptBatch(messages: [b, c])]))
        #expect(machine.windowDidEnd(now: at(60)) == .none)
        #expect(machine.send([a], runtime: .dsbridge, now: at(101)) == .deliver([ScriptBatch(messages: [a])]))
    }

    @Test func whenIdleDeliversAtOnceAndCollectsWhileInFlight() {
        var machine = Machine(window: .milliseconds(50), policy: .whenIdle)
        #expect(machine.send([a], runtime: .dsbridge, now: at(0)) == .deliver([ScriptBatch(messages: [a])]))
        // b starts to wait: a flush is scheduled for when it will have waited the window.
        #expect(machine.send([b], runtime: .dsbridge, now: at(1)) == .scheduleFlush(at: at(51)))
        #expect(machine.send([c], runtime: .dsbridge, now: at(2)) == .none)
        #expect(machine.evaluationDidFinish(now: at(3)) == .deliver([ScriptBatch(messages: [b, c])]))
        #expect(machine.windowDidEnd(now: at(51)) == .none)  // the scheduled flush finds nothing left
        #expect(machine.evaluationDidFinish(now: at(52)) == .none)
        #expect(machine.inFlight == 0)
        #expect(machine.send([a], runtime: .dsbridge, now: at(53)) == .deliver([ScriptBatch(messages: [a])]))
    }

    @Test func whenIdleSendsWhatHasWaitedTheWindowEvenWhileTheEngineIsStillBusy() {
        var machine = Machine(window: .milliseconds(50), policy: .whenIdle)
        #expect(machine.send([a], runtime: .dsbridge, now: at(0)) == .deliver([ScriptBatch(messages: [a])]))
        #expect(machine.send([b], runtime: .dsbridge, now: at(10)) == .scheduleFlush(at: at(60)))
        #expect(machine.send([c], runtime: .dsbridge, now: at(59)) == .none)
        #expect(machine.inFlight == 1)  // nothing has waited the window yet
        // The engine has not reported a's evaluation: what waits goes out when b has waited 50 ms.
        #expect(machine.windowDidEnd(now: at(60)) == .deliver([ScriptBatch(messages: [b, c])]))
        #expect(machine.inFlight == 2)
        // d waits for the evaluations in flight, again for the window at most.
        #expect(machine.send([d], runtime: .dsbridge, now: at(70)) == .scheduleFlush(at: at(120)))
        #expect(machine.evaluationDidFinish(now: at(80)) == .none)  // one is still in flight
        #expect(machine.evaluationDidFinish(now: at(90)) == .deliver([ScriptBatch(messages: [d])]))
        #expect(machine.windowDidEnd(now: at(120)) == .none)
        #expect(machine.inFlight == 1)
    }

    @Test func whenIdleReschedulesAFlushThatCameBeforeTheOldestWaitingMessageIsDue() {
        var machine = Machine(window: .milliseconds(50), policy: .whenIdle)
        _ = machine.send([a], runtime: .dsbridge, now: at(0))
        #expect(machine.send([b], runtime: .dsbridge, now: at(1)) == .scheduleFlush(at: at(51)))
        #expect(machine.evaluationDidFinish(now: at(2)) == .deliver([ScriptBatch(messages: [b])]))
        // c waits from 30 ms, while the flush scheduled for b is still pending: none is added.
        #expect(machine.send([c], runtime: .dsbridge, now: at(30)) == .none)
        // That flush comes at 51 ms, before c is due, and schedules the one c needs.
        #expect(machine.windowDidEnd(now: at(51)) == .scheduleFlush(at: at(80)))
        #expect(machine.windowDidEnd(now: at(80)) == .deliver([ScriptBatch(messages: [c])]))
    }

    @Test func whenIdleWithNoWindowSendsEverythingAtOnce() {
        var machine = Machine(window: .zero, policy: .whenIdle)
        #expect(machine.send([a], runtime: .dsbridge, now: at(0)) == .deliver([ScriptBatch(messages: [a])]))
        #expect(machine.send([b], runtime: .dsbridge, now: at(0)) == .deliver([ScriptBatch(messages: [b])]))
    }

    @Test func discardingWhatWaitsLeavesNoFlushToMake() {
        var machine = Machine(window: .milliseconds(50), policy: .whenIdle)
        _ = machine.send([a], runtime: .dsbridge, now: at(0))
        #expect(machine.send([b], runtime: .dsbridge, now: at(1)) == .scheduleFlush(at: at(51)))
        machine.discardQueued()
        #expect(machine.windowDidEnd(now: at(51)) == .none)
        #expect(machine.inFlight == 1)
    }

    @Test func splitsAFlushWhereTheRuntimeChangesAndDiscardsWhatWaits() {
        var machine = Machine(window: .milliseconds(50), policy: .fixedWindow)
        _ = machine.send([a], runtime: .dsbridge, now: at(0))
        #expect(machine.send([b], runtime: .keystone, now: at(1)) == .scheduleFlush(at: at(50)))
        #expect(machine.send([c], runtime: .dsbridge, now: at(2)) == .none)
        #expect(machine.windowDidEnd(now: at(50)) == .deliver([ScriptBatch(messages: [b], runtime: .keystone), ScriptBatch(messages: [c])]))
        #expect(machine.send([a], runtime: .dsbridge, now: at(60)) == .scheduleFlush(at: at(100)))
        machine.discardQueued()
        #expect(machine.waiting.isEmpty)
        #expect(machine.windowDidEnd(now: at(100)) == .none)
    }
}
