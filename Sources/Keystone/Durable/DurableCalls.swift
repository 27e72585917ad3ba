// DurableCalls.swift — the page's durable calls, by origin and key, as a pure value: which run,
// what they ended with, and which document each outcome was handed to.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's durable calls (a call made with an idempotency key) without locks, tasks or side
/// effects. `Waiter` is a `recovered()` call's way to be told.
///
/// - A call is kept under its page's origin and its key, from when it starts until its outcome
///   expires. A call sent again under a key that is kept does not run again: it joins the running
///   call (its callback hears the outcome too) or gets the outcome at once.
/// - A durable call outlives its page load: nothing here ends when a page load does.
/// - Page loads are every page's of a Keystone (each web view's), numbered across them; those still
///   current are *live* (``pageLoadBegan(_:)``, ``pageLoadEnded(_:)``). An outcome is handed to one
///   document at a time (``recover(origin:in:waiter:now:)``), until a document acknowledges it;
///   when the document goes first, the next document of the origin, of any page, gets it again.
///   Only calls of page loads that have gone are handed over: a live page's calls are its own. A
///   document waits for the calls of gone page loads still running. An acknowledged outcome is
///   handed to no document again, but still answers its key.
/// - At most `limit` calls are kept, their outcomes at most `byteLimit` bytes in all, each outcome
///   for at most `lifetime` after it finished (on the caller's clock). To make room, the
///   acknowledged outcome that finished first goes. An origin alone may use all of it, but none
///   takes another's share: an origin holding less than an equal share of the calls (or of the
///   bytes) among the origins kept makes room by letting go of the oldest outcome of the origin
///   that holds the most, past its own share. A call that still finds no room is refused, and an
///   outcome that finds none is kept as an error that says so: its origin is at its share.
struct DurableCalls<Waiter: Sendable>: Sendable {
    /// A callback waiting for a running call's outcome, in the page load and document that made it,
    /// and the page that page load is of: where the outcome goes. Page loads are numbered across
    /// every page of a Keystone, so the page load alone tells two listeners apart.
    struct Listener: Sendable, Equatable {
        var pageLoad: PageLoad
        var callback: PageCallback
        var page: (any DurableListenerPage)?

        init(pageLoad: PageLoad, callback: PageCallback, page: (any DurableListenerPage)? = nil) {
            self.pageLoad = pageLoad
            self.callback = callback
            self.page = page
        }

        static func == (lhs: Listener, rhs: Listener) -> Bool {
            lhs.pageLoad == rhs.pageLoad && lhs.callback == rhs.callback
        }
    }

    private struct Entry: Sendable {
        var method: String
        /// The page load that started the call.
        var startedIn: PageLoad
        /// Callbacks waiting for the outcome, while the call runs.
        var listeners: [Listener] = []
        var outcome: DurableOutcome?
        /// When the outcome came, on the caller's clock.
        var finishedAt: Duration = .zero
        /// The page load a `recovered()` handed the outcome to, until it acknowledges it.
        var handedTo: PageLoad?
        /// Whether a document acknowledged the outcome: it is handed to none again.
        var isAcknowledged = false
        /// Whether the page made the call without a key (a method durable by default): its
        /// outcome counts as acknowledged when it reaches the document that made the call.
        var isKeyless = false
    }

    /// What starting a durable call does.
    enum Begin: Sendable, Equatable {
        /// Run it: no call is kept under its key.
        case run
        /// It runs already: the callback hears its outcome when it ends.
        case joined
        /// It ended: here is its outcome, and it does not run again.
        case finished(DurableOutcome)
        case refused(BridgeError)
    }

    typealias Key = DurableKey
    typealias Change = DurableChange

    let limit: Int
    let byteLimit: Int
    let lifetime: Duration
    private var entries: [Key: Entry] = [:]
    private var changes: [Change] = []
    private(set) var heldBytes = 0
    /// `recovered()` calls waiting for an origin's running calls, with the page load they are for.
    private var waiters: [String: [(pageLoad: PageLoad, waiter: Waiter)]] = [:]
    /// The page loads still current, one per page: their calls are not handed to another.
    private var live: Set<PageLoad> = []

    init(limit: Int, byteLimit: Int, lifetime: Duration) {
        self.limit = limit
        self.byteLimit = byteLimit
        self.lifetime = lifetime
    }

