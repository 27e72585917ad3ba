// ByteTickets.swift — what lets a page move bytes over the byte channel, as a pure value: each open
// ticket (ByteTicket), whose it is, and what it moves.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// One open ticket of the byte channel: what it lets the page move, and what it moves. Which way it
/// moves bytes is its payload's: a message's parts go to the page, everything else comes from it.
struct ByteTicket: Sendable {
    /// Whose bytes a ticket moves: what it goes with.
    enum Owner: Sendable, Hashable {
        /// A call of the page's, by its callback: its argument's parts, or its results'.
        case pageCall(PageCallback)
        /// A Swift call of a page handler, by its id: its arguments' parts.
        case swiftCall(Int)
        /// An event's value's parts, for the subframe document (`nil`: the main frame): they go with
        /// that document, or the page load.
        case event(FrameDocument?)
    }

    /// What a ticket moves.
    enum Payload: Sendable {
        /// The parts of a page's call, `sizes` bytes each, gathered as the pieces arrive
        /// (``ByteTicket/gathered``); the call runs once all have. With no `sizes`, a stream into a
        /// method that takes `Data`: gathered until the page ends it, then the call runs with it as
        /// its part. `runner` runs it then, as the route that sent it here would have.
        case call(InboundCall, sizes: [Int]?, runner: any ByteCallRunner)
        /// A stream of the page's into a running method that takes a ``ByteStream``: each piece
        /// goes to it as it arrives.
        case stream(ByteStream)
        /// A message's parts, one after another, for the page to fetch; and the call whose results
        /// they are, told when they are fetched.
        case parts(Data, of: CallParts?)
    }

    /// The page load the ticket was issued in.
    var pageLoad: PageLoad
    var owner: Owner
    var payload: Payload
    /// The most bytes the ticket still lets the page send, or the bytes it lets the page fetch.
    var maximumBytes: Int
    /// The origin of the frame the ticket was issued to, as the engine reported it: a request that
    /// says, through the engine, it comes from another origin is refused.
    var origin: String?
    /// The number of the piece the ticket takes next, for the page's bytes.
    var nextPiece = 0
    /// The page's bytes a call's ticket has gathered so far: one buffer each piece is appended to in
    /// place, handed out only when the ticket closes (a copy held elsewhere meanwhile would make
    /// every append copy everything gathered so far).
    var gathered = Data()
    /// The bytes the ticket keeps while it is open (``ByteTickets/heldBytes``): a message's parts,
    /// or what a call's ticket has gathered so far.
    var heldBytes: Int

    /// A ticket of `pageLoad` for `payload`, moving at most `maximumBytes` (a message's parts: all of
    /// them), issued to a frame of `origin`.
    init(pageLoad: PageLoad, owner: Owner, payload: Payload, maximumBytes: Int? = nil, origin: String? = nil) {
        self.pageLoad = pageLoad
        self.owner = owner
        self.payload = payload
        self.origin = origin
        if case .parts(let bytes, _) = payload {
            heldBytes = bytes.count
            self.maximumBytes = maximumBytes ?? bytes.count
        } else {
            heldBytes = 0
            self.maximumBytes = maximumBytes ?? 0
        }
    }

    /// Whether the ticket moves bytes to the page (a message's parts), not from it.
    var movesToPage: Bool {
        if case .parts = payload { true } else { false }
    }
}

extension ByteTicket.Owner {
    /// What the parts of `message`'s value, for the subframe document `frame` (`nil`: the main
    /// frame), go with: a result's its call, a call of a page handler's that call, an event's its
    /// document.
    init(of message: PageMessage, in frame: FrameDocument?) {
        switch message {
        case .result(let callback, _, _): self = .pageCall(PageCallback(callback, in: frame))
        case .call(_, let id, _): self = .swiftCall(id)
        default: self = .event(frame)
        }
    }

    /// The subframe document the owner is of, when it is one's.
    var frame: FrameDocument? {
        switch self {
        case .pageCall(let callback): callback.frame
        case .swiftCall: nil
        case .event(let frame): frame
        }
    }
}

