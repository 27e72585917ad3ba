// WVJBWire.swift — WebViewJavascriptBridge 6's own wire, translated to and from the hub's protocol.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Speaks WebViewJavascriptBridge 6's wire for a page that brings WVJB's page script: the page
/// queues messages and signals with a navigation to `https://__wvjb_queue_message__`; the host
/// fetches the queue (`WebViewJavascriptBridge._fetchQueue()`) and hands it to ``receive(queue:from:)``;
/// everything bound for the page is written by ``script(for:)`` as
/// `WebViewJavascriptBridge._handleMessageFromObjC(<JSON text>)` calls.
///
/// Each page message becomes an ordinary call of the hub, handed over split
/// (``BridgeHub/handleCall(_:data:callback:acceptsInlineAnswer:frame:)``) and answered as a value
/// (``CallAnswer``), so WVJB calls get the same resolver, policy, middleware, limits and page-load
/// rules as DSBridge calls without a wrapper written and read back: `{handlerName: "a.b.m", data,
/// callbackId}` calls method `m` of namespace `a.b` with `data`; `{responseId, responseData}`
/// answers a Swift call (`_dsb.returnValue`). Results go back as `{responseId, responseData}`; a failure adds
/// `error: {code, message}`, which WVJB's own page script ignores.
package final class WVJBWire: Sendable {
    private let hub: any BridgeHub
    private let state = Locked(WVJBCallbacks())
    /// The hub's serializer when the hub is a Keystone, Keystone's own otherwise.
    private let serializer: any JSONSerializer
    /// The most bytes a fetched queue may hold. Default 64 MiB.
    package let maximumQueueBytes: Int

    /// Creates the wire for `hub`, refusing a fetched queue longer than `maximumQueueBytes`.
    package init(hub: any BridgeHub, maximumQueueBytes: Int = 64 << 20) {
        self.hub = hub
        self.maximumQueueBytes = maximumQueueBytes
        serializer = (hub as? Keystone)?.components.serializer ?? DefaultJSONSerializer()
    }

    /// The page changed: its calls are forgotten, and the next page's bridge announces itself.
    package func pageDidUnload() {
        state.withLock { $0 = WVJBCallbacks() }
    }

    /// How many messages of a fetched queue are handed to the hub at once: a host answers a long
    /// queue a slice at a time, with the engine's other events in between (``QueueSlice/more``).
    package static let sliceSize = 512

    /// What a host does once it has evaluated a ``QueueSlice``'s script.
    package enum QueueStep: Sendable, Hashable {
        /// Nothing: the queue is answered.
        case done
        /// Call ``WVJBWire/answerNextSlice()`` once the main loop has run what waits on it.
        case answerNextSlice
        /// The page signalled again while its queue was answered: evaluate ``WVJBWire/fetchScript``
        /// and hand its value to ``WVJBWire/receive(queue:from:)``, as for a signal.
        case fetchQueue
    }

    /// One slice of a fetched queue, answered: what a host evaluates, and what it does next.
    package struct QueueSlice: Sendable, Hashable {
        /// The script that answers, at once, the slice's calls the hub answered at once (a
        /// synchronous method, or a refusal); `nil` when there is none.
        package var script: String?
        /// What the host does after evaluating ``script``.
        package var next: QueueStep

        /// A slice answered with `script`, followed by `next`.
        package init(script: String?, next: QueueStep) {
            self.script = script
            self.next = next
        }
    }

    /// Takes the page's queue (the JSON text `_fetchQueue()` returned) from `frame`: every message,
    /// in order, however many (WebViewJavascriptBridge's own script hands its whole queue at
    /// once), bounded only by ``maximumQueueBytes``. Answers the first slice now. A host calls it
    /// for every fetch it made, with `""` when the fetch failed, so the next signal is answered.
    package func receive(queue text: String, from frame: CallerFrame) -> QueueSlice {
        let messages = read(queue: text, from: frame)
        state.withLock { $0.enqueue(messages, from: frame) }
        return answerNextSlice()
    }

    /// Answers the next slice of the fetched queue.
    package func answerNextSlice() -> QueueSlice {
        let (answers, next) = nextSliceAnswers()
        return QueueSlice(script: answers.isEmpty ? nil : answers.map(Self.delivery).joined(), next: next)
    }

    /// ``receive(queue:from:)``'s answers as the JSON texts of WVJB messages, every slice at once,
    /// for a page that is not a web view (an in-memory page).
    package func answers(toQueue text: String, from frame: CallerFrame) -> [String] {
        let messages = read(queue: text, from: frame)
        state.withLock { $0.enqueue(messages, from: frame) }
        var answers: [String] = []
        var next = QueueStep.answerNextSlice
        while next == .answerNextSlice {
            let slice = nextSliceAnswers()
            answers += slice.answers
            next = slice.next
        }
        return answers
    }

    /// The messages of a fetched queue; the first queue from the page announces its bridge.
    private func read(queue text: String, from frame: CallerFrame) -> [QueuedMessage] {
        let messages = text.utf8.count <= maximumQueueBytes ? try? serializer.decode([QueuedMessage].self, from: Data(text.utf8)) : nil
        let speaksKeystone = messages?.first?.keystone == "wvjb"
        if state.withLock({ $0.queueArrived(from: frame, speaksKeystone: speaksKeystone) }) {
            // WVJB's page script has no `dsinit`: its first queue (it signals as it loads) says
            // the bridge is in, and what waited goes out.
            _ = hub.handleCall("_dsb.dsinit", data: nil, callback: nil, acceptsInlineAnswer: false, frame: frame)
        }
        // Not WVJB's queue: nothing in it can be answered.
        return messages ?? []
    }

    /// Hands the hub the next slice of waiting messages; the JSON texts of the answers given at
    /// once, and whether more wait.
    private func nextSliceAnswers() -> (answers: [String], next: QueueStep) {
        let (slice, next) = state.withLock { $0.takeSlice(Self.sliceSize) }
        return (slice.compactMap { receive($0.message, from: $0.frame) }, next)
    }

    /// What a host does about a navigation WebViewJavascriptBridge uses as a signal.
    package enum SignalAnswer: Sendable, Hashable {
        /// Cancel it and do nothing more: a subframe's signal, a document the hub refuses, or a
        /// signal while a fetched queue is answered (its queue is fetched after the last slice).
        case cancel
        /// Cancel it, evaluate `script` in the main frame, and hand its string value to
        /// ``receive(queue:from:)`` with the same frame.
        case fetchQueue(script: String)
        /// Cancel it and evaluate `script`, Keystone's WVJB page script, which returns at once when
        /// the page has a bridge already.
        case injectBridge(script: String)
    }

    /// What a host does about a navigation to `uri` made by `frame`: `nil` when it is no signal of
    /// WVJB's (let it go on). A signal never reaches the network and is never a page change; it is
    /// answered only when the page's main frame made it and the hub admits that frame.
    package func answer(toNavigation uri: String, from frame: CallerFrame) -> SignalAnswer? {
        let isQueueSignal = Self.isQueueSignal(uri)
        guard isQueueSignal || Self.isBridgeRequest(uri) else { return nil }
        guard frame.isMainFrame, hub.refusal(of: frame) == nil else { return .cancel }
        if isQueueSignal { return state.withLock({ $0.queueSignalled() }) ? .fetchQueue(script: fetchScript) : .cancel }
        return (try? Keystone.wvjbPageScript()).map { .injectBridge(script: $0) } ?? .cancel
    }

    /// What a host evaluates to fetch the page's queue: at most the hub's limit of calls a post
    /// may carry, which Keystone's WVJB script respects (WVJB's own hands everything). The queue's
    /// length is measured in the page, so a queue much past ``maximumQueueBytes`` (counted there in
    /// UTF-16 code units) never crosses to the app: it is dropped there, and its calls are never
    /// answered. While a fetched queue is being answered, the page's next signal waits for its end
    /// (``QueueStep/fetchQueue``), so one fetched queue at most is held.
    package var fetchScript: String {
        "(function(q){return typeof q==='string'&&q.length<=\(maximumQueueBytes)?q:null})(WebViewJavascriptBridge._fetchQueue(\(hub.limits.messagesPerPost)))"
    }

    /// The script that delivers `batch` to WVJB's page side; `""` when nothing in it is for the page.
    package func script(for batch: ScriptBatch) -> String {
        messages(for: batch).map(Self.delivery).joined()
    }

    /// The JSON texts of the WVJB messages that deliver `batch`.
    package func messages(for batch: ScriptBatch) -> [String] {
        batch.messages.compactMap(wireMessage)
    }

    // MARK: Page → Swift

    private func receive(_ message: QueuedMessage, from frame: CallerFrame) -> String? {
        if let responseId = message.responseId {
            answerSwift(responseId, data: message.responseData, from: frame)
            return nil
        }
        guard let handlerName = message.handlerName else { return nil }
        guard case .some(let data) = message.data else {
            // A value no Swift string can hold (a lone surrogate): refused, as a DSBridge call is.
            let error = BridgeError(code: .invalidArgument, message: "invalid argument for \"\(handlerName)\": data does not decode")
            return message.callbackId.map { responseJSON($0, value: nil, error: error) }
        }
        return call(handlerName, data: data ?? .null, callbackId: message.callbackId, from: frame)
    }

    /// `{responseId: "objc_cb_N", responseData}`: the page's answer to Swift's call N; an answer
    /// that does not decode fails the call.
    private func answerSwift(_ responseId: String, data: JSONValue??, from frame: CallerFrame) {
        guard responseId.hasPrefix("objc_cb_"), let id = Int(responseId.dropFirst("objc_cb_".count)) else { return }
        if case .some(let value) = data {
            returnValue(["id": .number(Double(id)), "data": value ?? .null, "complete": true], from: frame)
        } else {
            returnValue(["id": .number(Double(id)), "error": ["code": 10, "message": "the page's response does not decode"], "complete": true], from: frame)
        }
    }

    /// Hands the hub the page's answer to one of Swift's calls, as `_dsb.returnValue` takes it.
    private func returnValue(_ answer: JSONValue, from frame: CallerFrame) {
        _ = hub.handleCall("_dsb.returnValue", data: encode(answer), callback: nil, acceptsInlineAnswer: false, frame: frame)
    }

    /// `{handlerName, data, callbackId?}`: a call of Swift's method, under a callback name of the
    /// hub's own form, asking for a synchronous method's result in the answer, as Keystone's
    /// runtime does (``InboundCall/acceptsInlineAnswer``). A call without a callback id runs
    /// without a callback: nothing is answered, an asynchronous method's results are dropped and
    /// a failure is logged by the hub. Returns the JSON of an answer given at once, if any.
    private func call(_ method: String, data: JSONValue, callbackId: String?, from frame: CallerFrame) -> String? {
        guard let bytes = encode(data) else { return nil }
        guard let callbackId else {
            _ = hub.handleCall(method, data: bytes, callback: nil, acceptsInlineAnswer: false, frame: frame)
            return nil
        }
        let callback = state.withLock { $0.open(callbackId) }
        let value: JSONText?
        switch hub.handleCall(method, data: bytes, callback: callback, acceptsInlineAnswer: true, frame: frame) {
        case .accepted:
            return nil  // started: results come through the callback
        case .failure(let error):
            _ = state.withLock { $0.callbackId(for: callback, closing: true) }
            return responseJSON(callbackId, value: nil, error: error)
        case .ticket:
            // Never asked for: this wire announces no parts.
            _ = state.withLock { $0.callbackId(for: callback, closing: true) }
            return responseJSON(callbackId, value: nil, error: BridgeError(code: .failed, message: "the hub asked for bytes"))
        case .result(let result, _):
            _ = state.withLock { $0.callbackId(for: callback, closing: true) }
            // A method that returns nothing answers `""`, as a DSBridge page receives it.
            value = result.isEmpty ? Self.emptyString : try? JSONText(validating: result)
        }
        return value.map { responseJSON(callbackId, value: $0, error: nil) }
    }

    // MARK: Swift → page

    /// The WVJB message for one of the hub's page messages, as JSON text; `nil` when WVJB has none.
    private func wireMessage(_ message: PageMessage) -> String? {
        switch message {
        case .result(let callback, let value, let complete):
            guard let id = callbackId(callback, forget: complete) else { return nil }
            return responseJSON(id, value: value, error: nil)
        case .failure(let callback, let error):
            guard let id = callbackId(callback, forget: true) else { return nil }
            return responseJSON(id, value: nil, error: error)
        case .noResult(let callback):
            // A method that returns nothing answers `""`, as a DSBridge page receives it.
            guard let id = callbackId(callback, forget: true) else { return nil }
            return responseJSON(id, value: Self.emptyString, error: nil)
        case .completion(let callback), .release(let callback):
            _ = callbackId(callback, forget: true)
            return nil
        case .withParts(let message, _):
            // Never sent to this wire, whose page is not Keystone's runtime (the hub writes each
            // part as base64 in its place).
            return wireMessage(message)
        case .durable(let message, _):
            return wireMessage(message)  // WVJB's handlers take the data and a responder alone
        case .cancel:
            return nil  // WVJB's page script has no way to stop a handler
        case .call(let method, let callbackId, let arguments):
            if method == Self.hasMethodHandler, !state.withLock({ $0.speaksKeystone }) {
                refuseHasMethod(callbackId)
                return nil
            }
            let first = (try? serializer.decode([JSONValue].self, from: arguments.bytes))?.first ?? .null
            return encode(["handlerName": .string(method), "data": first, "callbackId": .string("objc_cb_\(callbackId)")] as JSONValue).map {
                String(decoding: $0, as: UTF8.self)
            }
        case .event:
            return nil  // WVJB has no events
        }
    }

    /// The page handler Swift's `hasJavaScriptMethod` asks.
    private static let hasMethodHandler = "_hasJavascriptMethod"

    /// `""`, what a method that returns nothing answers a WVJB page.
    private static let emptyString = JSONText(quoting: "")

    /// WVJB's own page script has no `_hasJavascriptMethod` and would never answer: Swift's call
    /// fails at once instead of waiting.
    private func refuseHasMethod(_ id: Int) {
        guard let frame = state.withLock({ $0.frame }) else { return }
        let error: JSONValue = ["code": 1, "message": "WebViewJavascriptBridge's own page script cannot say whether it has a handler"]
        returnValue(["id": .number(Double(id)), "error": error, "complete": true], from: frame)
    }

    /// The page's callback id behind the hub's `callback`, forgotten when the call is over.
    private func callbackId(_ callback: String, forget: Bool) -> String? {
        state.withLock { $0.callbackId(for: callback, closing: forget) }
    }

    /// `{"responseId": id, "responseData": value}`, plus `"error"` for a failure.
    private func responseJSON(_ id: String, value: JSONText?, error: BridgeError?) -> String {
        var out = #"{"responseId":"# + JSONText(quoting: id).string + #","responseData":"# + (value?.string ?? "null")
        if let error, let encoded = encode(error) { out += #","error":"# + String(decoding: encoded, as: UTF8.self) }
        return out + "}"
    }

    private func encode(_ value: some Encodable) -> Data? {
        try? serializer.encode(value)
    }

    /// A call of WVJB's page entry point with `json` as a string literal, as its script expects.
    private static func delivery(_ json: String) -> String {
        "try{WebViewJavascriptBridge._handleMessageFromObjC(\(JSONText(quoting: json).string))}catch(e){}"
    }
}

extension WVJBWire {
    /// Whether a navigation to `uri` is one of WVJB's signals, which never reach the network.
    package static func isSignal(_ uri: String) -> Bool {
        isQueueSignal(uri) || isBridgeRequest(uri)
    }

    /// WVJB's signal that its queue has messages, in both spellings.
    package static func isQueueSignal(_ uri: String) -> Bool {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("https://__wvjb_queue_message__") || lowered.hasPrefix("wvjbscheme://__wvjb_queue_message__")
    }

    /// WVJB's boilerplate asking for a bridge, in both spellings.
    package static func isBridgeRequest(_ uri: String) -> Bool {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("https://__bridge_loaded__") || lowered.hasPrefix("wvjbscheme://__bridge_loaded__")
    }
}
