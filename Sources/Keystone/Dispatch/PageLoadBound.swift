// PageLoadBound.swift — a call's page that knows the page load the call was made in.
import KeystoneEvaluator

/// The page of a call's ``CallContext`` as the hub made it, bound to the page load that called: a
/// built-in reads it there, whichever room added the built-in.
protocol PageLoadBound {
    var pageLoad: PageLoad { get }
}
