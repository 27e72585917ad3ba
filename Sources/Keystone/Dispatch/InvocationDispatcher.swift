// InvocationDispatcher.swift — runs a resolved call over the registry: kind check, invoke or start.
import Foundation

/// Runs a call from the page over a registry: finds its method, checks that the page called it the
/// way it answers (with or without a callback), and invokes it: at once for a synchronous method;
/// for the others, it decodes the input and returns the work, which the hub runs in a task of its
/// own (``DispatchOutcome/work(_:)``). A dispatcher never calls back into the hub.
///
/// An implementation must answer an unknown method with `notFound` and a synchronous method called
/// with a callback with `unsupportedCallKind` (unless the call ``InboundCall/acceptsInlineAnswer``);
/// start an asynchronous or multi-response method called without a callback all the same (the hub
/// drops its results and logs its failure, as DSBridge-Android runs such a call); decode the input
/// before any work starts (so a bad argument is
/// refused while the page still waits), and never block. It may throw any error: the hub answers
/// an input that does not decode (what an `Invoker` throws then) as `invalidArgument` naming the method, and anything else as
/// `BridgeError(error)`.
public protocol InvocationDispatcher: Sendable {
    /// Runs `call` over `registry` in `environment`, and says how it was answered: at once, as work
    /// to start, or refused.
    func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome
}
