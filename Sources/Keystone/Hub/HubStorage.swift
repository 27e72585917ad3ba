// HubStorage.swift — the hub's state machine behind its one lock, and the hand-off to the evaluator.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Holds a ``HubStateMachine`` behind one lock. Each event runs under the lock and queues the
/// evaluator's inputs it produces in the same critical section, so they reach the evaluator in the
/// order the state changed, whichever threads changed it; one thread at a time hands them on,
/// outside the lock. Everything else an event returns (calls to settle, tasks to cancel) is acted
/// on by the caller, after the lock is released.
final class HubStorage: Sendable {
    typealias Machine = HubStateMachine<PageHandlerCall, RunningWork>

    private struct State {
        var machine: Machine
        var outbox = HandOffQueue<Machine.Output>()
    }

    private let state: Locked<State>
    private let evaluator: any JavaScriptEvaluator
    private let logging: KeystoneLogging

    init(limits: BridgeLimits, evaluator: any JavaScriptEvaluator, logging: KeystoneLogging) {
        let machine = Machine(
            pendingCallLimit: limits.pendingCalls, runningCallLimit: limits.runningCalls, declarationLimit: limits.declaredMethods,
            transferLimit: limits.openTransfers, pageLoadBytes: limits.pageLoadBytes, subframeLimit: limits.subframeDocuments,
            durableLimit: limits.durableCalls, durableBytes: limits.durableBytes, durableLifetime: limits.durableLifetime)
        state = Locked(State(machine: machine))
        self.evaluator = evaluator
        self.logging = logging
    }

    /// Reads the state.
    func read<Value>(_ body: (Machine) -> Value) -> Value {
        state.withLock { body($0.machine) }
    }

    /// Runs one event that produces no evaluator input.
    @discardableResult
    func update<Result>(_ event: (inout Machine) -> Result) -> Result {
        state.withLock { event(&$0.machine) }
    }

    /// Sends `message` to the page load `pageLoad` and its subframe document `frame` (`nil`: the
    /// main frame), with the parts of its value, a result of `call`'s; returns whether the page load
    /// and document were still there.
    @discardableResult
    func send(_ message: PageMessage, parts: ByteParts? = nil, of call: CallParts? = nil, to pageLoad: PageLoad?, frame: FrameDocument? = nil) -> Bool {
        let sent = apply { machine in
            let outputs = machine.send(message, parts: parts, of: call, to: pageLoad, frame: frame)
            return (outputs != nil, outputs ?? [])
        }
        if !sent { logging.log(.debug, "dropped a message for a page load or frame document that has gone: \(message)") }
        return sent
    }

    /// Cancels the page's running call whose callback is `callback`; returns whether there was one.
    func cancelRunningCall(callback: PageCallback) -> Bool {
        switch update({ $0.cancelTask(callback: callback) }) {
        case .notFound:
            return false
        case .found(let work):
            work?.cancel()
            return true
        }
    }

    /// Answers a call with an error while the page waits: the error is the prompt's answer, and a
    /// callback the page registered for it is removed (it would never run), in its document.
    func refuse(_ error: any Error, callback: PageCallback?) -> CallAnswer {
        let error = BridgeError(error)
        logging.log(.warning, "answered a call from the page with an error: \(error)")
        if let callback {
            apply { machine in ((), machine.send(.release(callback: callback.name), to: nil, frame: callback.frame) ?? []) }
        }
        return .failure(error)
    }

    /// The page, a document of `origin`, has registered its handlers (`_dsb.dsinit`) and runs
    /// `runtime`: Swift's calls waiting for it go out, and what waited for the page to be ready
    /// goes on.
    func pageDidInitialize(runtime: PageRuntime, origin: String?) {
        let ready = apply { machine in
            let initialize = machine.pageDidInitialize(runtime: runtime, origin: origin)
            return (initialize.ready, initialize.outputs)
        }
        ready.forEach { $0.receive(.none, true) }
    }

    /// The subframe document `frame` registered its handlers, announcing `runtime`: Swift's calls
    /// that waited for it go.
    func frameDidInitialize(_ frame: FrameDocument, runtime: PageRuntime) {
        apply { machine in ((), machine.frameDidInitialize(frame, runtime: runtime)) }
    }

    /// The subframe document `frame` has gone: Swift's calls of its handlers fail with `pageGone`,
    /// and its running calls are cancelled.
    func frameDidUnload(_ frame: FrameDocument) {
        let unload = update { $0.frameDidUnload(frame) }
        let gone = BridgeError(code: .pageGone, message: "the frame's document has gone")
        unload.failed.forEach { $0.fail(gone) }
        unload.cancelled.forEach { $0.cancel() }
    }

    /// Runs one event, queues the evaluator inputs it produced, and hands the queue on unless
    /// another thread is doing so.
    @discardableResult
    func apply<Result>(_ event: (inout Machine) -> (Result, [Machine.Output])) -> Result {
        let (result, mustHandOff) = state.withLock { state in
            let (result, outputs) = event(&state.machine)
            var mustHandOff = false
            for output in outputs where state.outbox.append(output) { mustHandOff = true }
            return (result, mustHandOff)
        }
        if mustHandOff { handOff() }
        return result
    }

    /// Passes queued inputs to the evaluator in order, outside the lock: messages taken together
    /// for one runtime in one call, each logged in debug mode.
    private func handOff() {
        while let outputs = state.withLock({ $0.outbox.takeAll() }) {
            var messages: [PageMessage] = []
            var target = Target(runtime: .dsbridge, pageLoad: .first, frame: nil)
            for output in outputs {
                switch output {
                case .deliver(let message, let runtime, let pageLoad, let frame):
                    let next = Target(runtime: runtime, pageLoad: pageLoad, frame: frame)
                    if next != target, !messages.isEmpty { handOn(&messages, target) }
                    target = next
                    logging.log(.debug, "to page: \(logging.excerpt(ScriptRenderer.render([message], for: runtime)))")
                    messages.append(message)
                case .discardQueued:
                    if !messages.isEmpty { handOn(&messages, target) }
                    evaluator.discardQueued()
                }
            }
            if !messages.isEmpty { handOn(&messages, target) }
        }
    }

    /// Where a run of messages goes: written for one runtime, for one page load and one frame.
    private struct Target: Equatable {
        var runtime: PageRuntime
        var pageLoad: PageLoad
        var frame: FrameDocument?
    }

    private func handOn(_ messages: inout [PageMessage], _ target: Target) {
        evaluator.send(messages, runtime: target.runtime, pageLoad: target.pageLoad, frame: target.frame)
        messages.removeAll()
    }
}
