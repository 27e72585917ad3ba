// WKWebViewHost+NavigationDelegate.swift — the navigation delegate: every method passed on to the app's.
import Foundation
import Keystone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Every `WKNavigationDelegate` method: each asks the app's navigation delegate at call time
/// (`appNavigationDelegate?.webView?(…)` is `nil` when it has no such method) and otherwise answers
/// as WebKit does without a navigation delegate (WKNavigationDelegate.h). The host itself takes
/// only WebViewJavascriptBridge's signals, committed main documents, and the end of the web
/// content process.
extension HostDelegates {
    /// A navigation: a WVJB signal is cancelled (and answered on WVJB's wire); any other goes to the
    /// app's delegate, in whichever form it has, or is allowed (downloaded when WebKit says so).
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        if host?.decideSignal(navigationAction, in: webView) == true { return decisionHandler(.cancel) }
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, decidePolicyFor: navigationAction, decisionHandler: decisionHandler)
        if forwarded == nil { decisionHandler(Self.defaultPolicy(for: navigationAction, in: webView)) }
    }

    /// The navigation decision with preferences, which WebKit asks instead of the one without when
    /// the delegate has both: the host has both, so a WVJB signal is cancelled here, and the app's
    /// delegate is asked in whichever form it has.
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {
        if host?.decideSignal(navigationAction, in: webView) == true { return decisionHandler(.cancel, preferences) }
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, decidePolicyFor: navigationAction, preferences: preferences, decisionHandler: decisionHandler)
        if forwarded != nil { return }
        let withoutPreferences: Void? = appNavigationDelegate?.webView?(webView, decidePolicyFor: navigationAction) { decisionHandler($0, preferences) }
        if withoutPreferences == nil { decisionHandler(Self.defaultPolicy(for: navigationAction, in: webView), preferences) }
    }

    /// What WebKit decides for a navigation when no delegate does (NavigationState.mm,
    /// `decidePolicyForNavigationAction`): allowed when it targets no frame (a new window's, which
    /// the UI delegate's `createWebViewWith` decides); otherwise, when WebKit can load the address
    /// (a scheme it loads itself, or one with a scheme handler), a download when the page asked for
    /// one (`<a download>`) and allowed when not; otherwise ignored (`mailto:`, `tel:`, another
    /// app's scheme), where macOS would then open it in its app (the app's navigation delegate
    /// does that if it wants it).
    private static func defaultPolicy(for navigationAction: WKNavigationAction, in webView: WKWebView) -> WKNavigationActionPolicy {
        guard navigationAction.targetFrame != nil else { return .allow }
        guard let scheme = navigationAction.request.url?.scheme?.lowercased(),
            WKWebView.handlesURLScheme(scheme) || webView.configuration.urlSchemeHandler(forURLScheme: scheme) != nil
        else { return .cancel }
        return navigationAction.shouldPerformDownload ? .download : .allow
    }

    /// A response: the app's decision, or shown when WebKit can show its type and cancelled otherwise.
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, decidePolicyFor: navigationResponse, decisionHandler: decisionHandler)
        if forwarded == nil { decisionHandler(navigationResponse.canShowMIMEType ? .allow : .cancel) }
    }

    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        appNavigationDelegate?.webView?(webView, didStartProvisionalNavigation: navigation)
    }

    func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!) {
        appNavigationDelegate?.webView?(webView, didReceiveServerRedirectForProvisionalNavigation: navigation)
    }

    func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) {
        appNavigationDelegate?.webView?(webView, didFailProvisionalNavigation: navigation, withError: error)
    }

    /// A main-frame navigation committed a new document: the host's page load ends, whether or not
    /// the new document runs the host's scripts.
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {
        if let host, webView === host.webView { host.documentCommitted() }
        appNavigationDelegate?.webView?(webView, didCommit: navigation)
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        appNavigationDelegate?.webView?(webView, didFinish: navigation)
    }

    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        appNavigationDelegate?.webView?(webView, didFail: navigation, withError: error)
    }

    /// An authentication challenge: the app's answer, or WebKit's without one (the protection
    /// space rejected, NavigationState.mm). WebKit asks only when the app's delegate has the
    /// method (``hasMethod(_:)``).
    func webView(
        _ webView: WKWebView,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, didReceive: challenge, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(.rejectProtectionSpace, nil) }
    }

    /// A server with deprecated TLS: the app's decision. WebKit asks only when the app's delegate
    /// has the method (without one, its website data store's setting decides); should the app's
    /// delegate go in between, refused.
    func webView(
        _ webView: WKWebView,
        authenticationChallenge challenge: URLAuthenticationChallenge,
        shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, authenticationChallenge: challenge, shouldAllowDeprecatedTLS: decisionHandler)
        if forwarded == nil { decisionHandler(false) }
    }

    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload) {
        appNavigationDelegate?.webView?(webView, navigationAction: navigationAction, didBecome: download)
    }

    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload) {
        appNavigationDelegate?.webView?(webView, navigationResponse: navigationResponse, didBecome: download)
    }

    /// A back or forward navigation that may resume a suspended page: the app's decision, or
    /// allowed. WebKit asks only when the app's delegate has the method.
    @available(iOS 26.0, macOS 26.0, *)
    func webView(_ webView: WKWebView, shouldGoTo backForwardListItem: WKBackForwardListItem, willUseInstantBack: Bool, completionHandler: @escaping (Bool) -> Void) {
        let forwarded: Void? = appNavigationDelegate?.webView?(webView, shouldGoTo: backForwardListItem, willUseInstantBack: willUseInstantBack, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(true) }
    }

    /// The web content process ended: the app's delegate is told first, whichever web view it was;
    /// for the host's web view the page is gone, and it reloads (as the host's terminationHandler
    /// hears) unless the app's delegate handles the end of the process itself: then the reload is
    /// the app's, as without Keystone. Without a host WebKit asks only when the app's delegate has
    /// the method (``hasMethod(_:)``), and reloads the page itself once it is visible otherwise.
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        let appHandles: Void? = appNavigationDelegate?.webViewWebContentProcessDidTerminate?(webView)
        if let host, webView === host.webView {
            host.webContentProcessDidTerminate(appReloads: appHandles != nil)
        } else if appHandles == nil, WKWebViewHost.isVisible(webView) {
            webView.reload()
        }
    }
}
#endif
