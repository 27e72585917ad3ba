// JavaScriptEvaluator.swift — the queue that everything bound for the page goes through.
/// The queue between Keystone and the page.
///
/// An implementation must:
/// - deliver nothing before ``pageDidInitialize(runtime:)`` and, once it comes, deliver what
///   waited, in order, in batches written for that runtime;
/// - deliver messages in the order they were sent, each at most once, to the attached target;
/// - drop a message whose epoch is older than the latest one given to ``pageDidUnload(startingEpoch:)``,
///   whether it is sent after that call or was waiting when it came;
/// - treat a message for an epoch newer than any seen as that epoch's unload: hold it until the next
///   ``pageDidInitialize(runtime:)``, since the hub stamps a message with the new epoch as soon as
///   the page is gone, possibly before its ``pageDidUnload(startingEpoch:)`` call arrives;
/// - never call the target while holding a lock, and be callable from any thread.
public protocol JavaScriptEvaluator: Sendable {
    /// Sets where batches go. The target is held weakly.
    func attach(to target: any EvaluationTarget)
    /// Queues one message for the page load `epoch`.
    func send(_ message: PageMessage, epoch: PageEpoch)
    /// The page has registered its handlers (`_dsb.dsinit`) and runs `runtime`: deliver what waited.
    func pageDidInitialize(runtime: PageRuntime)
    /// The page has gone (navigation or reload) and `epoch` begins: drop older messages and hold
    /// new ones until the next ``pageDidInitialize(runtime:)``.
    func pageDidUnload(startingEpoch epoch: PageEpoch)
}
