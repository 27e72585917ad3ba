// Invoker.swift — a method's erased body: raw `data` in, JSON out, for each kind of method.
import Foundation

/// A method's body, taking the raw bytes of the page's `data` (`nil` when absent, read as `null`),
/// the serializer to decode and encode with, and the call's context.
///
/// Each case decodes its input first and throws an invalid-argument error when it does not decode, before
/// any of the method's own code runs; the asynchronous kinds then return the work to start, which
/// a dispatcher hands to the hub to run in a task.
///
/// A result of no bytes (``noResult``) stands for no value: the method returns nothing.
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

    /// The result of a method that returns nothing: no bytes. The hub answers it with `""` to a page
    /// written for dsbridge.js or WebViewJavascriptBridge, as DSBridge does, and with `undefined` to
    /// Keystone's `invoke`.
    public static let noResult = Data()
}
