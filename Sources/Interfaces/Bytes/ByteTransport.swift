// ByteTransport.swift — the seam the byte channel moves bytes through: a transport turns its own
// requests into the hub's, and the hub's answers into its own.
import Foundation

/// How a host's byte channel reaches the page: the custom URL scheme (`URLSchemeTransport`, in
/// `KeystoneHost`) is one; a host may bring its own.
///
/// The hub never sees a transport's protocol. It issues tickets over the call channel, each at the
/// ``address(ofTicket:)`` the transport gives it; the transport turns each request the page makes
/// into a ``ByteRequest`` and hands it to the hub (`BridgeHub.receiveBytes(_:readBody:respond:)`), then
/// turns the ``ByteResponse`` into its own answer.
///
/// # Implementation requirements
/// - The address must reach this transport from the page, and hold `ticket` so a request can say it.
/// - A request's origin must come from the engine, never from what the page wrote.
/// - A request's body must be read only through `readBody`, which the hub calls only once the
///   request's ticket admits it.
public protocol ByteTransport: Sendable {
    /// Where the page presents `ticket`: a string Keystone's runtime posts pieces to and fetches
    /// parts from.
    func address(ofTicket ticket: String) -> String
}

/// One request on a byte channel, as a transport read it.
public struct ByteRequest: Sendable, Hashable {
    /// What the request asks.
    public enum Kind: Sendable, Hashable {
        /// The parts a ticket was issued for, Swift's bytes for the page.
        case fetch
        /// Piece `n` (from 0) of the bytes the page sends under the ticket, in its body.
        case piece(Int)
        /// The end of a stream the page sends, after `n` pieces.
        case end(Int)
    }

    /// The ticket the request presents, as the hub issued it.
    public var ticket: String
    /// A fetch, a piece, or the end of a stream.
    public var kind: Kind
    /// The origin the engine says the request comes from; `nil` when it says none.
    public var origin: String?
    /// What carried the request, as a trace names it: `scheme` (the custom URL scheme),
    /// `webProcess` (the GTK host's web-process extension, in shared memory); `nil` when the
    /// transport says nothing.
    public var transport: String?

    /// A request presenting `ticket`, asking `kind`, from `origin` as the engine says it, carried
    /// by `transport`.
    public init(ticket: String, kind: Kind, origin: String?, transport: String? = nil) {
        self.ticket = ticket
        self.kind = kind
        self.origin = origin
        self.transport = transport
    }
}

/// The hub's answer to one ``ByteRequest``; a stream's pieces are answered `more`, `done` or
/// `refused` by the method reading them (``ByteStream``), as it has room.
public enum ByteResponse: Sendable, Hashable {
    /// The parts fetched, one after another.
    case bytes(Data)
    /// The piece arrived: send the next.
    case more
    /// The piece (or the end) arrived, and nothing more is wanted: the call's answer comes through
    /// its callback, as every call's does.
    case done
    /// The request is refused; it said nothing the error repeats.
    case refused(BridgeError)
}
