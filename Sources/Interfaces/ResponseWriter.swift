// ResponseWriter.swift — what a multi-response method writes its results to.
/// Sends the results of a multi-response method to the page, one at a time.
///
/// The method writes any number of values, then returns to complete the call or throws to fail it.
/// A write after the call was cancelled throws `CancellationError`.
public struct ResponseWriter<Output: Encodable & Sendable>: Sendable {
    private let send: @Sendable (Output) async throws -> Void

    /// Creates a writer that hands each value to `send`.
    public init(_ send: @escaping @Sendable (Output) async throws -> Void) {
        self.send = send
    }

    /// Sends one result. The page's callback stays registered for more.
    public func write(_ value: Output) async throws {
        try Task.checkCancellation()
        try await send(value)
    }
}
