// HubStateMachine.swift — the hub's shared state as a pure value: input events, output actions.
/// Everything a Keystone shares between threads, without locks, tasks or side effects: the page's
/// lifecycle (its load, whether it has initialized, which runtime it announced), the Swift calls
/// waiting for the page, and the page's calls running in Swift.
///
/// Each event returns what must happen next: messages for the evaluator (``Output``), calls to
/// settle, work to cancel. ``HubStorage`` holds it behind one lock and acts on what it returns
/// outside the lock. `Pending` is a Swift call's way to settle; `Work` is a running task's handle.
///
/// - Messages wait until the page initializes, then go out in order, written for its runtime.
/// - A message for an earlier page load is dropped; an unload drops what waits and tells the
///   evaluator to discard what it queued, fails the calls waiting for the page and cancels the
///   page's running calls.
/// - A Swift call settles once. A `call` takes the page's first answer; when that answer says more
///   will follow, the call stays open (and counts toward the limit) so later answers are reported
///   rather than dropped unnoticed, until one is marked complete or the page unloads.
struct HubStateMachine<Pending: Sendable, Work: Sendable>: Sendable {
    /// What the evaluator must do, in order.
    enum Output: Sendable, Hashable {
        case deliver(PageMessage, PageRuntime, PageEpoch)
        case discardQueued
    }

    enum MakeCall {
        case made(id: Int, [Output])
        case refused(Pending, BridgeError)
    }

    enum Answer {
        /// Hand the answer to the call; `complete` says whether the page marked it final.
        case deliver(Pending, complete: Bool)
        /// A `call` (not a stream) that already settled was answered again.
        case repeated(method: String)
        case unknown
    }

    enum TaskCancel {
        case notFound
        /// The task was found; its work, when it has started (cancel it).
        case found(Work?)
    }

    /// A page's call recorded to run: its token, and the method of a call still running under the
    /// same callback name, when the page reused an open callback's name.
    struct StartedTask {
        var token: Int
        var reusedCallbackOf: MethodName?
    }

    struct Initialize {
        /// What waited for the page, written for its runtime.
        var outputs: [Output]
        /// Who waited for the page to be ready (``waitForPage(_:)``): settle each with success.
        var ready: [Pending]
    }

    struct Unload {
        var failed: [Pending]
        var cancelled: [Work]
        var outputs: [Output]
    }

    private struct OpenCall {
        var method: String
        var isMultiResponse: Bool
        /// `nil` once a `call` has its answer and the page said more would follow.
        var pending: Pending?
        /// Whether it has `Data` arguments, which may have tickets open.
        var hasBytes = false
    }

    private struct RunningTask {
        /// `nil` for a call the page made without a callback, whose results are dropped.
        var callback: String?
        /// Kept as the resolver split it: a name is written out only for the rare warning.
        var method: MethodName
        var work: Work?
    }

    let pendingCallLimit: Int
    let runningCallLimit: Int
    let declarationLimit: Int
    private(set) var epoch = PageEpoch.first
    private(set) var isPageReady = false
    private(set) var runtime = PageRuntime.dsbridge
    private(set) var waiting: [PageMessage] = []
    /// The `Data` arguments of Swift's calls not yet sent, by call id: how they go is decided when
    /// the call goes out (``prepare(_:)``).
    private var outboundBytes: [Int: OutboundBytes] = [:]
    /// What the current page load's main frame has established: its authorisation and declared
    /// methods.
    private var access = PageAccess()
    /// The origin of the main frame that established ``access``: the principal the grant belongs to.
    private var principal: String?
    private var lastCallId = 0
    private var calls: [Int: OpenCall] = [:]
    private var lastTaskToken = 0
    private var tasks: [Int: RunningTask] = [:]
    /// The task running under each callback name (the latest, when a page reused a name).
    private var taskByCallback: [String: Int] = [:]
    /// Callback names a page used for two running calls at once: when the latest ends, an earlier
    /// one still running under the name is found again.
    private var reusedCallbacks: Set<String> = []
    /// The address the host's byte channel serves transfers under (`nil`: the host has none).
    private(set) var transferBase: String?
    /// The tickets open for the current page load.
    private var transfers: TransferTickets<TransferPayload>
    private var lastReadyWaiter = 0
    /// Who waits for a page to be ready; an unload keeps them waiting for the next page.
    private var readyWaiters: [Int: Pending] = [:]

    init(pendingCallLimit: Int, runningCallLimit: Int, declarationLimit: Int = 10_000, transferLimit: Int = 64, pageLoadBytes: Int = .max) {
        self.pendingCallLimit = pendingCallLimit
        self.runningCallLimit = runningCallLimit
        self.declarationLimit = declarationLimit
        transfers = TransferTickets(limit: transferLimit, byteLimit: pageLoadBytes)
    }

