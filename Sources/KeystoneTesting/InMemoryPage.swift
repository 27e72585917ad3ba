// InMemoryPage.swift — a page without a browser: speaks the DSBridge v3 protocol to a Keystone.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A stand-in for a web page, for testing interfaces without a browser.
///
/// It calls native methods with the exact texts a page sends (sync, async with a `dscbN` callback,
/// without a callback, multi-response), registers page handlers that Swift can call, sends
/// `_dsb.dsinit`, and receives the same `PageMessage` batches a web view would evaluate.
///
/// As `PageRuntime/dsbridge` (the default) it behaves like dsbridge.js 3.1.4. As
/// `PageRuntime/keystone` it behaves like Keystone's page runtime: it announces itself, sends
/// asynchronous calls as script messages, answers a missing or failing handler with an error,
/// hears Swift withdraw a call, and hands events to listeners. On both, leaving a stream early or
/// cancelling an awaiting task cancels the native call (`_dsb.cancel`), as Keystone's runtime does.
///
/// Call ``initialize()`` before awaiting a result, as a page's runtime announces itself once its
/// handlers are registered: results wait for it, so an asynchronous call made before it fails at
/// once with `pageGone` rather than waiting for ever.
///
/// ```swift
/// let keystone = Keystone()
/// try keystone.register(Math(), namespace: "math")
/// let page = InMemoryPage(hub: keystone)
/// let sum: Double = try page.call("math.add", [1, 2])
/// ```
public final class InMemoryPage: EvaluationTarget {
    /// A page handler's way to answer an asynchronous Swift call, once or many times.
    public struct Reply: Sendable {
        let send: @Sendable (JSONValue, Bool) -> Void
        let cancelled: @Sendable () -> Bool
        /// The durable id of a durable Swift call (`Keystone.call(_:arguments:as:durable:)`), the
        /// same in every document the call goes to, as Keystone's runtime gives it to the handler's
        /// responder; `nil` for any other call, and on a dsbridge.js page.
        public let durable: String?

        /// Sends a result; `complete: false` keeps the call open for more (dsbridge.js semantics).
        /// After Swift withdrew the call, Keystone's runtime drops it.
        public func callAsFunction(_ value: JSONValue, complete: Bool = true) {
            send(value, complete)
        }

        /// Whether Swift withdrew the call (cancelled, timed out, or a stream left early), as the
        /// `signal` of Keystone's runtime's responder says; a dsbridge.js page never hears it.
        public var isCancelled: Bool { cancelled() }
    }

    enum Handler {
        case sync(@Sendable ([JSONValue]) throws -> JSONValue)
        case async(@Sendable ([JSONValue], Reply) -> Void)
    }

    /// What a callback receives: a result's JSON (`nil` for a method that returns nothing), each
    /// `Data` in it as base64, whether it came as bytes or not.
    typealias Results = AsyncThrowingStream<JSONText?, any Error>

    /// The most bytes one piece of a call's parts carries, as Keystone's runtime sends them.
    static let pieceBytes = 1 << 20

