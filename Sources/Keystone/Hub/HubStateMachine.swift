// HubStateMachine.swift — the hub's shared state as a pure value: input events, output actions.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Everything a Keystone shares between threads, without locks, tasks or side effects, composed of
/// one value per concern: the page load (``PageLoadState``), the subframe documents it reaches
/// (``Subframes``), Swift's calls waiting for the page (``SwiftCalls``), the page's calls running in
/// Swift (``RunningCalls``) and the byte channel's tickets (``ByteTickets``). What crosses them lives here: the messages waiting for the page, how a
/// message goes out, and what a call's end or the page's does to each.
///
/// Each event returns what must happen next: messages for the evaluator (``Output``), calls to
/// settle, work to cancel. ``HubStorage`` holds it behind one lock and acts on what it returns
/// outside the lock. `Pending` is a Swift call's way to settle; `Work` is a running task's handle.
///
/// - Messages wait until the page initializes, then go out in order, written for its runtime.
/// - A message for an earlier page load is dropped; an unload drops what waits and tells the
///   evaluator to discard what it queued, fails the calls waiting for the page and cancels the
///   page's running calls.
/// - A message for a subframe document goes to it at once, written for its runtime, while the page
///   load reaches it; when it goes, Swift's calls of its handlers fail, its running calls are
///   cancelled and its tickets go. Whatever the evaluator still holds for it, its host drops.
/// - A Swift call settles once. A `call` takes the page's first answer; when that answer says more
///   will follow, the call stays open (and counts toward the limit) so later answers are reported
///   rather than dropped unnoticed, until one is marked complete or the page unloads.
/// - A message whose value has parts gets their ticket as it goes out, where the page runs
///   Keystone's runtime on a host with a byte channel, and base64 otherwise (``prepare(_:)``); a
///   ticket goes with its owner (a call of either side) and with its page load.
struct HubStateMachine<Pending: Sendable, Work: Sendable>: Sendable {
    /// What the evaluator must do, in order.
    enum Output: Sendable, Hashable {
        /// A message, written for the runtime, for the page load, bound for the subframe document
        /// (`nil`: the main frame).
        case deliver(PageMessage, PageRuntime, PageLoad, FrameDocument?)
        case discardQueued
    }

    enum MakeCall {
        case made(id: Int, [Output])
        case refused(Pending, BridgeError)
    }

    typealias Answer = SwiftCalls<Pending>.Answer
    typealias StartedTask = RunningCalls<Work>.Started

    enum TaskCancel {
        case notFound
        /// The task was found; its work, when it has started (cancel it).
        case found(Work?)
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
        /// `recovered()` calls of the page load that went, no longer waiting.
        var recoveries: [RecoveryWaiter] = []
    }

    /// A `recovered()` call's way to be handed the durable calls of earlier documents (`nil`: its
    /// page load went first).
    typealias RecoveryWaiter = @Sendable ([DurableRecovered]?) -> Void

    /// A message on its way to the page, with the parts of its value, if any, and the call of the
    /// page's whose result it is: its parts' ticket is issued to that call's frame, and the call
    /// told when they are fetched.
    struct Outgoing: Sendable {
        var message: PageMessage
        var parts: ByteParts?
        var call: CallParts?
    }

    private(set) var page: PageLoadState<Pending>
    private(set) var subframes: Subframes<Outgoing>
    /// The page's durable calls, which outlive their page load.
    var durable: DurableCalls<RecoveryWaiter>
    private var swiftCalls: SwiftCalls<Pending>
    private var running: RunningCalls<Work>
    /// Messages waiting for the page to initialize, each with the parts of its value.
    private(set) var waiting: [Outgoing] = []
    /// The host's byte channel (`nil`: the host has none).
    private var transport: (any ByteTransport)?
    /// The tickets open for the current page load.
    private var transfers: ByteTickets
    /// The methods the app made durable by default (`MethodList.durable(_:)`), as it registered them.
    private var durableMethods: Set<MethodName> = []

