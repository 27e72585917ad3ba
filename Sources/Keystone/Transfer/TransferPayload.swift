// TransferPayload.swift — what a byte-transfer ticket is for: a call waiting for its bytes, or a
// result's bytes waiting for the page.

import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What a ticket of the hub's (``TransferTickets``) moves.
enum TransferPayload: Sendable {
    /// The page's call whose argument the page sends as bytes: it runs once they have arrived, over
    /// the route it was admitted to.
    case upload(InboundCall, InboundCallRunner.Route)
    /// The page's call whose `Data` argument the page sends as a stream: its chunks so far,
    /// gathered until the stream ends; then it runs like an upload. The bytes are one buffer that
    /// each chunk is appended to in place (a value copied out of the ticket and appended to would
    /// copy everything gathered so far, for every chunk).
    case gather(InboundCall, InboundCallRunner.Route, Locked<Data>)
    /// A stream of the page's into a running method that takes a ``ByteStream``: each chunk goes
    /// to it as it arrives.
    case stream(ByteStreamBuffer)
    /// A `Data` result, held until the page fetches it (or its call is cancelled, or the page goes),
    /// and the call's bytes, told when it is fetched (a producer waits for room).
    case download(Data, CallBytes?)
}

extension TransferPayload {
    /// How many bytes the payload keeps while its ticket is open: counted against
    /// ``BridgeLimits/pageLoadBytes``.
    var heldBytes: Int {
        switch self {
        case .download(let bytes, _): bytes.count
        case .gather(_, _, let gathered): gathered.withLock { $0.count }
        case .upload, .stream: 0
        }
    }
}