    struct State {
        var lastCallback = -1
        var callbacks: [String: Results.Continuation] = [:]
        /// Whether the page has announced itself (``initialize()``) since its document began.
        var isInitialized = false
        /// Whether the hub said, when the page announced itself, that it has a byte channel.
        var hasByteChannel = false
        /// Swift's calls of this page's handlers that Swift withdrew, until their handler answers.
        var withdrawn: Set<Int> = []
        var handlers: [String: Handler] = [:]
        var listeners: [String: [@Sendable (JSONValue) -> Void]] = [:]
        var batches: [ScriptBatch] = []
        /// Who waits for the page to have received something (``untilReceived(_:)``).
        var receiptWaiters: [(condition: @Sendable ([PageMessage]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        /// The tokens of the documents this page has had, in order; the last is the current one's.
        var documents: [String] = ["document-1"]
        var lastDocument = 1
        /// The frame every call of this page reports; a subframe's names its current document.
        var frame: CallerFrame
        /// The subframes of this page whose documents batches reach, by document: held weakly,
        /// as each holds its page.
        var subframes: [FrameDocument: Subframe] = [:]
        /// The number of the last subframe document this page named.
        var lastFrameDocument: UInt64 = 0
        /// The batches held while the page is suspended (``suspend()``); `nil` while it runs.
        var suspended: [ScriptBatch]?
    }

    /// The hub this page talks to.
    public let hub: any BridgeHub
    /// The page-side script this page behaves like.
    public let runtime: PageRuntime
    /// The frame every call of this page reports, as a host would learn it from the engine. A
    /// subframe's (``addSubframe(origin:runtime:)``) names its current document.
    public var frame: CallerFrame { state.withLock(\.frame) }
    let serializer: any JSONSerializer
    let state: Locked<State>
    /// The page a subframe belongs to; `nil` for a page of its own.
    private let parent: InMemoryPage?

    /// A subframe, held weakly by its page.
    struct Subframe {
        weak var page: InMemoryPage?
    }
    /// What a host decides of this page's documents and web process, as every host does: the real
    /// hosts' session, over an engine that runs nothing.
    private let session: HostSession
    private let engine = InMemoryEngine()
    /// Held while the page's document changes: one change at a time reaches the session.
    private let documentChange = Locked(())

    /// Creates a page attached to `hub` whose calls come from `frame`. The page has registered
    /// `_hasJavascriptMethod`, as both runtimes do; call ``initialize()`` to send `_dsb.dsinit`.
    /// As `PageRuntime/keystone`, the page serves the hub a byte channel, as a host does, unless
    /// `servesBytes` is `false`: then every `Data` travels as base64, as where a host has none.
    public init(
        hub: any BridgeHub,
        runtime: PageRuntime = .dsbridge,
        frame: CallerFrame = .mainFrame,
        serializer: any JSONSerializer = DefaultJSONSerializer(),
        servesBytes: Bool = true
    ) {
        self.hub = hub
        self.runtime = runtime
        state = Locked(State(frame: frame))
        self.serializer = serializer
        session = HostSession(everyOriginOf: hub, options: HostOptions())
        parent = nil
        session.engine = engine
        session.documentCommitted()
        session.documentReported("start document-1", from: .mainFrame)
        hub.attach(to: self)
        if runtime == .keystone, servesBytes { session.serveBytes(over: URLSchemeTransport.keystone, isSecure: true) }
    }

    /// A subframe of `parent`, as its host reports it: a frame of `origin` whose document the host
    /// delivers to. It shares its page's byte channel and page load.
    private init(subframeOf parent: InMemoryPage, frame: CallerFrame, runtime: PageRuntime) {
        hub = parent.hub
        self.runtime = runtime
        state = Locked(State(frame: frame))
        serializer = parent.serializer
        session = HostSession(everyOriginOf: parent.hub, options: HostOptions())
        self.parent = parent
    }

    // MARK: Subframes

    /// Adds a subframe of `origin` (`nil`: an opaque origin) to the page, whose document the host
    /// delivers to, as the WebKitGTK host does through Keystone's web-process extension: its
    /// asynchronous calls are answered in it, it answers Swift's calls made to it
    /// (`Keystone/page(_:)`), and its document goes when it navigates (``navigate()``) or is removed
    /// (``remove()``). Its calls report a subframe of `origin` with its document, which the call
    /// policy must admit (`DefaultCallPolicy/allowsSubframes`). Call ``initialize()`` on it as on
    /// a page.
    public func addSubframe(origin: String?, runtime: PageRuntime = .keystone) -> InMemoryPage {
        state.withLock { state in
            let document = Self.nextDocument(&state)
            let frame = CallerFrame(isMainFrame: false, origin: origin, document: document)
            let subframe = InMemoryPage(subframeOf: self, frame: frame, runtime: runtime)
            state.subframes[document] = Subframe(page: subframe)
            return subframe
        }
    }

    /// Removes this subframe from its page: its document goes, as its host reports
    /// (`BridgeHub/frameDidUnload(_:)`), and nothing more reaches it. A page of its own stays.
    public func remove() {
        guard let parent, let document = frame.document else { return }
        _ = parent.state.withLock { $0.subframes.removeValue(forKey: document) }
        hub.frameDidUnload(document)
    }

    private static func nextDocument(_ state: inout State) -> FrameDocument {
        state.lastFrameDocument += 1
        return FrameDocument(rawValue: state.lastFrameDocument)
    }

    /// Whether the hub told the page, when it announced itself, that it has a byte channel: the
    /// `Data` in this page's values then moves as raw bytes.
    public var hasByteChannel: Bool { state.withLock { $0.hasByteChannel } }

    // MARK: What the page received

    /// Every batch evaluated in this page, in order.
    public var receivedBatches: [ScriptBatch] { state.withLock { $0.batches } }

    /// Every message evaluated in this page, in order.
    public var receivedMessages: [PageMessage] { receivedBatches.flatMap(\.messages) }

    /// Returns once the messages the page has received satisfy `condition`: at once when they do
    /// already, otherwise when a batch that makes them arrives. A test's way to wait for what another
    /// task sends, without polling.
    package func untilReceived(_ condition: @escaping @Sendable ([PageMessage]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isMet = state.withLock { state in
                guard !condition(state.batches.flatMap(\.messages)) else { return true }
                state.receiptWaiters.append((condition, continuation))
                return false
            }
            if isMet { continuation.resume() }
        }
    }

    /// The names of the `window.dscbN` callbacks still registered (a settled call leaves none).
    public var liveCallbacks: [String] { state.withLock { $0.callbacks.keys.sorted() } }

    // MARK: Page → native

    /// Sends `_dsb.dsinit`, as the runtime does after the page registers its handlers; Keystone's
    /// runtime announces itself in it.
    public func initialize() {
        state.withLock { $0.isInitialized = true }
        // As Keystone's runtime announces itself: its name and the version of its wire.
        let data = runtime == .keystone ? #"{"runtime":"keystone","version":1}"# : "null"
        let answer = prompt("_dsb.dsinit", argumentText: #"{"data":\#(data)}"#)
        struct Announcement: Decodable { var bytes: Bool? }
        let announced = try? decodeAnswer(answer, as: Announcement.self).get()
        state.withLock { $0.hasByteChannel = runtime == .keystone && announced?.bytes == true }
    }

    /// Calls `window.close()`, which dsbridge.js turns into `_dsb.closePage`.
    public func close() {
        _ = prompt("_dsb.closePage", argumentText: #"{"data":null}"#)
    }

    /// The raw protocol: `prompt("_dsbridge=" + method, argumentText)` and its answer. As a host
    /// does, the page's frame is admitted first (`BridgeHub/admitSender(_:)`): a refused frame gets
    /// the one refusal a host gives, and nothing it sent is read.
    public func prompt(_ method: String, argumentText: String?) -> String? {
        hub.refusal(of: frame) ?? hub.handlePrompt(BridgePrompt.prefix + method, defaultText: argumentText, frame: frame)
    }

    // MARK: The page's documents, as a host reports them

    /// A new document replaces this page's (a navigation or a reload), reported as a host reports
    /// the engine's commit and the new document's start (`HostSession`): Swift's calls waiting for
    /// the page fail with `pageGone`, its running calls are cancelled, and Swift's calls from now on
    /// wait for the next ``initialize()``, which stands for the new document's.
    public func navigate() {
        if let parent, let old = frame.document {
            // A subframe: its document goes, and the next one is another the host names.
            let document = parent.state.withLock { parentState in
                parentState.subframes[old] = nil
                let document = Self.nextDocument(&parentState)
                parentState.subframes[document] = Subframe(page: self)
                return document
            }
            hub.frameDidUnload(old)
            state.withLock { state in
                state.frame.document = document
                state.isInitialized = false
            }
            endCallbacks()
            return
        }
        changeDocument {
            let token = state.withLock { state in
                state.lastDocument += 1
                state.documents.append("document-\(state.lastDocument)")
                return state.documents[state.documents.count - 1]
            }
            session.documentCommitted()
            session.documentReported("start " + token, from: .mainFrame)
        }
    }

    /// The engine brings back the document before the current one from its back/forward cache
    /// (after ``navigate()``): a page load of its own, whose runtime announces itself again (it runs
    /// no user script anew), so Swift's calls reach it; calls made while it was hidden have settled.
    public func restoreFromBackForwardCache() {
        changeDocument {
            let token = state.withLock { state -> String? in
                guard state.documents.count > 1 else { return nil }
                state.documents.removeLast()
                return state.documents[state.documents.count - 1]
            }
            guard let token else { return }
            session.documentCommitted()
            session.documentReported("restore " + token, from: .mainFrame)
        }
        initialize()
    }

    /// The page's web process ends at `time` (on any clock, the same each time), as a host reports
    /// it: the page load ends, and the report says whether a host would reload the page.
    @discardableResult
    public func terminateWebProcess(at time: Duration) -> WebProcessTermination? {
        changeDocument { session.webProcessTerminated(.terminatedByApp, at: time) }
        return engine.lastReport.withLock { $0 }
    }

    /// The app goes to the background and the system suspends the page's web process with it, as
    /// iOS does: the page runs nothing until it resumes. What Swift sends it meanwhile waits, as the
    /// engine keeps scripts for a suspended process; Swift's own work goes on (a durable call runs
    /// to its end). Make no call of the page's while it is suspended.
    public func suspend() {
        state.withLock { state in
            if state.suspended == nil { state.suspended = [] }
        }
    }

    /// The app comes back to its page as it left it: what Swift sent it meanwhile runs, in order.
    public func resume() {
        let held = state.withLock { state in
            let held = state.suspended ?? []
            state.suspended = nil
            return held
        }
        for batch in held { evaluate(batch) }
    }

    /// The app comes back to find that the system ended the page's web process while it was
    /// suspended, as iOS does under memory pressure: what Swift sent meanwhile is lost with it, and
    /// the host hears of the end as WKWebView reports it on return (its reason unknown), at `time`
    /// (on any clock, the same each time). The page load ends, as with ``terminateWebProcess(at:)``.
    @discardableResult
    public func resume(afterWebProcessEndedAt time: Duration) -> WebProcessTermination? {
        state.withLock { $0.suspended = nil }
        changeDocument { session.webProcessTerminated(.unknown, at: time) }
        return engine.lastReport.withLock { $0 }
    }

    /// Runs `change` of the page's document through the session; when it ends the page load (the
    /// hub's page load moves on), the page must announce itself again.
    func changeDocument(_ change: () -> Void) {
        documentChange.withLock { _ in
            let before = hub.pageLoad
            change()
            if hub.pageLoad != before {
                state.withLock { $0.isInitialized = false }
                endCallbacks()
            }
        }
    }

    /// A synchronous call, as `dsBridge.call(method, data)`; throws the `BridgeError` the native
    /// side answered with. An asynchronous method called this way runs without a callback, as
    /// ``post(_:_:)`` says, and this returns what the call answered at once (`""`).
    public func call<Result: Decodable>(
        _ method: String, _ data: some Encodable & Sendable, as: Result.Type = Result.self
    ) throws -> Result {
        let answer = prompt(method, argumentText: try encodeCall(data, callback: nil))
        return try decodeAnswer(answer, as: Result.self).get()
    }

    /// A synchronous call without an argument (`data` is `null`, as dsbridge.js sends it).
    public func call<Result: Decodable>(_ method: String, as: Result.Type = Result.self) throws -> Result {
        try call(method, JSONValue.null, as: Result.self)
    }

    /// A call without a callback, as `dsBridge.call(method, data)` of an asynchronous method: the
    /// method runs and nothing comes back (its failure is logged natively, never sent), as
    /// DSBridge-Android runs it. A synchronous method answers all the same, and its answer is
    /// dropped.
    /// - Throws: the `BridgeError` the call was refused with while the page waited (an unknown
    ///   method, a bad argument).
    public func post(_ method: String, _ data: some Encodable & Sendable = JSONValue.null) throws {
        let answer = prompt(method, argumentText: try encodeCall(data, callback: nil))
        _ = try decodeAnswer(answer, as: JSONValue.self).get()
    }

    /// An asynchronous call, as `dsBridge.call(method, data, callback)`: the first result (`""`
    /// from a method that returns nothing, as DSBridge sends it). Cancelling the awaiting task
    /// cancels the call natively, as Keystone's runtime does.
    public func callAsync<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        try await firstResult(of: method, try startNow(method, data), as: Result.self, nothing: Self.emptyString)
    }

    /// Keystone's runtime's `dsBridge.invoke(method, readableStream)`: the call announces a stream
    /// (`"_dsparts": "stream"`), then each of `chunks` goes over the byte channel as a numbered piece
    /// under the ticket the answer carried, the next once the hub has answered this one (once the
    /// method has room for it); the end is posted after the last. A method that takes a
    /// `ByteStream` reads the chunks as they arrive; one that takes `Data` gets them gathered.
    /// Where the page has no byte channel, the chunks are gathered and sent as base64, as
    /// Keystone's runtime does.
    public func invoke<Result: Decodable & Sendable>(_ method: String, streaming chunks: [Data], as: Result.Type = Result.self) async throws -> Result {
        guard hasByteChannel else { return try await invoke(method, chunks.reduce(into: Data()) { $0.append($1) }, as: Result.self) }
        let (callback, results) = try openCallback()
        let arguments = try encodeCall(JSONValue.number(0), callback: callback, parts: .string("stream"))
        let answer = hub.refusal(of: frame) ?? hub.handleMessage(method, arguments: arguments, frame: frame)
        if let address = ticket(answer) {
            // Each chunk goes once the hub answered the one before; an answer that wants no more
            // (the method stopped reading, or a refusal) ends the sending, and the call's callback
            // says how the call ended. An empty chunk is skipped, as the runtime skips one.
            var sent = 0
            for chunk in chunks where !chunk.isEmpty {
                guard await send(.piece(sent), chunk, to: address) == .more else { break }
                sent += 1
            }
            if sent == chunks.count(where: { !$0.isEmpty }) { _ = await send(.end(sent), Data(), to: address) }
            return try await firstResult(of: method, (callback, results), as: Result.self, nothing: nil)
        }
        return try await firstResult(of: method, settle(callback, results, by: answer, inline: false), as: Result.self, nothing: nil)
    }

    /// Keystone's runtime's `dsBridge.invoke(method, data)`: the result of any method, asked for in
    /// the call's own answer where the method is synchronous. A method that returns nothing
    /// resolves `undefined`, read here as `null` (`nil` for an optional `Result`), where
    /// ``callAsync(_:_:as:)`` reads `""`. Cancelling the awaiting task cancels the call.
    public func invoke<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        do {
            return try await firstResult(of: method, try await start(method, data, inline: true), as: Result.self, nothing: nil)
        } catch let error as BridgeError where error.code == .unsupportedCallKind {
            // A native side that does not answer inline: the runtime asks the synchronous way.
            let answer = prompt(method, argumentText: try encodeCall(data, callback: nil))
            return try decodeAnswer(answer, as: Result.self, voidIsUndefined: true).get()
        }
    }

    static let emptyString = JSONText(quoting: "")

    /// The first result `started` receives, `nothing` standing for a method's lack of one;
    /// cancelling the awaiting task cancels the call.
    func firstResult<Result: Decodable & Sendable>(
        of method: String, _ started: (callback: String, results: Results), as: Result.Type, nothing: JSONText?
    ) async throws -> Result {
        try await withTaskCancellationHandler {
            for try await value in started.results {
                return try decode(value ?? nothing, as: Result.self)
            }
            // Completed without a value: Keystone's runtime resolves `invoke` with `undefined`.
            guard nothing == nil else { throw BridgeError(code: .malformedMessage, message: "\"\(method)\" completed without a result") }
            return try decode(nil, as: Result.self)
        } onCancel: {
            self.cancel(started.callback)
        }
    }

    /// `value` decoded as `Result`; `nil` (`undefined`) reads as `null`.
    func decode<Result: Decodable>(_ value: JSONText?, as: Result.Type) throws -> Result {
        try Self.answerDecoding(Result.self) { try serializer.decode(Result.self, fromData: value?.bytes) }
    }

    /// Runs `decode`, turning a decoding failure into the `BridgeError` every other failure is:
    /// `invalidResult`, naming the type, with the decoder's error as its cause.
    static func answerDecoding<Result>(_ type: Result.Type, _ decode: () throws -> Result) throws -> Result {
        do {
            return try decode()
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError(code: .invalidResult, message: "the answer does not decode as \(Result.self)", cause: error)
        }
    }

    /// A multi-response call: every result the callback receives until the call completes.
    public func stream<Element: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        let serializer = serializer
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let started: (String, Results)
        do {
            started = try startNow(method, data, streamed: true)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let (callback, results) = started
        let task = Task {
            do {
                for try await value in results {
                    guard let value else { continue }  // a method that returns nothing yields nothing
                    continuation.yield(try Self.answerDecoding(Element.self) { try serializer.decode(Element.self, from: value.bytes) })
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { [weak self] termination in
            task.cancel()
            if case .cancelled = termination { self?.cancel(callback) }
        }
        return stream
    }

    /// The page stops waiting for a call: it tells native (`_dsb.cancel`) and drops its callback,
    /// as Keystone's runtime does. (dsbridge.js has no call for it; its pages can make the same one.)
    func cancel(_ callback: String) {
        state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: CancellationError())
        struct Request: Encodable, Sendable { var callback: String }
        _ = try? prompt("_dsb.cancel", argumentText: encodeCall(Request(callback: callback), callback: nil))
    }

    /// `dsBridge.hasNativeMethod(name, type)`.
    public func hasNativeMethod(_ name: String, kind: MethodKindFilter = .all) throws -> Bool {
        struct Query: Encodable, Sendable { var name: String; var type: String }
        return try call("_dsb.hasNativeMethod", Query(name: name, type: kind.rawValue), as: Bool.self)
    }
}
