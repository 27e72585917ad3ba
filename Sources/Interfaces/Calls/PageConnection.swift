// PageConnection.swift — Swift's way to call a page's handlers and send it events.
/// Calls a page's JavaScript handlers and sends it events.
///
/// A Keystone is one (it reaches whichever page is loaded); so is ``CallContext/page`` (it reaches
/// only the page load that made the call). An implementation must give every call exactly one
/// outcome, deliver calls to the page in the order they were made, and never let values reach the
/// page as code.
public protocol PageConnection: Sendable {
    /// Calls the page's handler `method` with positional `arguments` and waits for its first
    /// answer, decoded as `Result`.
    /// - Throws: ``BridgeError``: the page's own error, or one of Keystone's codes
    ///   (`unencodableValue`, `invalidResult`, `pageGone`, `cancelled`, `limitExceeded`).
    func call<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type
    ) async throws(BridgeError) -> Result

    /// Calls the page's handler `method` and yields each of its answers, decoded as `Element`,
    /// until one is marked complete. Ending the iteration early stops listening.
    func stream<Element: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error>

    /// Sends the event `name` with `value` to the page's listeners.
    /// - Throws: ``BridgeError`` (`unencodableValue`, or `pageGone` for a page load that has gone).
    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError)

    /// The page (web view) of the hub's this reaches: ``PageID/first`` for a hub that serves one.
    var pageID: PageID { get }
}

extension PageConnection {
    /// The hub's first page: a connection that does not say reaches a hub that serves one page.
    public var pageID: PageID { .first }

    /// Calls the page's handler `method` with `arguments` written out, and waits for its answer.
    ///
    /// ```swift
    /// let sum = try await keystone.call("page.add", 1, 2, as: Int.self)
    /// ```
    public func call<Result: Decodable & Sendable, each Argument: Encodable & Sendable>(
        _ method: String,
        _ arguments: repeat each Argument,
        as: Result.Type = Result.self
    ) async throws(BridgeError) -> Result {
        try await call(method, arguments: list(repeat each arguments), as: Result.self)
    }

    /// Calls the page's handler `method` with `arguments` written out, and yields each answer.
    public func stream<Element: Decodable & Sendable, each Argument: Encodable & Sendable>(
        _ method: String,
        _ arguments: repeat each Argument,
        of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        stream(method, arguments: list(repeat each arguments), of: Element.self)
    }

    /// Calls the page's handler `method` and waits at most `timeout`, measured on `clock`, for its
    /// answer. Without an answer in time, the call is withdrawn, as a cancelled one is (Keystone's
    /// page runtime is told, and drops the handler's later answer), and fails with `timedOut`.
    ///
    /// ```swift
    /// let title = try await keystone.call("page.title", arguments: [], as: String.self, timeout: .seconds(2))
    /// ```
    /// - Throws: ``BridgeError``: `timedOut`, or whatever the call itself throws.
    public func call<Result: Decodable & Sendable, C: Clock<Duration>>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type = Result.self,
        timeout: Duration,
        clock: C = ContinuousClock()
    ) async throws(BridgeError) -> Result {
        let outcome = await withTaskGroup(of: Swift.Result<Result, BridgeError>?.self) { group in
            group.addTask {
                do throws(BridgeError) {
                    return .success(try await self.call(method, arguments: arguments, as: Result.self))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                // `nil` when the call settled first (or the caller was cancelled) and this was cancelled.
                guard (try? await clock.sleep(for: timeout)) != nil else { return nil }
                return .failure(BridgeError(code: .timedOut, message: "the page did not answer \"\(method)\" within \(timeout)"))
            }
            // The first outcome wins; the other task is cancelled, which withdraws an unanswered call.
            var first: Swift.Result<Result, BridgeError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(BridgeError(code: .cancelled, message: "the call was cancelled"))
        }
        return try outcome.get()
    }

    /// Calls the page's handler `method` with `arguments` written out and waits at most `timeout`
    /// for its answer; otherwise the same as ``call(_:arguments:as:timeout:clock:)``.
    public func call<Result: Decodable & Sendable, each Argument: Encodable & Sendable, C: Clock<Duration>>(
        _ method: String,
        _ arguments: repeat each Argument,
        as: Result.Type = Result.self,
        timeout: Duration,
        clock: C = ContinuousClock()
    ) async throws(BridgeError) -> Result {
        try await call(method, arguments: list(repeat each arguments), as: Result.self, timeout: timeout, clock: clock)
    }

    /// Whether the page has a handler named `name` (`"m"` or `"ns.m"`), asked through the page's
    /// own `_hasJavascriptMethod`. dsbridge.js 3.1.4 answers nothing (no `data`) for a namespace it
    /// lacks; that is `false`, as DSBridge-iOS reads it.
    public func hasJavaScriptMethod(_ name: String) async throws(BridgeError) -> Bool {
        try await call("_hasJavascriptMethod", name, as: Bool?.self) ?? false
    }
}

private func list<each Argument: Encodable & Sendable>(_ arguments: repeat each Argument) -> [any Encodable & Sendable] {
    var list: [any Encodable & Sendable] = []
    for argument in repeat each arguments {
        list.append(argument)
    }
    return list
}
