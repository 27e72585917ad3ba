// PageHandlerCall.swift — a Swift call of a page handler that has not settled, and how to settle it.
import Foundation

/// A Swift call of a page handler that has not settled.
struct PageHandlerCall: Sendable {
    /// Takes the `_dsb.returnValue` message that answers this call; `complete` is whether it is the last.
    let receive: @Sendable (_ answer: PageAnswer, _ complete: Bool) -> Void
    /// Settles the call with an error.
    let fail: @Sendable (BridgeError) -> Void
}
