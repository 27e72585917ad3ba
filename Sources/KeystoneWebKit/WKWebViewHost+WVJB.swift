// WKWebViewHost+WVJB.swift — WebViewJavascriptBridge's navigations: cancelled, and answered.
import Foundation
import Keystone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_STANDIN
extension WKWebViewHost {
    /// Both forms of the navigation decision: WebKit asks the one with preferences when the app's
    /// delegate has it, so the host answers both and passes every other navigation to the app.
    public func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        if decideWVJBNavigation(navigationAction, in: webView) { return decisionHandler(.cancel) }
        #if canImport(ObjectiveC)
        if let app = appNavigationDelegate, app.responds(to: #selector(WKNavigationDelegate.webView(_:decidePolicyFor:decisionHandler:))) {
            return app.webView?(webView, decidePolicyFor: navigationAction, decisionHandler: decisionHandler) ?? decisionHandler(.allow)
        }
        #endif
        decisionHandler(.allow)
    }

    /// The navigation decision with preferences: a WVJB signal is cancelled and answered; every
    /// other navigation goes to the app's delegate, in whichever form it has.
    public func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {
        if decideWVJBNavigation(navigationAction, in: webView) { return decisionHandler(.cancel, preferences) }
        #if canImport(ObjectiveC)
        if let app = appNavigationDelegate, app.responds(to: #selector(WKNavigationDelegate.webView(_:decidePolicyFor:preferences:decisionHandler:))) {
            return app.webView?(webView, decidePolicyFor: navigationAction, preferences: preferences, decisionHandler: decisionHandler)
                ?? decisionHandler(.allow, preferences)
        }
        #endif
        // The app has only the form without preferences, or neither: ask that one.
        self.webView(webView, decidePolicyFor: navigationAction) { decisionHandler($0, preferences) }
    }

    /// Whether the navigation is one WVJB uses as a signal (it never reaches the network and is
    /// never a page change); on WVJB's wire, answers it: a queue signal fetches the page's queue, a
    /// request for a bridge injects Keystone's WVJB page script when the page has none.
    private func decideWVJBNavigation(_ navigationAction: WKNavigationAction, in webView: WKWebView) -> Bool {
        guard let uri = navigationAction.request.url?.absoluteString else { return false }
        let isQueueSignal = PageWire.isWVJBQueueSignal(uri)
        guard isQueueSignal || PageWire.isWVJBBridgeRequest(uri) else { return false }
        // Only the main document's own signals are answered (a subframe's are cancelled, unanswered),
        // and nothing for a document the hub does not admit: no script, no fetch, no answers. The
        // caller is the frame that made the navigation, as WebKit reports it.
        let frame = Self.callerFrame(navigationAction.sourceFrame)
        guard let wvjb, frame.isMainFrame, hub.refusal(of: frame) == nil else { return true }
        if isQueueSignal {
            webView.evaluateJavaScript(wvjb.fetchScript) { [weak self] value, _ in
                guard let self, let text = value as? String, let answers = wvjb.receive(queue: text, from: frame) else { return }
                self.webView?.evaluateJavaScript(self.guarded(answers), completionHandler: nil)
            }
        } else if let script = try? Keystone.wvjbPageScript() {
            webView.evaluateJavaScript(script, completionHandler: nil)  // returns at once when a bridge is in
        }
        return true
    }
}
#endif
