// DurableRoom.swift — the page's durable calls behind the durable room's own lock, one for every
// page of a Keystone: kept by origin and key, whichever web view made them.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A page as the durable room reaches it: to ask whether a durable call's callback is still in a
/// current document, and to send it the call's outcome. The room asks under its own lock; a page
/// never asks the room under its own.
protocol DurableListenerPage: PageOutbox {
    /// Whether `pageLoad` is the page's current one and, for the subframe document `frame`, that
    /// document is still there.
    func holds(_ pageLoad: PageLoad, frame: FrameDocument?) -> Bool
}

/// The page's durable calls (``DurableCalls``) and the methods the app made durable by default,
/// shared by every page of a Keystone behind a lock of their own. The changes of the outcomes kept
/// reach the app's store after the lock, in order; an event's before it sends any page the outcome.
///
/// Lock order: the room's lock, then a page's (``DurableListenerPage/holds(_:frame:)``); a page
/// asks the room only outside its own.
final class DurableRoom: Sendable {
    private struct State {
        var calls: DurableCalls<DurableRecoveryWaiter>
        var outbox = HandOffQueue<DurableChange>()
    }

    private let state: Locked<State>
    private let store: (any DurableCallStore)?
    /// The time since the room began, on the components' clock: when durable calls' outcomes came.
    private let elapsed: @Sendable () -> Duration
    /// The methods durable by default, as the app registered them: every asynchronous call asks.
    private let methods = Locked<Set<MethodName>>([])

    /// The room for `limits`, its time on `clock`, holding what `store` kept from earlier runs.
    init(limits: BridgeLimits, clock: any Clock<Duration>, store: (any DurableCallStore)?) {
        state = Locked(State(calls: DurableCalls(limit: limits.durableCalls, byteLimit: limits.durableBytes, lifetime: limits.durableLifetime)))
        self.store = store
        elapsed = stopwatch(clock)
        if let store { restore(store.load()) }
    }

    /// A durable call of `method` under `key`, from `listener`: run it, join the running one, or
    /// take its outcome.
    func begin(_ key: DurableKey, method: String, listener: DurableListener, isKeyless: Bool) -> DurableCalls<DurableRecoveryWaiter>.Begin {
        let now = elapsed()
        return changing { $0.calls.begin(key, method: method, listener: listener, isKeyless: isKeyless, now: now) }
    }

    /// The call under `key` ended with `outcome`, or never ran (`abandoned`): its listeners hear it
    /// in the documents still there, and the `recovered()` calls that waited for it go on.
    func end(_ key: DurableKey, outcome: DurableOutcome, abandoned: Bool) {
        let now = elapsed()
        let (listeners, recovered) = changing { state in
            abandoned
                ? state.calls.abandon(key)
                : state.calls.finish(key, outcome: outcome, now: now) { $0.page?.holds($0.pageLoad, frame: $0.callback.frame) ?? false }
        }
        for listener in listeners {
            listener.page?.send(outcome.message(to: listener.callback.name), to: listener.pageLoad, frame: listener.callback.frame)
        }
        for (waiter, calls) in recovered { waiter(calls) }
    }

    /// `recovered()` from a document of `origin` in `pageLoad`, of `page`: the outcomes handed to
    /// it, `nil` when it waits (`waiter` is told), or `.some(nil)` when that page load has gone.
    func recover(origin: String, pageLoad: PageLoad, of page: any DurableListenerPage, waiter: @escaping DurableRecoveryWaiter) -> [DurableRecovered]?? {
        let now = elapsed()
        return changing { state in
            guard page.holds(pageLoad, frame: nil) else { return .some(nil) }
            return state.calls.recover(origin: origin, in: pageLoad, waiter: waiter, now: now).map { .some($0) }
        }
    }

    /// A document of `origin` acknowledged the outcomes under `keys`.
    func acknowledge(_ keys: [String], origin: String) {
        changing { $0.calls.acknowledge(keys, origin: origin) }
    }

    /// Keeps the outcomes the app's store read back, their lifetimes starting now.
    private func restore(_ records: [DurableCallRecord]) {
        let now = elapsed()
        state.withLock { state in
            state.calls.restore(records, now: now)
            // What the store read back, it holds already.
            _ = state.calls.takeChanges()
        }
    }

    /// A page's first page load began.
    func pageLoadBegan(_ pageLoad: PageLoad) {
        state.withLock { $0.calls.pageLoadBegan(pageLoad) }
    }

    /// A page's page load `old` has gone, and `new` is its current one (`nil`: the page went
    /// with it): the `recovered()` calls `old` made stop waiting.
    func pageLoadEnded(_ old: PageLoad, next new: PageLoad?) {
        let gone = state.withLock { state in
            if let new { state.calls.pageLoadBegan(new) }
            return state.calls.pageLoadEnded(old)
        }
        for waiter in gone { waiter(nil) }
    }

    /// The interface under `namespace` makes `names` durable by default.
    func noteMethods(_ names: [String], namespace: String) {
        methods.withLock { methods in
            methods = methods.filter { $0.namespace != namespace }
            methods.formUnion(names.map { MethodName(namespace: namespace, name: $0) })
        }
    }

    /// Whether a call of `name` the page makes without a key runs as a durable call.
    func isDurableByDefault(_ name: MethodName) -> Bool {
        methods.withLock { !$0.isEmpty && $0.contains(name) }
    }

    /// Runs one event that may change the outcomes kept; hands the changes to the app's store
    /// after the lock, in order, unless another thread is doing so.
    private func changing<Result>(_ event: (inout State) -> Result) -> Result {
        let hasStore = store != nil
        let (result, mustHandOff) = state.withLock { state in
            let result = event(&state)
            let changes = state.calls.takeChanges()
            // Without a store, the changes go nowhere: dropped here, never queued.
            guard hasStore else { return (result, false) }
            var mustHandOff = false
            for change in changes where state.outbox.append(change) { mustHandOff = true }
            return (result, mustHandOff)
        }
        guard mustHandOff, let store else { return result }
        while let changes = state.withLock({ $0.outbox.takeAll() }) {
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
