// HubStorage.swift — the hub's state machine behind its one lock, and the hand-off of what its
// events leave to be done.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Holds one page's ``HubStateMachine`` behind one lock, and is the hub each room reaches it
/// through: it conforms to the small protocol each room states (``InboundHub``, ``OutboundHub``,
/// ``ByteChannelHub``, ``DurableListenerPage``, ``PageReadinessHub``), and no room touches the
/// machine. The durable calls all pages share are the durable room's, behind its own lock, which
/// the storage asks only outside its own.
///
/// Each event runs under the lock and queues, in the same critical section, the evaluator's inputs
/// its ``HubEffects`` hold, so they are handed on in the order the state changed, whichever
/// threads changed it; one thread at a time hands them on, outside the lock. Everything else an
/// event leaves (calls to settle, tasks to cancel, waiters to tell) is acted on after the lock is
/// released: no app code, neither a store nor a call's continuation, runs under it.
final class HubStorage: Sendable {
    typealias Machine = HubStateMachine<PageHandlerCall, RunningWork>

    private struct State {
        var machine: Machine
        var outbox = HandOffQueue<HubOutput>()
    }

    private let state: Locked<State>
    private let evaluator: any JavaScriptEvaluator
    /// The durable calls every page of the Keystone shares.
    let durable: DurableRoom
    /// The numbers of every page's page loads.
    let numbers: PageLoadNumbers
    let logging: KeystoneLogging
    /// The Keystone's trace, when the app traces.
    let tracer: Tracer?
    /// Which of the Keystone's pages this is.
    let page: PageID

    /// A page's state, its messages handed to `evaluator`, its page loads numbered by `numbers`
    /// and its durable calls kept by `durable`, beside those of the Keystone's other pages; `page`,
    /// its events traced by `tracer`.
    init(
        limits: BridgeLimits, evaluator: any JavaScriptEvaluator, durable: DurableRoom, numbers: PageLoadNumbers, logging: KeystoneLogging,
        tracer: Tracer? = nil, page: PageID = .first
    ) {
        let first = numbers.next()
        state = Locked(State(machine: Machine(limits: limits, first: first)))
        self.evaluator = evaluator
        self.durable = durable
        self.numbers = numbers
        self.logging = logging
        self.tracer = tracer
        self.page = page
        durable.pageLoadBegan(first)
        tracer?.pageLoad("began", page: page, pageLoad: first)
    }

    /// Reads the state.
    func read<Value>(_ body: (Machine) -> Value) -> Value {
        state.withLock { body($0.machine) }
    }

    /// Runs one event that leaves nothing to do.
    @discardableResult
    func update<Result>(_ event: (inout Machine) -> Result) -> Result {
        state.withLock { event(&$0.machine) }
    }

    /// Runs one event, queues the evaluator's inputs it left, hands the
    /// queue on unless another thread is doing so, then acts on the rest of its effects.
    @discardableResult
    func perform<Result>(_ event: (inout Machine) -> (Result, Machine.Effects)) -> Result {
        let (result, effects, mustHandOff) = state.withLock { state in
            var (result, effects) = event(&state.machine)
            var mustHandOff = false
            for output in effects.outputs where state.outbox.append(output) { mustHandOff = true }
            effects.outputs = []
            return (result, effects, mustHandOff)
        }
        if mustHandOff { handOff() }
        act(on: effects)
        return result
    }

    /// Runs one event that leaves only the evaluator's inputs (`nil`: what it sent was dropped), and
    /// hands them on: the way of every message, which most events send. Whether it was not dropped.
    func deliver(_ event: (inout Machine) -> [HubOutput]?) -> Bool {
        let (sent, mustHandOff) = state.withLock { state in
            guard let outputs = event(&state.machine) else { return (false, false) }
            var mustHandOff = false
            for output in outputs where state.outbox.append(output) { mustHandOff = true }
            return (true, mustHandOff)
        }
        if mustHandOff { handOff() }
        return sent
    }

    /// Runs one event that leaves only effects.
    func handle(_ event: (inout Machine) -> Machine.Effects) {
        perform { machine in ((), event(&machine)) }
    }

    private func act(on effects: Machine.Effects) {
        for work in effects.cancelled { work.cancel() }
        for (call, error) in effects.failed { call.fail(error) }
        for waiter in effects.ready { waiter.resume(nil) }
    }

    /// Passes queued inputs on in order, outside the lock: messages taken together for one runtime
    /// in one call to the evaluator, each logged in debug mode.
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
        tracer?.messages(messages, page: page, pageLoad: target.pageLoad, frame: target.frame)
        evaluator.send(messages, runtime: target.runtime, pageLoad: target.pageLoad, frame: target.frame)
        messages.removeAll()
    }
}
