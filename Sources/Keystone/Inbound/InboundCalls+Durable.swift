// InboundCalls+Durable.swift — the page's durable calls: run once under their key, kept for their
// origin past their page load, and handed to a later document.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InboundCalls {
    typealias DurableKey = DurableCalls<HubStateMachine<PageHandlerCall, RunningWork>.RecoveryWaiter>.Key
    typealias DurableListener = DurableCalls<HubStateMachine<PageHandlerCall, RunningWork>.RecoveryWaiter>.Listener

    /// A durable call (`"_dsdurable"`: the page's idempotency key), made during `pageLoad`: run once
    /// under its key for the page's origin, joined while it runs, or answered at once with the
    /// outcome it ended with. Its outcome always comes through its callback, never in the answer,
    /// the outcome's bytes as base64 in its JSON: it is kept as it was sent. The argument's bytes
    /// came in its JSON or, over the byte channel, as its parts. A call of a method durable by
    /// default that the page made without a key (`key` is `nil`) runs under a key drawn here,
    /// which nothing sends again.
    func startDurable(_ call: InboundCall, key: String?, pageLoad: PageLoad, isAnsweredLater: Bool = false) -> CallAnswer {
        guard let callback = call.pageCallback else {
            return storage.refuse(BridgeError(code: .malformedMessage, message: "a durable call is made with a callback"), callback: nil)
        }
        // A call whose page has had its answer already (its parts' ticket) hears a refusal through
        // its callback.
        func refuse(_ error: BridgeError) -> CallAnswer {
            guard isAnsweredLater else { return storage.refuse(error, callback: callback) }
            storage.send(.failure(callback: callback.name, error: error), to: pageLoad, frame: callback.frame)
            return .accepted
        }
        let limit = components.limits.durableKeyBytes
        if let key, key.isEmpty || key.utf8.count > limit {
            return refuse(BridgeError(code: .limitExceeded, message: "a durable call's key is empty or longer than BridgeLimits.durableKeyBytes (\(limit) bytes)"))
        }
        guard let origin = call.frame.origin else {
            return refuse(BridgeError(code: .notAllowed, message: "a durable call is kept for its page's origin, and this page has none"))
        }
        let (key, isKeyless) = (key ?? ByteTickets.newToken(), key == nil)
        let durable = DurableKey(origin: origin, key: key)
        let listener = DurableListener(pageLoad: pageLoad, callback: callback)
        let now = elapsed()
        switch updateDurable({ $0.durable.begin(durable, method: call.name.description, listener: listener, isKeyless: isKeyless, now: now) }) {
        case .refused(let error):
            return refuse(error)
        case .joined:
            return .accepted
        case .finished(let outcome):
            deliver(outcome, to: listener)
            return .accepted
        case .run:
            // A call whose bytes came over the byte channel has them as parts; its outcome is kept
            // as JSON, its bytes as base64.
            var running = InboundCall(
                name: call.name, frame: call.frame, data: call.data, callback: call.callback, acceptsInlineAnswer: false,
                parts: call.parts?.keepingResultsInJSON)
            running.durableKey = key
            _ = InboundCallRunner(inbound: self, call: running, pageLoad: pageLoad, isAnsweredLater: true).answer()
            return .accepted
        }
    }

    /// The durable call `key` of `call`'s origin ended with `outcome`: it is kept, the callbacks
    /// waiting for it hear it, and so do the `recovered()` calls that waited for it.
    func finishDurable(_ call: InboundCall, outcome: DurableOutcome) {
        guard let key = call.durableKey, let origin = call.frame.origin else { return }
        let now = elapsed()
        let (listeners, recovered) = updateDurable { machine in
            let (pageLoad, subframes) = (machine.pageLoad, machine.subframes)
            return machine.durable.finish(DurableKey(origin: origin, key: key), outcome: outcome, now: now) { listener in
                listener.pageLoad == pageLoad && listener.callback.frame.map { subframes.runtime(of: $0) != nil } ?? true
            }
        }
        for listener in listeners { deliver(outcome, to: listener) }
        for (waiter, handed) in recovered { waiter(handed) }
    }

    /// The durable call `call` never ran (`DurableCalls/abandon(_:)`): its key is free again, and
    /// the callbacks waiting for it hear `error`.
    func abandonDurable(_ call: InboundCall, error: BridgeError) {
        guard let key = call.durableKey, let origin = call.frame.origin else { return }
        let (listeners, recovered) = updateDurable { $0.durable.abandon(DurableKey(origin: origin, key: key)) }
        for listener in listeners { deliver(.failure(error), to: listener) }
        for (waiter, handed) in recovered { waiter(handed) }
    }

    /// `outcome` to `listener`'s callback, while its page load and document are there.
    private func deliver(_ outcome: DurableOutcome, to listener: DurableListener) {
        let name = listener.callback.name
        let message: PageMessage
        switch outcome {
        case .value(let json?): message = .result(callback: name, value: json, complete: true)
        case .value(nil): message = .noResult(callback: name)
        case .failure(let error): message = .failure(callback: name, error: error)
        }
        storage.send(message, to: listener.pageLoad, frame: listener.callback.frame)
    }

    /// A document of `origin` has taken the outcomes of the durable calls under `keys`.
    func acknowledgeDurable(_ keys: [String], origin: String) {
        updateDurable { $0.durable.acknowledge(keys, origin: origin) }
    }

    /// Keeps the outcomes the app's store kept when the Keystone was made.
    func restoreDurable() {
        guard let store = components.durableStore else { return }
        let (records, now) = (store.load(), elapsed())
        storage.update { machine in
            machine.durable.restore(records, now: now)
            _ = machine.durable.takeChanges()
        }
    }

    /// Runs `event` on the hub's state, then tells the app's store (if any) what it changed of the
    /// durable calls' outcomes: one event at a time from this lock to the store, so the store hears
    /// the changes in the order they were made.
    @discardableResult
    private func updateDurable<Result>(_ event: (inout HubStorage.Machine) -> Result) -> Result {
        durableOrder.withLock { _ in
            let (result, changes) = storage.update { machine in (event(&machine), machine.durable.takeChanges()) }
            if let store = components.durableStore {
                for change in changes {
                    switch change {
                    case .save(let record): store.save(record)
                    case .remove(let key): store.remove(origin: key.origin, key: key.key)
                    }
                }
            }
            return result
        }
    }

    /// The durable calls earlier documents of `origin` made, for the document of `pageLoad`, once
    /// none of them runs any more; `nil` when the page load goes first.
    func recoverDurable(origin: String, pageLoad: PageLoad) async -> [DurableRecovered]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[DurableRecovered]?, Never>) in
            let now = elapsed()
            let handed = updateDurable { machine -> [DurableRecovered]?? in
                guard machine.pageLoad == pageLoad else { return .some(nil) }
                return machine.durable.recover(origin: origin, in: pageLoad, waiter: { continuation.resume(returning: $0) }, now: now).map { .some($0) }
            }
            if let handed { continuation.resume(returning: handed) }
        }
    }
}
