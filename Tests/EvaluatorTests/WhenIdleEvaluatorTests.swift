// WhenIdleEvaluatorTests.swift — the evaluator that sends as soon as the engine is idle.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@testable import KeystoneEvaluator

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
            evaluator.send([message(n)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // no time passes
            #expect(engine.evaluated.withLock { $0.count } == n + 1)
            engine.finishOne()  // the page answers, and the next call follows
        }
    }

    @Test func whileTheEngineRunsOneEvaluationTheRestCollectIntoTheNext() {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        for n in 2...100 { evaluator.send([message(n)], runtime: .dsbridge, pageLoad: .first, frame: nil) }
        #expect(engine.evaluated.withLock { $0.count } == 1)  // one in flight at a time
        engine.finishOne()
        #expect(engine.evaluated.withLock { $0.map(\.messages.count) } == [1, 99])
    }

    @Test func aSlowEngineGetsWhatWaitsWhenTheWindowEndsAndNoSooner() async {
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // the engine is slow
        clock.advance(by: .milliseconds(49))
        await clock.sleepers()  // the window's timer still sleeps: no flush was due
        #expect(engine.evaluated.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(1))  // message 2 has waited the window
        let evaluated = await engine.waitForEvaluations(2)
        #expect(evaluated.map(\.messages) == [[message(1)], [message(2)]])
        engine.finishOne()
        engine.finishOne()
        evaluator.send([message(3)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // idle again: at once
        #expect(engine.evaluated.withLock { $0.count } == 3)
    }

    @Test func aTargetThatIsGoneDoesNotHoldTheQueue() {
        let evaluator = BatchingEvaluator(clock: clock, window: .milliseconds(50))
        evaluator.send([message(1)], runtime: .dsbridge, pageLoad: .first, frame: nil)  // no target: dropped
        evaluator.attach(to: engine)
        evaluator.send([message(2)], runtime: .dsbridge, pageLoad: .first, frame: nil)
        #expect(engine.evaluated.withLock { $0.map(\.messages) } == [[message(2)]])
    }
}
