// ByteChannelHub.swift — what the byte channel needs from the hub's state.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The events the byte channel sends the hub, which keeps its tickets (``ByteChannelState``) with
/// the page load they belong to.
protocol ByteChannelHub: PageOutbox {
    /// Whether a host serves a byte channel now.
    var servesBytes: Bool { get }
    /// Opens `ticket` for the current page load: the address the page presents it at, or why it is
    /// refused.
    func openTicket(_ ticket: ByteTicket) -> Result<String, BridgeError>
    /// Spends the ticket `token`, presented by a fetch from `origin`.
    func fetchTicket(_ token: String, from origin: String?) -> Result<ByteTicket, BridgeError>
    /// Takes piece `piece` of the page's bytes under `token`, from `origin`: what the ticket is for,
    /// or why it is refused (which spends it).
    func presentPiece(_ token: String, piece: Int, from origin: String?) -> Result<ByteTicket, BridgeError>
    /// A piece arrived under `token`, gathered by its ticket when it `keeps` what arrives.
    func receivePiece(_ body: Data, under token: String, keeps: Bool) -> BridgeError?
    /// Closes the ticket `token`: the ticket, with what it gathered, if it was open.
    @discardableResult
    func closeTicket(_ token: String) -> ByteTicket?
    /// The call behind `callback` stopped reading the page's bytes: its ticket for the next piece goes.
    func stopReceiving(callback: PageCallback, in pageLoad: PageLoad)
    /// Cancels the page's call behind `callback`; whether there was one.
    func cancelRunningCall(callback: PageCallback) -> Bool
}
