// BuiltInPage.swift — what a built-in method reaches through its context: the hub, for the page
// load that called.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What the built-in methods act on: the hub's parts, its state, and Swift's calls of the page.
/// The hub's inbound calls are it.
protocol BuiltInHub: AnyObject, Sendable {
    var components: KeystoneComponents { get }
    var storage: HubStorage { get }
    /// Swift's calls of the page, which `_dsb.returnValue` answers.
    var outbound: OutboundCalls { get }
    /// Whether the page is offered the byte channel now, as `_dsb.dsinit` tells it.
    var announcesBytes: Bool { get }
    /// The durable calls earlier documents of `origin` made, for the document of `pageLoad`, once
    /// none of them runs any more; `nil` when the page load goes first.
    func recoverDurable(origin: String, pageLoad: PageLoad) async -> [DurableRecovered]?
    /// A document of `origin` has taken the outcomes of the durable calls under `keys`.
    func acknowledgeDurable(_ keys: [String], origin: String)
}

/// The page of a built-in method's ``CallContext``: the hub and the page load and document that
/// called. As a page connection it is that document's, as an app method's is.
struct BuiltInPage: PageConnection {
    let hub: any BuiltInHub
    let pageLoad: PageLoad
    /// The subframe document that called; `nil`: the main frame.
    let frame: FrameDocument?

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
}
