// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// ``MethodList`` builds these from typed closures; a registry stores them and a dispatcher runs
/// them. Both may be written outside the package: every part of a method is public.
public struct BridgeMethod: Sendable {
    /// How the method answers.
    public let kind: MethodKind
    /// Decodes the page's `data` straight into the method's typed input and runs it.
    public let invoker: Invoker

    /// A method of `invoker`'s kind.
    public init(invoker: Invoker) {
        self.invoker = invoker
        switch invoker {
        case .sync: kind = .sync
        case .async: kind = .async
        case .multiResponse: kind = .multiResponse
        }
    }
}

/// A method's body, taking the raw bytes of the page's `data` (`nil` when absent, read as `null`),
/// the serializer to decode and encode with, and the call's context.
///
/// Each case decodes its input first and throws ``InvalidArgument`` when it does not decode, before
/// any of the method's own code runs; the asynchronous kinds then return the work to start, which
/// a dispatcher hands to the hub to run in a task.
public enum Invoker: Sendable {
    /// Runs at once and returns the result's JSON.
    case sync(@Sendable (_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws -> Data)
    /// Returns work that produces the result's JSON.
    case async(
        @Sendable (_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws
            -> @Sendable () async throws -> Data
    )
    /// Returns work that writes results to a ``ResponseSink`` and returns (or throws) when done.
    case multiResponse(
        @Sendable (_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws
            -> @Sendable (_ sink: ResponseSink) async throws -> Void
    )
}

/// Where a multi-response method's results go, as JSON: each one to the page's callback in order.
public struct ResponseSink: Sendable {
    private let send: @Sendable (_ json: Data, _ isFinal: Bool) async throws -> Void

    /// A sink that hands each result to `send`; `isFinal` marks the result that completes the call.
    public init(_ send: @escaping @Sendable (_ json: Data, _ isFinal: Bool) async throws -> Void) {
        self.send = send
    }

    /// Sends one result; `isFinal` completes the call with it, in the same message.
    public func send(_ json: Data, isFinal: Bool) async throws {
        try await send(json, isFinal)
    }
}

/// The page's `data` did not decode into the method's input. A dispatcher reports it as
/// ``BridgeError/Code-swift.struct/invalidArgument`` naming the method.
public struct InvalidArgument: Error, Sendable {
    /// Where decoding failed and what was expected, without the payload itself.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
