// WebKitGTKHost+WVJB.swift — WebViewJavascriptBridge's navigations: cancelled, and answered.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone

extension WebKitGTKHost {
    /// Decides a navigation WVJB uses as a signal: it never reaches the network and is never a
    /// page change, so it is cancelled, whichever frame made it. Returns whether the navigation was
    /// one. It is not answered here: WebKitGTK does not say which document navigated, and only the
    /// top document's own signals, which its isolated world reports, are answered
    /// (``answerWVJBSignal(_:)``).
    func decideWVJBNavigation(_ uri: String) -> Bool {
        PageWire.isWVJBQueueSignal(uri) || PageWire.isWVJBBridgeRequest(uri)
    }

    /// A signal the top document made, as its isolated world reported it: on WVJB's wire, and for a
    /// document the hub admits, a queue signal fetches the page's queue, and a request for a bridge
    /// injects Keystone's WVJB page script when the page has none.
    func answerWVJBSignal(_ uri: String) {
        let isQueueSignal = PageWire.isWVJBQueueSignal(uri)
        guard isQueueSignal || PageWire.isWVJBBridgeRequest(uri), options.wire == .webViewJavascriptBridge, hub.refusal(of: mainDocument) == nil else {
            return
        }
        if isQueueSignal {
            fetchWVJBQueue()
        } else if let script = try? Keystone.wvjbPageScript() {
            run(script) { _ in }  // returns at once when a bridge is in
        }
    }

    /// Evaluates `WebViewJavascriptBridge._fetchQueue()` and hands the queue to the wire, on the main
    /// loop, in the order the fetches complete (the order they were sent).
    private func fetchWVJBQueue() {
        run(wvjb?.fetchScript ?? "") { [self] result in
            // The queue is JSON text, so its completion value is a JSON string literal.
            guard case .success(let json?) = result, let text = try? DefaultJSONSerializer().decode(String.self, from: Data(json.utf8)) else {
                return
            }
            if let wvjb, let answers = wvjb.receive(queue: text, from: mainDocument) {
                run(guarded(answers)) { _ in }
            }
        }
    }
}
#endif