    /// How many calls are kept, running or with an outcome.
    var count: Int { entries.count }

    /// A durable call of `method` under `key`, from `listener`'s page load and document: run it,
    /// join the running one, or take the outcome it ended with. A keyless call's key is one the
    /// page never sent (``Entry/isKeyless``).
    mutating func begin(_ key: Key, method: String, listener: Listener, isKeyless: Bool = false, now: Duration) -> Begin {
        expire(now: now)
        if let entry = entries[key] {
            guard let outcome = entry.outcome else {
                entries[key]?.listeners.append(listener)
                return .joined
            }
            return .finished(outcome)
        }
        guard entries.count < limit || evictAcknowledged() || evictPastShare(for: key.origin, measure: { _ in 1 }, total: limit) else {
            return .refused(BridgeError(code: .limitExceeded, message: "BridgeLimits.durableCalls (\(limit)) durable calls are kept already, this origin's share of them"))
        }
        entries[key] = Entry(method: method, startedIn: listener.pageLoad, listeners: [listener], isKeyless: isKeyless)
        return .run
    }

    /// The call under `key` ended with `outcome`: the callbacks waiting for it, and the
    /// `recovered()` calls of its origin that waited for it, with what each now hands over. An
    /// outcome past the bytes the calls may keep is kept as an error that says so. A keyless
    /// call's outcome is acknowledged at once when a listener's document is still there
    /// (`isThere`) to take it: no document could ask for it by its key.
    mutating func finish(
        _ key: Key, outcome: DurableOutcome, now: Duration, isThere: (Listener) -> Bool = { _ in false }
    ) -> (listeners: [Listener], recovered: [(Waiter, [DurableRecovered])]) {
        guard let entry = entries[key], entry.outcome == nil else { return ([], []) }
        var kept = outcome
        while outcome.byteCount > byteLimit - heldBytes,
            evictAcknowledged() || evictPastShare(for: key.origin, measure: { $0.outcome?.byteCount ?? 0 }, total: byteLimit, adding: outcome.byteCount)
        {}
        if outcome.byteCount > byteLimit - heldBytes {
            let message = "the call's outcome is larger than BridgeLimits.durableBytes (\(byteLimit) bytes) allows to keep"
            kept = .failure(BridgeError(code: .limitExceeded, message: message))
        }
        heldBytes += kept.byteCount
        entries[key]?.outcome = kept
        entries[key]?.finishedAt = now
        entries[key]?.listeners = []
        if entry.isKeyless, entry.listeners.contains(where: isThere) { entries[key]?.isAcknowledged = true }
        noteSaved(key)
        return (entry.listeners, readyWaiters(of: key.origin))
    }

    /// The call under `key` never ran (its argument did not decode, or it is of a kind a durable
    /// call cannot be): nothing is kept, so the key is free for a corrected call; the callbacks that
    /// waited hear the error, and the `recovered()` calls of its origin go on.
    mutating func abandon(_ key: Key) -> (listeners: [Listener], recovered: [(Waiter, [DurableRecovered])]) {
        guard let entry = entries[key], entry.outcome == nil else { return ([], []) }
        entries[key] = nil
        return (entry.listeners, readyWaiters(of: key.origin))
    }

    /// `recovered()` from a document of `origin` in `pageLoad`: the outcomes of calls that earlier
    /// page loads started, not yet acknowledged and not handed to another page load that is still
    /// current, each handed to this one; `nil` while such a call still runs (the waiter is told
    /// through ``finish(_:outcome:now:)``).
    mutating func recover(origin: String, in pageLoad: PageLoad, waiter: Waiter, now: Duration) -> [DurableRecovered]? {
        expire(now: now)
        if earlierCallRuns(of: origin, before: pageLoad) {
            waiters[origin, default: []].append((pageLoad, waiter))
            return nil
        }
        return handOver(origin: origin, to: pageLoad)
    }

    /// A document of `origin` acknowledged the outcomes under `keys`: they are handed to no
    /// document again, and may make room for others.
    mutating func acknowledge(_ keys: [String], origin: String) {
        for key in keys {
            let key = Key(origin: origin, key: key)
            guard entries[key]?.outcome != nil, entries[key]?.isAcknowledged == false else { continue }
            entries[key]?.isAcknowledged = true
            noteSaved(key)
        }
    }

