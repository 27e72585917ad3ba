// PageDelegates.swift — what an app on a device writes around a page: its own UI delegate and its
// own script message handler for the page's console. keystone-demo-webkit and the Apple host's
// tests (Tests/AppleHostTests, on a Mac) both use them.
#if canImport(WebKit) || KEYSTONE_DEMO_WEBKIT
import Foundation
import Keystone
import KeystoneHost
#if canImport(WebKit)
import WebKit
#else
import WebKitShim
#endif

/// The app's own UI delegate: alerts are printed, every confirm is accepted, a prompt answers its
/// default text followed by "!", and `window.close()` ends the run.
@MainActor
final class DemoUIDelegate: NSObject, WKUIDelegate {
    private let closed: () -> Void
    private let lines: (String) -> Void

    init(lines: @escaping (String) -> Void, closed: @escaping () -> Void) {
        self.lines = lines
        self.closed = closed
    }

    func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void) {
        lines("alert: \(message)")
        completionHandler()
    }

    func webView(_ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void) {
        completionHandler(true)
    }

    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        completionHandler((defaultText ?? "") + "!")
    }

    func webViewDidClose(_ webView: WKWebView) {
        closed()
    }
}

/// The page's console lines, from the documents the hub admits (as the GTK host relays them).
@MainActor
final class ConsoleRelay: NSObject, WKScriptMessageHandlerWithReply {
    static let name = "demoConsole"
    static let script = """
        (function () {
          var post = window.webkit.messageHandlers.\(name);
          ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
            var original = console[level];
            console[level] = function () {
              var text = Array.prototype.map.call(arguments, function (value) { return typeof value === 'string' ? value : String(value); }).join(' ');
              post.postMessage([level, text]);
              return original.apply(console, arguments);
            };
          });
        })();
        """
    private let hub: any BridgeHub
    private let lines: (String) -> Void

    init(hub: any BridgeHub, lines: @escaping (String) -> Void) {
        self.hub = hub
        self.lines = lines
    }

    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        defer { replyHandler(nil, nil) }
        let origin = message.frameInfo.securityOrigin
        let frame = CallerFrame(
            isMainFrame: message.frameInfo.isMainFrame, origin: SecurityOrigin(scheme: origin.protocol, host: origin.host, port: origin.port)?.description)
        guard hub.refusal(of: frame) == nil, let line = message.body as? [Any], line.count == 2, let level = line[0] as? String, let text = line[1] as? String
        else { return }
        lines(level == "log" || level == "info" ? text : "[\(level)] \(text)")
    }
}
#endif
