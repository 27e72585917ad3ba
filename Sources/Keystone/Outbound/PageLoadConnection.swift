// PageLoadConnection.swift — a page connection bound to the page load that made a call.
/// Calls, streams and events for one page load: once it has gone, each fails with `pageGone`
/// instead of reaching the next page. Given to methods as `CallContext/page`.
struct PageLoadConnection: PageConnection {
    let calls: OutboundCalls
    let pageLoad: PageLoad

    func call<Result: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], as: Result.Type
    ) async throws(BridgeError) -> Result {
        try await calls.start(method, arguments: arguments, as: Result.self, to: pageLoad).value
    }

    func stream<Element: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error> {
        calls.stream(method, arguments: arguments, of: Element.self, to: pageLoad)
    }

    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        try calls.emit(name, value, to: pageLoad)
    }
}