    /// Whether `bytes`, Swift's `Data` arguments for a call, fit beside what the page load holds
    /// already: the open tickets' bytes and those of the calls still waiting to go out.
    private func fits(_ bytes: OutboundBytes?) -> Bool {
        guard let bytes else { return true }
        let waiting = outboundBytes.values.reduce(0) { total, call in total + call.bytes.reduce(0) { $0 + $1.data.count } }
        let adding = bytes.bytes.reduce(0) { $0 + $1.data.count }
        return adding <= transfers.byteLimit - transfers.heldBytes - waiting
    }

    /// Swift calls that have not settled.
    var pendingCallCount: Int { calls.values.count { $0.pending != nil } }
    /// The page's calls running in Swift.
    var runningCallCount: Int { tasks.count }

    // MARK: Messages

    /// Sends `message` to the page load `epoch` (the current one when `nil`); `nil` when that page
    /// load has gone and the message was dropped.
    mutating func send(_ message: PageMessage, to epoch: PageEpoch?) -> [Output]? {
        guard epoch == nil || epoch == self.epoch else { return nil }
        guard isPageReady else {
            waiting.append(message)
            return []
        }
        return [.deliver(prepare(message), runtime, self.epoch)]
    }

    /// A message as it goes out now. A call with `Data` arguments gets them as bytes, each under a
    /// ticket of its own, where the page runs Keystone's runtime and the host serves the byte
    /// channel; as base64 in JSON otherwise. Its tickets may go past the limit on open tickets,
    /// which bounds what a page opens: Swift made this call.
    private mutating func prepare(_ message: PageMessage) -> PageMessage {
        // Every message passes here: most are not calls, and most calls carry no bytes.
        guard !outboundBytes.isEmpty, case .call(let method, let id, _) = message, let bytes = outboundBytes.removeValue(forKey: id) else {
            return message
        }
        guard runtime == .keystone, let base = transferBase else {
            return .call(method: method, callbackId: id, arguments: bytes.arguments(bytesAsBase64: true))
        }
        var sources: [ArgumentBytes] = []
        for argument in bytes.bytes {
            let grant = TransferTickets<TransferPayload>.Grant(
                pageLoad: epoch, callback: OutboundBytes.ticketKey(forCall: id), direction: .toPage, maximumBytes: argument.data.count)
            transfers.issuePastLimit(argument.token, for: grant, payload: .download(argument.data, nil), holding: argument.data.count)
            sources.append(ArgumentBytes(index: argument.index, source: base + argument.token, size: argument.data.count))
        }
        return .callWithBytes(method: method, callbackId: id, arguments: bytes.arguments(bytesAsBase64: false), bytes: sources)
    }

    // MARK: Swift → page calls

