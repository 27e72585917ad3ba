// BuiltInPage.swift — what a built-in method reaches through its context: the hub, for the page
// load that called.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What the built-in methods act on: the hub's parts, the events they send its state, and Swift's
/// calls of the page for their context's page connection. The hub's inbound calls are it.
protocol BuiltInHub: AnyObject, Sendable {
    var components: KeystoneComponents { get }
    /// The hub's state, as the built-ins act on it.
    var state: any BuiltInState { get }
    /// Swift's calls of the page: the page connection of a built-in's context.
    var outbound: OutboundCalls { get }
    /// Whether the page is offered the byte channel now, as `_dsb.dsinit` tells it.
    var announcesBytes: Bool { get }
    /// The protocol's own methods and those the rooms add, under `_dsb`.
    var builtIns: BuiltInRegistry { get }
}

/// The events the built-ins send the hub's state: the page's initialization, its cancellation of
/// its calls, what its main frame establishes. The hub's storage is it.
protocol BuiltInState: AnyObject, Sendable {
    /// The document `frame` registered its handlers (`_dsb.dsinit`), announcing `runtime`: Swift's
    /// calls waiting for it go out, and what waited for the page to be ready goes on.
    func documentDidInitialize(runtime: PageRuntime, frame: CallerFrame)
    /// Cancels the page's call behind `callback` (`_dsb.cancel`); whether there was one.
    func cancelRunningCall(callback: PageCallback) -> Bool
    /// The app's policy accepted the credentials the main frame of `origin` presented during
    /// `pageLoad`; `false` when that page load has gone, and the grant with it.
    func authorize(_ pageLoad: PageLoad, origin: String?) -> Bool
    /// The main frame, of `origin`, declared the methods it will use.
    func declare(_ methods: Set<String>, origin: String?) -> Result<Void, BridgeError>
}

/// The page of a built-in method's ``CallContext``: the hub and the page load and document that
/// called. As a page connection it is that document's, as an app method's is.
struct BuiltInPage: PageConnection, PageLoadBound {
    let hub: any BuiltInHub
    let pageLoad: PageLoad
    /// The subframe document that called; `nil`: the main frame.
    let frame: FrameDocument?

    /// The hub and page load a built-in's call came from: every context the hub makes holds them.
    static func calling(_ context: CallContext) throws(BridgeError) -> BuiltInPage {
        guard let page = context.page as? BuiltInPage else {
            throw BridgeError(code: .failed, message: "a built-in method ran outside a Keystone's call")
        }
        return page
    }

    func call<Result: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], as: Result.Type
    ) async throws(BridgeError) -> Result {
        try await PageLoadConnection(calls: hub.outbound, pageLoad: pageLoad, frame: frame).call(method, arguments: arguments, as: Result.self)
    }

    func stream<Element: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error> {
        PageLoadConnection(calls: hub.outbound, pageLoad: pageLoad, frame: frame).stream(method, arguments: arguments, of: Element.self)
    }

    func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        try PageLoadConnection(calls: hub.outbound, pageLoad: pageLoad, frame: frame).emit(name, value)
    }

    var pageID: PageID { hub.outbound.pageID }
}
