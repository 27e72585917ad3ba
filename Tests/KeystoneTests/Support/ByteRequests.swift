// ByteRequests.swift — requests on the byte channel as the page's runtime makes them, for tests that
// drive the channel itself.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

extension BridgeHub {
    /// Posts piece `number` of the bytes under the ticket at `address`, answered at once (`nil`: the
    /// hub answers later); `read` is set when the hub read the body.
    func piece(_ number: Int, of address: String, _ body: Data?, origin: String? = nil, read: UnsafeMutablePointer<Bool>? = nil) -> ByteResponse? {
        receiveBytesNow(ByteRequest(ticket: Self.ticket(of: address), kind: .piece(number), origin: origin)) { limit in
            read?.pointee = true
            return body.flatMap { $0.count <= limit ? $0 : nil }
        }
    }

    /// Posts the end of a stream after `count` pieces under the ticket at `address`.
    func end(after count: Int, of address: String) -> ByteResponse? {
        receiveBytesNow(ByteRequest(ticket: Self.ticket(of: address), kind: .end(count), origin: nil)) { _ in Data() }
    }

    /// Fetches the parts under the ticket at `address`.
    func fetch(_ address: String, origin: String? = nil) -> ByteResponse? {
        receiveBytesNow(ByteRequest(ticket: Self.ticket(of: address), kind: .fetch, origin: origin)) { _ in Data() }
    }

    static func ticket(of address: String) -> String {
        String(address.dropFirst(URLSchemeTransport.keystone.base.count))
    }
}

/// The ticket's address in a call's answer (`"ticket"`).
func ticketAddress(_ answer: String?) -> String? {
    struct Ticket: Decodable { var ticket: String? }
    return answer.flatMap { try? JSONDecoder().decode(Ticket.self, from: Data($0.utf8)).ticket }
}

extension ByteResponse {
    /// The refusal's error, if refused.
    var refusal: BridgeError? {
        if case .refused(let error) = self { return error }
        return nil
    }
}