    /// What changed of the outcomes kept since it was last asked, in order.
    mutating func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
    }

    /// Keeps the outcomes a store read back, as of calls no current page load started, their
    /// lifetimes starting `now`; past the limits, the rest are let go.
    mutating func restore(_ records: [DurableCallRecord], now: Duration) {
        for record in records where entries.count < limit {
            let outcome: DurableOutcome =
                record.error.map { .failure($0) } ?? .value(record.value.flatMap { try? JSONText(validating: Data($0.utf8)) })
            guard outcome.byteCount <= byteLimit - heldBytes else { continue }
            heldBytes += outcome.byteCount
            entries[Key(origin: record.origin, key: record.key)] = Entry(
                method: record.method, startedIn: Self.beforeEveryPageLoad, outcome: outcome, finishedAt: now, isAcknowledged: record.isAcknowledged)
        }
    }

    /// The page load a restored call started in: before any of this Keystone's.
    private static var beforeEveryPageLoad: PageLoad { PageLoad(rawValue: -1) }

    private mutating func noteSaved(_ key: Key) {
        guard let entry = entries[key], let outcome = entry.outcome else { return }
        let (value, error): (String?, BridgeError?) =
            switch outcome {
            case .value(let json): (json?.string, nil)
            case .failure(let failure): (nil, failure)
            }
        changes.append(
            .save(DurableCallRecord(origin: key.origin, key: key.key, method: entry.method, value: value, error: error, isAcknowledged: entry.isAcknowledged)))
    }

    /// Lets go of the acknowledged outcome that finished first; whether there was one.
    private mutating func evictAcknowledged() -> Bool {
        guard let (key, entry) = entries.filter(\.value.isAcknowledged).min(by: { $0.value.finishedAt < $1.value.finishedAt }) else { return false }
        heldBytes -= entry.outcome?.byteCount ?? 0
        entries[key] = nil
        changes.append(.remove(key))
        return true
    }

    /// Lets go of the oldest outcome of the origin that holds the most (`measure` of its calls: one
    /// each, or their outcomes' bytes), when it holds more than an equal share of `total` among
    /// the origins kept and `origin`, which would hold `adding` more, would still hold no more than
    /// its share; whether one went. A running call never goes: its outcome is still to come.
    private mutating func evictPastShare(for origin: String, measure: (Entry) -> Int, total: Int, adding: Int = 1) -> Bool {
        var held: [String: Int] = [origin: 0]
        for (key, entry) in entries { held[key.origin, default: 0] += measure(entry) }
        let share = total / held.count
        guard held[origin, default: 0] + adding <= share,
            let (largest, amount) = held.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
            largest != origin, amount > share,
            let (key, entry) = entries.filter({ $0.key.origin == largest && $0.value.outcome != nil }).min(by: { $0.value.finishedAt < $1.value.finishedAt })
        else { return false }
        heldBytes -= entry.outcome?.byteCount ?? 0
        entries[key] = nil
        changes.append(.remove(key))
        return true
    }

    /// The page load `pageLoad` began: a page's first, or the next after one ended.
    mutating func pageLoadBegan(_ pageLoad: PageLoad) {
        live.insert(pageLoad)
    }

    /// The page load `pageLoad` has gone: outcomes handed to it and not acknowledged may be handed
    /// again, its calls may be handed to another document, and its `recovered()` calls stop
    /// waiting (their tasks are cancelled with their page load).
    mutating func pageLoadEnded(_ pageLoad: PageLoad) -> [Waiter] {
        live.remove(pageLoad)
        for key in entries.keys where entries[key]?.handedTo == pageLoad {
            entries[key]?.handedTo = nil
        }
        var gone: [Waiter] = []
        for origin in waiters.keys {
            gone += waiters[origin]!.filter { $0.pageLoad == pageLoad }.map(\.waiter)
            let current = waiters[origin]!.filter { $0.pageLoad != pageLoad }
            waiters[origin] = current.isEmpty ? nil : current
        }
        return gone
    }

    /// A page's page load `old` has gone and `new` is its current one.
    mutating func pageLoadChanged(from old: PageLoad, to new: PageLoad) -> [Waiter] {
        pageLoadBegan(new)
        return pageLoadEnded(old)
    }

    /// Lets go of outcomes older than ``lifetime``.
    mutating func expire(now: Duration) {
        for (key, entry) in entries {
            guard let outcome = entry.outcome, now - entry.finishedAt > lifetime else { continue }
            heldBytes -= outcome.byteCount
            entries[key] = nil
            changes.append(.remove(key))
        }
    }

    /// The outcomes of `origin` for `pageLoad`, each handed to it.
    private mutating func handOver(origin: String, to pageLoad: PageLoad) -> [DurableRecovered] {
        let keys = entries.keys.filter { key in
            guard key.origin == origin, let entry = entries[key] else { return false }
            return entry.outcome != nil && !entry.isAcknowledged && isGone(entry.startedIn, besides: pageLoad)
                && (entry.handedTo == nil || entry.handedTo == pageLoad)
        }.sorted { $0.key < $1.key }
        return keys.compactMap { key in
            entries[key]?.handedTo = pageLoad
            guard let entry = entries[key], let outcome = entry.outcome else { return nil }
            return DurableRecovered(key: key.key, method: entry.method, outcome: outcome)
        }
    }

    /// Whether a call of `origin` that a page load that has gone started still runs: a
    /// `recovered()` of `pageLoad` waits for it.
    private func earlierCallRuns(of origin: String, before pageLoad: PageLoad) -> Bool {
        entries.contains { $0.key.origin == origin && isGone($0.value.startedIn, besides: pageLoad) && $0.value.outcome == nil }
    }

    /// Whether the page load `startedIn` has gone, as `pageLoad`, which asks, sees it: neither it
    /// nor another page's current one.
    private func isGone(_ startedIn: PageLoad, besides pageLoad: PageLoad) -> Bool {
        startedIn != pageLoad && !live.contains(startedIn)
    }

    /// The waiters of `origin` that no running call of an earlier page load holds back any more,
    /// with what each is handed.
    private mutating func readyWaiters(of origin: String) -> [(Waiter, [DurableRecovered])] {
        guard let waiting = waiters[origin] else { return [] }
        var ready: [(Waiter, [DurableRecovered])] = []
        var still: [(pageLoad: PageLoad, waiter: Waiter)] = []
        for (pageLoad, waiter) in waiting {
            if earlierCallRuns(of: origin, before: pageLoad) { still.append((pageLoad, waiter)) } else { ready.append((waiter, handOver(origin: origin, to: pageLoad))) }
        }
        waiters[origin] = still.isEmpty ? nil : still
        return ready
    }
}

