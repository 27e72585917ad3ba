// TransferTicketsTests.swift — the tickets that authorise byte transfers, as a pure value.
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

@Suite("Byte-transfer tickets")
struct TransferTicketsTests {
    let load = PageEpoch(rawValue: 3)

    func code(of result: Result<TransferTickets.Grant, BridgeError>) -> BridgeError.Code? {
        if case .failure(let error) = result { error.code } else { nil }
    }

    func grant(_ callback: String = "dscb1", _ direction: TransferTickets.Direction = .toSwift) -> TransferTickets.Grant {
        TransferTickets.Grant(pageLoad: load, callback: callback, direction: direction, maximumBytes: 1 << 20)
    }

    @Test func aTicketIsSpentByItsFirstUse() throws {
        var tickets = TransferTickets(limit: 4)
        try tickets.issue("0123456789abcdef0123456789abcdef", for: grant())
        #expect(try tickets.redeem("0123456789abcdef0123456789abcdef", direction: .toSwift, in: load).get() == grant())
        #expect(throws: BridgeError.self) { try tickets.redeem("0123456789abcdef0123456789abcdef", direction: .toSwift, in: load).get() }
        #expect(tickets.count == 0)
    }

    @Test func aTicketUsedTheWrongWayOrInAnotherPageLoadIsRefusedAndSpent() throws {
        var tickets = TransferTickets(limit: 4)
        let token = String(repeating: "a", count: 32)
        try tickets.issue(token, for: grant())
        let wrongWay = tickets.redeem(token, direction: .toPage, in: load)
        #expect(code(of: wrongWay) == .notAllowed)
        #expect(code(of: tickets.redeem(token, direction: .toSwift, in: load)) == .notAllowed)  // spent by the misuse

        try tickets.issue(token, for: grant())
        #expect(code(of: tickets.redeem(token, direction: .toSwift, in: PageEpoch(rawValue: 4))) == .notAllowed)
        #expect(tickets.count == 0)
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 32), String(repeating: "g", count: 32), String(repeating: "a", count: 33), String(repeating: "a", count: 100_000)])
    func aMalformedOrUnknownTicketIsRefusedWithoutRepeatingIt(_ token: String) throws {
        var tickets = TransferTickets(limit: 4)
        try tickets.issue(String(repeating: "b", count: 32), for: grant())
        let refused = tickets.redeem(token, direction: .toSwift, in: load)
        guard case .failure(let error) = refused else {
            Issue.record("a forged ticket was accepted")
            return
        }
        #expect(error.code == .notAllowed)
        #expect(token.isEmpty || !error.message.contains(token))
        #expect(tickets.count == 1)  // the real ticket is untouched
    }

    @Test func atMostTheLimitAreOpenAtOnce() throws {
        var tickets = TransferTickets(limit: 2)
        try tickets.issue(String(repeating: "1", count: 32), for: grant())
        try tickets.issue(String(repeating: "2", count: 32), for: grant())
        let error = #expect(throws: BridgeError.self) { try tickets.issue(String(repeating: "3", count: 32), for: grant()) }
        #expect(error?.code == .limitExceeded)
        _ = tickets.redeem(String(repeating: "1", count: 32), direction: .toSwift, in: load)
        try tickets.issue(String(repeating: "3", count: 32), for: grant())
        #expect(tickets.count == 2)
    }

    @Test func aCallThatEndsOrAPageThatGoesTakesItsTicketsWithIt() throws {
        var tickets = TransferTickets(limit: 8)
        try tickets.issue(String(repeating: "1", count: 32), for: grant("dscb1"))
        try tickets.issue(String(repeating: "2", count: 32), for: grant("dscb1", .toPage))
        try tickets.issue(String(repeating: "3", count: 32), for: grant("dscb2"))
        #expect(tickets.withdraw(callback: "dscb1", in: PageEpoch(rawValue: 2)) == 0)  // another load's call of that name
        #expect(tickets.withdraw(callback: "dscb1", in: load) == 2)
        #expect(code(of: tickets.redeem(String(repeating: "1", count: 32), direction: .toSwift, in: load)) == .notAllowed)
        #expect(tickets.pageDidUnload() == 1)
        #expect(code(of: tickets.redeem(String(repeating: "3", count: 32), direction: .toSwift, in: load)) == .notAllowed)
    }

    @Test func tokensAre128BitsAsLowercaseHexAndDifferEachTime() {
        var fixed = SequenceGenerator(values: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210])
        #expect(TransferTickets.newToken(using: &fixed) == "fedcba98765432100123456789abcdef")
        var system = SystemRandomNumberGenerator()
        let tokens = (0..<1_000).map { _ in TransferTickets.newToken(using: &system) }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy(TransferTickets.isWellFormed))
    }
}