    /// Makes a call of the page's handler: gives it the next id, records it and sends its message.
    mutating func makeCall(
        _ pending: Pending, method: String, arguments: JSONText, bytes: OutboundBytes? = nil, isMultiResponse: Bool, to epoch: PageEpoch?
    ) -> MakeCall {
        guard epoch == nil || epoch == self.epoch else {
            return .refused(pending, BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        guard calls.count < pendingCallLimit else {
            return .refused(pending, BridgeError(code: .limitExceeded, message: "BridgeLimits.pendingCalls (\(pendingCallLimit)) calls already wait for the page"))
        }
        guard fits(bytes) else { return .refused(pending, TransferTickets<TransferPayload>.tooManyBytesHeld(transfers.byteLimit)) }
        lastCallId += 1
        calls[lastCallId] = OpenCall(method: method, isMultiResponse: isMultiResponse, pending: pending, hasBytes: bytes != nil)
        if let bytes { outboundBytes[lastCallId] = bytes }
        return .made(id: lastCallId, send(.call(method: method, callbackId: lastCallId, arguments: arguments), to: nil) ?? [])
    }

    /// Sends a call whose answer nobody waits for.
    mutating func post(method: String, arguments: JSONText, bytes: OutboundBytes? = nil, to epoch: PageEpoch?) -> [Output]? {
        guard epoch == nil || epoch == self.epoch, fits(bytes) else { return nil }
        lastCallId += 1
        if let bytes { outboundBytes[lastCallId] = bytes }
        return send(.call(method: method, callbackId: lastCallId, arguments: arguments), to: nil)
    }

    /// The page answered call `id` (`_dsb.returnValue`).
    mutating func receiveAnswer(id: Int, complete: Bool) -> Answer {
        guard let call = calls[id] else { return .unknown }
        if complete {
            calls[id] = nil
            // Bytes the page did not fetch (it has no such handler) go with the call.
            if call.hasBytes { transfers.withdraw(callback: OutboundBytes.ticketKey(forCall: id), in: epoch) }
        }
        guard let pending = call.pending else { return .repeated(method: call.method) }
        if !call.isMultiResponse, !complete { calls[id]?.pending = nil }
        return .deliver(pending, complete: complete || !call.isMultiResponse)
    }

    /// The Swift side stopped waiting for call `id`: what to fail, if it had not settled, and what
    /// tells the page. A call still waiting for the page is taken back; one the page has, Keystone's
    /// runtime is told of (``PageMessage/cancel(callbackId:)``), so its handler can stop.
    mutating func cancelCall(id: Int) -> (Pending?, [Output]) {
        guard let call = calls.removeValue(forKey: id) else { return (nil, []) }
        if call.hasBytes {
            outboundBytes[id] = nil
            transfers.withdraw(callback: OutboundBytes.ticketKey(forCall: id), in: epoch)
        }
        if let index = waiting.firstIndex(where: { if case .call(_, id, _) = $0 { true } else { false } }) {
            waiting.remove(at: index)
            return (call.pending, [])
        }
        guard isPageReady, runtime == .keystone else { return (call.pending, []) }
        return (call.pending, [.deliver(.cancel(callbackId: id), runtime, epoch)])
    }

    // MARK: Page → Swift calls

    /// Records a call of the page's, of `method`, that is about to run in a task for the page load
    /// `epoch`, its results going to `callback` (none: dropped); the task's token, or the error
    /// that refuses it.
    mutating func startTask(callback: String?, method: MethodName, for epoch: PageEpoch) -> Result<StartedTask, BridgeError> {
        guard epoch == self.epoch else {
            return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        guard tasks.count < runningCallLimit else {
            return .failure(BridgeError(code: .limitExceeded, message: "the page already has BridgeLimits.runningCalls (\(runningCallLimit)) calls running"))
        }
        lastTaskToken += 1
        tasks[lastTaskToken] = RunningTask(callback: callback, method: method)
        guard let callback else { return .success(StartedTask(token: lastTaskToken)) }
        let earlier = taskByCallback.updateValue(lastTaskToken, forKey: callback).flatMap { tasks[$0]?.method }
        if earlier != nil { reusedCallbacks.insert(callback) }
        return .success(StartedTask(token: lastTaskToken, reusedCallbackOf: earlier))
    }

    /// The task for `token` exists now; returns `work` when it is no longer wanted (cancel it).
    mutating func taskCreated(token: Int, work: Work) -> Work? {
        guard tasks[token] != nil else { return work }
        tasks[token]?.work = work
        return nil
    }

    mutating func taskFinished(token: Int) {
        removeTask(token)
    }

    /// The page stopped waiting for the call behind `callback` (`_dsb.cancel`): its tickets go
    /// too, a result's bytes with them.
    mutating func cancelTask(callback: String) -> TaskCancel {
        let withdrawn = transfers.withdraw(callback: callback, in: epoch)
        guard let token = taskByCallback[callback] else { return withdrawn > 0 ? .found(nil) : .notFound }
        return .found(removeTask(token)?.work)
    }

    // MARK: Byte transfers

    /// The call behind `callback` stopped reading the page's stream: a ticket for its next chunk
    /// goes, while its results' bytes stay for the page to fetch.
    mutating func stopUploads(callback: String, in pageLoad: PageEpoch) {
        transfers.withdraw(callback: callback, in: pageLoad, direction: .toSwift)
    }

    /// The host serves the byte channel under `base`.
    mutating func serveTransfers(at base: String) {
        transferBase = base
    }

    /// The host no longer serves a byte channel: no ticket is issued from now on.
    mutating func stopServingTransfers() {
        transferBase = nil
    }

    /// Whether the host serves a byte channel.
    var servesTransfers: Bool { transferBase != nil }

    /// Opens a ticket, `token`, for `grant` and `payload`: the address the page presents it at, or
    /// why it is refused (no byte channel, the page load has gone, too many open).
    mutating func openTransfer(_ token: String, for grant: TransferTickets<TransferPayload>.Grant, payload: TransferPayload) -> Result<String, BridgeError> {
        guard let base = transferBase else {
            return .failure(BridgeError(code: .unsupportedCallKind, message: "the host has no byte channel"))
        }
        guard grant.pageLoad == epoch else {
            return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        do {
            try transfers.issue(token, for: grant, payload: payload, holding: payload.heldBytes)
        } catch {
            return .failure(error)
        }
        return .success(base + token)
    }

    /// Takes back the ticket `token`, opened for bytes that are not sent after all.
    mutating func takeBackTransfer(_ token: String) {
        transfers.takeBack(token)
    }

    /// Spends the ticket `token`, presented by a request moving bytes `direction` from `origin`:
    /// what it was for, or why it is refused.
    mutating func redeemTransfer(
        _ token: String, direction: TransferTickets<TransferPayload>.Direction, from origin: String?
    ) -> Result<(grant: TransferTickets<TransferPayload>.Grant, payload: TransferPayload), BridgeError> {
        transfers.redeem(token, direction: direction, in: epoch, from: origin)
    }

    /// How many tickets are open.
    var openTransferCount: Int { transfers.count }

    @discardableResult
    private mutating func removeTask(_ token: Int) -> RunningTask? {
        guard let task = tasks.removeValue(forKey: token) else { return nil }
        guard let callback = task.callback, taskByCallback[callback] == token else { return task }
        taskByCallback[callback] = nil
        if reusedCallbacks.contains(callback) {
            // Rare (a page's mistake): the latest earlier call still running under the name.
            if let earlier = tasks.filter({ $0.value.callback == callback }).keys.max() {
                taskByCallback[callback] = earlier
            } else {
                reusedCallbacks.remove(callback)
            }
        }
        return task
    }

    // MARK: What the page load establishes

    /// What `frame` may rely on of what the page load established: all of it for the main frame and
    /// for a frame of the origin the grant was made to (which the same-origin policy lets act as the
    /// main frame anyway); nothing for any other frame.
    func access(for frame: CallerFrame) -> PageAccess {
        if frame.isAttestedMainFrame { return access }
        guard frame.isAttested, let origin = frame.origin, origin == principal else { return PageAccess() }
        return access
    }

    /// The app's policy accepted the credentials the main frame of `origin` presented during the
    /// page load `epoch`; `false` when that page load has gone, and the grant with it.
    mutating func authorize(_ epoch: PageEpoch, origin: String?) -> Bool {
        guard epoch == self.epoch else { return false }
        access.isAuthorized = true
        principal = origin
        return true
    }

    /// The current page load's main frame, of `origin`, declared the methods it will use; a later
    /// declaration adds to it. Refused whole when the page load would declare more than the limit.
    mutating func declare(_ methods: Set<String>, origin: String?) -> Result<Void, BridgeError> {
        let declared = (access.declaredMethods ?? []).union(methods)
        guard declared.count <= declarationLimit else {
            return .failure(BridgeError(code: .limitExceeded, message: "a page may declare at most BridgeLimits.declaredMethods (\(declarationLimit)) methods"))
        }
        access.declaredMethods = declared
        principal = origin
        return .success(())
    }

    // MARK: The page's lifecycle

    /// The page has registered its handlers (`_dsb.dsinit`), announcing `runtime`: what waited goes
    /// out, and who waited for the page is told.
    mutating func pageDidInitialize(runtime announced: PageRuntime) -> Initialize {
        isPageReady = true
        // A page with two bridge scripts initializes twice; once Keystone's has spoken, it stays.
        if announced == .keystone { runtime = .keystone }
        defer {
            waiting.removeAll()
            readyWaiters.removeAll()
        }
        var outputs: [Output] = []
        outputs.reserveCapacity(waiting.count)
        for message in waiting { outputs.append(.deliver(prepare(message), runtime, epoch)) }
        return Initialize(outputs: outputs, ready: readyWaiters.keys.sorted().compactMap { readyWaiters[$0] })
    }

    /// `waiter` waits for the page to be ready: `nil` when it is (settle the waiter now), otherwise
    /// the id that ``stopWaitingForPage(_:)`` takes.
    mutating func waitForPage(_ waiter: Pending) -> Int? {
        guard !isPageReady else { return nil }
        lastReadyWaiter += 1
        readyWaiters[lastReadyWaiter] = waiter
        return lastReadyWaiter
    }

    /// The waiter `id` stopped waiting (its task was cancelled): it, unless it was already told.
    mutating func stopWaitingForPage(_ id: Int) -> Pending? {
        readyWaiters.removeValue(forKey: id)
    }

    /// The page has gone: a new page load begins.
    mutating func pageDidUnload() -> Unload {
        epoch = epoch.next
        isPageReady = false
        runtime = .dsbridge
        access = PageAccess()
        principal = nil
        waiting.removeAll()
        outboundBytes.removeAll()
        transfers.pageDidUnload()
        defer {
            calls.removeAll()
            tasks.removeAll()
            taskByCallback.removeAll()
            reusedCallbacks.removeAll()
        }
        return Unload(failed: calls.values.compactMap(\.pending), cancelled: tasks.values.compactMap(\.work), outputs: [.discardQueued])
    }
}
