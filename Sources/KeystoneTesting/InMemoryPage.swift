// InMemoryPage.swift — a page without a browser: speaks the DSBridge v3 protocol to a Keystone.
import Foundation
import Keystone

/// A stand-in for a web page running dsbridge.js 3.1.4, for testing interfaces without a browser.
///
/// It calls native methods with the exact prompt texts dsbridge.js sends (sync, async with a
/// `dscbN` callback, multi-response), registers page handlers that Swift can call, sends
/// `_dsb.dsinit`, and receives the same ``PageMessage`` batches a web view would evaluate.
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

        /// Sends a result; `complete: false` keeps the call open for more (dsbridge.js semantics).
        public func callAsFunction(_ value: JSONValue, complete: Bool = true) {
            send(value, complete)
        }
    }

    private enum Handler {
        case sync(@Sendable ([JSONValue]) throws -> JSONValue)
        case async(@Sendable ([JSONValue], Reply) -> Void)
    }

    private struct State {
        var lastCallback = -1
        var callbacks: [String: AsyncThrowingStream<JSONText, any Error>.Continuation] = [:]
        var handlers: [String: Handler] = [:]
        var batches: [ScriptBatch] = []
    }

    /// The hub this page talks to.
    public let hub: any BridgeHub
    private let serializer: any JSONSerializer
    private let state = Locked(State())

    /// Creates a page attached to `hub`. Like dsbridge.js, the page has registered
    /// `_hasJavascriptMethod`; call ``initialize()`` to send `_dsb.dsinit`.
    public init(hub: any BridgeHub, serializer: any JSONSerializer = FoundationJSONSerializer()) {
        self.hub = hub
        self.serializer = serializer
        hub.attach(to: self)
    }

    // MARK: What the page received

    /// Every batch evaluated in this page, in order.
    public var receivedBatches: [ScriptBatch] { state.withLock { $0.batches } }

    /// Every message evaluated in this page, in order.
    public var receivedMessages: [PageMessage] { receivedBatches.flatMap(\.messages) }

    /// The names of the `window.dscbN` callbacks still registered (a settled call leaves none).
    public var liveCallbacks: [String] { state.withLock { $0.callbacks.keys.sorted() } }

    // MARK: Page → native

    /// Sends `_dsb.dsinit`, as dsbridge.js does after the page registers its handlers.
    public func initialize() {
        _ = prompt("_dsb.dsinit", argumentText: #"{"data":null}"#)
    }

    /// Calls `window.close()`, which dsbridge.js turns into `_dsb.closePage`.
    public func close() {
        _ = prompt("_dsb.closePage", argumentText: #"{"data":null}"#)
    }

    /// The raw protocol: `prompt("_dsbridge=" + method, argumentText)` and its answer.
    public func prompt(_ method: String, argumentText: String?) -> String? {
        hub.handlePrompt(Keystone.promptPrefix + method, defaultText: argumentText)
    }

    /// A synchronous call, as `dsBridge.call(method, data)`; throws the ``BridgeError`` the native
    /// side answered with.
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

    /// An asynchronous call, as `dsBridge.call(method, data, callback)`: the first result.
    public func callAsync<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        for try await value in try start(method, data) {
            return try serializer.decode(Result.self, from: value.bytes)
        }
        throw BridgeError(code: .malformedMessage, message: "\"\(method)\" completed without a result")
    }

    /// A multi-response call: every result the callback receives until the call completes.
    public func stream<Element: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        let serializer = serializer
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task {
            do {
                for try await value in try start(method, data) {
                    continuation.yield(try serializer.decode(Element.self, from: value.bytes))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// `dsBridge.hasNativeMethod(name, type)`.
    public func hasNativeMethod(_ name: String, type: String = "all") throws -> Bool {
        struct Query: Encodable, Sendable { var name: String; var type: String }
        return try call("_dsb.hasNativeMethod", Query(name: name, type: type), as: Bool.self)
    }

    // MARK: Page handlers (native → page)

    /// `dsBridge.register(name, fn)`: a synchronous handler of the positional arguments. A handler
    /// that throws sends no answer, as with dsbridge.js.
    public func register(_ name: String, _ handler: @escaping @Sendable ([JSONValue]) throws -> JSONValue) {
        state.withLock { $0.handlers[name] = .sync(handler) }
    }

    /// `dsBridge.registerAsyn(name, fn)`: an asynchronous handler that answers through `Reply`.
    public func registerAsync(_ name: String, _ handler: @escaping @Sendable ([JSONValue], Reply) -> Void) {
        state.withLock { $0.handlers[name] = .async(handler) }
    }

    // MARK: EvaluationTarget

    public func evaluate(_ batch: ScriptBatch) {
        state.withLock { $0.batches.append(batch) }
        for message in batch.messages {
            deliver(message)
        }
    }

    private func deliver(_ message: PageMessage) {
        switch message {
        case .result(let callback, let value, let complete):
            let continuation = state.withLock { complete ? $0.callbacks.removeValue(forKey: callback) : $0.callbacks[callback] }
            continuation?.yield(value)
            if complete { continuation?.finish() }
        case .failure(let callback, let error):
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: error)
        case .completion(let callback), .release(let callback):
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish()
        case .call(let method, let callbackId, let arguments):
            handleNativeCall(method, callbackId: callbackId, arguments: arguments)
        }
    }

    /// `_handleMessageFromNative`: find the handler, run it, answer through `_dsb.returnValue`.
    private func handleNativeCall(_ method: String, callbackId: Int, arguments: JSONText) {
        guard let values = try? serializer.decode([JSONValue].self, from: arguments.bytes) else { return }
        if method == "_hasJavascriptMethod" {
            let name = values.first.flatMap { if case .string(let name) = $0 { name } else { nil } } ?? ""
            let known = state.withLock { $0.handlers[name] != nil }
            returnValue(.bool(known), id: callbackId, complete: true)
            return
        }
        switch state.withLock({ $0.handlers[method] }) {
        case .sync(let handler):
            guard let value = try? handler(values) else { return }
            returnValue(value, id: callbackId, complete: true)
        case .async(let handler):
            handler(values, Reply { [weak self] value, complete in
                self?.returnValue(value, id: callbackId, complete: complete)
            })
        case nil:
            break  // dsbridge.js 3.1.4 answers nothing for a handler it lacks
        }
    }

    private func returnValue(_ value: JSONValue, id: Int, complete: Bool) {
        struct Answer: Encodable, Sendable { var id: Int; var data: JSONValue; var complete: Bool }
        guard let text = try? encodeCall(Answer(id: id, data: value, complete: complete), callback: nil) else { return }
        _ = prompt("_dsb.returnValue", argumentText: text)
    }

    // MARK: Wire helpers

    /// Registers `window.dscbN`, sends the asynchronous call, and returns what the callback receives.
    private func start(_ method: String, _ data: some Encodable & Sendable) throws -> AsyncThrowingStream<JSONText, any Error> {
        let (stream, continuation) = AsyncThrowingStream<JSONText, any Error>.makeStream()
        let callback = state.withLock { state in
            state.lastCallback += 1
            let name = "dscb\(state.lastCallback)"
            state.callbacks[name] = continuation
            return name
        }
        let answer = prompt(method, argumentText: try encodeCall(data, callback: callback))
        if case .failure(let error) = decodeAnswer(answer, as: JSONValue.self) {
            state.withLock { $0.callbacks.removeValue(forKey: callback) }?.finish(throwing: error)
        }
        return stream
    }

    /// `JSON.stringify({data: data, _dscbstub: callback})`.
    private func encodeCall(_ data: some Encodable & Sendable, callback: String?) throws -> String {
        String(decoding: try serializer.encode(CallArguments(data: data, _dscbstub: callback)), as: UTF8.self)
    }

    /// Reads `{"code", "data", "error"}` as a page would, throwing the native error.
    private func decodeAnswer<Result: Decodable>(_ answer: String?, as: Result.Type) -> Swift.Result<Result, any Error> {
        let bytes = Data((answer ?? "{}").utf8)
        return Swift.Result {
            let header = try serializer.decode(AnswerHeader.self, from: bytes)
            if let error = header.error { throw error }
            guard header.code == 0 else {
                throw BridgeError(code: .notFound, message: "the call was not handled (code \(header.code))")
            }
            return try serializer.decode(AnswerBody<Result>.self, from: bytes).data
        }
    }
}

/// `{data, _dscbstub}`: the wrapper dsbridge.js sends with every call.
private struct CallArguments<Value: Encodable>: Encodable {
    var data: Value
    var _dscbstub: String?
}

/// The part of a native answer a page checks first.
private struct AnswerHeader: Decodable {
    var code: Int
    var error: BridgeError?
}

/// The `data` of a native answer.
private struct AnswerBody<Value: Decodable>: Decodable {
    var data: Value
}
