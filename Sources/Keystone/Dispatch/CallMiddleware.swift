// CallMiddleware.swift — code that sees every call from the page and may refuse, time or wrap it.
/// Sees every call from the page to an interface — registered or not — that the call policy
/// admitted, before the dispatcher runs it: to refuse it with a coded error, log it, time it, or
/// wrap its execution.
///
/// A Keystone runs its middleware in order, the first outermost; each calls `next` to go on. Both
/// requirements have defaults that only call `next`, so a middleware implements what it needs:
/// - ``intercept(_:next:)`` runs while the page waits in its `prompt` (or script message): around
///   a synchronous call's whole run, and around an asynchronous call's decoding and start. Throw
///   from it to refuse the call; the page's `prompt` receives the error.
/// - ``interceptTask(_:next:)`` runs inside an asynchronous call's task, around the method's work
///   until its last result is written. An error thrown from it fails the call through its callback.
///
/// The protocol's own calls (`_dsb.*`) do not pass through middleware. Frame and origin policy is
/// decided before middleware, by the Keystone's ``CallPolicy``.
///
/// ```swift
/// struct RefuseNamespace: CallMiddleware {
///     let namespace: String
///     func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
///         guard call.name.namespace != namespace else {
///             throw BridgeError(code: .notAllowed, message: "\(namespace) is closed")
///         }
///         return try next()
///     }
/// }
/// ```
public protocol CallMiddleware: Sendable {
    /// Wraps what happens while the page waits for the call's answer.
    func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer
    /// Wraps an asynchronous call's work, in its task.
    func interceptTask<Answer: Sendable>(_ call: InboundCall, next: @Sendable () async throws -> Answer) async throws -> Answer
}

extension CallMiddleware {
    public func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        try next()
    }

    public func interceptTask<Answer: Sendable>(_ call: InboundCall, next: @Sendable () async throws -> Answer) async throws -> Answer {
        try await next()
    }
}
