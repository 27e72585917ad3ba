// InMemoryWVJBPage.swift — a WebViewJavascriptBridge page without a browser, on WVJB's own wire.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A stand-in for a page that brings WebViewJavascriptBridge 6's script, speaking WVJB's own wire
/// through a `WVJBWire` exactly as a web view host does: its calls are queued and fetched, and
/// everything for it arrives as `_handleMessageFromObjC` messages. For apps moving from WVJB, to
/// test their interfaces without a browser.
///
/// ```swift
/// let page = InMemoryWVJBPage(hub: keystone)
/// page.registerHandler("testJavascriptHandler") { data, respond in respond(["got": data]) }
/// page.load()
/// let answer = try await page.callHandler("testObjcCallback", ["foo": "bar"], as: String.self)
/// ```
public final class InMemoryWVJBPage: EvaluationTarget {
    /// A handler's way to respond to Swift, once.
    public typealias Respond = @Sendable (JSONValue) -> Void

    private struct State {
        var handlers: [String: @Sendable (JSONValue, @escaping Respond) -> Void] = [:]
        var callbacks: [String: CheckedContinuation<JSONObject, Never>] = [:]
        var lastCallback = 0
        var queue: [JSONValue] = []
        var received: [JSONValue] = []
    }

    /// The hub this page talks to.
    public let hub: any BridgeHub
    /// The wire both sides speak.
    package let wire: WVJBWire
    /// The frame every message of this page reports.
    public let frame: CallerFrame
    private let state = Locked(State())
    private let serializer = DefaultJSONSerializer()

    /// Creates a page on WebViewJavascriptBridge's own wire, calling `hub` as `frame`.
    public init(hub: any BridgeHub, frame: CallerFrame = .mainFrame) {
        self.hub = hub
        self.frame = frame
        wire = WVJBWire(hub: hub)
        hub.attach(to: self)
    }

    /// Every WVJB message delivered to this page, in order.
    public var receivedMessages: [JSONValue] { state.withLock { $0.received } }

    /// WVJB's page script loads: its first, empty queue tells native the bridge is in, and what
    /// Swift sent before arrives.
    public func load() {
        flush()
    }

    /// `WebViewJavascriptBridge.registerHandler(name, handler)`.
    public func registerHandler(_ name: String, _ handler: @escaping @Sendable (JSONValue, @escaping Respond) -> Void) {
        state.withLock { $0.handlers[name] = handler }
    }

    /// `WebViewJavascriptBridge.callHandler(name, data, responseCallback)`: the response, decoded.
    /// - Throws: the `BridgeError` native reported with its response, or a decoding error.
    public func callHandler<Result: Decodable>(
        _ name: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        let value = try serializer.decode(JSONValue.self, from: try serializer.encode(data))
        let response = await withCheckedContinuation { (continuation: CheckedContinuation<JSONObject, Never>) in
            state.withLock { state in
                state.lastCallback += 1
                let id = "cb_\(state.lastCallback)_1"
                state.callbacks[id] = continuation
                state.queue.append(["handlerName": .string(name), "data": value, "callbackId": .string(id)])
            }
            flush()
        }
        if let error = response["error"] {
            throw try serializer.decode(BridgeError.self, from: try serializer.encode(error))
        }
        return try serializer.decode(Result.self, from: try serializer.encode(response["responseData"] ?? .null))
    }

    /// `WebViewJavascriptBridge.callHandler(name, data)` without a response callback: the message
    /// goes without a callback id, Swift's method runs, and nothing comes back (an asynchronous
    /// method's result is dropped, a failure logged natively).
    public func post(_ name: String, _ data: some Encodable & Sendable = JSONValue.null) throws {
        let value = try serializer.decode(JSONValue.self, from: try serializer.encode(data))
        state.withLock { $0.queue.append(["handlerName": .string(name), "data": value]) }
        flush()
    }

    // MARK: EvaluationTarget

    public func evaluate(_ batch: ScriptBatch) {
        guard batch.pageLoad == hub.pageLoad else { return }
        for json in wire.messages(for: batch) { deliver(json) }
    }

    // MARK: The wire

    /// Native fetches the queue after the page's signal; what it answers at once arrives at once.
    private func flush() {
        let queue = state.withLock { state in
            defer { state.queue.removeAll() }
            return state.queue
        }
        guard let text = try? serializer.encode(queue) else { return }
        for json in wire.answers(toQueue: String(decoding: text, as: UTF8.self), from: frame) { deliver(json) }
    }

    /// `_handleMessageFromObjC(json)`: a response to one of this page's calls, or a call of a handler.
    private func deliver(_ json: String) {
        guard case .object(let message) = try? serializer.decode(JSONValue.self, from: Data(json.utf8)) else { return }
        state.withLock { $0.received.append(.object(message)) }
        if case .string(let responseId) = message["responseId"] {
            state.withLock { $0.callbacks.removeValue(forKey: responseId) }?.resume(returning: message)
            return
        }
        guard case .string(let name) = message["handlerName"], let handler = state.withLock({ $0.handlers[name] }) else { return }
        let callbackId = message["callbackId"]
        handler(message["data"] ?? .null) { [weak self] response in
            guard let self, let callbackId else { return }
            self.state.withLock { $0.queue.append(["handlerName": .string(name), "responseId": callbackId, "responseData": response]) }
            self.flush()
        }
    }
}
