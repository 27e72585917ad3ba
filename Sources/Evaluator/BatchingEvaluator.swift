// BatchingEvaluator.swift — the default evaluator: at most one evaluation per window, on any clock.
@_spi(KeystoneInternal) import Interfaces

/// The default ``JavaScriptEvaluator``: sends a message at once when the page is idle and collects
/// what comes while an evaluation is in flight into the next one, so the engine is never flooded
/// (one evaluation in flight at most) and a chain of calls never waits.
/// ``FlushPolicy/fixedWindow`` keeps the classic one-evaluation-per-window rule (50 ms by default).
///
/// Time comes from the injected clock; tests pass a manual clock and advance it instead of sleeping.
public final class BatchingEvaluator<C: Clock>: JavaScriptEvaluator where C.Instant: Sendable {
    private struct State {
        var machine: EvaluatorStateMachine<C.Instant>
        weak var target: (any EvaluationTarget)?
        /// Batches decided but not yet handed to the target.
        var outbox = HandOffQueue<ScriptBatch>()
    }

    private enum NextStep {
        case nothing
        case deliver
        case schedule(C.Instant)
    }

    private let clock: C
    private let state: Locked<State>

    /// Creates an evaluator on `clock` whose messages wait at most `window`, flushed by `policy`.
    public init(clock: C, window: C.Duration, policy: FlushPolicy = .whenIdle) {
        self.clock = clock
        self.state = Locked(State(machine: EvaluatorStateMachine(window: window, policy: policy)))
    }

    public func attach(to target: any EvaluationTarget) {
        state.withLock { $0.target = target }
    }

    public func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageEpoch) {
        let now = clock.now
        apply { $0.send(messages, runtime: runtime, pageLoad: pageLoad, now: now) }
    }

    public func discardQueued() {
        state.withLock { $0.machine.discardQueued() }
    }

    private func windowDidEnd() {
        let now = clock.now
        apply { $0.windowDidEnd(now: now) }
    }

    private func evaluationDidFinish() {
        let now = clock.now
        apply { $0.evaluationDidFinish(now: now) }
    }

    /// Runs one state-machine step under the lock, then acts on it outside the lock.
    private func apply(_ step: (inout EvaluatorStateMachine<C.Instant>) -> EvaluatorStateMachine<C.Instant>.Action) {
        let next: NextStep = state.withLock { state in
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
            Task { [weak self] in
                try? await clock.sleep(until: deadline, tolerance: nil)
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

extension BatchingEvaluator where C == ContinuousClock {
    /// An evaluator on the continuous clock with the established 50 ms window.
    public convenience init() {
        self.init(clock: ContinuousClock(), window: .milliseconds(50))
    }
}
