// EvaluationTarget.swift — where the evaluator's batches go: a web view, or an in-memory page.
/// Receives the evaluator's batches: a web view host evaluates ``ScriptBatch/script``; an in-memory
/// page reads ``ScriptBatch/messages``.
///
/// The evaluator holds its target weakly, so a host that owns a Keystone forms no retain cycle.
/// Batches arrive one at a time and in order, on whatever thread flushed them; a target that must
/// evaluate on a particular thread hops there itself, keeping the order.
public protocol EvaluationTarget: AnyObject, Sendable {
    /// Evaluates one batch in the page.
    func evaluate(_ batch: ScriptBatch)
    /// Evaluates one batch and calls `done` once, when the engine has run it or the target has
    /// dropped it: the evaluator sends what collected meanwhile then. The default calls `done` as
    /// soon as ``evaluate(_:)`` returns.
    func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void)
}

extension EvaluationTarget {
    public func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        evaluate(batch)
        done()
    }
}
