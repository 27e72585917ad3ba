// RunningCalls.swift — the page's calls running in Swift, as a pure value: one value per call.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's calls running in Swift, each under a token, and by the callback its results go to
/// (in the document that opened it), without locks or side effects. Each call is one value: its
/// work, and its ``InboundCallState`` (where its single result goes, whether its last result has
/// gone), so its results and its answer consult the hub's one lock and no other. `Work` is a
/// running task's handle.
///
/// - A call is kept until its task has ended and its answer is written, whichever comes last: a
///   method that never waits ends before the answer is.
/// - A call the page cancels (or whose document or page goes) hands its work back to cancel and no
///   longer counts toward the limit, nor answers to its callback's name; its state stays until its
///   task ends, so the one result marked complete (its failure, mostly) still closes the page's
///   callback, and nothing follows it.
/// - A page may reuse the name of a callback still open (a page's mistake): the latest call holds
///   the name, and when it ends the latest earlier one still running under it holds it again.
struct RunningCalls<Work: Sendable>: Sendable {
    /// A page's call recorded to run: its token, and the method of a call still running under the
    /// same callback name, when the page reused an open callback's name.
    struct Started {
        var token: Int
        var reusedCallbackOf: MethodName?
    }

    private struct RunningCall {
        /// `nil` for a call the page made without a callback, whose results are dropped.
        var callback: PageCallback?
        /// Kept as the resolver split it: a name is written out only for the rare warning.
        var method: MethodName
        var work: Work?
        var state: InboundCallState
        /// Whether the call was cancelled: its work was handed back to cancel.
        var isCancelled = false
        /// Whether the call's answer is written.
        var isAnswered = false
        /// Whether the call's task has ended.
        var hasEnded = false
    }

    /// The most calls running at once.
    let limit: Int
    private var lastToken = 0
    private var calls: [Int: RunningCall] = [:]
    /// How many calls are not cancelled.
    private(set) var count = 0
    /// The call running under each callback name (the latest, when a page reused a name).
    private var byCallback: [PageCallback: Int] = [:]
    /// Callback names a page used for two running calls at once: when the latest ends, an earlier
    /// one still running under the name is found again.
    private var reusedCallbacks: Set<PageCallback> = []

    init(limit: Int) {
        self.limit = limit
    }

    /// The work of the calls running and not cancelled, in the order they started (a call whose
    /// work is not made yet has none).
    var works: [Work] { calls.keys.sorted().compactMap { calls[$0].flatMap { $0.isCancelled ? nil : $0.work } } }

    /// Records a call of `method` about to run, its results going to `callback` (none: dropped),
    /// whose answer takes a single result offered on `answeringThread` (`nil`: takes none): its
    /// token, or the refusal past ``limit``.
    mutating func start(callback: PageCallback?, method: MethodName, answeringThread: UInt? = nil) -> Result<Started, BridgeError> {
        guard count < limit else {
            return .failure(BridgeError(code: .limitExceeded, message: "the page already has BridgeLimits.runningCalls (\(limit)) calls running"))
        }
        lastToken += 1
        count += 1
        calls[lastToken] = RunningCall(callback: callback, method: method, state: InboundCallState(answeringThread: answeringThread))
        guard let callback else { return .success(Started(token: lastToken)) }
        let earlier = byCallback.updateValue(lastToken, forKey: callback).flatMap { calls[$0]?.method }
        if earlier != nil { reusedCallbacks.insert(callback) }
        return .success(Started(token: lastToken, reusedCallbackOf: earlier))
    }

    /// The task for `token` exists now, and the call's answer is being written, in one step: `work`
    /// when it is no longer wanted (cancel it), and the single result the answer carries, if any.
    mutating func created(token: Int, work: Work) -> (unwanted: Work?, answer: SingleResult?) {
        guard let index = calls.index(forKey: token) else { return (work, nil) }
        let (unwanted, answer, hasEnded) = Self.change(&calls.values[index]) { call -> (Work?, SingleResult?, Bool) in
            call.isAnswered = true
            if !call.isCancelled { call.work = work }
            return (call.isCancelled ? work : nil, call.state.closeInline(), call.hasEnded)
        }
        if hasEnded { remove(at: index) }
        return (unwanted, answer)
    }

    /// The task of the call `token` ended: the call goes, once its answer is written too.
    mutating func finished(token: Int) {
        guard let index = calls.index(forKey: token) else { return }
        let isAnswered = Self.change(&calls.values[index]) { call in
            call.hasEnded = true
            return call.isAnswered
        }
        if isAnswered { remove(at: index) }
    }

    /// The call `token`'s single result, ready on `thread`: into its answer when that takes it, to
    /// its callback unless the call has finished (``InboundCallState/route(singleResult:on:)``).
    mutating func route(_ result: SingleResult, token: Int, on thread: UInt) -> InboundCallState.SingleResultRoute {
        guard let index = calls.index(forKey: token) else { return .nowhere }
        return calls.values[index].state.route(singleResult: result, on: thread)
    }

    /// A result of the call `token` is about to go to its callback: `false` when the call has
    /// finished already (the result must not go).
    mutating func send(token: Int, isFinal: Bool) -> Bool {
        guard let index = calls.index(forKey: token) else { return false }
        return calls.values[index].state.send(isFinal: isFinal)
    }

    /// The page stopped waiting for the call behind `callback`: `nil` when none runs under it;
    /// otherwise its work, when it has started (cancel it).
    mutating func cancel(callback: PageCallback) -> Work?? {
        guard let token = byCallback[callback] else { return nil }
        return .some(cancel(token))
    }

    /// The subframe document `frame` went: its calls' work, to cancel.
    mutating func cancelAll(in frame: FrameDocument) -> [Work] {
        calls.keys.sorted().filter { calls[$0]?.isCancelled == false && calls[$0]?.callback?.frame == frame }.compactMap { cancel($0) }
    }

    /// The page went: every call's work, to cancel.
    mutating func cancelAll() -> [Work] {
        calls.keys.sorted().filter { calls[$0]?.isCancelled == false }.compactMap { cancel($0) }
    }

    /// Cancels the call `token`: its work, when it has started.
    private mutating func cancel(_ token: Int) -> Work? {
        guard let index = calls.index(forKey: token) else { return nil }
        let (wasCancelled, callback, work) = Self.change(&calls.values[index]) { call in
            defer { call.isCancelled = true }
            return (call.isCancelled, call.callback, call.work)
        }
        guard !wasCancelled else { return nil }
        release(token, callback: callback)
        count -= 1
        return work
    }

    /// Runs `body` on `call` in place: a call's value is large, and reading one of its flags
    /// through a getter would copy it whole.
    private static func change<Result>(_ call: inout RunningCall, _ body: (inout RunningCall) -> Result) -> Result {
        body(&call)
    }

    private mutating func remove(at index: [Int: RunningCall].Index) {
        let (token, call) = calls.remove(at: index)
        guard !call.isCancelled else { return }
        release(token, callback: call.callback)
        count -= 1
    }

    /// The call `token` no longer answers to its `callback`'s name: the latest earlier call still
    /// running under it does, if the page reused the name.
    private mutating func release(_ token: Int, callback: PageCallback?) {
        guard let callback, byCallback[callback] == token else { return }
        byCallback[callback] = nil
        if reusedCallbacks.contains(callback) {
            // Rare (a page's mistake): the latest earlier call still running under the name.
            if let earlier = calls.filter({ $0.key != token && !$0.value.isCancelled && $0.value.callback == callback }).keys.max() {
                byCallback[callback] = earlier
            } else {
                reusedCallbacks.remove(callback)
            }
        }
    }
}
