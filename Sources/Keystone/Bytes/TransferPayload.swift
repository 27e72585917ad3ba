// TransferPayload.swift — what a ticket of the byte channel moves: the page's bytes for a call, or
// Swift's bytes for the page.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What a ticket of the hub's (``ByteTickets``) moves.
enum TransferPayload: Sendable {
    /// The parts of a page's call, `sizes` bytes each, gathered as the pieces arrive; the call runs,
    /// over the route it was admitted to, once all have. With no `sizes`, a stream into a method
    /// that takes `Data`: gathered until the page ends it, then the call runs with it as its part. The bytes are one buffer each piece is
    /// appended to in place (a value copied out of the ticket and appended to would copy
    /// everything gathered so far, for every piece).
    case call(InboundCall, InboundCallRunner.Route, sizes: [Int]?, gathered: Locked<Data>)
    /// A stream of the page's into a running method that takes a ``ByteStream``: each piece goes to
    /// it as it arrives.
    case stream(ByteStreamBuffer)
    /// A message's parts, one after another, until the page fetches them (or their owner ends, or
    /// the page goes); and the call whose results they are, told when they are fetched.
    case parts(Data, CallParts?)

    /// How many bytes the payload keeps while its ticket is open, counted against
    /// ``BridgeLimits/pageLoadBytes``: a message's parts. A call's gathered bytes are counted as they
    /// arrive.
    var heldBytes: Int {
        switch self {
        case .parts(let bytes, _): bytes.count
        case .call, .stream: 0
        }
    }
}
