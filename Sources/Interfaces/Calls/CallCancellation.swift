// CallCancellation.swift — whether a call was cancelled, shared by the hub and the call's context.
/// The cancelled state of one call, shared by the hub that cancels it and the context that reads it.
public final class CallCancellation: Sendable {
    private let state = Locked(false)

    /// Creates a cancellation that has not been cancelled.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0 } }

    /// Marks the call cancelled.
    public func cancel() {
        state.withLock { $0 = true }
    }
}
