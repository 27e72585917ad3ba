// WebKitGTKHost+WVJB.swift — WebViewJavascriptBridge's navigations: cancelled, and answered.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone

extension WebKitGTKHost {
    /// Decides a navigation WVJB uses as a signal: it never reaches the network and is never a
    /// page change. On WVJB's wire, a queue signal fetches the page's queue, and a request for a
    /// bridge injects Keystone's WVJB page script when the page has none. Returns whether the
    /// navigation was one of them.
    func decideWVJBNavigation(_ uri: String) -> Bool {
        let isQueueSignal = PageWire.isWVJBQueueSignal(uri)
        guard isQueueSignal || PageWire.isWVJBBridgeRequest(uri) else { return false }
        guard options.wire == .webViewJavascriptBridge else { return true }
        if isQueueSignal {
            fetchWVJBQueue()
        } else if let script = try? Keystone.wvjbPageScript() {
            script.withCString { ks_evaluate(webView, $0, -1) }  // returns at once when a bridge is in
        }
        return true
    }

    /// Evaluates `WebViewJavascriptBridge._fetchQueue()` and hands the queue to the wire, on the main
    /// loop, in the order the fetches complete (the order they were sent).
    private func fetchWVJBQueue() {
        let me = Unmanaged.passRetained(self).toOpaque()
        webkit_web_view_evaluate_javascript(webView, "WebViewJavascriptBridge._fetchQueue()", -1, nil, nil, nil, { _, result, data in
            let host = Unmanaged<WebKitGTKHost>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            guard let value = webkit_web_view_evaluate_javascript_finish(host.webView, result, &error) else {
                if let error { g_error_free(error) }
                return
            }
            defer { g_object_unref(value) }
            guard jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) else { return }
            defer { g_free(text) }
            host.receiveWVJBQueue(String(cString: text))
        }, me)
    }

    /// The main frame's queue: the engine names the document's origin.
    private func receiveWVJBQueue(_ text: String) {
        guard let wvjb else { return }
        let frame = CallerFrame(isMainFrame: true, origin: Self.origin(of: webkit_web_view_get_uri(webView).map { String(cString: $0) }))
        if let answers = wvjb.receive(queue: text, from: frame) {
            guarded(answers, for: hub.pageLoad).withCString { ks_evaluate(webView, $0, -1) }
        }
    }

    /// `scheme://host[:port]` of `uri` (`file://` for local pages), or `nil`.
    static func origin(of uri: String?) -> String? {
        guard let uri, let components = URLComponents(string: uri), let scheme = components.scheme else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(components.host ?? "")\(port)"
    }
}
#endif