    init(
        pendingCallLimit: Int, runningCallLimit: Int, declarationLimit: Int = 10_000, transferLimit: Int = 64, pageLoadBytes: Int = .max,
        subframeLimit: Int = 64, durableLimit: Int = 256, durableBytes: Int = 16 << 20, durableLifetime: Duration = .seconds(86_400)
    ) {
        page = PageLoadState(declarationLimit: declarationLimit)
        subframes = Subframes(limit: subframeLimit)
        durable = DurableCalls(limit: durableLimit, byteLimit: durableBytes, lifetime: durableLifetime)
        swiftCalls = SwiftCalls(limit: pendingCallLimit)
        running = RunningCalls(limit: runningCallLimit)
        transfers = ByteTickets(limit: transferLimit, byteLimit: pageLoadBytes)
    }

    var pageLoad: PageLoad { page.pageLoad }
    var isPageReady: Bool { page.isPageReady }
    var runtime: PageRuntime { page.runtime }
    /// Swift calls that have not settled.
    var pendingCallCount: Int { swiftCalls.pendingCount }
    /// The page's calls running in Swift.
    var runningCallCount: Int { running.count }
    /// The work of the page's calls running in Swift, in the order they started.
    var runningWorks: [Work] { running.works }

    // MARK: Messages

    /// Sends `message` to the page load `pageLoad` (the current one when `nil`) and its subframe
    /// document `frame` (`nil`: the main frame), with the parts of its value, a result of `call`'s;
    /// `nil` when that page load or document has gone and the message was dropped.
    mutating func send(
        _ message: PageMessage, parts: ByteParts? = nil, of call: CallParts? = nil, to pageLoad: PageLoad?, frame: FrameDocument? = nil
    ) -> [Output]? {
        guard pageLoad == nil || pageLoad == self.pageLoad else { return nil }
        let outgoing = Outgoing(message: message, parts: parts, call: call)
        if let frame {
            guard let runtime = subframes.runtime(of: frame) else { return nil }
            if message.swiftCallId != nil, !subframes.isReady(frame) { return subframes.wait(outgoing, for: frame) ? [] : nil }
            return [.deliver(prepare(outgoing, runtime: runtime, frame: frame), runtime, self.pageLoad, frame)]
        }
        guard isPageReady else {
            waiting.append(outgoing)
            return []
        }
        return [.deliver(prepare(outgoing, runtime: runtime, frame: nil), runtime, self.pageLoad, nil)]
    }

