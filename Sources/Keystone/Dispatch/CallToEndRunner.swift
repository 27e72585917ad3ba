// CallToEndRunner.swift — running a call of the page's to its end, outside its page load: what a
// room that keeps calls past their page asks of the inbound calls.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// How a call run to its end ended.
enum CallEnd: Sendable {
    /// It ran: to this result, as its method encoded it, or to this error.
    case ran(Result<Data, BridgeError>)
    /// It never ran: its argument did not decode.
    case neverRan(BridgeError)
    /// It never ran: its method answers many times, and a call run to its end has one result.
    case answersMany
}

/// Runs a call's method to its end, whatever becomes of its page load: the hub's inbound calls,
/// which run every call's method (middleware, dispatch, run).
protocol CallToEndRunner {
    func runToEnd(_ call: InboundCall, pageLoad: PageLoad, then end: @escaping @Sendable (CallEnd) -> Void)
}
