// WVJBWire+Dialect.swift — WebViewJavascriptBridge's wire as a page dialect: its signals, its
// fetched queue and its slices, as the steps a host takes.
import KeystoneInterfaces

extension WVJBWire: PageDialect {
    package func isSignal(_ url: String) -> Bool {
        Self.isSignal(url)
    }

    package func answer(signal url: String, from frame: CallerFrame) -> [DialectStep] {
        switch answer(toNavigation: url, from: frame) {
        case .fetchQueue(let script): [.fetch(script, limit: maximumQueueBytes)]
        case .injectBridge(let script): [.inject(script)]
        case .cancel, nil: []
        }
    }

    package func fetched(_ value: String?, from frame: CallerFrame) -> [DialectStep] {
        steps(receive(queue: value ?? "", from: frame))
    }

    package func resume(from frame: CallerFrame) -> [DialectStep] {
        steps(answerNextSlice())
    }

    /// WVJB's signals in both spellings: a queue's, and the boilerplate's request for a bridge.
    package var signalPattern: String? { "^(https|wvjbscheme)://__(wvjb_queue_message|bridge_loaded)__" }

    /// A slice's answers, then the wire's next step.
    private func steps(_ slice: QueueSlice) -> [DialectStep] {
        var steps = slice.script.map { [DialectStep.answer($0)] } ?? []
        switch slice.next {
        case .done: break
        case .answerNextSlice: steps.append(.resumeLater)
        case .fetchQueue: steps.append(.fetch(fetchScript, limit: maximumQueueBytes))
        }
        return steps
    }
}
