// BatchingEvaluatorTests.swift — the 50 ms window on a manual clock: leading edge, coalescing, epochs.
import Foundation
import KeystoneTesting
import Testing

@testable import Evaluator

@Suite("BatchingEvaluator", .timeLimit(.minutes(1)))
struct BatchingEvaluatorTests {
    let clock = ManualClock()
    let target = RecordingTarget()
    let evaluator: BatchingEvaluator<ManualClock>

    init() {
        evaluator = BatchingEvaluator(clock: clock, window: .milliseconds(50))
        evaluator.attach(to: target)
    }

    func message(_ n: Int) -> PageMessage {
        .result(callback: "dscb\(n)", value: JSONText(quoting: "v\(n)"), complete: true)
    }

    @Test func holdsEverythingUntilThePageInitializesThenSendsItInOrder() async {
        evaluator.send(message(1), epoch: .first)
        evaluator.send(message(2), epoch: .first)
        clock.advance(by: .seconds(1))
        #expect(target.received.isEmpty)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        #expect(target.received == [ScriptBatch(messages: [message(1), message(2)])])
    }

    @Test func anIsolatedMessageGoesOutAtOnce() {
        evaluator.pageDidInitialize(runtime: .dsbridge)
        evaluator.send(message(1), epoch: .first)
        #expect(target.received == [ScriptBatch(messages: [message(1)])])
        clock.advance(by: .milliseconds(50))
        evaluator.send(message(2), epoch: .first)
        #expect(target.received.count == 2)
    }

    @Test func messagesInsideTheWindowAreCoalescedIntoOneEvaluationAtItsEnd() async {
        evaluator.pageDidInitialize(runtime: .dsbridge)
        evaluator.send(message(1), epoch: .first)
        clock.advance(by: .milliseconds(10))
        evaluator.send(message(2), epoch: .first)
        clock.advance(by: .milliseconds(20))
        evaluator.send(message(3), epoch: .first)
        clock.advance(by: .milliseconds(19))  // 49 ms after the first flush
        #expect(target.received.count == 1)
        clock.advance(by: .milliseconds(1))
        let batches = await target.waitForBatches(2)
        #expect(batches == [ScriptBatch(messages: [message(1)]), ScriptBatch(messages: [message(2), message(3)])])
    }

    @Test func theWindowRestartsFromTheCoalescedFlush() async {
        evaluator.pageDidInitialize(runtime: .dsbridge)
        evaluator.send(message(1), epoch: .first)
        evaluator.send(message(2), epoch: .first)
        clock.advance(by: .milliseconds(50))
        _ = await target.waitForBatches(2)
        evaluator.send(message(3), epoch: .first)  // 0 ms after the second flush: waits
        #expect(target.received.count == 2)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(3)
        #expect(batches.last == ScriptBatch(messages: [message(3)]))
    }

    @Test func unloadingDropsWaitingMessagesAndLateOnesFromTheOldPage() {
        evaluator.send(message(1), epoch: .first)
        evaluator.pageDidUnload(startingEpoch: PageEpoch.first.next)
        evaluator.send(message(2), epoch: .first)  // a late result for the old page
        evaluator.send(message(3), epoch: PageEpoch.first.next)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        #expect(target.received == [ScriptBatch(messages: [message(3)])])
    }

    @Test func aMessageForTheNextPageSurvivesTheUnloadThatStartsIt() {
        evaluator.send(message(1), epoch: PageEpoch.first.next)
        evaluator.pageDidUnload(startingEpoch: PageEpoch.first.next)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        #expect(target.received == [ScriptBatch(messages: [message(1)])])
    }

    @Test func unloadingHoldsNewMessagesUntilTheNextInitialize() {
        evaluator.pageDidInitialize(runtime: .dsbridge)
        evaluator.pageDidUnload(startingEpoch: PageEpoch.first.next)
        evaluator.send(message(1), epoch: PageEpoch.first.next)
        #expect(target.received.isEmpty)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        #expect(target.received.count == 1)
    }

    @Test func aMessageForANewerPageIsHeldEvenBeforeTheUnloadArrives() {
        evaluator.pageDidInitialize(runtime: .keystone)
        evaluator.send(message(1), epoch: PageEpoch.first.next)  // stamped after the page went
        evaluator.send(message(2), epoch: .first)  // a late result for the page that went
        #expect(target.received.isEmpty)
        evaluator.pageDidUnload(startingEpoch: PageEpoch.first.next)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        #expect(target.received == [ScriptBatch(messages: [message(1)], runtime: .dsbridge)])
    }

    @Test func stampsBatchesWithTheRuntimeThePageAnnouncedUntilItUnloads() {
        evaluator.pageDidInitialize(runtime: .keystone)
        evaluator.pageDidInitialize(runtime: .dsbridge)  // a second bridge script on the same page
        evaluator.send(message(1), epoch: .first)
        #expect(target.received.last?.runtime == .keystone)
        evaluator.pageDidUnload(startingEpoch: PageEpoch.first.next)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        clock.advance(by: .seconds(1))
        evaluator.send(message(2), epoch: PageEpoch.first.next)
        #expect(target.received.last?.runtime == .dsbridge)
    }

    @Test func holdsItsTargetWeakly() {
        var replacement: RecordingTarget? = RecordingTarget()
        weak let weakReplacement = replacement
        evaluator.attach(to: replacement!)
        replacement = nil
        #expect(weakReplacement == nil)  // the evaluator kept no strong reference
        evaluator.pageDidInitialize(runtime: .dsbridge)
        evaluator.send(message(1), epoch: .first)  // no target: dropped
        #expect(target.received.isEmpty)  // not delivered to the target it replaced either
        let next = RecordingTarget()
        evaluator.attach(to: next)
        clock.advance(by: .milliseconds(50))
        evaluator.send(message(2), epoch: .first)
        #expect(next.received == [ScriptBatch(messages: [message(2)])])
    }

    @Test func concurrentSendersEachSeeTheirOwnOrderAndEveryMessageOnce() async {
        let evaluator = BatchingEvaluator(clock: clock, window: .zero)
        evaluator.attach(to: target)
        evaluator.pageDidInitialize(runtime: .dsbridge)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for n in 0..<200 { evaluator.send(message(sender * 1000 + n), epoch: .first) }
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

@Suite("EvaluatorStateMachine")
struct EvaluatorStateMachineTests {
    typealias Machine = EvaluatorStateMachine<ManualClock.Instant>
    let start = ManualClock.Instant(offset: .zero)

    func at(_ milliseconds: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    @Test func returnsDeliverScheduleAndNothingAsTheRulesSay() {
        var machine = Machine(window: .milliseconds(50))
        let a = PageMessage.completion(callback: "a")
        let b = PageMessage.completion(callback: "b")
        let c = PageMessage.completion(callback: "c")
        #expect(machine.send(a, epoch: .first, now: at(0)) == .none)
        #expect(machine.pageDidInitialize(runtime: .dsbridge, now: at(1)) == .deliver([a], .dsbridge))
        #expect(machine.send(b, epoch: .first, now: at(2)) == .scheduleFlush(at: at(51)))
        #expect(machine.send(c, epoch: .first, now: at(3)) == .none)
        #expect(machine.windowDidEnd(now: at(51)) == .deliver([b, c], .dsbridge))
        #expect(machine.windowDidEnd(now: at(60)) == .none)
        #expect(machine.send(a, epoch: .first, now: at(101)) == .deliver([a], .dsbridge))
    }
}