/// The tickets that authorise byte transfers, without locks or side effects.
///
/// Bytes move over the engine's byte channel (a custom URL scheme), whose requests carry no frame
/// identity: the channel admits nothing on its own. The hub issues a ticket over the attested call
/// channel, for one page load and one call of its main frame, and a byte request must present it:
/// - A ticket is unguessable (``newToken(using:)``: 128 bits from the system's random source) and
///   single use: presenting it spends it, whether or not the request is then accepted.
/// - It moves bytes one way only, at most its ``ByteTicket/maximumBytes``.
/// - It is refused to a request the engine says comes from an origin other than the frame's it was
///   issued to, or that says no origin (where that origin is a scheme, host and port): the page's
///   runtime fetches with CORS, which always says it; an `<img>` or `<script>` load does not.
/// - It dies with its page load (``pageDidUnload()``) and with its owner (``withdraw(_:in:receivingOnly:)``).
/// - At most `limit` are open at once; a request is refused before its body is read.
/// - The bytes the open tickets hold (a result waiting to be fetched, a stream gathered so far)
///   are at most `byteLimit` in all.
struct ByteTickets: Sendable {
    /// The most tickets open at once.
    let limit: Int
    /// The most bytes the open tickets may hold in all.
    let byteLimit: Int
    private var open: [String: ByteTicket] = [:]
    /// The bytes the open tickets hold.
    private(set) var heldBytes = 0

    init(limit: Int, byteLimit: Int = .max) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// The refusal of bytes past ``byteLimit``.
    static func tooManyBytesHeld(_ byteLimit: Int) -> BridgeError {
        BridgeError(code: .limitExceeded, message: "the page load would hold more bytes than BridgeLimits.pageLoadBytes (\(byteLimit) bytes)")
    }

    /// How many tickets are open.
    var count: Int { open.count }

    /// Opens `token` for `ticket`.
    /// - Throws: `limitExceeded` when ``limit`` tickets are open already, or its bytes would take
    ///   the open tickets' past ``byteLimit``; `failed` when the token is open already (never, for
    ///   tokens from ``newToken(using:)``).
    mutating func issue(_ token: String, _ ticket: ByteTicket) throws(BridgeError) {
        guard open.count < limit else {
            throw BridgeError(code: .limitExceeded, message: "at most BridgeLimits.openTransfers (\(limit)) byte transfers may be open at once")
        }
        guard ticket.heldBytes <= byteLimit - heldBytes else { throw Self.tooManyBytesHeld(byteLimit) }
        guard open[token] == nil else { throw BridgeError(code: .failed, message: "the transfer's ticket is taken") }
        open[token] = ticket
        heldBytes += ticket.heldBytes
    }

    /// Opens `token` for `ticket` whatever the limits, which bound what a page opens: for bytes
    /// Swift sends of its own accord. A token open already is left as it is (never, for tokens
    /// from ``newToken(using:)``).
    /// Its bytes count towards ``heldBytes``; whoever makes such bytes checks ``byteLimit`` first.
    mutating func issuePastLimit(_ token: String, _ ticket: ByteTicket) {
        guard open[token] == nil else { return }
        open[token] = ticket
        heldBytes += ticket.heldBytes
    }

    /// Spends `token`, presented by a fetch of Swift's bytes while the page load is `pageLoad`, from
    /// `origin` as the engine reported it (`nil`: not reported): its ticket, or why it is refused.
    /// The refusal never repeats the token.
    mutating func redeem(_ token: String, in pageLoad: PageLoad, from origin: String? = nil) -> Result<ByteTicket, BridgeError> {
        guard Self.isWellFormed(token), let ticket = open.removeValue(forKey: token) else {
            return .failure(Self.noTicket)
        }
        heldBytes -= ticket.heldBytes
        if let error = Self.refusal(of: ticket, toPage: true, in: pageLoad, from: origin) { return .failure(error) }
        return .success(ticket)
    }

    /// Takes piece `piece` of the page's bytes under `token`, while the page load is `pageLoad`,
    /// from `origin`: the ticket (its ``ByteTicket/maximumBytes`` what it still allows), left open
    /// for the next piece. A piece out of order, or refused for any other reason, spends the ticket.
    mutating func present(_ token: String, piece: Int, in pageLoad: PageLoad, from origin: String? = nil) -> Result<ByteTicket, BridgeError> {
        guard Self.isWellFormed(token), let ticket = open[token] else { return .failure(Self.noTicket) }
        var error = Self.refusal(of: ticket, toPage: false, in: pageLoad, from: origin)
        if error == nil, piece != ticket.nextPiece {
            error = BridgeError(code: .malformedMessage, message: "a piece came out of order")
        }
        if let error {
            takeBack(token)
            return .failure(error)
        }
        open[token]?.nextPiece += 1
        var presented = ticket
        presented.gathered = Data()
        return .success(presented)
    }

