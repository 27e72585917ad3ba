// WKWebViewHost+WVJB.swift — WebViewJavascriptBridge's navigations: cancelled, and answered.
import Foundation
import Keystone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
extension WKWebViewHost {
    /// Whether the navigation is one WVJB uses as a signal (it never reaches the network and is
    /// never a page change); on WVJB's wire, answers it as the wire says, for the frame WebKit
    /// says made it (`WKNavigationAction.sourceFrame`, never the web view's possibly provisional
    /// URL): only the host's own web view's main document, of a document the hub admits.
    func decideWVJBNavigation(_ navigationAction: WKNavigationAction, in webView: WKWebView) -> Bool {
        guard let uri = navigationAction.request.url?.absoluteString, WVJBWire.isSignal(uri) else { return false }
        // `sourceFrame` is declared nonnull, yet WebKit hands nil for a navigation no frame started
        // (WKNavigationAction.mm checks for it itself): such a signal is no one's. Its bits are read
        // as an optional: a plain conversion to an optional is folded to "not nil" by the compiler,
        // which trusts the declaration.
        let source = unsafeBitCast(navigationAction.sourceFrame, to: WKFrameInfo?.self)
        guard let wvjb, webView === self.webView, let source else { return true }
        let frame = Self.callerFrame(source)
        switch wvjb.answer(toNavigation: uri, from: frame) {
        case .fetchQueue(let script):
            fetchWVJBQueue(script, wire: wvjb, from: frame)
        case .injectBridge(let script):
            webView.evaluateJavaScript(script, completionHandler: nil)
        case .cancel, nil:
            break
        }
        return true
    }

    /// Fetches the page's queue and answers it, a slice at a time; a fetch that fails is handed
    /// on as an empty queue, so the wire answers the page's next signal.
    private func fetchWVJBQueue(_ script: String, wire: WVJBWire, from frame: CallerFrame) {
        webView?.evaluateJavaScript(script) { [weak self] value, _ in
            self?.answer(wire.receive(queue: value as? String ?? "", from: frame), wire: wire, from: frame)
        }
    }

    /// Evaluates a slice's answers, then takes the wire's next step: the next slice once the main
    /// queue has run what waits on it, or the queue the page signalled meanwhile.
    private func answer(_ slice: WVJBWire.QueueSlice, wire: WVJBWire, from frame: CallerFrame) {
        if let script = slice.script { webView?.evaluateJavaScript(guarded(script), completionHandler: nil) }
        switch slice.next {
        case .done:
            break
        case .answerNextSlice:
            Task { @MainActor [weak self] in self?.answer(wire.answerNextSlice(), wire: wire, from: frame) }
        case .fetchQueue:
            fetchWVJBQueue(wire.fetchScript, wire: wire, from: frame)
        }
    }
}
#endif
