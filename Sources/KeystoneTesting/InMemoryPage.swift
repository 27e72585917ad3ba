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
        fileprivate let send: @Sendable (JSONValue, Bool) -> Void
        fileprivate let cancelled: @Sendable () -> Bool

        /// Sends a result; `complete: false` keeps the call open for more (dsbridge.js semantics).
        /// After Swift withdrew the call, Keystone's runtime drops it.
        public func callAsFunction(_ value: JSONValue, complete: Bool = true) {
            send(value, complete)
        }

        /// Whether Swift withdrew the call (cancelled, timed out, or a stream left early), as the
        /// `signal` of Keystone's runtime's responder says; a dsbridge.js page never hears it.
        public var isCancelled: Bool { cancelled() }
    }

    private enum Handler {
        case sync(@Sendable ([JSONValue]) throws -> JSONValue)
        case async(@Sendable ([JSONValue], Reply) -> Void)
    }

    /// What a callback receives: a result's JSON (`nil` for a method that returns nothing), each
    /// `Data` in it as base64, whether it came as bytes or not.
    private typealias Results = AsyncThrowingStream<JSONText?, any Error>

    /// The most bytes one piece of a call's parts carries, as Keystone's runtime sends them.
    static let pieceBytes = 1 << 20

    private struct State {
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
        /// What a host decides of this page's documents, as every host does: it has seen the first
        /// one committed and start.
        var host: HostCore = {
            var host = HostCore()
            _ = host.documentCommitted()
            _ = host.documentReported(token: "document-1", restored: false)
            return host
        }()
        /// The tokens of the documents this page has had, in order; the last is the current one's.
        var documents: [String] = ["document-1"]
        var lastDocument = 1
    }

    /// The hub this page talks to.
    public let hub: any BridgeHub
    /// The page-side script this page behaves like.
    public let runtime: PageRuntime
    /// The frame every call of this page reports, as a host would learn it from the engine.
    public let frame: CallerFrame
    private let serializer: any JSONSerializer
    private let state = Locked(State())

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
        self.frame = frame
        self.serializer = serializer
        hub.attach(to: self)
        if runtime == .keystone, servesBytes { hub.serveBytes(over: URLSchemeTransport.keystone) }
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
        let data = runtime == .keystone ? #"{"runtime":"keystone"}"# : "null"
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
        hub.refusal(of: frame) ?? hub.handlePrompt(Keystone.promptPrefix + method, defaultText: argumentText, frame: frame)
    }

    // MARK: The page's documents, as a host reports them

    /// A new document replaces this page's (a navigation or a reload), reported as a host reports
    /// the engine's commit and the new document's start (`HostCore`): Swift's calls waiting for the
    /// page fail with `pageGone`, its running calls are cancelled, and Swift's calls from now on
    /// wait for the next ``initialize()``, which stands for the new document's.
    public func navigate() {
        changeDocument { state in
            state.lastDocument += 1
            state.documents.append("document-\(state.lastDocument)")
            return state.host.documentCommitted() + state.host.documentReported(token: state.documents[state.documents.count - 1], restored: false)
        }
    }

    /// The engine brings back the document before the current one from its back/forward cache
    /// (after ``navigate()``): a page load of its own, whose runtime announces itself again (it runs
    /// no user script anew), so Swift's calls reach it; calls made while it was hidden have settled.
    public func restoreFromBackForwardCache() {
        changeDocument { state in
            guard state.documents.count > 1 else { return [] }
            state.documents.removeLast()
            return state.host.documentCommitted() + state.host.documentReported(token: state.documents[state.documents.count - 1], restored: true)
        }
        initialize()
    }

    /// The page's web process ends at `time` (on any clock, the same each time), as a host reports
    /// it: the page load ends, and the report says whether a host would reload the page.
    @discardableResult
    public func terminateWebProcess(at time: Duration) -> WebProcessTermination? {
        var report: WebProcessTermination?
        changeDocument { state in
            let actions = state.host.webProcessTerminated(.terminatedByApp, at: time)
            for case .reportTermination(let termination) in actions { report = termination }
            return actions
        }
        return report
    }

    /// Applies what the host core decided of a change of document: only the end of the page load
    /// reaches the hub (this page has no engine to reload).
    private func changeDocument(_ change: (inout State) -> [HostCore.Action]) {
        let actions = state.withLock { state in
            let actions = change(&state)
            if actions.contains(.unloadPage) { state.isInitialized = false }
            return actions
        }
        if actions.contains(.unloadPage) { hub.pageDidUnload() }
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

    private static let emptyString = JSONText(quoting: "")

    /// The first result `started` receives, `nothing` standing for a method's lack of one;
    /// cancelling the awaiting task cancels the call.
    private func firstResult<Result: Decodable & Sendable>(
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
    private func decode<Result: Decodable>(_ value: JSONText?, as: Result.Type) throws -> Result {
        try Self.answerDecoding(Result.self) { try serializer.decode(Result.self, fromData: value?.bytes) }
    }

    /// Runs `decode`, turning a decoding failure into the `BridgeError` every other failure is:
    /// `invalidResult`, naming the type, with the decoder's error as its cause.
    private static func answerDecoding<Result>(_ type: Result.Type, _ decode: () throws -> Result) throws -> Result {
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
    private func cancel(_ callback: String) {
        state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: CancellationError())
        struct Request: Encodable, Sendable { var callback: String }
        _ = try? prompt("_dsb.cancel", argumentText: encodeCall(Request(callback: callback), callback: nil))
    }

    /// `dsBridge.hasNativeMethod(name, type)`.
    public func hasNativeMethod(_ name: String, kind: MethodKindFilter = .all) throws -> Bool {
        struct Query: Encodable, Sendable { var name: String; var type: String }
        return try call("_dsb.hasNativeMethod", Query(name: name, type: kind.rawValue), as: Bool.self)
    }

    // MARK: Page handlers (native → page)

    /// `dsBridge.register(name, fn)`: a synchronous handler of the positional arguments. A handler
    /// that throws sends no answer, as with dsbridge.js. A dotted name (`"ns.m"`) stands for method
    /// `m` of a namespace object `ns`, as a page registers one with `dsBridge.register("ns", {m})`.
    public func register(_ name: String, _ handler: @escaping @Sendable ([JSONValue]) throws -> JSONValue) {
        state.withLock { $0.handlers[name] = .sync(handler) }
    }

    /// `dsBridge.registerAsyn(name, fn)`: an asynchronous handler that answers through `Reply`.
    public func registerAsync(_ name: String, _ handler: @escaping @Sendable ([JSONValue], Reply) -> Void) {
        state.withLock { $0.handlers[name] = .async(handler) }
    }

    // MARK: WebViewJavascriptBridge's page API, on the same wire

    /// `WebViewJavascriptBridge.registerHandler(name, fn(data, responseCallback))`: Swift calls it
    /// with one data value (`null` without one) and reads the value it responds with.
    public func registerHandler(_ name: String, _ handler: @escaping @Sendable (JSONValue, Reply) -> Void) {
        registerAsync(name) { arguments, reply in handler(arguments.first ?? .null, reply) }
    }

    /// `WebViewJavascriptBridge.callHandler(name, data, responseCallback)`: Swift's method `name`
    /// (`"a.b.m"`: method `m` of namespace `a.b`), asynchronous or synchronous; the first result.
    public func callHandler<Result: Decodable & Sendable>(
        _ name: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        do {
            // Keystone's runtime, the only one with this API, asks for a synchronous method's result
            // in the answer itself.
            return try await firstResult(of: name, try start(name, data, inline: true), as: Result.self, nothing: Self.emptyString)
        } catch let error as BridgeError where error.code == .unsupportedCallKind {
            return try call(name, data, as: Result.self)  // a synchronous method, as the runtime falls back
        }
    }

    /// `dsBridge.on(name, fn)` of Keystone's runtime: `listener` receives every event `name`.
    public func on(_ name: String, _ listener: @escaping @Sendable (JSONValue) -> Void) {
        state.withLock { $0.listeners[name, default: []].append(listener) }
    }

    // MARK: EvaluationTarget

    public func evaluate(_ batch: ScriptBatch) {
        // As a web view host does: a batch made for a page load that has gone runs nowhere.
        guard batch.pageLoad == hub.pageLoad else { return }
        let met = state.withLock { state in
            state.batches.append(batch)
            guard !state.receiptWaiters.isEmpty else { return [CheckedContinuation<Void, Never>]() }
            let messages = state.batches.flatMap(\.messages)
            let (met, waiting) = (state.receiptWaiters.filter { $0.condition(messages) }, state.receiptWaiters.filter { !$0.condition(messages) })
            state.receiptWaiters = waiting
            return met.map(\.continuation)
        }
        for message in batch.messages {
            deliver(message)
        }
        for continuation in met { continuation.resume() }
    }

    private func deliver(_ message: PageMessage) {
        switch message {
        case .result(let callback, let value, let complete):
            let continuation = state.withLock { complete ? $0.callbacks.removeValue(forKey: callback) : $0.callbacks[callback] }
            continuation?.yield(value)
            if complete { continuation?.finish() }
        case .withParts(let inner, let parts):
            // As Keystone's runtime does: the parts fetched from the byte channel (or read from the
            // message), then put in their places. Here each is base64 in its place, as a typed
            // value reads `Data`; a page's runtime puts a Uint8Array there. A result for a callback
            // the page did not open fetches nothing.
            if case .result(let callback, _, _) = inner, state.withLock({ $0.callbacks[callback] == nil }) { return }
            switch fetch(parts) {
            case .success(let parts): deliver(inner.inliningParts(parts))
            case .failure(let error): fail(inner, with: error)
            }
        case .noResult(let callback):
            let continuation = state.withLock { $0.callbacks.removeValue(forKey: callback) }
            continuation?.yield(nil)
            continuation?.finish()
        case .cancel(let callbackId):
            guard runtime == .keystone else { return }  // dsbridge.js never hears it
            state.withLock { _ = $0.withdrawn.insert(callbackId) }
        case .failure(let callback, let error):
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: error)
        case .completion(let callback), .release(let callback):
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish()
        case .call(let method, let callbackId, let arguments):
            handleNativeCall(method, callbackId: callbackId, arguments: arguments)
        case .event(let name, let value):
            guard runtime == .keystone, let value = try? serializer.decode(JSONValue.self, from: value.bytes) else { return }
            for listener in state.withLock({ $0.listeners[name] ?? [] }) {
                listener(value)
            }
        }
    }

    /// A message's parts, as Keystone's runtime gets them: fetched with their ticket (a fetch the
    /// hub answers at once), or read from the message.
    private func fetch(_ parts: MessageParts) -> Swift.Result<ByteParts, BridgeError> {
        switch parts.source {
        case .inline(let data):
            return .success(ByteParts(marker: parts.marker, data: data))
        case .ticket(let address):
            guard case .success(let request) = URLSchemeTransport.keystone.request(method: "GET", url: address, origin: frame.origin) else {
                return .failure(BridgeError(code: .notFound, message: "no such transfer"))
            }
            switch hub.receiveBytesNow(request, readBody: { _ in Data() }) {
            case .bytes(let bytes) where bytes.count == parts.sizes.reduce(0, +):
                return .success(ByteParts(marker: parts.marker, data: ByteParts.split(bytes, sizes: parts.sizes)))
            case .refused(let error): return .failure(error)
            default: return .failure(BridgeError(code: .failed, message: "the bytes arrived cut short"))
            }
        }
    }

    /// What the page does with a message whose parts could not be fetched: a result's callback
    /// fails, a call of a handler is answered with the failure.
    private func fail(_ message: PageMessage, with error: BridgeError) {
        switch message {
        case .result(let callback, _, _):
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: error)
        case .call(_, let callbackId, _):
            returnValue(.failure(error), id: callbackId, complete: true)
        default:
            break
        }
    }

    /// `_handleMessageFromNative`: find the handler, run it, answer through `_dsb.returnValue`.
    private func handleNativeCall(_ method: String, callbackId: Int, arguments: JSONText) {
        guard let values = try? serializer.decode([JSONValue].self, from: arguments.bytes) else { return }
        if method == "_hasJavascriptMethod" {
            let name = values.first.flatMap { if case .string(let name) = $0 { name } else { nil } } ?? ""
            returnValue(.success(hasHandler(name)), id: callbackId, complete: true)
            return
        }
        switch state.withLock({ $0.handlers[method] }) {
        case .sync(let handler):
            do {
                returnValue(.success(try handler(values)), id: callbackId, complete: true)
            } catch {
                // dsbridge.js lets the exception escape and answers nothing; Keystone's runtime reports it.
                if runtime == .keystone { returnValue(.failure(BridgeError(error)), id: callbackId, complete: true) }
            }
        case .async(let handler):
            handler(
                values,
                Reply(
                    send: { [weak self] value, complete in self?.returnValue(.success(value), id: callbackId, complete: complete) },
                    cancelled: { [weak self] in self?.state.withLock { $0.withdrawn.contains(callbackId) } ?? false }
                ))
        case nil:
            // dsbridge.js 3.1.4 answers nothing for a handler it lacks; Keystone's runtime says so.
            if runtime == .keystone {
                returnValue(.failure(BridgeError(code: .notFound, message: "the page has no handler \"\(method)\"")), id: callbackId, complete: true)
            }
        }
    }

    /// `_hasJavascriptMethod(name)` as the page's runtime answers it. Keystone's runtime answers
    /// true or false. dsbridge.js 3.1.4 looks a dotted name up as a method of a registered
    /// namespace object, and answers `undefined` (`nil`: no `data`) for a namespace it lacks.
    private func hasHandler(_ name: String) -> JSONValue? {
        let names = state.withLock { Set($0.handlers.keys) }
        guard runtime == .dsbridge, let dot = name.lastIndex(of: ".") else { return .bool(names.contains(name)) }
        let namespace = name[..<dot]
        let hasNamespace = names.contains { $0.hasPrefix(namespace + ".") && !$0.dropFirst(namespace.count + 1).contains(".") }
        return hasNamespace ? .bool(names.contains(name)) : nil
    }

    private func returnValue(_ result: Swift.Result<JSONValue?, BridgeError>, id: Int, complete: Bool) {
        // Keystone's runtime drops a withdrawn call's answers.
        let withdrawn = state.withLock { state in
            guard state.withdrawn.contains(id) else { return false }
            if complete { state.withdrawn.remove(id) }
            return true
        }
        if withdrawn { return }
        struct Answer: Encodable, Sendable { var id: Int; var data: JSONValue?; var error: BridgeError?; var complete: Bool }
        let answer =
            switch result {
            case .success(let value): Answer(id: id, data: value, complete: complete)
            case .failure(let error): Answer(id: id, error: error, complete: complete)
            }
        guard let text = try? encodeCall(answer, callback: nil) else { return }
        _ = prompt("_dsb.returnValue", argumentText: text)
    }

    // MARK: Wire helpers

    /// Registers `window.dscbN`, sends the asynchronous call (as a script message in Keystone's
    /// runtime, a `prompt` otherwise), and returns the callback's name and what it receives.
    /// With `inline`, it asks for a synchronous method's result in the answer (`_dsinline`), as
    /// Keystone's runtime does from `invoke`. Keystone's runtime sends each `Data` in `data` as a
    /// part over the byte channel where the page has one (its pieces posted once the ticket is the
    /// answer), and as base64 in its place where it has none.
    private func start(_ method: String, _ data: some Encodable & Sendable, inline: Bool = false) async throws -> (String, Results) {
        guard runtime == .keystone, hasByteChannel, let parts = try partsSerializer?.encodeMovingParts(data), let found = parts.parts else {
            return try startNow(method, data, inline: inline)
        }
        let (callback, results) = try openCallback()
        let sizes = JSONValue.array(found.sizes.map { .number(Double($0)) })
        let value = try DefaultJSONSerializer().decode(JSONValue.self, from: found.numbered(parts.json))
        let arguments = try encodeCall(value, callback: callback, parts: sizes)
        let answer = hub.refusal(of: frame) ?? hub.handleMessage(method, arguments: arguments, frame: frame)
        if let address = ticket(answer) {
            var bytes = found.joined
            var piece = 0
            while !bytes.isEmpty {
                let next = bytes.prefix(Self.pieceBytes)
                bytes = bytes.dropFirst(next.count)
                guard await send(.piece(piece), next, to: address) == .more else { break }
                piece += 1
            }
            return (callback, results)
        }
        return settle(callback, results, by: answer, inline: inline)
    }

    /// ``start(_:_:inline:)`` of a call that moves no parts: `streamed` asks, as `stream` does, for
    /// results' `Data` as bytes.
    private func startNow(_ method: String, _ data: some Encodable & Sendable, inline: Bool = false, streamed: Bool = false) throws -> (String, Results) {
        let (callback, results) = try openCallback()
        // `invoke` and `stream` of Keystone's runtime take results' `Data` as parts.
        let speaksParts = runtime == .keystone && (inline || streamed)
        let arguments = try encodeCall(data, callback: callback, inline: inline, parts: speaksParts ? .array([]) : nil)
        let answer = runtime == .keystone ? (hub.refusal(of: frame) ?? hub.handleMessage(method, arguments: arguments, frame: frame)) : prompt(method, argumentText: arguments)
        return settle(callback, results, by: answer, inline: inline)
    }

    /// The page's serializer as it moves `Data` as parts, if it does.
    private var partsSerializer: (any BytePartsSerializer)? {
        (serializer as? any BytePartsSerializer).flatMap { $0.movesParts ? $0 : nil }
    }

    /// Posts one piece (or the end) of a call's parts under the ticket at `address`, as the page's
    /// `fetch` posts it, answered whenever the hub answers it.
    private func send(_ kind: ByteRequest.Kind, _ body: Data, to address: String) async -> ByteResponse {
        let ticket = String(address.dropFirst(URLSchemeTransport.keystone.base.count))
        let request = ByteRequest(ticket: ticket, kind: kind, origin: frame.origin)
        return await withCheckedContinuation { continuation in
            hub.receiveBytes(request) { limit in
                body.count <= limit ? body : nil
            } respond: {
                continuation.resume(returning: $0)
            }
        }
    }

    /// Registers `window.dscbN`: the callback's name and what it receives.
    private func openCallback() throws -> (String, Results) {
        let (stream, continuation) = Results.makeStream()
        let callback = try state.withLock { state throws(BridgeError) in
            guard state.isInitialized else {
                throw BridgeError(
                    code: .pageGone,
                    message: "the in-memory page has not initialized: call initialize() first, as a page's runtime announces itself once its handlers are registered; results wait for it"
                )
            }
            state.lastCallback += 1
            let name = "dscb\(state.lastCallback)"
            state.callbacks[name] = continuation
            return name
        }
        return (callback, stream)
    }

    /// What the call of `callback` receives, once its answer is `answer`: the answer itself when it
    /// settles the call (an inline result, or a refusal), otherwise what reaches the callback.
    private func settle(_ callback: String, _ stream: Results, by answer: String?, inline: Bool) -> (String, Results) {
        if inline, let value = inlineValue(answer) {
            // Settled by the answer itself: the runtime closes the callback.
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish()
            return (
                callback,
                Results {
                    $0.yield(value); $0.finish()
                }
            )
        }
        if case .failure(let error) = decodeAnswer(answer, as: JSONValue.self) {
            // Refused while the page waited: the refusal is the outcome, even when the callback's
            // release was delivered first (a web view delivers it only after the prompt returns).
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish()
            return (callback, Results { $0.finish(throwing: error) })
        }
        return (callback, stream)
    }

    /// `JSON.stringify({data: data, _dscbstub: callback})`, plus `_dsinline: true` and `_dsparts`
    /// when asked, as Keystone's runtime sends them.
    private func encodeCall(_ data: some Encodable & Sendable, callback: String?, inline: Bool = false, parts: JSONValue? = nil) throws -> String {
        let arguments = CallArguments(data: data, _dscbstub: callback, _dsinline: inline ? true : nil, _dsparts: parts)
        return String(decoding: try serializer.encode(arguments), as: UTF8.self)
    }

    /// The ticket's address in an answer that asks for the call's parts (`"ticket"`).
    private func ticket(_ answer: String?) -> String? {
        struct Ticket: Decodable { var ticket: String? }
        return answer.flatMap { try? serializer.decode(Ticket.self, from: Data($0.utf8)).ticket }
    }

    /// The `data` of an answer marked `"inline": true`, as JSON text; `.some(nil)` for one marked
    /// `"void": true` (a method that returns nothing).
    private func inlineValue(_ answer: String?) -> JSONText?? {
        guard let answer, let header = try? serializer.decode(AnswerHeader.self, from: Data(answer.utf8)), header.inline == true,
            case .success(let value) = decodeAnswer(answer, as: JSONValue.self)
        else { return nil }
        if header.void == true { return .some(nil) }
        return (try? JSONText(validating: serializer.encode(value))).map { .some($0) }
    }

    /// Reads `{"code", "data", "error"}` as a page would, throwing the native error; an answer
    /// marked `"void": true` reads as `undefined` (`null`) when `voidIsUndefined` (Keystone's
    /// `invoke`), as its `data` (`""`) otherwise (dsbridge.js).
    private func decodeAnswer<Result: Decodable>(
        _ answer: String?, as: Result.Type, voidIsUndefined: Bool = false
    ) -> Swift.Result<Result, any Error> {
        let bytes = Data((answer ?? "{}").utf8)
        return Swift.Result {
            let header = try serializer.decode(AnswerHeader.self, from: bytes)
            if let error = header.error { throw error }
            guard header.code == 0 else {
                throw BridgeError(code: .notFound, message: "the call was not handled (code \(header.code))")
            }
            if header.void == true, voidIsUndefined { return try decode(nil, as: Result.self) }
            return try Self.answerDecoding(Result.self) { try serializer.decode(AnswerBody<Result>.self, from: bytes).data }
        }
    }
}

/// `{data, _dscbstub}`: the wrapper dsbridge.js sends with every call.
private struct CallArguments<Value: Encodable>: Encodable {
    var data: Value
    var _dscbstub: String?
    var _dsinline: Bool?
    var _dsparts: JSONValue?
}

/// The part of a native answer a page checks first.
private struct AnswerHeader: Decodable {
    var code: Int
    var error: BridgeError?
    var inline: Bool?
    var void: Bool?
}

/// The `data` of a native answer.
private struct AnswerBody<Value: Decodable>: Decodable {
    var data: Value
}
