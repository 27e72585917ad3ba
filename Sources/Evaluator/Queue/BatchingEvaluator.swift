// BatchingEvaluator.swift — the default evaluator: at once when idle, never more than a window late.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The default ``JavaScriptEvaluator``: sends a message at once when the page is idle and collects
/// what comes while an evaluation is in flight into the next one, sent when that evaluation
/// finishes or when the window has passed, whichever is first. The engine is never flooded (one
/// evaluation in flight while it answers within the window, one more per window at most when it
/// does not), a chain of calls never waits, and no message waits longer than the window.
/// ``FlushPolicy/fixedWindow`` keeps the classic one-evaluation-per-window rule (50 ms by default).
///
/// Time comes from the injected clock; tests pass a manual clock and advance it instead of sleeping.
/// Any clock whose durations are `Duration` will do (`ContinuousClock`, `SuspendingClock`, a test
/// clock).
public final class BatchingEvaluator<C: Clock>: JavaScriptEvaluator where C.Instant: Sendable, C.Duration == Duration {
    private let clock: C
    /// The clock's reading when the evaluator was made: the rules count time from it, so none of
    /// the evaluator's state depends on the clock's type and no message pays for generic lookups.
    private let start: C.Instant
    private let state: Locked<BatchingState>

    /// Creates an evaluator on `clock` whose messages wait at most `window`, flushed by `policy`.
    public init(clock: C, window: Duration, policy: FlushPolicy = .whenIdle) {
        self.clock = clock
        self.start = clock.now
        self.state = Locked(BatchingState(machine: EvaluatorStateMachine(window: window, policy: policy)))
    }

    /// The time since the evaluator was made, by its clock.
    private var elapsed: Duration { start.duration(to: clock.now) }

    public func attach(to target: any EvaluationTarget) {
        state.withLock { $0.target = target }
    }

    public func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?) {
        let now = elapsed
        apply { $0.send(messages, runtime: runtime, pageLoad: pageLoad, frame: frame, now: now) }
    }

    public func discardQueued() {
        state.withLock { $0.machine.discardQueued() }
    }

    private func windowDidEnd() {
        let now = elapsed
        apply { $0.windowDidEnd(now: now) }
    }

    private func evaluationDidFinish() {
        let now = elapsed
        apply { $0.evaluationDidFinish(now: now) }
    }

    /// Runs one state-machine step under the lock, then acts on it outside the lock.
    private func apply(_ step: (inout EvaluatorStateMachine) -> EvaluatorStateMachine.Action) {
        let next: BatchingState.NextStep = state.withLock { state in
            switch step(&state.machine) {
            case .none:
                return .nothing
            case .scheduleFlush(let deadline):
                return .schedule(deadline)
            case .deliver(let batches):
                var mustDeliver = false
                for batch in batches where state.outbox.append(batch) { mustDeliver = true }
                return mustDeliver ? .deliver : .nothing
            }
        }
        switch next {
        case .nothing:
            break
        case .schedule(let deadline):
            let clock = clock
            let instant = start.advanced(by: deadline)
            Task { [weak self] in
                try? await clock.sleep(until: instant, tolerance: nil)
                self?.windowDidEnd()
            }
        case .deliver:
            deliverOutbox()
        }
    }

    /// Hands batches to the target in the order they were decided, outside the lock; each reports
    /// when the engine has run it (at once, when there is no target to run it).
    private func deliverOutbox() {
        while let (batches, target) = state.withLock({ state in state.outbox.takeAll().map { ($0, state.target) } }) {
            for batch in batches {
                guard let target else {
                    evaluationDidFinish()
                    continue
                }
                target.evaluate(batch) { [weak self] in self?.evaluationDidFinish() }
            }
        }
    }
}

/// What a ``BatchingEvaluator`` guards with its lock.
private struct BatchingState {
    var machine: EvaluatorStateMachine
    weak var target: (any EvaluationTarget)?
    /// Batches decided but not yet handed to the target.
    var outbox = HandOffQueue<ScriptBatch>()

    /// What to do once the lock is released.
    enum NextStep {
        case nothing
        case deliver
        case schedule(Duration)
    }
}

extension BatchingEvaluator where C == ContinuousClock {
    /// An evaluator on the continuous clock with the established 50 ms window.
    public convenience init() {
        self.init(clock: ContinuousClock(), window: .milliseconds(50))
    }
}
