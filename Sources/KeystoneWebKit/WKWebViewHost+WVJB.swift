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
    /// never a page change); on WVJB's wire, answers it as the wire says, for the frame WebKit
    /// says made it: only the main document's own signals, of a document the hub admits.
    private func decideWVJBNavigation(_ navigationAction: WKNavigationAction, in webView: WKWebView) -> Bool {
        guard let uri = navigationAction.request.url?.absoluteString, PageWire.isWVJBSignal(uri) else { return false }
        guard let wvjb else { return true }
        let frame = Self.callerFrame(navigationAction.sourceFrame)
        switch wvjb.answer(toNavigation: uri, from: frame) {
        case .fetchQueue(let script):
            webView.evaluateJavaScript(script) { [weak self] value, _ in
                guard let self, let text = value as? String, let answers = wvjb.receive(queue: text, from: frame) else { return }
                self.webView?.evaluateJavaScript(self.guarded(answers), completionHandler: nil)
            }
        case .injectBridge(let script):
            webView.evaluateJavaScript(script, completionHandler: nil)
        case .cancel, nil:
            break
        }
        return true
    }
}
#endif