    /// A message as it goes out now. The parts of its value go as bytes where the page runs
    /// Keystone's runtime and the host serves a byte channel, under one ticket; as base64 in the
    /// message to Keystone's runtime otherwise; and as base64 in the value's place to any other
    /// page. A result's ticket counts toward the limits on what a page load holds, which the page
    /// controls by calling and never fetching: past them, the call fails instead. The ticket of
    /// Swift's own call or event may go past them: Swift bounded those bytes when it made them.
    private mutating func prepare(_ outgoing: Outgoing, runtime: PageRuntime, frame: FrameDocument?) -> PageMessage {
        // Every message passes here: most have no parts.
        guard let parts = outgoing.parts else { return outgoing.message }
        let message = outgoing.message
        guard runtime == .keystone else { return message.inliningParts(parts) }
        guard let transport, parts.byteCount > 0 else {
            return .withParts(message, MessageParts(marker: parts.marker, sizes: parts.sizes, source: .inline(parts.data)))
        }
        let token = ByteTickets.newToken()
        let ticket = ByteTicket(
            pageLoad: pageLoad, owner: ByteTicket.Owner(of: message, in: frame), payload: .parts(parts.joined, of: outgoing.call), origin: outgoing.call?.origin)
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

    /// Whether `parts`, of a Swift call or event, fit beside what the page load holds already: the
    /// open tickets' bytes and those of the messages still waiting to go out.
    private func fits(_ parts: ByteParts?) -> Bool {
        guard let parts else { return true }
        let waiting = self.waiting.reduce(0) { $0 + ($1.parts?.byteCount ?? 0) }
        return parts.byteCount <= transfers.byteLimit - transfers.heldBytes - waiting
    }

    // MARK: Swift → page calls

    /// Makes a call of the page's handler, in the subframe document `frame` (`nil`: the main
    /// frame): gives it the next id, records it and sends its message. A subframe document must
    /// have registered its handlers. A durable call (`durable`: its id for the page) goes again to
    /// each next document of its origin until one answers it (``SwiftCalls``); it is the main
    /// frame's, and has no parts.
    mutating func makeCall(
        _ pending: Pending, method: String, arguments: JSONText, parts: ByteParts? = nil, isMultiResponse: Bool, to pageLoad: PageLoad?,
        frame: FrameDocument? = nil, durable: String? = nil
    ) -> MakeCall {
        guard pageLoad == nil || pageLoad == self.pageLoad else {
            return .refused(pending, BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        if let frame, subframes.runtime(of: frame) == nil {
            return .refused(pending, BridgeError(code: .pageGone, message: "the frame's document has gone"))
        }
        guard fits(parts) else { return .refused(pending, ByteTickets.tooManyBytesHeld(transfers.byteLimit)) }
        switch swiftCalls.open(method: method, isMultiResponse: isMultiResponse, pending: pending, hasParts: parts != nil, frame: frame) {
        case .failure(let error):
            return .refused(pending, error)
        case .success(let id):
            var message = PageMessage.call(method: method, callbackId: id, arguments: arguments)
            if let durable {
                message = .durable(message, id: durable)
                swiftCalls.keepDurable(id: id, message: message, parts: parts)
                if isPageReady { swiftCalls.went(id: id, to: page.origin) }
            }
            return .made(id: id, send(message, parts: parts, to: nil, frame: frame) ?? [])
        }
    }

    /// Sends a call whose answer nobody waits for.
    mutating func post(method: String, arguments: JSONText, parts: ByteParts? = nil, to pageLoad: PageLoad?) -> [Output]? {
        guard pageLoad == nil || pageLoad == self.pageLoad, fits(parts) else { return nil }
        return send(.call(method: method, callbackId: swiftCalls.nextId(), arguments: arguments), parts: parts, to: nil)
    }

    /// Sends an event whose value has `parts`, to the subframe document `frame` (`nil`: the main
    /// frame); `nil` when its page load or document has gone or the parts do not fit beside what
    /// it holds.
    mutating func emit(_ event: PageMessage, parts: ByteParts, to pageLoad: PageLoad?, frame: FrameDocument? = nil) -> [Output]? {
        guard fits(parts) else { return nil }
        return send(event, parts: parts, to: pageLoad, frame: frame)
    }

    /// The document `frame` (`nil`: the main frame) answered call `id` (`_dsb.returnValue`);
    /// `undelivered` when its runtime says the handler never saw the call.
    mutating func receiveAnswer(id: Int, complete: Bool, undelivered: Bool = false, from frame: FrameDocument? = nil) -> Answer {
        let (answer, closed) = swiftCalls.answer(id: id, complete: complete, undelivered: undelivered, from: frame)
        // Parts the page did not fetch (it has no such handler, or could not) go with the call; a
        // durable call's next document fetches them under a ticket of its own.
        let goesOn = if case .goesOn = answer { true } else { false }
        if goesOn || closed?.hasParts == true { transfers.withdraw(.swiftCall(id), in: pageLoad) }
        return answer
    }

    /// The Swift side stopped waiting for call `id`: what to fail, if it had not settled, and what
    /// tells the page. A call still waiting for the page is taken back; one the page has, Keystone's
    /// runtime is told of (``PageMessage/cancel(callbackId:)``), so its handler can stop.
    mutating func cancelCall(id: Int) -> (Pending?, [Output]) {
        guard let call = swiftCalls.cancel(id: id) else { return (nil, []) }
        if call.hasParts { transfers.withdraw(.swiftCall(id), in: pageLoad) }
        if let frame = call.frame {
            if subframes.withdraw(from: frame, where: { $0.message.swiftCallId == id }) { return (call.pending, []) }
            guard subframes.runtime(of: frame) == .keystone else { return (call.pending, []) }
            return (call.pending, [.deliver(.cancel(callbackId: id), .keystone, pageLoad, frame)])
        }
        if let index = waiting.firstIndex(where: { $0.message.swiftCallId == id }) {
            waiting.remove(at: index)
            return (call.pending, [])
        }
        guard isPageReady, runtime == .keystone else { return (call.pending, []) }
        return (call.pending, [.deliver(.cancel(callbackId: id), runtime, pageLoad, nil)])
    }

    // MARK: Page → Swift calls

    /// Records a call of the page's, of `method`, that is about to run in a task for the page load
    /// `pageLoad`, its results going to `callback` (none: dropped); the task's token, or the error
    /// that refuses it.
    mutating func startTask(callback: PageCallback?, method: MethodName, for pageLoad: PageLoad) -> Result<StartedTask, BridgeError> {
        guard pageLoad == self.pageLoad else {
            return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone"))
        }
        return running.start(callback: callback, method: method)
    }

    /// The task for `token` exists now; returns `work` when it is no longer wanted (cancel it).
    mutating func taskCreated(token: Int, work: Work) -> Work? {
        running.created(token: token, work: work)
    }

    mutating func taskFinished(token: Int) {
        running.finished(token: token)
    }

    /// The page stopped waiting for the call behind `callback` (`_dsb.cancel`): its tickets go
    /// too, a result's bytes with them.
    mutating func cancelTask(callback: PageCallback) -> TaskCancel {
        let withdrawn = transfers.withdraw(.pageCall(callback), in: pageLoad)
        let heldBack = withdrawWaiting(callback)
        guard let work = running.cancel(callback: callback) else { return withdrawn > 0 || heldBack ? .found(nil) : .notFound }
        return .found(work)
    }

    /// The results of the call behind `callback` that wait for the page to be ready (a call made
    /// before the runtime announced itself) go, and its callback's release waits in their place:
    /// the page stopped waiting for them, and their bytes would get a ticket nobody fetches.
    private mutating func withdrawWaiting(_ callback: PageCallback) -> Bool {
        guard callback.frame == nil, waiting.contains(where: { $0.message.resultCallback == callback.name }) else { return false }
        waiting.removeAll { $0.message.resultCallback == callback.name }
        waiting.append(Outgoing(message: .release(callback: callback.name), parts: nil, call: nil))
        return true
    }

    // MARK: Byte transfers

    /// The call behind `callback` stopped reading the page's bytes: its ticket for the next piece
    /// goes, while its results' parts stay for the page to fetch.
    mutating func stopReceiving(callback: PageCallback, in pageLoad: PageLoad) {
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
        guard ticket.pageLoad == pageLoad else {
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
        transfers.redeem(token, in: pageLoad, from: origin)
    }

    /// Takes piece `piece` of the page's bytes under `token`, from `origin`: what the ticket is for
    /// (the bytes it still allows), or why it is refused (which spends it).
    mutating func presentPiece(
        _ token: String, piece: Int, from origin: String?
    ) -> Result<ByteTicket, BridgeError> {
        transfers.present(token, piece: piece, in: pageLoad, from: origin)
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

    // MARK: Methods durable by default

    /// The interface registered under `namespace` makes the methods `names` durable by default
    /// (none: it makes none, or it was removed).
    mutating func noteDurableMethods(_ names: [String], namespace: String) {
        durableMethods = durableMethods.filter { $0.namespace != namespace }
        durableMethods.formUnion(names.map { MethodName(namespace: namespace, name: $0) })
    }

    /// Whether a call of `name` the page makes without a key runs as a durable call.
    func isDurableByDefault(_ name: MethodName) -> Bool {
        // Every asynchronous call asks: an app that makes no method durable pays one test.
        !durableMethods.isEmpty && durableMethods.contains(name)
    }

    // MARK: What the page load establishes

    /// What `frame` may rely on of what the page load established (``PageLoadState/access(for:)``).
    func access(for frame: CallerFrame) -> PageAccess {
        page.access(for: frame)
    }

    /// The app's policy accepted the credentials the main frame of `origin` presented during the
    /// page load `pageLoad`; `false` when that page load has gone, and the grant with it.
    mutating func authorize(_ pageLoad: PageLoad, origin: String?) -> Bool {
        page.authorize(pageLoad, origin: origin)
    }

    /// The current page load's main frame, of `origin`, declared the methods it will use.
    mutating func declare(_ methods: Set<String>, origin: String?) -> Result<Void, BridgeError> {
        page.declare(methods, origin: origin)
    }

    // MARK: The page's lifecycle

    /// The page, a document of `origin`, has registered its handlers (`_dsb.dsinit`), announcing
    /// `runtime`: what waited goes out, and who waited for the page is told. A durable call bound
    /// to another origin waits on for a document of its own.
    mutating func pageDidInitialize(runtime announced: PageRuntime, origin: String? = nil) -> Initialize {
        let ready = page.initialize(runtime: announced, origin: origin)
        var outputs: [Output] = []
        outputs.reserveCapacity(waiting.count)
        var held: [Outgoing] = []
        for outgoing in waiting {
            if let id = outgoing.message.swiftCallId {
                guard swiftCalls.mayGo(id: id, to: origin) else {
                    held.append(outgoing)
                    continue
                }
                swiftCalls.went(id: id, to: origin)
            }
            outputs.append(.deliver(prepare(outgoing, runtime: runtime, frame: nil), runtime, pageLoad, nil))
        }
        waiting = held
        return Initialize(outputs: outputs, ready: ready)
    }

    /// `waiter` waits for the page to be ready: `nil` when it is (settle the waiter now), otherwise
    /// the id that ``stopWaitingForPage(_:)`` takes.
    mutating func waitForPage(_ waiter: Pending) -> Int? {
        page.wait(waiter)
    }

    /// The waiter `id` stopped waiting (its task was cancelled): it, unless it was already told.
    mutating func stopWaitingForPage(_ id: Int) -> Pending? {
        page.stopWaiting(id)
    }

    // MARK: Subframe documents

    /// A call came from `frame`, a subframe whose document the host delivers to: the page load
    /// reaches that document from now on, unless it already reaches as many as it may.
    mutating func enter(_ frame: CallerFrame, document: FrameDocument) -> BridgeError? {
        subframes.enter(frame, document: document)
    }

    /// Whether the document `frame` called from is known to run Keystone's runtime.
    func knowsKeystoneRuntime(of frame: CallerFrame) -> Bool {
        guard let document = frame.subframeDocument else { return !frame.isAttestedMainFrame || page.runtime == .keystone }
        return subframes.runtime(of: document) == .keystone
    }

    /// A call from `frame` spoke as only Keystone's runtime does (`CallWrapper/speaksKeystone`): its
    /// document's results go to that runtime from now on, though it has not announced itself yet
    /// (a call made before the runtime's `_dsb.dsinit` would otherwise be answered as a plain
    /// page's, and a stream of it would never end).
    mutating func heardKeystoneRuntime(from frame: CallerFrame) {
        if let document = frame.subframeDocument {
            subframes.heardKeystone(document)
        } else if frame.isAttestedMainFrame {
            page.heardKeystone()
        }
    }

    /// The subframe document `frame` registered its handlers (`_dsb.dsinit`), announcing `runtime`:
    /// Swift's calls that waited for it go, in order.
    mutating func frameDidInitialize(_ frame: FrameDocument, runtime: PageRuntime) -> [Output] {
        let waited = subframes.initialize(frame, runtime: runtime)
        guard let runtime = subframes.runtime(of: frame) else { return [] }
        return waited.map { .deliver(prepare($0, runtime: runtime, frame: frame), runtime, pageLoad, frame) }
    }

    /// The subframe document `frame` has gone: Swift's calls of its handlers fail, its running
    /// calls are cancelled and its tickets go. Nothing for the evaluator: its host drops what is
    /// queued for a document that has gone.
    mutating func frameDidUnload(_ frame: FrameDocument) -> Unload {
        guard subframes.remove(frame) else { return Unload(failed: [], cancelled: [], outputs: []) }
        let calls = swiftCalls.removeAll(in: frame)
        transfers.withdraw(frame: frame, swiftCalls: Set(calls.map(\.id)))
        return Unload(failed: calls.compactMap(\.call.pending), cancelled: running.removeAll(in: frame), outputs: [])
    }

    /// The page has gone: a new page load begins. Swift's durable calls still waiting for an
    /// answer wait for the next document, in the order they were made.
    mutating func pageDidUnload() -> Unload {
        page.unload()
        subframes.removeAll()
        transfers.pageDidUnload()
        let recoveries = durable.pageLoadBegan(page.pageLoad)
        let (failed, redelivered) = swiftCalls.removeAll()
        waiting = redelivered.map { Outgoing(message: $0.message, parts: $0.parts) }
        return Unload(failed: failed, cancelled: running.removeAll(), outputs: [.discardQueued], recoveries: recoveries)
    }
}
