// InMemoryPage+Calls.swift — what a page's code does with its runtime's API, typed: calls of Swift's
// methods, and handlers and listeners for Swift's calls and events.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InMemoryPage {
    // MARK: Page → native

    /// A synchronous call, as `dsBridge.call(method, data)`; throws the `BridgeError` the native
    /// side answered with. An asynchronous method called this way runs without a callback, as
    /// ``post(_:_:)`` says, and this returns what the call answered at once (`""`).
    public func call<Result: Decodable>(
        _ method: String, _ data: some Encodable & Sendable, as: Result.Type = Result.self
    ) throws -> Result {
        let answer = try callNow("dsBridge.call(\(Self.quoted(method)), \(try argument(data, parts: false).script))")
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
        let answer = try callNow("dsBridge.call(\(Self.quoted(method)), \(try argument(data, parts: false).script))")
        _ = try decodeAnswer(answer, as: JSONValue.self).get()
    }

    /// `dsBridge.hasNativeMethod(name, type)`.
    public func hasNativeMethod(_ name: String, kind: MethodKindFilter = .all) throws -> Bool {
        let answer = try callNow("dsBridge.hasNativeMethod(\(Self.quoted(name)), \(Self.quoted(kind.rawValue)))")
        return try decodeAnswer(answer, as: Bool.self).get()
    }

    /// An asynchronous call, as `dsBridge.call(method, data, callback)`: the first result (`""`
    /// from a method that returns nothing, as DSBridge sends it). Cancelling the awaiting task
    /// cancels the call natively (`_dsb.cancel`), as a page can.
    public func callAsync<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        try requireInitialized()
        let value = try argument(data, parts: false)
        let (id, name, results) = open(parts: value.parts) { id in
            "__keystoneTesting.call(\(id), \(Self.quoted(method)), \(value.script), \(Self.quoted(Self.marker)))"
        }
        return try await withTaskCancellationHandler {
            for try await (json, parts) in results { return try decode(json, parts, as: Result.self) }
            throw BridgeError(code: .malformedMessage, message: "\"\(method)\" completed without a result")
        } onCancel: {
            self.cancelCallback(id, name)
        }
    }

    /// Keystone's runtime's `dsBridge.invoke(method, data)`: the result of any method. A method
    /// that returns nothing resolves `undefined`, read here as `null` (`nil` for an optional
    /// `Result`), where ``callAsync(_:_:as:)`` reads `""`. Cancelling the awaiting task aborts the
    /// call's signal, which cancels it natively. On a dsbridge.js page, which has no `invoke`, it is
    /// ``callAsync(_:_:as:)`` reading `""` as `null`.
    public func invoke<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        guard runtime == .keystone else { return try await callOnDSBridge(method, data, as: Result.self) }
        try requireInitialized()
        let value = try argument(data, parts: true)
        return try await settled(parts: value.parts, as: Result.self) { id in
            "__keystoneTesting.invoke(\(id), \(Self.quoted(method)), \(value.script), undefined, \(Self.quoted(Self.marker)))"
        }
    }

    /// Keystone's runtime's `dsBridge.invoke(method, data, { durable: key })`: a call that runs once
    /// under `key` for the page's origin, whatever becomes of the page: sent again under the same
    /// key (from this document or a later one), it does not run again but gets the same outcome.
    /// The runtime acknowledges the outcome once it has it, and it is let go.
    public func invoke<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, durable key: String, as: Result.Type = Result.self
    ) async throws -> Result {
        try requireInitialized()
        let value = try argument(data, parts: true)
        return try await settled(parts: value.parts, as: Result.self) { id in
            "__keystoneTesting.invoke(\(id), \(Self.quoted(method)), \(value.script), { durable: \(Self.quoted(key)) }, \(Self.quoted(Self.marker)))"
        }
    }

    /// Keystone's runtime's `dsBridge.recovered()`: the durable calls earlier documents of this
    /// page's origin made (each `{key, method, value}` or `{key, method, error}`), once none of
    /// them runs any more. The runtime acknowledges them once it has them.
    public func recovered() async throws -> [JSONValue] {
        try requireInitialized()
        return try await settled(parts: [], as: [JSONValue].self) { id in
            "__keystoneTesting.settle(\(id), dsBridge.recovered(), \(Self.quoted(Self.marker)))"
        }
    }

    /// Keystone's runtime's `dsBridge.invoke(method, readableStream)` of a stream of `chunks`: each
    /// goes over the byte channel as a piece, the next once the hub has answered the one before. A
    /// method that takes a `ByteStream` reads the chunks as they arrive; one that takes `Data` gets
    /// them gathered. Where the page has no byte channel, the chunks are gathered and sent as
    /// base64.
    public func invoke<Result: Decodable & Sendable>(_ method: String, streaming chunks: [Data], as: Result.Type = Result.self) async throws -> Result {
        guard hasByteChannel else { return try await invoke(method, chunks.reduce(into: Data()) { $0.append($1) }, as: Result.self) }
        try requireInitialized()
        return try await settled(parts: chunks, as: Result.self) { id in
            "__keystoneTesting.invoke(\(id), \(Self.quoted(method)), __keystoneTesting.chunks(globalThis.__keystoneParts || []), undefined, \(Self.quoted(Self.marker)))"
        }
    }

    /// A multi-response call: every result until the call completes, as Keystone's runtime's
    /// `dsBridge.stream` yields them (a dsbridge.js page's callback, until native closes it).
    /// Leaving early cancels the call.
    public func stream<Element: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let started: (Int, String?, AsyncThrowingStream<(String, [Data]), any Error>)
        do {
            try requireInitialized()
            let value = try argument(data, parts: runtime == .keystone)
            let glue = runtime == .keystone ? "stream" : "call"
            started = open(parts: value.parts) { id in
                "__keystoneTesting.\(glue)(\(id), \(Self.quoted(method)), \(value.script), \(Self.quoted(Self.marker)))"
            }
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let (id, name, results) = started
        let task = Task {
            do {
                for try await (json, parts) in results {
                    continuation.yield(try decode(json, parts, as: Element.self))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { [weak self] termination in
            task.cancel()
            guard case .cancelled = termination, let self else { return }
            if self.runtime == .keystone {
                self.page.soon { _ = self.page.run("__keystoneTesting.leave(\(id))") }
            } else {
                self.cancelCallback(id, name)
            }
        }
        return stream
    }

    // MARK: Page handlers (native → page)

    /// `dsBridge.register(name, fn)`: a synchronous handler of the positional arguments. A handler
    /// that throws throws in the page: dsbridge.js then answers nothing, Keystone's runtime answers
    /// the error. A dotted name (`"ns.m"`) is method `m` of a namespace object `ns`, as a page
    /// registers one with `dsBridge.register("ns", {m})`.
    public func register(_ name: String, _ handler: @escaping @Sendable ([JSONValue]) throws -> JSONValue) {
        let serializer = serializer
        page.add(
            .sync { json, parts in
                struct Answer: Encodable { var value: JSONValue?; var error: BridgeError? }
                let answer: Answer
                do {
                    answer = Answer(value: try handler(try Self.values(json, parts, serializer)))
                } catch {
                    answer = Answer(error: BridgeError(error))
                }
                return (try? serializer.encode(answer)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            }
        ) { number in "__keystoneTesting.register(\(Self.quoted(name)), \(number), false, \(Self.quoted(Self.marker)))" }
    }

    /// `dsBridge.registerAsyn(name, fn)`: an asynchronous handler that answers through `Reply`.
    public func registerAsync(_ name: String, _ handler: @escaping @Sendable ([JSONValue], Reply) -> Void) {
        page.add(asyncHandler { arguments, reply in handler(arguments, reply) }) { number in
            "__keystoneTesting.register(\(Self.quoted(name)), \(number), true, \(Self.quoted(Self.marker)))"
        }
    }

    /// `WebViewJavascriptBridge.registerHandler(name, fn(data, responseCallback))` of Keystone's
    /// runtime: Swift calls it with one data value (`null` without one) and reads the value it
    /// responds with. On a dsbridge.js page, an asynchronous handler of its first argument.
    public func registerHandler(_ name: String, _ handler: @escaping @Sendable (JSONValue, Reply) -> Void) {
        // A dsbridge.js page has no WVJB API: the handler is an asynchronous one of its first argument.
        guard runtime == .keystone else { return registerAsync(name) { arguments, reply in handler(arguments.first ?? .null, reply) } }
        page.add(asyncHandler { arguments, reply in handler(arguments.first ?? .null, reply) }) { number in
            "__keystoneTesting.registerHandler(\(Self.quoted(name)), \(number), \(Self.quoted(Self.marker)))"
        }
    }

    /// `WebViewJavascriptBridge.callHandler(name, data, responseCallback)` of Keystone's runtime:
    /// Swift's method `name` (`"a.b.m"`: method `m` of namespace `a.b`); the first result. On a
    /// dsbridge.js page, ``callAsync(_:_:as:)`` (or ``call(_:_:as:)`` for a synchronous method).
    public func callHandler<Result: Decodable & Sendable>(
        _ name: String, _ data: some Encodable & Sendable = JSONValue.null, as: Result.Type = Result.self
    ) async throws -> Result {
        guard runtime == .keystone else { return try await callOnDSBridge(name, data, as: Result.self, nothing: "") }
        try requireInitialized()
        let value = try argument(data, parts: true)
        return try await settled(parts: value.parts, as: Result.self) { id in
            let respond = "function (data, error) { if (error) reject(error); else resolve(data); }"
            let call = "new Promise(function (resolve, reject) { WebViewJavascriptBridge.callHandler(\(Self.quoted(name)), \(value.script), \(respond)); })"
            return "__keystoneTesting.settle(\(id), \(call), \(Self.quoted(Self.marker)))"
        }
    }

    /// `dsBridge.on(name, fn)` of Keystone's runtime: `listener` receives every event `name`.
    public func on(_ name: String, _ listener: @escaping @Sendable (JSONValue) -> Void) {
        let serializer = serializer
        page.add(
            .listener { json, parts in
                if let value = try? JavaScriptPage.value(json, parts, serializer) { listener(value) }
            }
        ) { number in "__keystoneTesting.on(\(Self.quoted(name)), \(number), \(Self.quoted(Self.marker)))" }
    }

    /// `invoke` and `callHandler` on a dsbridge.js page, which has neither: an asynchronous call, or
    /// a synchronous one for a synchronous method; `""` read as `nothing`.
    private func callOnDSBridge<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable, as: Result.Type, nothing: String? = nil
    ) async throws -> Result {
        var value: JSONValue
        do {
            value = try await callAsync(method, data, as: JSONValue.self)
        } catch let error as BridgeError where error.code == .unsupportedCallKind {
            value = try call(method, data, as: JSONValue.self)
        }
        if value == .string("") { value = nothing.map(JSONValue.string) ?? .null }
        return try decode(serializedText(value), [], as: Result.self)
    }

    /// Swift's asynchronous handler of a page, answering through a `Reply`.
    private func asyncHandler(_ handler: @escaping @Sendable ([JSONValue], Reply) -> Void) -> PageHandler {
        let serializer = serializer
        let runtime = runtime
        return .async { json, parts, reply, durable in
            guard let arguments = try? Self.values(json, parts, serializer) else { return }
            handler(
                arguments,
                Reply(
                    send: { value, complete in
                        let text = (try? serializer.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
                        reply.send(text, parts: [], marker: Self.marker, complete: complete)
                    },
                    cancelled: { reply.isWithdrawn },
                    durable: runtime == .keystone ? durable : nil
                ))
        }
    }
}
