// DispatchOutcome.swift — what dispatching a call came to: a result at once, or work to run.
import Foundation

/// What dispatching a call came to.
public enum DispatchOutcome: Sendable {
    /// A synchronous method's result, as JSON: the answer to the page's call carries it (for an
    /// asynchronous call, only when the call ``InboundCall/acceptsInlineAnswer``).
    case answered(Data)
    /// An asynchronous or multi-response method's work, its input already decoded: the hub runs it
    /// in a task that the page's cancel and unload cancel (refusing it past
    /// `BridgeLimits/runningCalls`), and its results reach the page's callback.
    case work(CallWork)
}
