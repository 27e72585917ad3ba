// PageCall.swift — a Swift call of a page handler, made at once, whose result is awaited later.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A call of a page handler that has already been made: its place among the calls bound for the
/// page was fixed when ``KeystonePage/start(_:arguments:as:)`` returned. Await ``value`` for its result.
///
/// ```swift
/// let first = keystone.start("page.log", "one", as: Bool.self)   // no `await`: sent in this order
/// let second = keystone.start("page.log", "two", as: Bool.self)
/// _ = try await (first.value, second.value)
/// ```
public final class PageCall<Result: Sendable>: Sendable {
    private typealias Outcome = Swift.Result<Result, BridgeError>

    /// The call's whole state, behind its one lock.
    private struct State {
        /// Who awaits the outcome, until it is known.
        var waiting: [CheckedContinuation<Outcome, Never>] = []
        /// The outcome, once settled; later outcomes are ignored.
        var outcome: Outcome?
        /// How ``cancel()`` withdraws the call from the hub.
        var withdraw: (@Sendable () -> Void)?

        /// Settles with `outcome` unless settled already: who must hear it.
        mutating func settle(_ outcome: Outcome) -> [CheckedContinuation<Outcome, Never>] {
            guard self.outcome == nil else { return [] }
            self.outcome = outcome
            defer { waiting = [] }
            return waiting
        }
    }

    private let state = Locked(State())

    init() {}

    /// The call's result, once the page answers. Cancelling a task that awaits it cancels the call.
    /// - Throws: `BridgeError`: the page's own error, or `invalidResult`, `pageGone`,
    ///   `cancelled`, `limitExceeded`, `unencodableValue`.
    public var value: Result {
        get async throws(BridgeError) {
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let settled = state.withLock { state -> Outcome? in
                        if state.outcome == nil { state.waiting.append(continuation) }
                        return state.outcome
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
        state.withLock { $0.withdraw }?()
        settle(.failure(BridgeError(code: .cancelled, message: "the call was cancelled")))
    }

    /// Sets how ``cancel()`` withdraws the call from the hub.
    func onCancel(_ withdraw: @escaping @Sendable () -> Void) {
        state.withLock { $0.withdraw = withdraw }
    }

    /// Settles the call, once; later outcomes are ignored.
    func settle(_ outcome: Swift.Result<Result, BridgeError>) {
        state.withLock { $0.settle(outcome) }.forEach { $0.resume(returning: outcome) }
    }
}
