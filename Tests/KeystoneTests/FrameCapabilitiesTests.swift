// FrameCapabilitiesTests.swift — a capability names the frame it was issued for, nothing else
// does, and the set remembers only so many.
import Keystone
import Testing

@Suite("Frame capabilities")
struct FrameCapabilitiesTests {
    /// Numbers from a fixed list, then zeros: capabilities known in advance.
    struct Scripted: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
    }

    static let bank = CallerFrame(isMainFrame: true, origin: "https://bank.example")
    static let ad = CallerFrame(isMainFrame: false, origin: "https://ads.example")

    @Test func anIssuedCapabilityIsThirtyTwoLowercaseHexDigitsNamingItsFrame() {
        var capabilities = FrameCapabilities()
        var numbers = Scripted(values: [0xAB, 0x0123_4567_89AB_CDEF])
        let name = capabilities.issue(for: Self.bank, using: &numbers)
        #expect(name == "00000000000000ab0123456789abcdef")
        #expect(capabilities.frame(for: name) == Self.bank)
    }

    @Test func capabilitiesFromTheSystemAreDistinctAndEachNamesItsOwnFrame() {
        var capabilities = FrameCapabilities()
        let bank = capabilities.issue(for: Self.bank)
        let ad = capabilities.issue(for: Self.ad)
        #expect(bank != ad)
        #expect(bank.utf8.count == FrameCapabilities.length && ad.utf8.count == FrameCapabilities.length)
        #expect(capabilities.frame(for: bank) == Self.bank)
        #expect(capabilities.frame(for: ad) == Self.ad)
    }

    @Test func aNumberAlreadyIssuedIsDrawnAgain() {
        var capabilities = FrameCapabilities()
        var numbers = Scripted(values: [1, 2, 1, 2, 3, 4])
        let first = capabilities.issue(for: Self.bank, using: &numbers)
        let second = capabilities.issue(for: Self.ad, using: &numbers)
        #expect(first != second)
        #expect(capabilities.frame(for: first) == Self.bank)
        #expect(capabilities.frame(for: second) == Self.ad)
    }

    @Test(arguments: [
        "", "0", "0000000000000000000000000000000", "000000000000000000000000000000010",
        "0000000000000000000000000000000A", "0000000000000000000000000000000g", "000000000000000 0000000000000001",
        "00000000000000000000000000000002",
    ])
    func textThatIsNotAnIssuedCapabilityNamesNoFrame(_ text: String) {
        var capabilities = FrameCapabilities()
        var numbers = Scripted(values: [0, 1])
        _ = capabilities.issue(for: Self.bank, using: &numbers)
        #expect(capabilities.frame(for: text) == nil)
    }

    @Test func issuingPastTheCapacityForgetsTheOldestFirst() {
        var capabilities = FrameCapabilities(capacity: 2)
        let first = capabilities.issue(for: Self.bank)
        let second = capabilities.issue(for: Self.ad)
        let third = capabilities.issue(for: Self.bank)
        #expect(capabilities.count == 2)
        #expect(capabilities.frame(for: first) == nil)
        #expect(capabilities.frame(for: second) == Self.ad)
        let fourth = capabilities.issue(for: Self.ad)
        #expect(capabilities.frame(for: second) == nil)
        #expect([third, fourth].map { capabilities.frame(for: $0) } == [Self.bank, Self.ad])
    }

    @Test func removingAllForgetsEveryCapabilityAndIssuingStartsAfresh() {
        var capabilities = FrameCapabilities(capacity: 2)
        let old = [capabilities.issue(for: Self.bank), capabilities.issue(for: Self.ad)]
        capabilities.removeAll()
        #expect(capabilities.count == 0)
        #expect(old.allSatisfy { capabilities.frame(for: $0) == nil })
        let fresh = [capabilities.issue(for: Self.ad), capabilities.issue(for: Self.bank)]
        #expect(fresh.map { capabilities.frame(for: $0) } == [Self.ad, Self.bank])
    }
}
