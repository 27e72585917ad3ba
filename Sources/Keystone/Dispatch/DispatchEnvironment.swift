// DispatchEnvironment.swift — what a dispatcher runs a call with, from the hub.
import Foundation

/// What a dispatcher runs a call with: the serializer, the call's context, and the hub's way to
/// start an asynchronous call's work.
public struct DispatchEnvironment: Sendable {
    /// The serializer methods decode their input and encode their output with.
    public let serializer: any JSONSerializer
    /// The context a method that asks for one receives.
    public let context: CallContext
    private let starter: @Sendable (CallWork) throws(BridgeError) -> Void

    /// Creates the environment a dispatcher runs a call in: the serializer, the call's context, and
    /// how to start its work.
    public init(serializer: any JSONSerializer, context: CallContext, start: @escaping @Sendable (CallWork) throws(BridgeError) -> Void) {
        self.serializer = serializer
        self.context = context
        self.starter = start
    }

    /// Runs `work` in a task the hub owns: the page's cancellation and the page's unload cancel it,
    /// and its results go to the page's callback.
    /// - Throws: `BridgeError` (`limitExceeded` when the page already has as many calls running
    ///   as it may, `pageGone` when the page that made the call has gone).
    public func start(_ work: CallWork) throws(BridgeError) {
        try starter(work)
    }
}
