// OutboundHub.swift — what Swift's calls of the page need from the hub's state.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The events Swift's calls and events send the hub, which keeps the calls' table with the page
/// load they are bound to and sends their messages in order with every other.
protocol OutboundHub: AnyObject, Sendable {
    /// Makes a call of the page's handler `method` for the page load `pageLoad` (`nil`: the current
    /// one), in its subframe document `frame` (`nil`: the main frame): gives it the next id, records
    /// it and queues its message in one step. The id, or `nil` after failing the call. A call with a
    /// `durableID` goes again to each next document of its origin until one answers it.
    func makeCall(
        _ call: PageHandlerCall, method: String, arguments: JSONText, parts: ByteParts?, isMultiResponse: Bool, to pageLoad: PageLoad?,
        frame: FrameDocument?, durableID: String?
    ) -> Int?
    /// Sends a call whose answer nobody waits for, in order with every other call.
    func post(method: String, arguments: JSONText, parts: ByteParts?)
    /// Sends an event, its value's parts beside it; whether its page load and document were there
    /// and the parts fit.
    func emit(_ event: PageMessage, parts: ByteParts?, to pageLoad: PageLoad?, frame: FrameDocument?) -> Bool
    /// The document `frame` answered call `id`: what the answer does.
    func receiveAnswer(id: Int, complete: Bool, undelivered: Bool, from frame: FrameDocument?) -> SwiftCalls<PageHandlerCall>.Answer
    /// Swift stopped waiting for call `id`: it fails with `cancelled` if it had not settled, and the
    /// page is told, or the call taken back if it has not gone out.
    func cancelCall(id: Int)
}
