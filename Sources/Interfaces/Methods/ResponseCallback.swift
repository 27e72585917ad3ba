// ResponseCallback.swift — how a handler in WebViewJavascriptBridge's style answers: once, later,
// or never.

/// The way a handler registered with ``MethodList/handler(_:_:)-(_,(Input,ResponseCallback<Output>?)->Void)``
/// answers the page, as WebViewJavascriptBridge's `WVJBResponseCallback` does: call it once, now or
/// later, from any thread. Only the first answer counts; later ones are ignored.
///
/// A handler declines to answer by letting the callback go: when the last reference to it is
/// released unanswered, the call completes with no value (the page's dsbridge.js or WVJB callback
/// never runs; Keystone's `invoke` resolves `undefined`). A handler that keeps it keeps the call
/// open, and counts toward the page's running calls, until it answers or lets it go.
public final class ResponseCallback<Output: Encodable & Sendable>: Sendable {
    private let answer: Answer

    init(_ answer: Answer) {
        self.answer = answer
    }

    deinit {
        answer.settle(.success(nil))
    }

    /// Answers the page with `value`; ignored after the first answer.
    public func callAsFunction(_ value: Output) {
        answer.settle(.success(value))
    }

    /// Fails the call with `error` instead of answering (a ``BridgeError`` keeps its code); ignored
    /// after the first answer. WVJB's own page script never hears of it; Keystone's runtime rejects.
    public func fail(_ error: any Error) {
        answer.settle(.failure(error))
    }

    /// The one outcome of a handler's call: a value, nothing (declined), or an error.
    final class Answer: Sendable {
        private enum State {
            case waiting(CheckedContinuation<Output?, any Error>?)
            case settled(Result<Output?, any Error>)
        }

        private let state = Locked(State.waiting(nil))

        /// The outcome, once the handler answers, declines or fails.
        var value: Output? {
            get async throws {
                try await withCheckedThrowingContinuation { continuation in
                    let settled = state.withLock { state -> Result<Output?, any Error>? in
                        if case .settled(let outcome) = state { return outcome }
                        state = .waiting(continuation)
                        return nil
                    }
                    if let settled { continuation.resume(with: settled) }
                }
            }
        }

        /// Settles the answer, once; later outcomes are ignored.
        func settle(_ outcome: Result<Output?, any Error>) {
            let waiting = state.withLock { state -> CheckedContinuation<Output?, any Error>?? in
                guard case .waiting(let waiting) = state else { return nil }
                state = .settled(outcome)
                return .some(waiting)
            }
            if case .some(.some(let continuation)) = waiting { continuation.resume(with: outcome) }
        }
    }
}
