// PageCall.swift — a Swift call of a page handler, made at once, whose result is awaited later.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A call of a page handler that has already been made: its place among the calls bound for the
/// page was fixed when ``Keystone/start(_:arguments:as:)`` returned. Await ``value`` for its result.
///
/// ```swift
/// let first = keystone.start("page.log", "one", as: Bool.self)   // no `await`: sent in this order
/// let second = keystone.start("page.log", "two", as: Bool.self)
/// _ = try await (first.value, second.value)
/// ```
public final class PageCall<Result: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Swift.Result<Result, BridgeError>, Never>])
        case settled(Swift.Result<Result, BridgeError>)
    }

    private let state = Locked(State.waiting([]))
    private let cancellation = Locked<(@Sendable () -> Void)?>(nil)

    init() {}

    /// The call's result, once the page answers. Cancelling a task that awaits it cancels the call.
    /// - Throws: `BridgeError`: the page's own error, or `invalidResult`, `pageGone`,
    ///   `cancelled`, `limitExceeded`, `unencodableValue`.
    public var value: Result {
        get async throws(BridgeError) {
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let settled = state.withLock { state -> Swift.Result<Result, BridgeError>? in
                        switch state {
                        case .settled(let outcome):
                            return outcome
                        case .waiting(let waiting):
                            state = .waiting(waiting + [continuation])
                            return nil
                        }
                    }
                    if let settled { continuation.resume(returning: settled) }
                }
            } onCancel: {
                cancel()
            }
            return try outcome.get()
        }
    }

    /// Stops waiting for the page: the call settles with code `cancelled` unless it already settled.
    public func cancel() {
        cancellation.withLock { $0 }?()
        settle(.failure(BridgeError(code: .cancelled, message: "the call was cancelled")))
    }

    /// Sets how ``cancel()`` withdraws the call from the hub.
    func onCancel(_ withdraw: @escaping @Sendable () -> Void) {
        cancellation.withLock { $0 = withdraw }
    }

    /// Settles the call, once; later outcomes are ignored.
    func settle(_ outcome: Swift.Result<Result, BridgeError>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Swift.Result<Result, BridgeError>, Never>] in
            guard case .waiting(let waiting) = state else { return [] }
            state = .settled(outcome)
            return waiting
        }
        waiting.forEach { $0.resume(returning: outcome) }
    }
}
