// ByteTickets.swift — what lets a page move bytes over the byte channel, as a pure value.
import KeystoneEvaluator

/// The tickets that authorise byte transfers, without locks or side effects.
///
/// Bytes move over the engine's byte channel (a custom URL scheme), whose requests carry no frame
/// identity: the channel admits nothing on its own. The hub issues a ticket over the attested call
/// channel, for one page load and one call of its main frame, and a byte request must present it:
/// - A ticket is unguessable (``newToken(using:)``: 128 bits from the system's random source) and
///   single use: presenting it spends it, whether or not the request is then accepted.
/// - It moves bytes one way only, at most its ``Grant/maximumBytes``.
/// - It is refused to a request the engine says comes from an origin other than the frame's it was
///   issued to, or that says no origin (where that origin is a scheme, host and port): the page's
///   runtime fetches with CORS, which always says it; an `<img>` or `<script>` load does not.
/// - It dies with its page load (``pageDidUnload()``) and with its call (``withdraw(_:in:direction:)``).
/// - At most `limit` are open at once; a request is refused before its body is read.
/// - The bytes the open tickets hold (a result waiting to be fetched, a stream gathered so far)
///   are at most `byteLimit` in all.
struct ByteTickets<Payload: Sendable>: Sendable {
    /// Which way a ticket moves bytes.
    enum Direction: Sendable, Hashable {
        /// The page sends bytes (a request body) to Swift.
        case toSwift
        /// Swift sends bytes (a response body) to the page.
        case toPage
    }

    /// What a ticket allows.
    struct Grant: Sendable, Hashable {
        /// The page load the ticket was issued in.
        var pageLoad: PageEpoch
        var owner: TicketOwner
        var direction: Direction
        /// The most bytes the transfer may move.
        var maximumBytes: Int
        /// The origin of the frame the ticket was issued to, as the engine reported it: a request
        /// that says, through the engine, it comes from another origin is refused.
        var origin: String? = nil
        /// The number of the piece the ticket takes next, for the page's bytes.
        var nextPiece = 0
    }

    /// The most tickets open at once.
    let limit: Int
    /// The most bytes the open tickets may hold in all.
    let byteLimit: Int
    private var open: [String: (grant: Grant, payload: Payload, holding: Int)] = [:]
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

    /// Opens `token` for `grant`.
    /// - Throws: `limitExceeded` when ``limit`` tickets are open already; `failed` when the token
    ///   is open already (never, for tokens from ``newToken(using:)``).
    /// `holding` is how many bytes the payload keeps while the ticket is open.
    mutating func issue(_ token: String, for grant: Grant, payload: Payload, holding: Int = 0) throws(BridgeError) {
        guard open.count < limit else {
            throw BridgeError(code: .limitExceeded, message: "at most BridgeLimits.openTransfers (\(limit)) byte transfers may be open at once")
        }
        guard holding <= byteLimit - heldBytes else { throw Self.tooManyBytesHeld(byteLimit) }
        guard open[token] == nil else { throw BridgeError(code: .failed, message: "the transfer's ticket is taken") }
        open[token] = (grant, payload, holding)
        heldBytes += holding
    }

    /// Opens `token` for `grant` whatever the limit, which bounds what a page opens: for bytes
    /// Swift sends of its own accord. A token open already is left as it is (never, for tokens
    /// from ``newToken(using:)``).
    /// Its bytes count towards ``heldBytes``; whoever makes such bytes checks ``byteLimit`` first.
    mutating func issuePastLimit(_ token: String, for grant: Grant, payload: Payload, holding: Int = 0) {
        guard open[token] == nil else { return }
        open[token] = (grant, payload, holding)
        heldBytes += holding
    }

