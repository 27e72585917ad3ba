// RunningCalls.swift — the page's calls running in Swift, as a pure value.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's calls running in Swift, each under a token, and by the callback its results go to
/// (in the document that opened it), without locks or side effects. `Work` is a running task's
/// handle.
///
/// A page may reuse the name of a callback still open (a page's mistake): the latest call holds the
/// name, and when it ends the latest earlier one still running under it holds it again.
struct RunningCalls<Work: Sendable>: Sendable {
    /// A page's call recorded to run: its token, and the method of a call still running under the
    /// same callback name, when the page reused an open callback's name.
    struct Started {
        var token: Int
        var reusedCallbackOf: MethodName?
    }

    private struct RunningTask {
        /// `nil` for a call the page made without a callback, whose results are dropped.
        var callback: PageCallback?
        /// Kept as the resolver split it: a name is written out only for the rare warning.
        var method: MethodName
        var work: Work?
    }

    /// The most calls running at once.
    let limit: Int
    private var lastToken = 0
    private var tasks: [Int: RunningTask] = [:]
    /// The task running under each callback name (the latest, when a page reused a name).
    private var byCallback: [PageCallback: Int] = [:]
    /// Callback names a page used for two running calls at once: when the latest ends, an earlier
    /// one still running under the name is found again.
    private var reusedCallbacks: Set<PageCallback> = []

    init(limit: Int) {
        self.limit = limit
    }

    /// How many of the page's calls run.
    var count: Int { tasks.count }

    /// The work of the calls running, in the order they started (a call whose work is not made yet
    /// has none).
    var works: [Work] { tasks.keys.sorted().compactMap { tasks[$0]?.work } }

    /// Records a call of `method` about to run, its results going to `callback` (none: dropped):
    /// its token, or the refusal past ``limit``.
    mutating func start(callback: PageCallback?, method: MethodName) -> Result<Started, BridgeError> {
        guard tasks.count < limit else {
            return .failure(BridgeError(code: .limitExceeded, message: "the page already has BridgeLimits.runningCalls (\(limit)) calls running"))
        }
        lastToken += 1
        tasks[lastToken] = RunningTask(callback: callback, method: method)
        guard let callback else { return .success(Started(token: lastToken)) }
        let earlier = byCallback.updateValue(lastToken, forKey: callback).flatMap { tasks[$0]?.method }
        if earlier != nil { reusedCallbacks.insert(callback) }
        return .success(Started(token: lastToken, reusedCallbackOf: earlier))
    }

    /// The task for `token` exists now; returns `work` when it is no longer wanted (cancel it).
    mutating func created(token: Int, work: Work) -> Work? {
        guard tasks[token] != nil else { return work }
        tasks[token]?.work = work
        return nil
    }

    /// The call of `token` ended.
    mutating func finished(token: Int) {
        remove(token)
    }

    /// The page stopped waiting for the call behind `callback`: `nil` when none runs under it;
    /// otherwise its work, when it has started (cancel it).
    mutating func cancel(callback: PageCallback) -> Work?? {
        guard let token = byCallback[callback] else { return nil }
        return .some(remove(token)?.work)
    }

    /// The subframe document `frame` went: its calls' work, to cancel.
    mutating func removeAll(in frame: FrameDocument) -> [Work] {
        let tokens = tasks.filter { $0.value.callback?.frame == frame }.keys.sorted()
        return tokens.compactMap { remove($0)?.work }
    }

    /// The page went: every call's work, to cancel.
    mutating func removeAll() -> [Work] {
        defer {
            tasks.removeAll()
            byCallback.removeAll()
            reusedCallbacks.removeAll()
        }
        return tasks.values.compactMap(\.work)
    }

    @discardableResult
    private mutating func remove(_ token: Int) -> RunningTask? {
        guard let task = tasks.removeValue(forKey: token) else { return nil }
        guard let callback = task.callback, byCallback[callback] == token else { return task }
        byCallback[callback] = nil
        if reusedCallbacks.contains(callback) {
            // Rare (a page's mistake): the latest earlier call still running under the name.
            if let earlier = tasks.filter({ $0.value.callback == callback }).keys.max() {
                byCallback[callback] = earlier
            } else {
                reusedCallbacks.remove(callback)
            }
        }
        return task
    }
}
