// InMemoryPage+Handlers.swift — the page's side of Swift's calls: its handlers, its listeners, and
// what it does with each message a batch brings, as a page's runtime would.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InMemoryPage {
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
        // As a web view host does: a batch made for a page load that has gone runs nowhere, and one
        // for a subframe document runs in that document, or nowhere once it has gone.
        guard batch.pageLoad == hub.pageLoad else { return }
        // A suspended page runs nothing: its engine keeps the batch until it resumes.
        let isHeld = state.withLock { state in
            state.suspended?.append(batch)
            return state.suspended != nil
        }
        if isHeld { return }
        if let document = batch.frame {
            state.withLock { $0.subframes[document]?.page }?.receive(batch)
            return
        }
        receive(batch)
    }

    /// Takes a batch bound for this page's own document.
    private func receive(_ batch: ScriptBatch) {
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

    /// The document's calls that wait for their results settle `pageGone`: the document that made
    /// them has gone, and nothing reaches it any more.
    func endCallbacks() {
        let open = state.withLock { state in
            defer { state.callbacks.removeAll() }
            return Array(state.callbacks.values)
        }
        let gone = BridgeError(code: .pageGone, message: "the document that made the call has gone")
        for continuation in open { continuation.finish(throwing: gone) }
    }

    func deliver(_ message: PageMessage) {
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
        case .durable(.call(let method, let callbackId, let arguments), let id):
            // Keystone's runtime hands the durable id to the handler's responder; dsbridge.js drops it.
            handleNativeCall(method, callbackId: callbackId, arguments: arguments, durable: runtime == .keystone ? id : nil)
        case .durable(let message, _):
            deliver(message)
        case .event(let name, let value):
            guard runtime == .keystone, let value = try? serializer.decode(JSONValue.self, from: value.bytes) else { return }
            for listener in state.withLock({ $0.listeners[name] ?? [] }) {
                listener(value)
            }
        }
    }

    /// A message's parts, as Keystone's runtime gets them: fetched with their ticket (a fetch the
    /// hub answers at once), or read from the message.
    func fetch(_ parts: MessageParts) -> Swift.Result<ByteParts, BridgeError> {
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
    func fail(_ message: PageMessage, with error: BridgeError) {
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
    func handleNativeCall(_ method: String, callbackId: Int, arguments: JSONText, durable: String? = nil) {
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
                    cancelled: { [weak self] in self?.state.withLock { $0.withdrawn.contains(callbackId) } ?? false },
                    durable: durable
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
    func hasHandler(_ name: String) -> JSONValue? {
        let names = state.withLock { Set($0.handlers.keys) }
        guard runtime == .dsbridge, let dot = name.lastIndex(of: ".") else { return .bool(names.contains(name)) }
        let namespace = name[..<dot]
        let hasNamespace = names.contains { $0.hasPrefix(namespace + ".") && !$0.dropFirst(namespace.count + 1).contains(".") }
        return hasNamespace ? .bool(names.contains(name)) : nil
    }

    func returnValue(_ result: Swift.Result<JSONValue?, BridgeError>, id: Int, complete: Bool) {
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
}
