// PageLoadConnection.swift — a page connection bound to the page load and document that made a call.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Calls, streams and events for one page load, in its main frame or one of its subframe
/// documents: once that has gone, each fails with `pageGone` instead of reaching the next page.
/// Given to methods as `CallContext/page`, bound to the document that made the call.
struct PageLoadConnection: PageConnection {
    let calls: OutboundCalls
    let pageLoad: PageLoad?
    /// The subframe document; `nil`: the main frame.
    var frame: FrameDocument? = nil

    func call<Result: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], as: Result.Type
    ) async throws(BridgeError) -> Result {
        try await calls.start(method, arguments: arguments, as: Result.self, to: pageLoad, frame: frame).value
    }

    func stream<Element: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error> {
        calls.stream(method, arguments: arguments, of: Element.self, to: pageLoad, frame: frame)
    }

    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        try calls.emit(name, value, to: pageLoad, frame: frame)
    }

    var pageID: PageID { calls.pageID }
}

/// The page connection of a frame the host cannot deliver to: a subframe it names no document for,
/// or one it cannot vouch for. Everything sent through it fails.
struct UnreachableFrame: PageConnection {
    private static let unreachable = BridgeError(code: .notAllowed, message: "the host cannot deliver to this frame")

    func call<Result: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], as: Result.Type
    ) async throws(BridgeError) -> Result {
        throw Self.unreachable
    }

    func stream<Element: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { $0.finish(throwing: Self.unreachable) }
    }

    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        throw Self.unreachable
    }
}
