// ResponseSink.swift — where an erased multi-response method writes its results, as JSON.
import Foundation

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
