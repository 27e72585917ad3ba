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
    /// Whether the navigation is one WVJB uses as a signal (it never reaches the network and is
    /// never a page change); on WVJB's wire, answers it as the wire says, for the frame WebKit
    /// says made it (`WKNavigationAction.sourceFrame`, never the web view's possibly provisional
    /// URL): only the host's own web view's main document, of a document the hub admits.
    func decideWVJBNavigation(_ navigationAction: WKNavigationAction, in webView: WKWebView) -> Bool {
        guard let uri = navigationAction.request.url?.absoluteString, PageWire.isWVJBSignal(uri) else { return false }
        guard let wvjb, webView === self.webView else { return true }
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
