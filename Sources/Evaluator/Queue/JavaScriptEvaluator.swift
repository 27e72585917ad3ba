// JavaScriptEvaluator.swift — the queue that everything bound for the page goes through.
import KeystoneInterfaces

/// The queue between the hub and the page: it decides when messages go out, and in which batches.
///
/// The hub decides what may go out and to which page load; the evaluator only queues and flushes.
/// An implementation must:
/// - deliver messages in the order they were sent, each at most once, to the attached target, in
///   batches of messages written for one runtime, made for one page load and bound for one frame;
/// - on ``discardQueued()``, drop every message not yet handed to the target (the page they were
///   for has gone);
/// - never call the target while holding a lock, and be callable from any thread.
public protocol JavaScriptEvaluator: Sendable {
    /// Sets where batches go. The target is held weakly.
    func attach(to target: any EvaluationTarget)
    /// Queues messages, in order, made for the page load `pageLoad`, bound for the subframe document
    /// `frame` (`nil`: the main frame) and to be written for its runtime `runtime`. Messages sent
    /// together (what waited for the page to initialize, say) go out in one batch, unless the flush
    /// policy has a reason to split them.
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?)
    /// The page the queued messages were for has gone: drop them.
    func discardQueued()
}
