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

/// The messages of one evaluation, in order, the page runtime they are written for, and the page
/// load they were made for.
public struct ScriptBatch: Sendable, Hashable {
    /// The messages, structured.
    public let messages: [PageMessage]
    /// The runtime the page announced; it decides how ``script`` is written.
    public let runtime: PageRuntime
    /// The page load the messages were made for. A target evaluates the batch only while that page
    /// load is the hub's current one (`BridgeHub` tells), checked when the engine is about to run
    /// it: a batch that waited in a queue while the page changed reaches no later page.
    public let pageLoad: PageEpoch

    /// Creates a batch of `messages`, written for `runtime`, for the page load `pageLoad`.
    public init(messages: [PageMessage], runtime: PageRuntime = .dsbridge, pageLoad: PageEpoch = .first) {
        self.messages = messages
        self.runtime = runtime
        self.pageLoad = pageLoad
    }

    /// The one script that delivers every message of the batch. Rendered on each access: a host
    /// reads it once.
    public var script: String { ScriptRenderer.render(messages, for: runtime) }
}
