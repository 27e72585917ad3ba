// BatchingEvaluatorTests.swift — the 50 ms window on a manual clock, fixed: leading edge, coalescing, discarding.
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
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        #expect(target.received == [ScriptBatch(messages: [message(1)])])
        clock.advance(by: .milliseconds(50))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        #expect(target.received.count == 2)
    }

    @Test func messagesInsideTheWindowAreCoalescedIntoOneEvaluationAtItsEnd() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        clock.advance(by: .milliseconds(10))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        clock.advance(by: .milliseconds(20))
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        clock.advance(by: .milliseconds(19))  // 49 ms after the first flush
        #expect(target.received.count == 1)
        clock.advance(by: .milliseconds(1))
        let batches = await target.waitForBatches(2)
        #expect(batches == [ScriptBatch(messages: [message(1)]), ScriptBatch(messages: [message(2), message(3)])])
    }

    @Test func theWindowRestartsFromTheCoalescedFlush() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        clock.advance(by: .milliseconds(50))
        _ = await target.waitForBatches(2)
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // 0 ms after the second flush: waits
        #expect(target.received.count == 2)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(3)
        #expect(batches.last == ScriptBatch(messages: [message(3)]))
    }

    @Test func discardingDropsWhatWaitsForTheWindow() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // inside the window: waits
        evaluator.discardQueued()
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        clock.advance(by: .milliseconds(50))
        let batches = await target.waitForBatches(2)
        #expect(batches == [ScriptBatch(messages: [message(1)]), ScriptBatch(messages: [message(3)])])
    }

    @Test func writesEachBatchForTheRuntimeItsMessagesWereSentFor() async {
        evaluator.send([message(1)], runtime: .keystone, pageLoad: .first, frame: nil)
        evaluator.send([message(2)], runtime: .keystone, pageLoad: .first, frame: nil)
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first, frame: nil)
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
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // no target: dropped
        #expect(target.received.isEmpty)  // not delivered to the target it replaced either
        let next = RecordingTarget()
        evaluator.attach(to: next)
        clock.advance(by: .milliseconds(50))
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        #expect(next.received == [ScriptBatch(messages: [message(2)])])
    }

    @Test func concurrentSendersEachSeeTheirOwnOrderAndEveryMessageOnce() async {
        let evaluator = BatchingEvaluator(clock: clock, window: .zero)
        evaluator.attach(to: target)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for n in 0..<200 { evaluator.send([message(sender * 1000 + n)], runtime: .dsbridge, pageLoad: .first, frame: nil) }
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