/// Whose a durable call is: its page's origin and the page's key.
struct DurableKey: Hashable, Sendable {
    var origin: String
    var key: String
}

/// What changed of the outcomes kept, in order, for a store of the app's
/// (``DurableCalls/takeChanges()``).
enum DurableChange: Sendable, Equatable {
    case save(DurableCallRecord)
    case remove(DurableKey)
}

/// A `recovered()` call's way to be handed the durable calls of earlier documents (`nil`: its page
/// load went first).
typealias DurableRecoveryWaiter = @Sendable ([DurableRecovered]?) -> Void

/// How a durable call ended: its result (`nil`: the method returns nothing), or its error.
enum DurableOutcome: Sendable, Equatable {
    case value(JSONText?)
    case failure(BridgeError)

    /// A method's result as the outcome kept: its JSON, none, or the error that it is not JSON.
    init(result value: Data, calling name: MethodName) {
        switch try? SingleResult(value) {
        case .value(let json): self = .value(json)
        case .nothing: self = .value(nil)
        case nil: self = .failure(BridgeError(code: .failed, message: "the result of \"\(name)\" is not JSON"))
        }
    }

    /// The message that tells the page's `callback` of the outcome.
    func message(to callback: String) -> PageMessage {
        switch self {
        case .value(let json?): .result(callback: callback, value: json, complete: true)
        case .value(nil): .noResult(callback: callback)
        case .failure(let error): .failure(callback: callback, error: error)
        }
    }

    /// The bytes the outcome keeps.
    var byteCount: Int {
        switch self {
        case .value(let json): json?.bytes.count ?? 0
        case .failure(let error): error.message.utf8.count
        }
    }
}

/// One durable call of an earlier document, as `recovered()` hands it over.
struct DurableRecovered: Sendable, Equatable {
    var key: String
    var method: String
    var outcome: DurableOutcome
}
