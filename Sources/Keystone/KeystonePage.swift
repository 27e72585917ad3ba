// KeystonePage.swift — one page of a Keystone: one web view's page loads, the page's calls of
// Swift's methods, and Swift's calls of the page.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// One page of a ``Keystone``: the web view a host serves, with its own page loads and documents,
/// policy decisions, limits, running calls and Swift's calls of it; the Keystone's interfaces,
/// policy and durable calls. A Keystone is its own first page; a host attached to a Keystone that
/// serves a page already gets another (``Keystone/openPage()``).
///
/// ```swift
/// for page in keystone.pages where page.origin == "https://app.example" {
///     try page.emit("theme", "dark")
/// }
/// ```
///
/// Every method is safe to call from any thread or task.
public class KeystonePage: BridgeHub, PageConnection, @unchecked Sendable {
    /// The parts this page's Keystone is built from.
    public let components: KeystoneComponents
    /// Which of its Keystone's pages this is.
    public let id: PageID
    /// The shared state: the page's lifecycle and every open call, in both directions.
    let storage: HubStorage
    /// Swift's calls of the page's handlers and its events.
    let outbound: OutboundCalls
    /// The page's calls of Swift's methods, with their bytes.
    let inbound: InboundCalls
    /// The page's own evaluator: what it sends goes to its host alone.
    private let evaluator: any JavaScriptEvaluator
    /// Tells the page's Keystone that it has closed; `nil` for the Keystone's own.
    private let closed: (@Sendable (PageID) -> Void)?

    /// A page of `components`' interfaces, its messages batched by `evaluator`, its page loads
    /// numbered by `numbers` and its durable calls kept in `durable`, beside the Keystone's other
    /// pages', its events traced by `tracer`.
    init(
        components: KeystoneComponents, evaluator: any JavaScriptEvaluator, durable: DurableRoom, numbers: PageLoadNumbers, tracer: Tracer?,
        id: PageID, closed: (@Sendable (PageID) -> Void)?
    ) {
        self.components = components
        self.id = id
        self.evaluator = evaluator
        self.closed = closed
        storage = HubStorage(
            limits: components.limits, evaluator: evaluator, durable: durable, numbers: numbers, logging: components.logging, tracer: tracer, page: id)
        // The serializer as it moves `Data` as parts; none when it writes `Data` its own way, and
        // the page is offered no byte channel.
        let partsSerializer = (components.serializer as? any BytePartsSerializer).flatMap { $0.movesParts ? $0 : nil }
        outbound = OutboundCalls(components: components, hub: storage, partsSerializer: partsSerializer, page: id)
        let byteChannel = ByteChannel(components: components, hub: storage, partsSerializer: partsSerializer)
        let stage = DurableStage(hub: storage, room: durable, keyLimit: components.limits.durableKeyBytes, tracer: tracer, page: id)
        inbound = InboundCalls(
            components: components, hub: storage, outbound: outbound, byteChannel: byteChannel, durable: stage,
            builtIns: [DurableBuiltIns(stage: stage)] + (tracer.map { [TraceBuiltIns(tracer: $0, page: id)] } ?? []),
            tracer: tracer)
    }

    /// This page, for the host about to serve it: a page of a Keystone is served as it is.
    public func openPage() -> any BridgeHub { self }

    /// Its host closed: the page ends for good. Swift's calls waiting for it fail with `pageGone`
    /// and so does every later one, its running calls are cancelled, and it is no longer one of its
    /// Keystone's ``Keystone/pages``.
    public func closePage() {
        storage.pageDidUnload(closing: true)
        closed?(id)
    }

    /// The origin of the page's main document, once its runtime has initialized; `nil` before, and
    /// for a document without one.
    public var origin: String? { storage.origin }

    public var pageID: PageID { id }

    public var pageLoad: PageLoad { storage.pageLoad }

    /// The policy's origins when it lists any; otherwise the app's own origins once a host serves
    /// them (``servesAppOrigin(_:)``), or every origin (`nil`).
    public var runtimeOrigins: Set<String>? { components.policy.runtimeOrigins ?? storage.appOrigins }

    /// A host serves the app's own pages at `origin`. When the policy lists no origins of its own,
    /// those pages are the only ones answered from now on; when it lists some, the list decides (so
    /// an app that lists other origins lists its own with them, and is warned when it does not).
    public func servesAppOrigin(_ origin: String) {
        if let listed = components.policy.runtimeOrigins {
            if !listed.contains(origin) {
                components.logging.log(.warning, "a host serves the app's pages at \(origin), which the policy's allowed origins leave out: they get no bridge")
            }
            return
        }
        storage.admitOnly(appOrigin: origin)
    }

    public var limits: BridgeLimits { components.limits }

    public func admitSender(_ frame: CallerFrame) throws(BridgeError) {
        guard storage.admitsOrigin(of: frame) else { throw .notTheAppsOrigin }
        try components.policy.admitSender(frame)
    }