    /// The page sent `count` more bytes under `token`: the ticket allows that many fewer, and when
    /// its payload keeps them (`keeps`), they count toward ``heldBytes``. Refused past ``byteLimit``,
    /// which spends the ticket.
    mutating func received(_ count: Int, under token: String, keeps: Bool) -> BridgeError? {
        guard open[token] != nil else { return nil }
        if keeps {
            guard count <= byteLimit - heldBytes else {
                takeBack(token)
                return Self.tooManyBytesHeld(byteLimit)
            }
            open[token]?.heldBytes += count
            heldBytes += count
        }
        open[token]?.maximumBytes -= count
        return nil
    }

    /// Why `ticket` does not admit a request moving bytes to the page (`toPage`) or from it, in
    /// `pageLoad` from `origin`.
    private static func refusal(of ticket: ByteTicket, toPage: Bool, in pageLoad: PageLoad, from origin: String?) -> BridgeError? {
        guard ticket.pageLoad == pageLoad else {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket belongs to an earlier page load")
        }
        guard ticket.movesToPage == toPage else {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket moves bytes the other way")
        }
        // A request that does not say its origin (a no-cors load: an image, a script, a link) cannot
        // show it is the frame's: refused, as one from another origin is.
        if let issued = ticket.origin, isTupleOrigin(issued), origin != issued {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket was issued to another origin")
        }
        return nil
    }

    private static var noTicket: BridgeError { BridgeError(code: .notAllowed, message: "the transfer has no valid ticket") }

    /// What `owner` moved in `pageLoad` ended: its tickets go, or only those that take the page's
    /// bytes (`receivingOnly`), so its results' parts stay for the page to fetch. Returns how many
    /// went.
    @discardableResult
    mutating func withdraw(_ owner: ByteTicket.Owner, in pageLoad: PageLoad, receivingOnly: Bool = false) -> Int {
        let before = open.count
        open = open.filter { _, ticket in
            ticket.owner != owner || ticket.pageLoad != pageLoad || (receivingOnly && ticket.movesToPage)
        }
        heldBytes = open.values.reduce(0) { $0 + $1.heldBytes }
        return before - open.count
    }

    /// The subframe document `frame` went: the tickets of its calls, of Swift's calls to it
    /// (`swiftCalls`) and of its events go.
    mutating func withdraw(frame: FrameDocument, swiftCalls: Set<Int>) {
        open = open.filter { _, ticket in
            if case .swiftCall(let id) = ticket.owner { return !swiftCalls.contains(id) }
            return ticket.owner.frame != frame
        }
        heldBytes = open.values.reduce(0) { $0 + $1.heldBytes }
    }

    /// Appends `body`, the page's piece, to what the ticket `token` has gathered: the first piece is
    /// kept as it came (mapped memory stays unread), only a second is copied.
    mutating func gather(_ body: Data, under token: String) {
        guard open[token] != nil else { return }
        if open[token]!.gathered.isEmpty { open[token]!.gathered = body } else { open[token]!.gathered.append(body) }
    }

    /// Takes back the ticket `token`: the bytes it was opened for are not sent after all, or all of
    /// them have arrived. The ticket, with what it gathered, if it was open.
    @discardableResult
    mutating func takeBack(_ token: String) -> ByteTicket? {
        guard let ticket = open.removeValue(forKey: token) else { return nil }
        heldBytes -= ticket.heldBytes
        return ticket
    }

    /// The page went: every ticket goes. Returns how many went.
    @discardableResult
    mutating func pageDidUnload() -> Int {
        defer {
            open = [:]
            heldBytes = 0
        }
        return open.count
    }

    /// Whether `origin` is a scheme, host and port (`https://app.example`), which a request of
    /// that origin reports the same way. A local file's (`file://`) or an opaque one is reported as
    /// `null` by every request, its own included: for it the ticket alone admits.
    static func isTupleOrigin(_ origin: String) -> Bool {
        origin != "file://" && origin != "null" && origin.contains("://")
    }

    /// A new token: 128 bits from the system's random source.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return newToken(using: &generator)
    }

    /// A new token: 32 lowercase hexadecimal digits, 128 bits from `generator`.
    static func newToken(using generator: inout some RandomNumberGenerator) -> String {
        RandomToken.hex128(using: &generator)
    }

    /// A token is 32 lowercase hexadecimal digits; anything else is refused before it is looked up.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == tokenLength && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static var tokenLength: Int { 32 }
}
