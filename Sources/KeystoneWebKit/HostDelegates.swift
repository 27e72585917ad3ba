// HostDelegates.swift — what stands in front of the app's delegates: the web view's UI and
// navigation delegate, and the host's script message handler, kept alive by the content controller.
import Foundation
import Keystone

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// The web view's `uiDelegate` and `navigationDelegate` while a host is attached, and the host's
/// script message handler. WebKit holds a web view's delegates weakly and its message handlers
/// strongly: being the handler, this object lives as long as the content controller, so the app's
/// delegates it keeps (weakly, as WebKit would) go on being told everything when the app lets the
/// host go without ``WKWebViewHost/detach()``. It holds the host weakly: without one, it only
/// passes everything on, and a new host takes its place.
@MainActor
final class HostDelegates: NSObject, WKUIDelegate, WKNavigationDelegate, WKScriptMessageHandlerWithReply {
    /// The host answering the page, while there is one.
    private(set) weak var host: WKWebViewHost?
    private weak var webView: WKWebView?
    private weak var controller: WKUserContentController?
    /// The app's own delegates, asked at each call. WebKit reads which optional methods a delegate
    /// has when it is set: a new app delegate sets these delegates on the web view again.
    weak var appUIDelegate: (any WKUIDelegate)? {
        didSet { if let webView, webView.uiDelegate === self { webView.uiDelegate = self } }
    }
    weak var appNavigationDelegate: (any WKNavigationDelegate)? {
        didSet { if let webView, webView.navigationDelegate === self { webView.navigationDelegate = self } }
    }
    /// The host's scripts in the controller.
    private var scripts: [WKUserScript] = []
    /// Watches the web view's delegates, which stay this object while it is in place.
    private var delegateObservations: [NSKeyValueObservation] = []

    /// The delegates in place on each content controller, held weakly.
    private static var placed: [Placed] = []
    private struct Placed {
        weak var controller: WKUserContentController?
        weak var delegates: HostDelegates?
    }

    init(webView: WKWebView, controller: WKUserContentController, appUIDelegate: (any WKUIDelegate)?, appNavigationDelegate: (any WKNavigationDelegate)?) {
        self.webView = webView
        self.controller = controller
        self.appUIDelegate = appUIDelegate
        self.appNavigationDelegate = appNavigationDelegate
    }

    /// The delegates in place on `controller`, if any: their host, when alive, is using it.
    static func attached(to controller: WKUserContentController) -> HostDelegates? {
        placed.removeAll { $0.controller == nil || $0.delegates == nil }
        return placed.first { $0.controller === controller }?.delegates
    }

    /// Puts these delegates in place for `host`: its scripts and message handler in the controller,
    /// and itself as the web view's delegates.
    func attach(_ host: WKWebViewHost, scripts: [WKUserScript]) {
        guard let webView, let controller else { return }
        self.host = host
        self.scripts = scripts
        scripts.forEach(controller.addUserScript)
        // The world is the host's own: a handler of this name in it was left by a host this process
        // lost track of, and WebKit raises (an exception no Swift code can catch) on a second one.
        controller.removeScriptMessageHandler(forName: WKWebViewHost.documentHandlerName, contentWorld: WKWebViewHost.world)
        controller.addScriptMessageHandler(self, contentWorld: WKWebViewHost.world, name: WKWebViewHost.documentHandlerName)
        Self.placed.append(Placed(controller: controller, delegates: self))
        webView.uiDelegate = self
        webView.navigationDelegate = self
        delegateObservations = [
            webView.observe(\.uiDelegate) { [weak self] _, _ in MainActor.assumeIsolated { self?.reclaimDelegates() } },
            webView.observe(\.navigationDelegate) { [weak self] _, _ in MainActor.assumeIsolated { self?.reclaimDelegates() } },
        ]
    }

    /// Takes itself away: the host's scripts and message handler leave the controller, and the
    /// app's delegates become the web view's again.
    func release() {
        delegateObservations.forEach { $0.invalidate() }
        delegateObservations = []
        removeScripts()
        controller?.removeScriptMessageHandler(forName: WKWebViewHost.documentHandlerName, contentWorld: WKWebViewHost.world)
        Self.placed.removeAll { $0.delegates === self || $0.delegates == nil }
        if let webView {
            if webView.uiDelegate === self { webView.uiDelegate = appUIDelegate }
            if webView.navigationDelegate === self { webView.navigationDelegate = appNavigationDelegate }
        }
        controller = nil
        webView = nil
    }

    /// The host went without ``WKWebViewHost/detach()``: its scripts leave the controller, so no
    /// new document runs the page runtime. These delegates stay in front of the app's (the
    /// document on screen may still make bridge prompts, which they cancel), kept by the controller
    /// as its message handler, until a new host takes their place.
    func hostWent() {
        removeScripts()
    }

    /// The host's scripts leave the controller, which removes user scripts only all at once: the
    /// app's own are added back.
    private func removeScripts() {
        host = nil
        if let controller {
            let others = controller.userScripts.filter { script in !scripts.contains { $0 === script } }
            controller.removeAllUserScripts()
            others.forEach(controller.addUserScript)
        }
        scripts = []
    }

