// WKWebViewHost+UIDelegate.swift — the UI delegate: bridge prompts answered, the rest passed on.
import Foundation
import Keystone
import KeystoneHost

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Each method asks the app's UI delegate at call time (`appUIDelegate?.webView?(…)` is `nil` when it
/// has no such method) and otherwise answers as WebKit does without a UI delegate (WKUIDelegate.h).
extension HostDelegates {
    /// A page's `prompt`: a bridge prompt from the host's web view is answered by the hub,
    /// synchronously; any other goes to the app's UI delegate, or is cancelled (`nil`). A bridge
    /// prompt is never the app's: one from a popup made from the same configuration, or from the
    /// document a host let go was serving, is cancelled, so no `_dsbridge=…` dialog reaches a user.
    func webView(
        _ webView: WKWebView,
        runJavaScriptTextInputPanelWithPrompt prompt: String,
        defaultText: String?,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        if BridgePrompt.matches(prompt) {
            guard let host, webView === host.webView else { return completionHandler(nil) }
            return completionHandler(host.answerPrompt(prompt, defaultText: defaultText, frame: frame))
        }
        let forwarded: Void? = appUIDelegate?.webView?(
            webView, runJavaScriptTextInputPanelWithPrompt: prompt, defaultText: defaultText, initiatedByFrame: frame, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(nil) }
    }

    /// A page's `alert`: the app's, or dismissed at once.
    func webView(
        _ webView: WKWebView,
        runJavaScriptAlertPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(webView, runJavaScriptAlertPanelWithMessage: message, initiatedByFrame: frame, completionHandler: completionHandler)
        if forwarded == nil { completionHandler() }
    }

    /// A page's `confirm`: the app's, or declined.
    func webView(
        _ webView: WKWebView,
        runJavaScriptConfirmPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(webView, runJavaScriptConfirmPanelWithMessage: message, initiatedByFrame: frame, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(false) }
    }

    /// A new window (`window.open`, a `target=_blank` link): the app's, or none.
    func webView(
        _ webView: WKWebView,
        createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction,
        windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        appUIDelegate?.webView?(webView, createWebViewWith: configuration, for: navigationAction, windowFeatures: windowFeatures)
    }

    /// The page called `window.close()`: the app's to handle.
    func webViewDidClose(_ webView: WKWebView) {
        appUIDelegate?.webViewDidClose?(webView)
    }

    /// The page asked for the camera or microphone: the app's decision, or WebKit's own prompt.
    @available(iOS 15.0, macOS 12.0, *)
    func webView(
        _ webView: WKWebView,
        requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo,
        type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(
            webView, requestMediaCapturePermissionFor: origin, initiatedByFrame: frame, type: type, decisionHandler: decisionHandler)
        if forwarded == nil { decisionHandler(.prompt) }
    }

    // Lockdown Mode's message and the orientation permission are iOS and visionOS API
    // (WKUIDelegate.h; Tests/WebKitShim/SDK/sdk.tsv). On Linux the shim has every platform's members.
    #if os(iOS) || os(visionOS) || os(Linux)
    /// Lockdown Mode's first-use message: the app's, or WebKit's own.
    @available(iOS 16.0, *)
    func webView(
        _ webView: WKWebView,
        showLockdownModeFirstUseMessage message: String,
        completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(webView, showLockdownModeFirstUseMessage: message, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(.showDefault) }
    }

    /// The page asked for the device's orientation and motion: the app's decision, or WebKit's own
    /// prompt.
    @available(iOS 15.0, *)
    func webView(
        _ webView: WKWebView,
        requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(
            webView, requestDeviceOrientationAndMotionPermissionFor: origin, initiatedByFrame: frame, decisionHandler: decisionHandler)
        if forwarded == nil { decisionHandler(.prompt) }
    }
    #endif

    /// A file input: the app's open panel. WebKit asks only when the app's delegate has the method
    /// (``HostDelegates/hasMethod(_:)``): without one it shows its own picker on iOS and visionOS,
    /// and no panel (no files) on macOS.
    @available(iOS 18.4, macOS 10.12, *)
    func webView(
        _ webView: WKWebView,
        runOpenPanelWith parameters: WKOpenPanelParameters,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) {
        let forwarded: Void? = appUIDelegate?.webView?(webView, runOpenPanelWith: parameters, initiatedByFrame: frame, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(nil) }
    }
}
#endif
