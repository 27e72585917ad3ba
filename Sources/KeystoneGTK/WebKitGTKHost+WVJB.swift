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
        WVJBWire.isSignal(uri)
    }

    /// A signal the top document made, as its isolated world reported it, answered as the wire
    /// says: a queue fetched, or Keystone's WVJB page script injected.
    func answerWVJBSignal(_ uri: String) {
        guard let wvjb else { return }
        let frame = core.mainDocument
        switch wvjb.answer(toNavigation: uri, from: frame) {
        case .fetchQueue(let script):
            fetchWVJBQueue(script, wire: wvjb, from: frame)
        case .injectBridge(let script):
            run(script) { _ in }
        case .cancel, nil:
            break
        }
    }

    /// Fetches the page's queue and answers it, a slice at a time; a fetch that fails is handed
    /// on as an empty queue, so the wire answers the page's next signal.
    private func fetchWVJBQueue(_ script: String, wire: WVJBWire, from frame: CallerFrame) {
        run(script, limit: wire.maximumQueueBytes) { [self] result in
            // The queue is JSON text, so its completion value is a JSON string literal.
            let json = (try? result.get()) ?? nil
            let text = json.flatMap { try? DefaultJSONSerializer().decode(String.self, from: Data($0.utf8)) } ?? ""
            answer(wire.receive(queue: text, from: frame), wire: wire, from: frame)
        }
    }

    /// Evaluates a slice's answers, then takes the wire's next step: the next slice once the main
    /// loop has run the engine's other events, or the queue the page signalled meanwhile.
    private func answer(_ slice: WVJBWire.QueueSlice, wire: WVJBWire, from frame: CallerFrame) {
        if let script = slice.script { run(guarded(script)) { _ in } }
        switch slice.next {
        case .done:
            break
        case .answerNextSlice:
            MainLoopWork.enqueue({ [self] in answer(wire.answerNextSlice(), wire: wire, from: frame) }, dropped: {})
        case .fetchQueue:
            fetchWVJBQueue(wire.fetchScript, wire: wire, from: frame)
        }
    }
}
#endif