    /// Spends `token`, presented by a fetch of Swift's bytes while the page load is `pageLoad`, from
    /// `origin` as the engine reported it (`nil`: not reported): its grant and payload, or why it is
    /// refused. The refusal never repeats the token.
    mutating func redeem(_ token: String, in pageLoad: PageEpoch, from origin: String? = nil) -> Result<(grant: Grant, payload: Payload), BridgeError> {
        guard Self.isWellFormed(token), let (grant, payload, holding) = open.removeValue(forKey: token) else {
            return .failure(Self.noTicket)
        }
        heldBytes -= holding
        if let error = Self.refusal(of: grant, direction: .toPage, in: pageLoad, from: origin) { return .failure(error) }
        return .success((grant, payload))
    }

    /// Takes piece `piece` of the page's bytes under `token`, while the page load is `pageLoad`,
    /// from `origin`: the ticket's grant (its ``Grant/maximumBytes`` what it still allows) and
    /// payload, the ticket left open for the next piece. A piece out of order, or refused for any
    /// other reason, spends the ticket.
    mutating func present(_ token: String, piece: Int, in pageLoad: PageEpoch, from origin: String? = nil) -> Result<(grant: Grant, payload: Payload), BridgeError> {
        guard Self.isWellFormed(token), let (grant, payload, _) = open[token] else { return .failure(Self.noTicket) }
        var error = Self.refusal(of: grant, direction: .toSwift, in: pageLoad, from: origin)
        if error == nil, piece != grant.nextPiece {
            error = BridgeError(code: .malformedMessage, message: "a piece came out of order")
        }
        if let error {
            takeBack(token)
            return .failure(error)
        }
        open[token]?.grant.nextPiece += 1
        return .success((grant, payload))
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
            open[token]?.holding += count
            heldBytes += count
        }
        open[token]?.grant.maximumBytes -= count
        return nil
    }

    /// Why `grant` does not admit a request moving bytes `direction` in `pageLoad` from `origin`.
    private static func refusal(of grant: Grant, direction: Direction, in pageLoad: PageEpoch, from origin: String?) -> BridgeError? {
        guard grant.pageLoad == pageLoad else {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket belongs to an earlier page load")
        }
        guard grant.direction == direction else {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket moves bytes the other way")
        }
        // A request that does not say its origin (a no-cors load: an image, a script, a link) cannot
        // show it is the frame's: refused, as one from another origin is.
        if let issued = grant.origin, isTupleOrigin(issued), origin != issued {
            return BridgeError(code: .notAllowed, message: "the transfer's ticket was issued to another origin")
        }
        return nil
    }

    private static var noTicket: BridgeError { BridgeError(code: .notAllowed, message: "the transfer has no valid ticket") }

    /// What `owner` moved in `pageLoad` ended: its tickets go, or those that move bytes `direction`
    /// only. Returns how many went.
    @discardableResult
    mutating func withdraw(_ owner: TicketOwner, in pageLoad: PageEpoch, direction: Direction? = nil) -> Int {
        let before = open.count
        open = open.filter { ticket in
            ticket.value.grant.owner != owner || ticket.value.grant.pageLoad != pageLoad || direction.map { $0 != ticket.value.grant.direction } ?? false
        }
        heldBytes = open.values.reduce(0) { $0 + $1.holding }
        return before - open.count
    }

    /// Takes back the ticket `token`: the bytes it was opened for are not sent after all, or all of
    /// them have arrived.
    mutating func takeBack(_ token: String) {
        guard let (_, _, holding) = open.removeValue(forKey: token) else { return }
        heldBytes -= holding
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

    /// A new token: 32 lowercase hexadecimal digits, 128 bits from `generator`.
    static func newToken(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(tokenLength)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A token is 32 lowercase hexadecimal digits; anything else is refused before it is looked up.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == tokenLength && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static var tokenLength: Int { 32 }
}

/// Whose bytes a ticket moves: what its tickets go with.
enum TicketOwner: Sendable, Hashable {
    /// A call of the page's, by its callback: its argument's parts, or its results'.
    case pageCall(String)
    /// A Swift call of a page handler, by its id: its arguments' parts.
    case swiftCall(Int)
    /// An event's value's parts: they go with the page load only.
    case message
}
