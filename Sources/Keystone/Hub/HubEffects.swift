// HubEffects.swift — what an event of the hub's state leaves to be done once its lock is released.
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What is handed on in order, outside the hub's lock: the evaluator's inputs.
enum HubOutput: Sendable, Equatable {
    /// A message, written for the runtime, for the page load, bound for the subframe document
    /// (`nil`: the main frame).
    case deliver(PageMessage, PageRuntime, PageLoad, FrameDocument?)
    case discardQueued
}

/// What one event of ``HubStateMachine`` leaves to be done, the same shape for every event: its
/// outputs (the evaluator's inputs), which ``HubStorage`` queues
/// under its lock and hands on in order; and the calls to settle, the work to cancel and the waiters to tell, which it
/// acts on after the lock. Nothing here runs under the lock. `Pending` is a Swift call's way to
/// settle; `Work` is a running task's handle.
struct HubEffects<Pending: Sendable, Work: Sendable>: Sendable {
    var outputs: [HubOutput] = []
    /// Swift's calls to fail, each with its error.
    var failed: [(call: Pending, error: BridgeError)] = []
    /// The page's running calls to cancel.
    var cancelled: [Work] = []
    /// Who waited for the page to be ready: it is.
    var ready: [PageWaiter] = []

    init(outputs: [HubOutput] = []) {
        self.outputs = outputs
    }

    /// Fails each of `calls` with `error`.
    mutating func fail(_ calls: [Pending], _ error: BridgeError) {
        failed += calls.map { ($0, error) }
    }
}
