// WebKitGTKHost+WVJB.swift — WebViewJavascriptBridge's navigations: cancelled, and answered.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone

extension WebKitGTKHost {
    /// Whether a navigation is one WVJB uses as a signal: it never reaches the network and is
    /// never a page change, so it is cancelled, whichever frame made it. It is not answered here:
    /// WebKitGTK does not say which document navigated, and only the top document's own signals,
    /// which its isolated world reports, are answered (``answerWVJBSignal(_:)``).
    func decideWVJBNavigation(_ uri: String) -> Bool {
        PageWire.isWVJBSignal(uri)
    }

    /// A signal the top document made, as its isolated world reported it, answered as the wire
    /// says: a queue fetched, or Keystone's WVJB page script injected.
    func answerWVJBSignal(_ uri: String) {
        guard let wvjb else { return }
        let frame = core.mainDocument
        switch wvjb.answer(toNavigation: uri, from: frame) {
        case .fetchQueue(let script):
            run(script) { [self] result in
                // The queue is JSON text, so its completion value is a JSON string literal.
                guard case .success(let json?) = result, let text = try? DefaultJSONSerializer().decode(String.self, from: Data(json.utf8)),
                    let answers = wvjb.receive(queue: text, from: frame)
                else { return }
                run(guarded(answers)) { _ in }
            }
        case .injectBridge(let script):
            run(script) { _ in }
        case .cancel, nil:
            break
        }
    }
}
#endif
