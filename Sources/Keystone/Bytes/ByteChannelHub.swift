// ByteChannelHub.swift — what the byte channel needs from the hub: its own state, under the hub's
// lock, and the page's running calls.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What the byte channel needs from the hub, which keeps the channel's state
/// (``ByteChannelState``) beside the page load it belongs to, so that a page load's end takes its
/// tickets in the same step.
protocol ByteChannelHub: PageOutbox {
    /// Runs `body` on the channel's state, under the hub's lock, with the current page load: the
    /// channel's own events, which touch nothing else of the hub's.
    @discardableResult
    func withChannel<Result>(_ body: (inout ByteChannelState, _ pageLoad: PageLoad) -> Result) -> Result
    /// Cancels the page's call behind `callback`; whether there was one.
    func cancelRunningCall(callback: PageCallback) -> Bool
}
