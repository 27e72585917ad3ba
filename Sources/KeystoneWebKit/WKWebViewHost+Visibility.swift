// WKWebViewHost+Visibility.swift — a page whose web content process ended is reloaded once its web
// view is visible, as WebKit reloads one.
import Foundation

#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif
#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
extension WKWebViewHost {
    /// Reloads the page if its web content process ended while the web view was not visible, and
    /// it is now. WebKit reloads such a page only once it is visible; the host, which answers the
    /// end of the process itself, does the same: it asks again whenever a scene becomes active
    /// (iOS, visionOS) or the app does (macOS). Call it from a view controller's
    /// `viewDidAppear(_:)` where the web view can be put in a window without that.
    public func webViewDidAppear() {
        guard reloadOwed, let webView, Self.isVisible(webView) else { return }
        reloadOwed = false
        webView.reload()
    }

    /// The host reloads the page (its session decided so, after the end of its process): now if the
    /// web view is visible, or once it is.
    func reloadWhenVisible() {
        reloadOwed = true
        webViewDidAppear()
    }

    /// Whether WebKit counts `webView` visible: in a window that is visible (macOS), or in a window
    /// of a scene that is not in the background (iOS, visionOS).
    static func isVisible(_ webView: WKWebView) -> Bool {
        #if os(macOS)
        return webView.window?.isVisible == true
        #else
        guard let window = webView.window else { return false }
        return window.windowScene?.activationState != .background
        #endif
    }

    /// Asks again when a scene, or the app, becomes active, until the observation goes.
    func watchActivation() -> Observation {
        #if os(macOS)
        let name = NSApplication.didBecomeActiveNotification
        #else
        let name = UIScene.didActivateNotification
        #endif
        return Observation(
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                MainActor.assumeIsolated { self?.webViewDidAppear() }
            })
    }
}

/// A notification observer, removed when this goes.
final class Observation: @unchecked Sendable {
    private let token: any NSObjectProtocol

    init(_ token: any NSObjectProtocol) {
        self.token = token
    }

    deinit {
        NotificationCenter.default.removeObserver(token)
    }
}
#endif
