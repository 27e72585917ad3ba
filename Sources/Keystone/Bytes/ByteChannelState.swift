// ByteChannelState.swift — the byte channel's state as a pure value: the host's transport, and the
// tickets open for the page load.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The byte channel without locks or side effects: whether a host serves it (over which
/// ``ByteTransport``), and the tickets open for the current page load (``ByteTickets``). The hub
/// keeps it beside the rest of its state, so that a page load's end takes its tickets in the same
/// step; ``ByteChannel`` acts on it through ``ByteChannelHub``.
///
/// A message whose value has parts gets their ticket as it goes out (``prepare(_:parts:of:runtime:pageLoad:frame:)``):
/// as bytes where the page runs Keystone's runtime and the host serves a channel, as base64 in the
/// message to Keystone's runtime otherwise, and as base64 in the value's place to any other page.
struct ByteChannelState: Sendable {
    /// The host's byte channel (`nil`: the host has none).
    private var transport: (any ByteTransport)?
    /// The tickets open for the current page load.
    private(set) var tickets: ByteTickets

    init(limit: Int, byteLimit: Int) {
        tickets = ByteTickets(limit: limit, byteLimit: byteLimit)
    }

    /// Whether the host serves a byte channel.
    var servesBytes: Bool { transport != nil }

    /// The host serves a byte channel over `transport` (`nil`: it serves none from now on, and no
    /// ticket is issued).
    mutating func serveBytes(over transport: (any ByteTransport)?) {
        self.transport = transport
    }

    /// `message` as it goes out now, to `runtime` in the subframe document `frame` (`nil`: the main
    /// frame) of `pageLoad`, the parts of its value under a ticket where they move as bytes. A
    /// result's ticket counts toward the limits on what a page load holds, which the page controls
    /// by calling and never fetching: past them, the call fails instead. The ticket of Swift's own
    /// call or event may go past them: Swift bounded those bytes when it made them (``fits(_:besides:)``).
    mutating func prepare(
        _ message: PageMessage, parts: ByteParts?, of call: CallParts?, runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?
    ) -> PageMessage {
        // Every message passes here: most have no parts.
        guard let parts else { return message }
        guard runtime == .keystone else { return message.inliningParts(parts) }
        guard let transport, parts.byteCount > 0 else {
            return .withParts(message, MessageParts(marker: parts.marker, sizes: parts.sizes, source: .inline(parts.data)))
        }
        let token = ByteTickets.newToken()
        let ticket = ByteTicket(pageLoad: pageLoad, owner: ByteTicket.Owner(of: message, in: frame), payload: .parts(parts.joined, of: call), origin: call?.origin)
        if case .result(let callback, _, _) = message {
            do {
                try tickets.issue(token, ticket)
            } catch {
                return .failure(callback: callback, error: error)
            }
        } else {
            tickets.issuePastLimit(token, ticket)
        }
        // The call's producer waits while its results' parts wait to be fetched: the one other lock
        // taken under the hub's, a counter's, which never takes the hub's.
        call?.sent()
        return .withParts(message, MessageParts(marker: parts.marker, sizes: parts.sizes, source: .ticket(transport.address(ofTicket: token))))
    }

    /// Whether `parts`, of a Swift call or event, fit beside what the page load holds already: the
    /// open tickets' bytes, and `waiting` bytes of messages still to go out.
    func fits(_ parts: ByteParts?, besides waiting: Int) -> Bool {
        guard let parts else { return true }
        return parts.byteCount <= tickets.byteLimit - tickets.heldBytes - waiting
    }

    /// The refusal of a Swift call whose parts do not fit (``fits(_:besides:)``).
    var tooManyBytesHeld: BridgeError { ByteTickets.tooManyBytesHeld(tickets.byteLimit) }

    /// Opens `ticket` under a new token, while the page load is `pageLoad`: the address the page
    /// presents it at, or why it is refused (no byte channel, its page load has gone, too many open).
    mutating func open(_ ticket: ByteTicket, in pageLoad: PageLoad, token: String = ByteTickets.newToken()) -> Result<String, BridgeError> {
        guard let transport else {
            return .failure(BridgeError(code: .notAllowed, message: "the page has no byte channel"))
        }
        guard ticket.pageLoad == pageLoad else {
            return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        do {
            try tickets.issue(token, ticket)
        } catch {
            return .failure(error)
        }
        return .success(transport.address(ofTicket: token))
    }

    /// Spends the ticket `token`, presented by a fetch from `origin`: the ticket, or why it is refused.
    mutating func fetch(_ token: String, in pageLoad: PageLoad, from origin: String?) -> Result<ByteTicket, BridgeError> {
        tickets.redeem(token, in: pageLoad, from: origin)
    }

    /// Takes piece `piece` of the page's bytes under `token`, from `origin`: what the ticket is for
    /// (the bytes it still allows; not what it gathered), or why it is refused (which spends it).
    mutating func present(_ token: String, piece: Int, in pageLoad: PageLoad, from origin: String?) -> Result<ByteTicket, BridgeError> {
        tickets.present(token, piece: piece, in: pageLoad, from: origin)
    }

    /// A piece of the page's bytes arrived under `token`; the ticket gathers it when it keeps what
    /// arrives (`keeps`: a call's parts, not a stream a method reads as it comes).
    mutating func receive(_ body: Data, under token: String, keeps: Bool) -> BridgeError? {
        if let error = tickets.received(body.count, under: token, keeps: keeps) { return error }
        if keeps { tickets.gather(body, under: token) }
        return nil
    }

    /// Closes the ticket `token`: its bytes have all arrived, or are not sent after all. The ticket,
    /// with what it gathered, if it was open.
    @discardableResult
    mutating func close(_ token: String) -> ByteTicket? {
        tickets.takeBack(token)
    }

    /// The page's call behind `callback` ended in `pageLoad`: its tickets go, or only those that take
    /// the page's bytes (`receivingOnly`). How many went.
    @discardableResult
    mutating func withdraw(pageCall callback: PageCallback, in pageLoad: PageLoad, receivingOnly: Bool = false) -> Int {
        tickets.withdraw(.pageCall(callback), in: pageLoad, receivingOnly: receivingOnly)
    }

    /// Swift's call `id` settled or went on without its document fetching its arguments' parts:
    /// their ticket goes.
    mutating func withdraw(swiftCall id: Int, in pageLoad: PageLoad) {
        tickets.withdraw(.swiftCall(id), in: pageLoad)
    }

    /// The subframe document `frame` went: the tickets of its calls, of Swift's calls to it
    /// (`swiftCalls`) and of its events go.
    mutating func withdraw(frame: FrameDocument, swiftCalls: Set<Int>) {
        tickets.withdraw(frame: frame, swiftCalls: swiftCalls)
    }

    /// The page went: every ticket goes.
    mutating func pageDidUnload() {
        tickets.pageDidUnload()
    }
}
