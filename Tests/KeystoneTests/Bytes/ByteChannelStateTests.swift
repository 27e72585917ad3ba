// ByteChannelStateTests.swift — the byte channel's state as a pure value, alone and as the hub's
// state machine keeps it: tickets opened, presented, spent and withdrawn, and messages whose values
// have parts.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import Testing

@testable import Keystone

@Suite("ByteChannelState")
struct ByteChannelStateTests {
    typealias Machine = HubStateMachine<String, String>

    /// A transport whose ticket addresses are `t:` and the ticket.
    struct Transport: ByteTransport {
        func address(ofTicket ticket: String) -> String { "t:" + ticket }
    }

    let parts = ByteParts(marker: "m:", data: [Data([1, 2]), Data([3])])
    /// A value naming both parts.
    let value = try! JSONText(validating: Data(#"{"a":"m:0","b":["m:1"]}"#.utf8))

    func newMachine(limit: Int = 8, bytes: Int = 1000) -> Machine {
        var limits = BridgeLimits()
        limits.openTransfers = limit
        limits.pageLoadBytes = bytes
        return Machine(limits: limits)
    }

    func machine(runtime: PageRuntime = .keystone, serving: Bool = true, limit: Int = 8, bytes: Int = 1000) -> Machine {
        var machine = newMachine(limit: limit, bytes: bytes)
        if serving { machine.bytes.serveBytes(over: Transport()) }
        _ = machine.pageDidInitialize(runtime: runtime)
        return machine
    }

    func result(_ callback: String = "dscb1") -> PageMessage {
        .result(callback: callback, value: value, complete: true)
    }

    /// The ticket of the message `outputs` delivers with parts.
    func ticket(in outputs: [Machine.Output]?) -> String? {
        guard case .deliver(.withParts(_, let parts), _, _, _)? = outputs?.first, case .ticket(let address) = parts.source else { return nil }
        return String(address.dropFirst(2))
    }

    @Test func aValuesPartsGoUnderOneTicketToKeystonesRuntimeWithAChannel() throws {
        var machine = machine()
        let outputs = machine.send(result(), parts: parts, to: nil)
        let token = try #require(ticket(in: outputs))
        guard case .deliver(.withParts(let message, let sent), .keystone, .first, nil)? = outputs?.first else {
            Issue.record("no message with parts")
            return
        }
        #expect(message == result())
        #expect(sent.marker == "m:")
        #expect(sent.sizes == [2, 1])
        #expect(machine.bytes.tickets.count == 1)
        let fetched = try machine.bytes.fetch(token, in: .first, from: nil).get()
        #expect(fetched.owner == .pageCall("dscb1"))
        guard case .parts(let bytes, nil) = fetched.payload else {
            Issue.record("the ticket did not fetch the parts")
            return
        }
        #expect(bytes == Data([1, 2, 3]))
        #expect(machine.bytes.tickets.count == 0)
    }

    @Test func withoutAChannelTheRuntimeGetsThePartsInTheMessageAndAnyOtherPageBase64InPlace() {
        var keystoneRuntime = machine(serving: false)
        #expect(
            keystoneRuntime.send(result(), parts: parts, to: nil)
                == [.deliver(.withParts(result(), MessageParts(marker: "m:", sizes: [2, 1], source: .inline([Data([1, 2]), Data([3])]))), .keystone, .first, nil)])
        var plain = machine(runtime: .dsbridge)
        let inlined = try! JSONText(validating: Data(#"{"a":"AQI=","b":["Aw=="]}"#.utf8))
        #expect(plain.send(result(), parts: parts, to: nil) == [.deliver(.result(callback: "dscb1", value: inlined, complete: true), .dsbridge, .first, nil)])
        #expect(keystoneRuntime.bytes.tickets.count + plain.bytes.tickets.count == 0)
    }

    @Test func aResultsTicketCountsTowardTheLimitsAndPastThemTheCallFails() {
        var machine = machine(limit: 1)
        #expect(ticket(in: machine.send(result("dscb1"), parts: parts, to: nil)) != nil)
        let refused = machine.send(result("dscb2"), parts: parts, to: nil)
        guard case .deliver(.failure("dscb2", let error), _, _, _)? = refused?.first else {
            Issue.record("the result past the limit went out")
            return
        }
        #expect(error.code == .limitExceeded)
        // Swift's own call may go past it: Swift bounded its bytes when it made them.
        let (id, made) = machine.makeCall("call", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        #expect(id != nil)
        #expect(ticket(in: made.outputs) != nil)
        #expect(machine.bytes.tickets.count == 2)
    }

    @Test func aMessagesTicketBelongsToWhatTheMessageIs() {
        var machine = machine()
        _ = machine.send(result("dscb1"), parts: parts, to: nil)
        _ = machine.makeCall("call", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        _ = machine.emit(.event(name: "e", value: value), parts: parts, to: nil)
        #expect(machine.bytes.tickets.count == 3)
        #expect(machine.cancelTask(callback: "dscb1").found)  // the result's goes with its call
        #expect(machine.bytes.tickets.count == 2)
        _ = machine.cancelCall(id: 1)  // the page handler's call's with that call
        #expect(machine.bytes.tickets.count == 1)
        _ = machine.pageDidUnload()  // the event's with its page load only
        #expect(machine.bytes.tickets.count == 0)
    }

    @Test func swiftsCallsPartsGoWithTheCallsAnswerOrCancellation() {
        var machine = machine()
        _ = machine.makeCall("answered", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        _ = machine.makeCall("cancelled", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        #expect(machine.bytes.tickets.count == 2)
        _ = machine.receiveAnswer(id: 1, complete: true)
        #expect(machine.bytes.tickets.count == 1)
        _ = machine.cancelCall(id: 2)
        #expect(machine.bytes.tickets.count == 0)
    }

    @Test func swiftsBytesWaitingForThePageCountTowardWhatAPageLoadHolds() {
        var machine = newMachine(bytes: 5)
        machine.bytes.serveBytes(over: Transport())
        #expect(machine.makeCall("first", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil).id != nil)
        let (id, refused) = machine.makeCall("second", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        #expect(id == nil)
        #expect(refused.failed.map(\.call) == ["second"])
        #expect(refused.failed.map(\.error.code) == [.limitExceeded])
        let posted = machine.swiftCalls.nextId()
        #expect(machine.emit(.call(method: "m", callbackId: posted, arguments: value), parts: parts, to: nil) == nil)
        #expect(machine.emit(.event(name: "e", value: value), parts: parts, to: nil) == nil)
    }

    @Test func thePagesPiecesArriveUnderAnOpenTicketUntilItIsClosed() throws {
        var machine = machine()
        let stream = ByteStream(windowBytes: 10, limit: 10)
        let ticket = ByteTicket(pageLoad: .first, owner: .pageCall("dscb1"), payload: .stream(stream), maximumBytes: 10)
        let token = "0123456789abcdef0123456789abcdef"
        #expect(try machine.bytes.open(ticket, in: .first, token: token).get() == "t:" + token)
        #expect(try machine.bytes.present(token, piece: 0, in: .first, from: nil).get().maximumBytes == 10)
        #expect(machine.bytes.receive(Data(count: 4), under: token, keeps: false) == nil)
        #expect(try machine.bytes.present(token, piece: 1, in: .first, from: nil).get().maximumBytes == 6)
        // The method stopped reading: the ticket for the page's bytes goes, a result's stays.
        _ = machine.send(result(), parts: parts, to: nil)
        machine.bytes.withdraw(pageCall: "dscb1", in: .first, receivingOnly: true)
        #expect(machine.bytes.tickets.count == 1)
        #expect(throws: BridgeError.self) { try machine.bytes.present(token, piece: 2, in: .first, from: nil).get() }
        // The page cancels the call: the rest go with it.
        #expect(machine.cancelTask(callback: "dscb1").found)
        #expect(machine.bytes.tickets.count == 0)
    }

    @Test func aTicketIsRefusedWithoutAChannelAndForAPageLoadThatHasGone() {
        var machine = machine(serving: false)
        let ticket = ByteTicket(pageLoad: .first, owner: .pageCall("dscb1"), payload: .stream(ByteStream([])), maximumBytes: 10)
        let noChannel = machine.bytes.open(ticket, in: machine.pageLoad)
        #expect((try? noChannel.get()) == nil)
        machine.bytes.serveBytes(over: Transport())
        _ = machine.pageDidUnload()
        guard case .failure(let error) = machine.bytes.open(ticket, in: machine.pageLoad) else {
            Issue.record("a ticket was opened for a page load that has gone")
            return
        }
        #expect(error.code == .pageGone)
    }

    @Test func anUnloadDropsEveryTicketAndWhatWaitedWithItsParts() {
        var machine = newMachine(bytes: 5)
        machine.bytes.serveBytes(over: Transport())
        _ = machine.makeCall("waiting", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil)
        _ = machine.pageDidInitialize(runtime: .keystone)
        #expect(machine.bytes.tickets.count == 1)
        _ = machine.pageDidUnload()
        #expect(machine.bytes.tickets.count == 0)
        // What the page load held is free again.
        #expect(machine.makeCall("next", method: "m", arguments: value, parts: parts, isMultiResponse: false, to: nil).id != nil)
    }
}