    /// How many Swift calls of the page's handlers are waiting to settle.
    public var pendingCallCount: Int { storage.pendingCallCount }

    /// How many of the page's asynchronous calls are running.
    public var runningCallCount: Int { storage.runningCallCount }

    /// The tasks of the page's calls running now, in the order the calls started: awaiting them is
    /// how a test knows the calls have ended, without polling.
    package var runningTasks: [Task<Void, Never>] { storage.runningWorks.map(\.task) }

    /// The state every part of this Keystone holds (its calls of the page, the page's calls, the
    /// byte channel, their tasks): released only once nothing the Keystone started still runs,
    /// which a check for leaks waits for.
    package var sharedState: AnyObject { storage }

    /// How many tickets of the byte channel are open: bytes the page has yet to send or fetch.
    package var openTransferCount: Int { storage.openTicketCount }

    public func attach(to target: any EvaluationTarget) {
        evaluator.attach(to: target)
    }

    // MARK: The page's calls

    public func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        inbound.handlePrompt(text, defaultText: defaultText, frame: frame)
    }

    public func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        inbound.handleMessage(method, arguments: arguments, frame: frame)
    }

    public func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        inbound.handleCall(method, data: data, callback: callback, acceptsInlineAnswer: acceptsInlineAnswer, frame: frame)
    }

    // MARK: Calls of the page's handlers, and events

    /// Calls the page's handler `method` with positional `arguments` and waits for its answer.
    ///
    /// Calls made before the page sends `_dsb.dsinit` wait and go out in order after it. The call
    /// settles exactly once: with the page's first answer, with a `BridgeError`, or with code
    /// `cancelled` when the awaiting task is cancelled (Keystone's page runtime is told, and the
    /// handler's later answer is dropped). A page written for dsbridge.js 3.1.4 never answers a call
    /// to a handler it lacks: give the call a timeout (`call(_:arguments:as:timeout:clock:)`)
    /// to stop waiting. A handler that answers more than once should be called with ``stream(_:arguments:of:)``:
    /// a `call` keeps the first answer and reports the others as warnings.
    public func call<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type = Result.self
    ) async throws(BridgeError) -> Result {
        try await outbound.start(method, arguments: arguments, as: Result.self, to: nil).value
    }

    /// Calls the page's handler `method` and waits for its answer, which, when `durable`, may come
    /// from a later document: if the page goes before it answers (a reload, a navigation, its web
    /// process ended), the call goes again to the next document of the same origin once its
    /// runtime has registered its handlers, and so on until a document answers it.
    ///
    /// The call is bound to the origin of the first document it goes to; a document of another
    /// origin never gets it, and the call waits on for one of its own. It goes under a durable id
    /// of 128 random bits, the same in every document, which Keystone's runtime gives the handler
    /// (`responder.durable`) so that a handler that may have seen the call in a document that went
    /// can tell. Every `Data` in the arguments goes as in any call (as bytes to Keystone's runtime where the
    /// host serves a byte channel), each document fetching it anew. Only cancelling the
    /// awaiting task (or a timeout around it) ends the wait otherwise; a call made to a document
    /// without an origin is an ordinary one.
    ///
    /// ```swift
    /// let saved = try await keystone.call("drafts.save", draft, as: Bool.self, durable: true)
    /// ```
    public func call<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type = Result.self,
        durable: Bool
    ) async throws(BridgeError) -> Result {
        try await outbound.start(method, arguments: arguments, as: Result.self, to: nil, durable: durable).value
    }

    /// Calls the page's handler `method` with `arguments` written out and waits for its answer,
    /// across documents when `durable`; otherwise the same as ``call(_:arguments:as:durable:)``.
    public func call<Result: Decodable & Sendable, each Argument: Encodable & Sendable>(
        _ method: String,
        _ arguments: repeat each Argument,
        as: Result.Type = Result.self,
        durable: Bool
    ) async throws(BridgeError) -> Result {
        var list: [any Encodable & Sendable] = []
        for argument in repeat each arguments { list.append(argument) }
        return try await call(method, arguments: list, as: Result.self, durable: durable)
    }

    /// Makes a call of the page's handler `method` at once, without waiting: calls made one after
    /// another reach the page in that order. Await the returned call's `value` for the answer.
    public func start<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type = Result.self
    ) -> PageCall<Result> {
        outbound.start(method, arguments: arguments, as: Result.self, to: nil)
    }

    /// Makes a call of the page's handler `method` with `arguments` written out; otherwise the same
    /// as ``KeystonePage/start(_:arguments:as:)``.
    public func start<Result: Decodable & Sendable, each Argument: Encodable & Sendable>(
        _ method: String,
        _ arguments: repeat each Argument,
        as: Result.Type = Result.self
    ) -> PageCall<Result> {
        var list: [any Encodable & Sendable] = []
        for argument in repeat each arguments { list.append(argument) }
        return outbound.start(method, arguments: list, as: Result.self, to: nil)
    }

    /// Sends a call of the page's handler `method` whose answer nobody waits for, in order with
    /// every other call; the page's answer, if any, is dropped.
    /// - Throws: `BridgeError` (`unencodableValue`) when an argument does not encode.
    public func post(_ method: String, arguments: [any Encodable & Sendable]) throws(BridgeError) {
        try outbound.post(method, arguments: arguments)
    }

    /// Sends a call of the page's handler `method` with `arguments` written out, whose answer nobody
    /// waits for; otherwise the same as ``post(_:arguments:)``.
    ///
    /// ```swift
    /// try keystone.post("page.log", "saved", 3)
    /// ```
    public func post<each Argument: Encodable & Sendable>(_ method: String, _ arguments: repeat each Argument) throws(BridgeError) {
        var list: [any Encodable & Sendable] = []
        for argument in repeat each arguments { list.append(argument) }
        try post(method, arguments: list)
    }

    /// Calls the page's handler `method` and yields each of its answers until one is marked
    /// complete. Ending the iteration early stops listening for more, and tells Keystone's page
    /// runtime, which drops the handler's later answers and aborts its responder's `signal`.
    public func stream<Element: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        outbound.stream(method, arguments: arguments, of: Element.self, to: nil)
    }

    /// Sends the named event to the page's listeners (`dsBridge.on(name, fn)` in Keystone's page
    /// runtime). Events sent before the page initializes wait like any other message; a page running
    /// dsbridge.js has no listeners and receives none.
    /// - Throws: `BridgeError` with code `unencodableValue` when `value` does not encode to JSON.
    public func emit(_ name: String, _ value: some Encodable & Sendable) throws(BridgeError) {
        try outbound.emit(name, value, to: nil)
    }

    /// The page's handlers in `frame`, for the current page load: the main frame's, or those of a
    /// subframe document the host delivers to (`CallerFrame.document`, as a call of the frame's
    /// reported it, or one of ``subframes``). What is sent through it fails with `pageGone` once
    /// that page load or document has gone, instead of reaching the next; a call of a subframe
    /// document that has not registered its handlers waits for them, as a call of the main frame
    /// does, and fails `pageGone` if the document goes first. A method's `context.page` is this for
    /// the frame that called.
    ///
    /// ```swift
    /// for frame in keystone.subframes {
    ///     try keystone.page(frame).emit("theme", "dark")
    /// }
    /// ```
    /// A subframe the host names no document for cannot be reached: everything sent fails with
    /// `notAllowed`.
    public func page(_ frame: CallerFrame) -> any PageConnection {
        guard frame.isReachable else { return UnreachableFrame() }
        return PageLoadConnection(calls: outbound, pageLoad: pageLoad, frame: frame.subframeDocument)
    }

    /// The subframe documents of the current page load whose handlers Swift can call: those that
    /// have called and registered their handlers, on a host that delivers to subframes.
    public var subframes: [CallerFrame] { storage.readyFrames }

    // MARK: The byte channel

    public func serveBytes(over transport: any ByteTransport) {
        storage.serveBytes(over: transport)
    }

    public func stopServingBytes() {
        storage.serveBytes(over: nil)
    }

    /// Whether a host serves a byte channel to the page now: from ``serveBytes(over:)`` until
    /// ``stopServingBytes()``.
    package var servesBytes: Bool {
        storage.servesBytes
    }

    public func receiveBytes(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void) {
        guard let tracer = storage.tracer else { return inbound.byteChannel.receive(request, readBody: readBody, respond: respond) }
        // Traced: the body's size as it is read, and the answer's when it is given.
        let (started, pageLoad, page, body) = (tracer.now, storage.pageLoad, id, Locked(0))
        let reading = { (limit: Int) -> Data? in
            let read = readBody(limit)
            body.withLock { $0 = read?.count ?? 0 }
            return read
        }
        inbound.byteChannel.receive(request, readBody: reading) { response in
            tracer.transfer(request, response: response, body: body.withLock { $0 }, page: page, pageLoad: pageLoad, started: started)
            respond(response)
        }
    }

    // MARK: The page

    /// The page has gone: Swift calls still waiting for it fail with `pageGone`, the page's running
    /// asynchronous calls are cancelled, their late results are dropped, and Swift calls made from
    /// now on wait for the next page's `_dsb.dsinit`.
    public func pageDidUnload() {
        storage.pageDidUnload()
    }

    public func frameDidUnload(_ document: FrameDocument) {
        storage.frameDidUnload(document)
    }

    /// Whether the current page's runtime has initialized (`_dsb.dsinit`): its handlers are
    /// registered, and Swift's calls go out at once.
    public var isPageReady: Bool { storage.isPageReady }

    /// Returns once the page's runtime has initialized (`_dsb.dsinit`): at once when the current
    /// page has, otherwise when the next one does, whatever loads in between. An app awaits this
    /// instead of polling the document before its first calls (which would wait for it anyway).
    /// - Throws: `BridgeError` (`cancelled`) when the waiting task is cancelled first.
    public func pageReady() async throws(BridgeError) {
        try await storage.pageReady()
    }
}
