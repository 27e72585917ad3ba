// HubStateMachine.swift — the hub's shared state as a pure value: input events, output actions.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Everything a Keystone shares between threads, without locks, tasks or side effects: the page's
/// lifecycle (its load, whether it has initialized, which runtime it announced), the Swift calls
/// waiting for the page, the page's calls running in Swift, and the byte channel's tickets.
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
/// - A message whose value has parts gets their ticket as it goes out, where the page runs
///   Keystone's runtime on a host with a byte channel, and base64 otherwise (``prepare(_:)``); a
///   ticket goes with its owner (a call of either side) and with its page load.
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
        /// Whether its arguments have parts, which may have a ticket open.
        var hasParts = false
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
    /// Messages waiting for the page to initialize, each with the parts of its value.
    private(set) var waiting: [Outgoing] = []
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
    /// The host's byte channel (`nil`: the host has none).
    private var transport: (any ByteTransport)?
    /// The tickets open for the current page load.
    private var transfers: ByteTickets
    private var lastReadyWaiter = 0
    /// Who waits for a page to be ready; an unload keeps them waiting for the next page.
    private var readyWaiters: [Int: Pending] = [:]

    init(pendingCallLimit: Int, runningCallLimit: Int, declarationLimit: Int = 10_000, transferLimit: Int = 64, pageLoadBytes: Int = .max) {
        self.pendingCallLimit = pendingCallLimit
        self.runningCallLimit = runningCallLimit
        self.declarationLimit = declarationLimit
        transfers = ByteTickets(limit: transferLimit, byteLimit: pageLoadBytes)
    }

    /// Whether `parts`, of a Swift call or event, fit beside what the page load holds already: the
    /// open tickets' bytes and those of the messages still waiting to go out.
    private func fits(_ parts: ByteParts?) -> Bool {
        guard let parts else { return true }
        let waiting = self.waiting.reduce(0) { $0 + ($1.parts?.byteCount ?? 0) }
        return parts.byteCount <= transfers.byteLimit - transfers.heldBytes - waiting
    }

    /// A message on its way to the page, with the parts of its value, if any, and the call of the
    /// page's whose result it is: its parts' ticket is issued to that call's frame, and the call
    /// told when they are fetched.
    struct Outgoing: Sendable {
        var message: PageMessage
        var parts: ByteParts?
        var call: CallParts?
    }

    /// Swift calls that have not settled.
    var pendingCallCount: Int { calls.values.count { $0.pending != nil } }
    /// The page's calls running in Swift.
    var runningCallCount: Int { tasks.count }

    // MARK: Messages

    /// Sends `message` to the page load `epoch` (the current one when `nil`), with the parts of its
    /// value, a result of `call`'s; `nil` when that page load has gone and the message was dropped.
    mutating func send(_ message: PageMessage, parts: ByteParts? = nil, of call: CallParts? = nil, to epoch: PageEpoch?) -> [Output]? {
        guard epoch == nil || epoch == self.epoch else { return nil }
        let outgoing = Outgoing(message: message, parts: parts, call: call)
        guard isPageReady else {
            waiting.append(outgoing)
            return []
        }
        return [.deliver(prepare(outgoing), runtime, self.epoch)]
    }

    /// A message as it goes out now. The parts of its value go as bytes where the page runs
    /// Keystone's runtime and the host serves a byte channel, under one ticket; as base64 in the
    /// message to Keystone's runtime otherwise; and as base64 in the value's place to any other
    /// page. A result's ticket counts toward the limits on what a page load holds, which the page
    /// controls by calling and never fetching: past them, the call fails instead. The ticket of
    /// Swift's own call or event may go past them: Swift bounded those bytes when it made them.
    private mutating func prepare(_ outgoing: Outgoing) -> PageMessage {
        // Every message passes here: most have no parts.
        guard let parts = outgoing.parts else { return outgoing.message }
        let message = outgoing.message
        guard runtime == .keystone else { return message.inliningParts(parts) }
        guard let transport, parts.byteCount > 0 else {
            return .withParts(message, MessageParts(marker: parts.marker, sizes: parts.sizes, source: .inline(parts.data)))
        }
        let token = ByteChannel.newToken()
        let ticket = ByteTicket(pageLoad: epoch, owner: ByteTicket.Owner(of: message), payload: .parts(parts.joined, of: outgoing.call), origin: outgoing.call?.origin)
        if case .result(let callback, _, _) = message {
            do {
                try transfers.issue(token, ticket)
            } catch {
                return .failure(callback: callback, error: error)
            }
        } else {
            transfers.issuePastLimit(token, ticket)
        }
        // The call's producer waits while its results' parts wait to be fetched: the one other lock
        // taken under this one, a counter's, which never takes this one.
        outgoing.call?.sent()
        return .withParts(message, MessageParts(marker: parts.marker, sizes: parts.sizes, source: .ticket(transport.address(ofTicket: token))))
    }

    // MARK: Swift → page calls

    /// Makes a call of the page's handler: gives it the next id, records it and sends its message.
    mutating func makeCall(
        _ pending: Pending, method: String, arguments: JSONText, parts: ByteParts? = nil, isMultiResponse: Bool, to epoch: PageEpoch?
    ) -> MakeCall {
        guard epoch == nil || epoch == self.epoch else {
            return .refused(pending, BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        guard calls.count < pendingCallLimit else {
            return .refused(pending, BridgeError(code: .limitExceeded, message: "BridgeLimits.pendingCalls (\(pendingCallLimit)) calls already wait for the page"))
        }
        guard fits(parts) else { return .refused(pending, ByteTickets.tooManyBytesHeld(transfers.byteLimit)) }
        lastCallId += 1
        calls[lastCallId] = OpenCall(method: method, isMultiResponse: isMultiResponse, pending: pending, hasParts: parts != nil)
        return .made(id: lastCallId, send(.call(method: method, callbackId: lastCallId, arguments: arguments), parts: parts, to: nil) ?? [])
    }

    /// Sends a call whose answer nobody waits for.
    mutating func post(method: String, arguments: JSONText, parts: ByteParts? = nil, to epoch: PageEpoch?) -> [Output]? {
        guard epoch == nil || epoch == self.epoch, fits(parts) else { return nil }
        lastCallId += 1
        return send(.call(method: method, callbackId: lastCallId, arguments: arguments), parts: parts, to: nil)
    }

    /// Sends an event whose value has `parts`; `nil` when its page load has gone or the parts do
    /// not fit beside what it holds.
    mutating func emit(_ event: PageMessage, parts: ByteParts, to epoch: PageEpoch?) -> [Output]? {
        guard fits(parts) else { return nil }
        return send(event, parts: parts, to: epoch)
    }

    /// The page answered call `id` (`_dsb.returnValue`).
    mutating func receiveAnswer(id: Int, complete: Bool) -> Answer {
        guard let call = calls[id] else { return .unknown }
        if complete {
            calls[id] = nil
            // Parts the page did not fetch (it has no such handler) go with the call.
            if call.hasParts { transfers.withdraw(.swiftCall(id), in: epoch) }
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
        if call.hasParts { transfers.withdraw(.swiftCall(id), in: epoch) }
        if let index = waiting.firstIndex(where: { if case .call(_, id, _) = $0.message { true } else { false } }) {
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
        let withdrawn = transfers.withdraw(.pageCall(callback), in: epoch)
        guard let token = taskByCallback[callback] else { return withdrawn > 0 ? .found(nil) : .notFound }
        return .found(removeTask(token)?.work)
    }

    // MARK: Byte transfers

    /// The call behind `callback` stopped reading the page's bytes: its ticket for the next piece
    /// goes, while its results' parts stay for the page to fetch.
    mutating func stopReceiving(callback: String, in pageLoad: PageEpoch) {
        transfers.withdraw(.pageCall(callback), in: pageLoad, receivingOnly: true)
    }

    /// The host serves a byte channel over `transport` (`nil`: it serves none from now on, and no
    /// ticket is issued).
    mutating func serveBytes(over transport: (any ByteTransport)?) {
        self.transport = transport
    }

    /// Whether the host serves a byte channel.
    var servesBytes: Bool { transport != nil }

    /// Opens `ticket` as `token`: the address the page presents it at, or why it is refused (no
    /// byte channel, the page load has gone, too many open).
    mutating func openTransfer(_ token: String, _ ticket: ByteTicket) -> Result<String, BridgeError> {
        guard let transport else {
            return .failure(BridgeError(code: .notAllowed, message: "the page has no byte channel"))
        }
        guard ticket.pageLoad == epoch else {
            return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        do {
            try transfers.issue(token, ticket)
        } catch {
            return .failure(error)
        }
        return .success(transport.address(ofTicket: token))
    }

    /// Spends the ticket `token`, presented by a fetch from `origin`: the ticket, or why it is
    /// refused.
    mutating func fetchTransfer(_ token: String, from origin: String?) -> Result<ByteTicket, BridgeError> {
        transfers.redeem(token, in: epoch, from: origin)
    }

    /// Takes piece `piece` of the page's bytes under `token`, from `origin`: what the ticket is for
    /// (the bytes it still allows), or why it is refused (which spends it).
    mutating func presentPiece(
        _ token: String, piece: Int, from origin: String?
    ) -> Result<ByteTicket, BridgeError> {
        transfers.present(token, piece: piece, in: epoch, from: origin)
    }

    /// `count` bytes of the page's arrived under `token`; `keeps` when its payload keeps them.
    mutating func receivedPiece(_ count: Int, under token: String, keeps: Bool) -> BridgeError? {
        transfers.received(count, under: token, keeps: keeps)
    }

    /// Closes the ticket `token`: its bytes have all arrived, or are not sent after all.
    mutating func closeTransfer(_ token: String) {
        transfers.takeBack(token)
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
        for outgoing in waiting { outputs.append(.deliver(prepare(outgoing), runtime, epoch)) }
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
