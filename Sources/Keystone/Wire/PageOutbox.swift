// PageOutbox.swift — where a room's messages for the page go, and how a call is refused while the
// page waits.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What every room that answers the page needs from the hub: a message sent to a page load and
/// document, in order with every other, and a refusal written as the call's answer. The hub is it.
protocol PageOutbox: AnyObject, Sendable {
    /// Sends `message` to the page load `pageLoad` (`nil`: the current one) and its subframe
    /// document `frame` (`nil`: the main frame), with the parts of its value, a result of `call`'s;
    /// whether the page load and document were still there.
    @discardableResult
    func send(_ message: PageMessage, parts: ByteParts?, of call: CallParts?, to pageLoad: PageLoad?, frame: FrameDocument?) -> Bool
    /// Answers a call with an error while the page waits: the error is the answer, and a callback
    /// the page registered for it is released in its document (it would never run).
    func refuse(_ error: any Error, callback: PageCallback?) -> CallAnswer
}

extension PageOutbox {
    /// Sends `message`, whose value has no parts.
    @discardableResult
    func send(_ message: PageMessage, to pageLoad: PageLoad?, frame: FrameDocument?) -> Bool {
        send(message, parts: nil, of: nil, to: pageLoad, frame: frame)
    }

    /// Answers a call the page has had its answer to already (`isAnsweredLater`: its parts' ticket)
    /// with `error` through its callback, in `pageLoad`; any other with the refusal as its answer.
    func refuse(_ error: BridgeError, callback: PageCallback?, pageLoad: PageLoad, isAnsweredLater: Bool) -> CallAnswer {
        guard isAnsweredLater, let callback else { return refuse(error, callback: callback) }
        send(.failure(callback: callback.name, error: error), to: pageLoad, frame: callback.frame)
        return .accepted
    }
}
