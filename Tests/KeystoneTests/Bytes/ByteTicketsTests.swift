// ByteTicketsTests.swift — the tickets that authorise byte transfers, as a pure value.
import Foundation
import Testing

@testable import Keystone

/// A generator that repeats a fixed sequence: tokens known in advance.
struct SequenceGenerator: RandomNumberGenerator {
    var values: [UInt64]
    var index = 0

    mutating func next() -> UInt64 {
        defer { index = (index + 1) % values.count }
        return values[index]
    }
}

typealias Tickets = ByteTickets

@Suite("Byte-transfer tickets")
struct ByteTicketsTests {
    let load = PageLoad(rawValue: 3)
    let a = String(repeating: "a", count: 32)
    let b = String(repeating: "b", count: 32)

    /// Which way a test's ticket moves bytes: its payload's.
    enum Way { case toSwift, toPage }

    func code(of result: Result<ByteTicket, BridgeError>) -> BridgeError.Code? {
        if case .failure(let error) = result { error.code } else { nil }
    }

    /// A ticket of `callback`'s: for a stream of up to 1 MiB from the page, or for `holding` bytes
    /// of parts to it.
    func ticket(_ callback: PageCallback = "dscb1", _ way: Way = .toSwift, origin: String? = nil, holding: Int = 0) -> ByteTicket {
        switch way {
        case .toSwift: ByteTicket(pageLoad: load, owner: .pageCall(callback), payload: .stream(ByteStream([])), maximumBytes: 1 << 20, origin: origin)
        case .toPage: ByteTicket(pageLoad: load, owner: .pageCall(callback), payload: .parts(Data(count: holding), of: nil), origin: origin)
        }
    }

