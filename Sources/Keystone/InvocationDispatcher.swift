// InvocationDispatcher.swift — runs a resolved call over the registry: kind check, invoke or start.
import Foundation

/// Runs a call from the page over a registry: finds its method, checks that the page called it the
/// way it answers (with or without a callback), and invokes it — at once for a synchronous method,
/// or by handing its work to ``DispatchEnvironment/start(_:)`` for the others.
///
/// An implementation must answer an unknown method with `notFound` and a call of the wrong kind
/// with `unsupportedCallKind`, decode the input before any work starts (so a bad argument is
/// refused while the page still waits), and never block. It may throw any error: the hub answers
/// ``InvalidArgument`` as `invalidArgument` naming the method, and anything else as
/// `BridgeError(error)`.
public protocol InvocationDispatcher: Sendable {
    func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome
}

/// What dispatching a call came to.
public enum DispatchOutcome: Sendable {
    /// A synchronous call's result, as JSON: the page's `prompt` returns it.
    case answered(Data)
    /// An asynchronous call's work was started; its results reach the page's callback.
    case started
}

/// What a dispatcher runs a call with: the serializer, the call's context, and the hub's way to
/// start an asynchronous call's work.
public struct DispatchEnvironment: Sendable {
    /// The serializer methods decode their input and encode their output with.
    public let serializer: any JSONSerializer
    /// The context a method that asks for one receives.
    public let context: CallContext
    private let starter: @Sendable (CallWork) throws(BridgeError) -> Void

    public init(serializer: any JSONSerializer, context: CallContext, start: @escaping @Sendable (CallWork) throws(BridgeError) -> Void) {
        self.serializer = serializer
        self.context = context
        self.starter = start
    }

    /// Runs `work` in a task the hub owns: the page's cancellation and the page's unload cancel it,
    /// and its results go to the page's callback.
    /// - Throws: ``BridgeError`` (`limitExceeded` when the page already has as many calls running
    ///   as it may, `pageGone` when the page that made the call has gone).
    public func start(_ work: CallWork) throws(BridgeError) {
        try starter(work)
    }
}

/// An asynchronous call's work, ready to run.
public enum CallWork: Sendable {
    /// Produces one result, as JSON.
    case single(@Sendable () async throws -> Data)
    /// Writes any number of results to the sink, then returns (or throws).
    case multiResponse(@Sendable (ResponseSink) async throws -> Void)
}
