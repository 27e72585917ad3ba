// TransferPayload.swift — what a byte-transfer ticket is for: a call waiting for its bytes, or a
// result's bytes waiting for the page.

import Foundation

/// What a ticket of the hub's (``TransferTickets``) moves.
enum TransferPayload: Sendable {
    /// The page's call whose argument the page sends as bytes: it runs once they have arrived, over
    /// the route it was admitted to.
    case upload(InboundCall, InboundCallRunner.Route)
    /// A `Data` result, held until the page fetches it (or its call is cancelled, or the page goes),
    /// and the call's bytes, told when it is fetched (a producer waits for room).
    case download(Data, CallBytes?)
}
