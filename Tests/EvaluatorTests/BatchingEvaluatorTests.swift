// BatchingEvaluatorTests.swift — the 50 ms window on a manual clock: leading edge, coalescing, discarding.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@testable import KeystoneEvaluator

@Suite("BatchingEvaluator, fixed window", .timeLimit(.minutes(1)))
struct BatchingEvaluatorTests {
    let clock = ManualClock()
    let target = RecordingTarget()
    let evaluator: BatchingEvaluator<ManualClock>

    init() {
        evaluator = BatchingEvaluator(clock: clock, window: .milliseconds(50), policy: .fixedWindow)
        evaluator.attach(to: target)
    }

    func message(_ n: Int) -> PageMessage {
        .result(callback: "dscb\(n)", value: JSONText(quoting: "v\(n)"), complete: true)
    }

    @Test func anIsolatedMessageGoesOutAtOnce() {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        #expect(target.received == [ScriptBatch(messages: [message(1)])])
        clock.advance(by: .milliseconds(50))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)
        #expect(target.received.count == 2)
    }

    @Test func messagesInsideTheWindowAreCoalescedIntoOneEvaluationAtItsEnd() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(10))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(20))
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(19))  // 49 ms after the first flush
        #expect(target.received.count == 1)
        clock.advance(by: .milliseconds(1))
        let batches = await target.waitForBatches(2)
        #expect(batches == [ScriptBatch(messages: [message(1)]), ScriptBatch(messages: [message(2), message(3)])])
    }

    @Test func theWindowRestartsFromTheCoalescedFlush() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(50))
        _ = await target.waitForBatches(2)
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first)  // 0 ms after the second flush: waits
        #expect(target.received.count == 2)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(3)
        #expect(batches.last == ScriptBatch(messages: [message(3)]))
    }

    @Test func discardingDropsWhatWaitsForTheWindow() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)  // inside the window: waits
        evaluator.discardQueued()
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(2)
        #expect(batches == [ScriptBatch(messages: [message(1)]), ScriptBatch(messages: [message(3)])])
    }

    @Test func writesEachBatchForTheRuntimeItsMessagesWereSentFor() async {
        evaluator.send([message(1)], runtime: .keystone, pageLoad: .first)
        evaluator.send([message(2)], runtime: .keystone, pageLoad: .first)
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(3)
        #expect(
            batches == [
                ScriptBatch(messages: [message(1)], runtime: .keystone),
                ScriptBatch(messages: [message(2)], runtime: .keystone),
                ScriptBatch(messages: [message(3)], runtime: .dsbridge),
            ])
    }

    @Test func holdsItsTargetWeakly() {
        var replacement: RecordingTarget? = RecordingTarget()
        weak let weakReplacement = replacement
        evaluator.attach(to: replacement!)
        replacement = nil
        #expect(weakReplacement == nil)  // the evaluator kept no strong reference
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)  // no target: dropped
        #expect(target.received.isEmpty)  // not delivered to the target it replaced either
        let next = RecordingTarget()
        evaluator.attach(to: next)
        clock.advance(by: .milliseconds(50))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)
        #expect(next.received == [ScriptBatch(messages: [message(2)])])
    }

    @Test func concurrentSendersEachSeeTheirOwnOrderAndEveryMessageOnce() async {
        let evaluator = BatchingEvaluator(clock: clock, window: .zero)
        evaluator.attach(to: target)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for n in 0..<200 { evaluator.send([message(sender * 1000 + n)], runtime: .dsbridge, pageLoad: .first) }
                }
            }
        }
        let delivered = target.received.flatMap(\.messages)
        #expect(delivered.count == 1600)
        for sender in 0..<8 {
            let own = delivered.filter { message in
                guard case .result(let callback, _, _) = message else { return false }
                return Int(callback.dropFirst(4))! / 1000 == sender
            }
            #expect(own == (0..<200).map { message(sender * 1000 + $0) })
        }
    }
}

/// Holds each evaluation "in the engine" until the test finishes it, as a web view does.
final class EngineTarget: EvaluationTarget {
    let evaluated = Locked<[ScriptBatch]>([])
    let running = Locked<[@Sendable () -> Void]>([])
    private let arrivals: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrival) = AsyncStream.makeStream()
    }

    func evaluate(_ batch: ScriptBatch) {
        evaluated.withLock { $0.append(batch) }
        arrival.yield()
    }

    /// Suspends until `count` evaluations have been handed to the engine.
    func waitForEvaluations(_ count: Int) async -> [ScriptBatch] {
        var iterator = arrivals.makeAsyncIterator()
        while evaluated.withLock({ $0.count }) < count {
            _ = await iterator.next()
        }
        return evaluated.withLock { $0 }
    }

    func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        evaluate(batch)
        running.withLock { $0.append(done) }
    }

    /// The engine finishes the oldest evaluation.
    func finishOne() {
        let done = running.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        done?()
    }
}

@Suite("BatchingEvaluator, when idle", .timeLimit(.minutes(1)))
struct WhenIdleEvaluatorTests {
    let clock = ManualClock()
    let engine = EngineTarget()
    let evaluator: BatchingEvaluator<ManualClock>

    init() {
        evaluator = BatchingEvaluator(clock: clock, window: .milliseconds(50))
        evaluator.attach(to: engine)
    }

    func message(_ n: Int) -> PageMessage {
        .result(callback: "dscb\(n)", value: JSONText(quoting: "v\(n)"), complete: true)
    }

    @Test func aChainOfCallsNeverWaitsForAWindow() {
        for n in 0..<10 {
            evaluator.send([message(n)], runtime: .dsbridge, pageLoad: .first)  // no time passes
            #expect(engine.evaluated.withLock { $0.count } == n + 1)
            engine.finishOne()  // the page answers, and the next call follows
        }
    }

    @Test func whileTheEngineRunsOneEvaluationTheRestCollectIntoTheNext() {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        for n in 2...100 { evaluator.send([message(n)], runtime: .dsbridge, pageLoad: .first) }
        #expect(engine.evaluated.withLock { $0.count } == 1)  // one in flight at a time
        engine.finishOne()
        #expect(engine.evaluated.withLock { $0.map(\.messages.count) } == [1, 99])
    }

    @Test func aSlowEngineGetsWhatWaitsWhenTheWindowEndsAndNoSooner() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)  // the engine is slow
        clock.advance(by: .milliseconds(49))
        for _ in 0..<100 { await Task.yield() }  // a flush, had one been due, would have run
        #expect(engine.evaluated.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(1))  // message 2 has waited the window
        let evaluated = await engine.waitForEvaluations(2)
        #expect(evaluated.map(\.messages) == [[message(1)], [message(2)]])
        engine.finishOne()
        engine.finishOne()
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first)  // idle again: at once
        #expect(engine.evaluated.withLock { $0.count } == 3)
    }

    @Test func aTargetThatIsGoneDoesNotHoldTheQueue() {
        let evaluator = BatchingEvaluator(clock: clock, window: .milliseconds(50))
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first)  // no target: dropped
        evaluator.attach(to: engine)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first)
        #expect(engine.evaluated.withLock { $0.map(\.messages) } == [[message(2)]])
    }
}

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
