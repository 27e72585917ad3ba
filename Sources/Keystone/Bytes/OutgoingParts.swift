// OutgoingParts.swift — the parts of a message's value on their way to the page, and how a page
// that takes no bytes reads them: as base64 in their place.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The parts of a message's value, with what their ticket goes with and whom it is issued to.
struct OutgoingParts: Sendable {
    var parts: ByteParts
    var owner: TicketOwner
    /// The origin of the frame the ticket is issued to: a call's, for its results.
    var origin: String? = nil
    /// The call whose results they are, told when they are fetched.
    var flow: CallParts? = nil
}

extension PageMessage {
    /// The message with each of `parts` written as base64 in its marker's place: as a page that
    /// takes no bytes reads the value, and as the serializer writes `Data` by default.
    package func inliningParts(_ parts: ByteParts) -> PageMessage {
        // The value was checked JSON, and a marker string gives way to a base64 string.
        func inlined(_ value: JSONText) -> JSONText { (try? JSONText(validating: parts.inlined(into: value.bytes))) ?? value }
        switch self {
        case .result(let callback, let value, let complete): return .result(callback: callback, value: inlined(value), complete: complete)
        case .call(let method, let id, let arguments): return .call(method: method, callbackId: id, arguments: inlined(arguments))
        case .event(let name, let value): return .event(name: name, value: inlined(value))
        default: return self
        }
    }
}
