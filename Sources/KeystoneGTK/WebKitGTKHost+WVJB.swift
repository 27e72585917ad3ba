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
            run(script) { _ in }  // returns at once when a bridge is in
        }
        return true
    }

    /// Evaluates `WebViewJavascriptBridge._fetchQueue()` and hands the queue to the wire, on the main
    /// loop, in the order the fetches complete (the order they were sent).
    private func fetchWVJBQueue() {
        run("WebViewJavascriptBridge._fetchQueue()") { [self] result in
            // The queue is JSON text, so its completion value is a JSON string literal.
            guard case .success(let json?) = result, let text = try? DefaultJSONSerializer().decode(String.self, from: Data(json.utf8)) else {
                return
            }
            receiveWVJBQueue(text)
        }
    }

    /// The main frame's queue: the engine names the document's origin.
    private func receiveWVJBQueue(_ text: String) {
        guard let wvjb else { return }
        let frame = CallerFrame(isMainFrame: true, origin: Self.origin(of: webkit_web_view_get_uri(webView).map { String(cString: $0) }))
        if let answers = wvjb.receive(queue: text, from: frame) {
            run(guarded(answers, for: hub.pageLoad)) { _ in }
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