    @Test func aFetchSpendsItsTicket() throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket("dscb1", .toPage))
        let redeemed = try tickets.redeem(a, in: load).get()
        #expect(redeemed.owner == .pageCall("dscb1") && redeemed.movesToPage)
        #expect(code(of: tickets.redeem(a, in: load)) == .notAllowed)
        #expect(tickets.count == 0)
    }

    @Test func thePagesPiecesComeInOrderUnderOneTicketUntilItIsClosed() throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket())
        #expect(try tickets.present(a, piece: 0, in: load).get().nextPiece == 0)
        #expect(tickets.received(100, under: a, keeps: false) == nil)
        #expect(try tickets.present(a, piece: 1, in: load).get().maximumBytes == (1 << 20) - 100)
        #expect(tickets.count == 1)
        tickets.takeBack(a)
        #expect(code(of: tickets.present(a, piece: 2, in: load)) == .notAllowed)
    }

    @Test(arguments: [0, 2, -1, 99])
    func aPieceOutOfOrderIsRefusedAndSpendsTheTicket(piece: Int) throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket())
        _ = tickets.present(a, piece: 0, in: load)
        #expect(code(of: tickets.present(a, piece: piece, in: load)) == .malformedMessage)
        #expect(code(of: tickets.present(a, piece: 1, in: load)) == .notAllowed)
    }

    @Test func aRequestThatSaysNoOriginIsRefusedATicketIssuedToAnOrigin() throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket("dscb1", .toPage, origin: "https://app.example"))
        #expect(code(of: tickets.redeem(a, in: load, from: nil)) == .notAllowed)
        try tickets.issue(b, ticket("dscb1", .toPage, origin: "https://app.example"))
        #expect(code(of: tickets.redeem(b, in: load, from: "https://app.example")) == nil)
    }

    @Test func aTicketUsedFromAnotherOriginIsRefusedAndSpent() throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket(origin: "https://app.example"))
        #expect(code(of: tickets.present(a, piece: 0, in: load, from: "https://evil.example")) == .notAllowed)
        #expect(code(of: tickets.present(a, piece: 0, in: load, from: "https://app.example")) == .notAllowed)
        try tickets.issue(a, ticket(origin: "https://app.example"))
        #expect(try tickets.present(a, piece: 0, in: load, from: "https://app.example").get().origin == "https://app.example")
    }

    @Test func aTicketTakenBackIsGoneWithItsBytes() throws {
        var tickets = Tickets(limit: 4, byteLimit: 100)
        try tickets.issue(a, ticket("dscb1", .toPage, holding: 60))
        tickets.takeBack(a)
        #expect(tickets.count == 0)
        #expect(tickets.heldBytes == 0)
        #expect(code(of: tickets.redeem(a, in: load)) == .notAllowed)
        tickets.takeBack(b)  // one never issued: nothing changes
        #expect(tickets.heldBytes == 0)
    }

    @Test func theBytesTicketsHoldAreBoundedInAllAndFreedAsTheyGo() throws {
        var tickets = Tickets(limit: 64, byteLimit: 1000)
        let tokens = (0..<4).map { String(repeating: "\($0)", count: 32) }
        try tickets.issue(tokens[0], ticket("dscb1", .toPage, holding: 600))
        let refused = #expect(throws: BridgeError.self) { try tickets.issue(tokens[1], ticket("dscb2", .toPage, holding: 401)) }
        #expect(refused == BridgeError(code: .limitExceeded, message: "the page load would hold more bytes than BridgeLimits.pageLoadBytes (1000 bytes)"))
        try tickets.issue(tokens[1], ticket("dscb2", .toPage, holding: 400))
        #expect(tickets.heldBytes == 1000)
        _ = tickets.redeem(tokens[0], in: load)  // fetched: its bytes go
        #expect(tickets.heldBytes == 400)
        tickets.issuePastLimit(tokens[2], ticket("dscb3", .toPage, holding: 300))
        tickets.withdraw(.pageCall("dscb2"), in: load)
        #expect(tickets.heldBytes == 300)
        tickets.pageDidUnload()
        #expect(tickets.heldBytes == 0)
    }

    @Test func thePagesBytesACallGathersCountAsTheyArriveAndPastTheLimitSpendTheTicket() throws {
        var tickets = Tickets(limit: 4, byteLimit: 1000)
        try tickets.issue(a, ticket())
        #expect(tickets.received(900, under: a, keeps: true) == nil)
        #expect(tickets.heldBytes == 900)
        #expect(tickets.received(101, under: a, keeps: true)?.code == .limitExceeded)
        #expect(tickets.heldBytes == 0)
        #expect(tickets.count == 0)
    }

    /// A call's ticket keeps what it gathered to itself: presenting a piece hands out no copy (which
    /// would make the next append copy it all), and closing the ticket hands it over.
    @Test func aCallsTicketGathersThePiecesInPlaceAndHandsThemOverWhenClosed() throws {
        var tickets = Tickets(limit: 4, byteLimit: 1000)
        try tickets.issue(a, ticket())
        #expect(try tickets.present(a, piece: 0, in: load).get().gathered.isEmpty)
        #expect(tickets.received(3, under: a, keeps: true) == nil)
        tickets.gather(Data([1, 2, 3]), under: a)
        let presented = try tickets.present(a, piece: 1, in: load).get()
        #expect(presented.gathered.isEmpty)
        #expect(presented.maximumBytes == (1 << 20) - 3)
        tickets.gather(Data([4]), under: a)
        #expect(tickets.takeBack(a)?.gathered == Data([1, 2, 3, 4]))
        #expect(tickets.takeBack(a) == nil)
        #expect(tickets.heldBytes == 0)
    }

    @Test func aTicketUsedTheWrongWayOrInAnotherPageLoadIsRefusedAndSpent() throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(a, ticket())
        #expect(code(of: tickets.redeem(a, in: load)) == .notAllowed)
        #expect(code(of: tickets.present(a, piece: 0, in: load)) == .notAllowed)  // spent by the misuse
        try tickets.issue(a, ticket("dscb1", .toPage))
        #expect(code(of: tickets.present(a, piece: 0, in: load)) == .notAllowed)
        #expect(code(of: tickets.redeem(a, in: load)) == .notAllowed)
        try tickets.issue(a, ticket())
        #expect(code(of: tickets.present(a, piece: 0, in: PageLoad(rawValue: 4))) == .notAllowed)
        #expect(tickets.count == 0)
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 32), String(repeating: "g", count: 32), String(repeating: "a", count: 33), String(repeating: "a", count: 100_000)])
    func aMalformedOrUnknownTicketIsRefusedWithoutRepeatingIt(_ token: String) throws {
        var tickets = Tickets(limit: 4)
        try tickets.issue(b, ticket())
        for refused in [tickets.present(token, piece: 0, in: load), tickets.redeem(token, in: load)] {
            guard case .failure(let error) = refused else {
                Issue.record("a forged ticket was accepted")
                return
            }
            #expect(error.code == .notAllowed)
            #expect(token.isEmpty || !error.message.contains(token))
        }
        #expect(tickets.count == 1)  // the real ticket is untouched
    }

    @Test func atMostTheLimitAreOpenAtOnce() throws {
        var tickets = Tickets(limit: 2)
        try tickets.issue(String(repeating: "1", count: 32), ticket("dscb1", .toPage))
        try tickets.issue(String(repeating: "2", count: 32), ticket())
        let error = #expect(throws: BridgeError.self) { try tickets.issue(String(repeating: "3", count: 32), ticket()) }
        #expect(error?.code == .limitExceeded)
        _ = tickets.redeem(String(repeating: "1", count: 32), in: load)
        try tickets.issue(String(repeating: "3", count: 32), ticket())
        #expect(tickets.count == 2)
    }

    @Test func whatAnOwnerMovedGoesWithItAndEverythingWithThePage() throws {
        var tickets = Tickets(limit: 8)
        try tickets.issue(String(repeating: "1", count: 32), ticket("dscb1"))
        try tickets.issue(String(repeating: "2", count: 32), ticket("dscb1", .toPage))
        try tickets.issue(String(repeating: "3", count: 32), ticket("dscb2"))
        var swift = ticket("dscb1", .toPage)
        swift.owner = .swiftCall(1)
        try tickets.issue(String(repeating: "4", count: 32), swift)
        #expect(tickets.withdraw(.pageCall("dscb1"), in: PageLoad(rawValue: 2)) == 0)  // another load's call of that name
        #expect(tickets.withdraw(.pageCall("dscb1"), in: load, receivingOnly: true) == 1)
        #expect(tickets.withdraw(.pageCall("dscb1"), in: load) == 1)
        #expect(tickets.withdraw(.swiftCall(1), in: load) == 1)
        #expect(code(of: tickets.present(String(repeating: "1", count: 32), piece: 0, in: load)) == .notAllowed)
        #expect(tickets.pageDidUnload() == 1)
        #expect(code(of: tickets.present(String(repeating: "3", count: 32), piece: 0, in: load)) == .notAllowed)
    }

    @Test func tokensAre128BitsAsLowercaseHexAndDifferEachTime() {
        var fixed = SequenceGenerator(values: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210])
        #expect(Tickets.newToken(using: &fixed) == "fedcba98765432100123456789abcdef")
        var system = SystemRandomNumberGenerator()
        let tokens = (0..<1_000).map { _ in Tickets.newToken(using: &system) }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy(Tickets.isWellFormed))
    }
}
