// ImmediateEvaluator.swift — an evaluator of its own: no window, one evaluation per send.
import Keystone
import Synchronization

/// Hands every group of messages to the target at once, as one batch: no batching window.
public final class ImmediateEvaluator: JavaScriptEvaluator {
    private struct State {
        weak var target: (any EvaluationTarget)?
        var evaluations = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// How many batches went to the target.
    public var evaluationCount: Int { state.withLock { $0.evaluations } }

    public func attach(to target: any EvaluationTarget) {
        state.withLock { $0.target = target }
    }

    public func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?) {
        let target = state.withLock { state in
            state.evaluations += 1
            return state.target
        }
        target?.evaluate(ScriptBatch(messages: messages, runtime: runtime, pageLoad: pageLoad, frame: frame))  // outside the lock
    }

    public func discardQueued() {}  // nothing waits
}