    /// A delegate the app sets on the web view becomes the app's delegate (WebKit reads which
    /// methods a delegate has when it is set, so this object answers every method it passes on and
    /// asks the app's delegate at each call).
    private func reclaimDelegates() {
        guard let webView else { return }
        if webView.uiDelegate !== self {
            appUIDelegate = webView.uiDelegate
            webView.uiDelegate = self
        }
        if webView.navigationDelegate !== self {
            appNavigationDelegate = webView.navigationDelegate
            webView.navigationDelegate = self
        }
    }

    // MARK: Which optional methods these delegates have

    /// The `WKUIDelegate` methods these delegates only pass on (selectors as in WKUIDelegate.h and
    /// Tests/WebKitShim/SDK/sdk.tsv): each is theirs exactly when the app's UI delegate has it, so
    /// that where it has not, WebKit's own behaviour stands, as without Keystone (an iOS file
    /// input's picker; an authentication challenge's answer). The `prompt` is the host's own.
    static let passedOnToUI: Set<String> = [
        "webView:createWebViewWithConfiguration:forNavigationAction:windowFeatures:",
        "webViewDidClose:",
        "webView:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:",
        "webView:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:completionHandler:",
        "webView:requestMediaCapturePermissionForOrigin:initiatedByFrame:type:decisionHandler:",
        "webView:requestDeviceOrientationAndMotionPermissionForOrigin:initiatedByFrame:decisionHandler:",
        "webView:showLockdownModeFirstUseMessage:completionHandler:",
        "webView:runOpenPanelWithParameters:initiatedByFrame:completionHandler:",
    ]
    /// The `WKNavigationDelegate` methods these delegates only pass on. The navigation-action
    /// decisions (WebViewJavascriptBridge's signals), the commit and the end of the web content
    /// process are the host's own.
    static let passedOnToNavigation: Set<String> = [
        "webView:decidePolicyForNavigationResponse:decisionHandler:",
        "webView:didStartProvisionalNavigation:",
        "webView:didReceiveServerRedirectForProvisionalNavigation:",
        "webView:didFailProvisionalNavigation:withError:",
        "webView:didFinishNavigation:",
        "webView:didFailNavigation:withError:",
        "webView:didReceiveAuthenticationChallenge:completionHandler:",
        "webView:authenticationChallenge:shouldAllowDeprecatedTLS:",
        "webView:navigationAction:didBecomeDownload:",
        "webView:navigationResponse:didBecomeDownload:",
        "webView:shouldGoToBackForwardListItem:willUseInstantBack:completionHandler:",
    ]

    /// Whether these delegates have the optional method `selector`: one they only pass on when the
    /// app's delegate has it; `nil` for any other (their own, which they have).
    func hasMethod(_ selector: String) -> Bool? {
        if Self.passedOnToUI.contains(selector) { return Self.responds(appUIDelegate, to: selector) }
        if Self.passedOnToNavigation.contains(selector) { return Self.responds(appNavigationDelegate, to: selector) }
        // Without a host the end of the web content process is the app's, or WebKit's own reload.
        if selector == Self.processTerminated, host == nil { return Self.responds(appNavigationDelegate, to: selector) }
        return nil
    }

    /// The end of the web content process (WKNavigationDelegate.h).
    static let processTerminated = "webViewWebContentProcessDidTerminate:"

    #if os(Linux)
    /// On the shim, an app delegate that says which methods it has is asked; any other is taken to
    /// have them all, and is asked at each call (`OptionalRequirement`).
    private static func responds(_ delegate: (any NSObjectProtocol)?, to selector: String) -> Bool {
        guard let delegate else { return false }
        return (delegate as? any ShimSelectorResponder)?.responds(to: NSSelectorFromString(selector)) ?? true
    }
    #else
    private static func responds(_ delegate: (any NSObjectProtocol)?, to selector: String) -> Bool {
        delegate?.responds(to: NSSelectorFromString(selector)) ?? false
    }

    /// WebKit asks, on the main thread when these delegates are set, which optional methods they
    /// have; the Objective-C runtime may ask on any thread, and is answered as for any object there.
    override func responds(to aSelector: Selector!) -> Bool {
        guard let aSelector, Thread.isMainThread, let has = MainActor.assumeIsolated({ hasMethod(NSStringFromSelector(aSelector)) }) else {
            return super.responds(to: aSelector)
        }
        return has
    }
    #endif

    // MARK: The host's document reports

    /// The host's isolated world reports a new main document.
    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        host?.receiveDocumentReport(message)
        replyHandler(nil, nil)
    }
}
#if os(Linux)
/// On the shim, which asks this object what `respondsToSelector:` would answer on a device.
extension HostDelegates: ShimSelectorResponder {
    func responds(to aSelector: Selector!) -> Bool {
        hasMethod(NSStringFromSelector(aSelector)) ?? true
    }
}
#endif
#endif
