// PageDialect.swift — how a page speaks to a host beyond the bridge's own calls: how what is bound
// for the page is written, and the signals (navigations that are never page changes) it makes.
import KeystoneEvaluator
import KeystoneInterfaces

/// A page's dialect, as a host hears and answers it. A host hands its dialect every batch and every
/// navigation, and takes the ``DialectStep``s it returns; it never asks which dialect it has.
///
/// - **DSBridge** (``dsBridge``): batches go as they are, and the page makes no signal.
/// - **WebViewJavascriptBridge** (``webViewJavascriptBridge(hub:)``): batches are rewritten as WVJB
///   messages, and the page signals with a navigation; the host fetches its queue and hands the
///   value back (``fetched(_:from:)``), answering a long queue a slice at a time.
package protocol PageDialect: AnyObject, Sendable {
    /// The script that delivers `batch` to the page; `""` when nothing in it is for the page.
    func script(for batch: ScriptBatch) -> String
    /// Whether a navigation to `url` is one of the dialect's signals: cancelled, whichever frame
    /// made it, and never a page change.
    func isSignal(_ url: String) -> Bool
    /// What a host does about a signal to `url` that `frame` made (as the engine reports it).
    func answer(signal url: String, from frame: CallerFrame) -> [DialectStep]
    /// What a host does with the value of a ``DialectStep/fetch(_:limit:)`` step's script (`nil`
    /// when it failed or was no string), fetched for `frame`.
    func fetched(_ value: String?, from frame: CallerFrame) -> [DialectStep]
    /// What a host does after a ``DialectStep/resumeLater`` step, for `frame`.
    func resume(from frame: CallerFrame) -> [DialectStep]
    /// The signals' addresses as a JavaScript regular expression's source (case-insensitive), for a
    /// host that learns of them from the page's own document; `nil` when the dialect makes none.
    var signalPattern: String? { get }
    /// The page load ended: what the dialect kept of it goes.
    func pageDidUnload()
}

/// One thing a host does for its page's dialect, in order.
package enum DialectStep: Sendable, Hashable {
    /// Evaluate `script` in the main frame, guarded to run only in the current page load's
    /// document (a dialect's answers to calls).
    case answer(String)
    /// Evaluate `script` in the main frame as it is (what installs a dialect's own page script).
    case inject(String)
    /// Evaluate `script` in the main frame and hand its string value (at most `limit` bytes) to
    /// ``PageDialect/fetched(_:from:)``.
    case fetch(String, limit: Int)
    /// Once the engine has run what waits on its thread, call ``PageDialect/resume(from:)``.
    case resumeLater
}

extension PageDialect where Self == DSBridgeDialect {
    /// DSBridge's dialect (`dsbridge.js` and Keystone's runtime): batches as they are, no signals.
    package static var dsBridge: DSBridgeDialect { DSBridgeDialect() }
}

extension PageDialect where Self == WVJBWire {
    /// WebViewJavascriptBridge 6's dialect, speaking to `hub`.
    package static func webViewJavascriptBridge(hub: any BridgeHub) -> WVJBWire { WVJBWire(hub: hub) }
}

/// DSBridge's dialect: everything the bridge sends is already the page's own script.
package final class DSBridgeDialect: PageDialect {
    package init() {}
    package func script(for batch: ScriptBatch) -> String { batch.script }
    package func isSignal(_ url: String) -> Bool { false }
    package func answer(signal url: String, from frame: CallerFrame) -> [DialectStep] { [] }
    package func fetched(_ value: String?, from frame: CallerFrame) -> [DialectStep] { [] }
    package func resume(from frame: CallerFrame) -> [DialectStep] { [] }
    package var signalPattern: String? { nil }
    package func pageDidUnload() {}
}
