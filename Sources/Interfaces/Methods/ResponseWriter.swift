// ResponseWriter.swift — what a multi-response method writes its results to.
/// Sends the results of a multi-response method to the page, one at a time.
///
/// The method writes any number of values, then returns to complete the call or throws to fail it.
/// ``finish(with:)`` sends a last value and completes the call in the same message, as DSBridge's
/// `complete(value)` does; returning afterwards sends nothing more. A write after the call was
/// cancelled throws `CancellationError`; a write after ``finish(with:)`` throws a ``BridgeError``.
public struct ResponseWriter<Output: Encodable & Sendable>: Sendable {
    private let send: @Sendable (Output, _ isFinal: Bool) async throws -> Void

    /// Creates a writer that hands each value to `send`, with whether it completes the call.
    public init(_ send: @escaping @Sendable (Output, _ isFinal: Bool) async throws -> Void) {
        self.send = send
    }

    /// Sends one result. The page's callback stays registered for more.
    public func write(_ value: Output) async throws {
        try Task.checkCancellation()
        try await send(value, false)
    }

    /// Sends `value` as the last result and completes the call in the same message.
    public func finish(with value: Output) async throws {
        try Task.checkCancellation()
        try await send(value, true)
    }
}
