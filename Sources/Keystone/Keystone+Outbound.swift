// Keystone+Outbound.swift — Swift calling the page's handlers, with typed results.
import Foundation

/// A Swift call of a page handler that has not settled.
struct PendingCall: Sendable {
    /// Whether the call stays pending for more results until one arrives marked complete.
    let isMultiResponse: Bool
    /// Takes the `data` of the page's `_dsb.returnValue` for this call.
    let receive: @Sendable (_ answer: Data?, _ complete: Bool) -> Void
    /// Settles the call with an error.
    let fail: @Sendable (BridgeError) -> Void
}

/// The part of `_dsb.returnValue` needed to find the call it answers.
struct ReturnHeader: Decodable, Sendable {
    var id: Int
    var complete: Bool?
}

/// A page handler's answer, decoded into the type the Swift caller asked for.
struct ReturnedValue<Value: Decodable>: Decodable {
    /// The value; `nil` when the page sent no `data` (a handler that returned `undefined`).
    var value: Value?
    /// An error the page reported instead of a value.
    var error: BridgeError?

    private enum CodingKeys: String, CodingKey {
        case data
        case error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try container.decodeIfPresent(BridgeError.self, forKey: .error)
        value = error == nil && container.contains(.data) ? try container.decode(Value.self, forKey: .data) : nil
    }
}

extension Keystone {
    /// Calls the page's handler `method` with positional `arguments` and waits for its result.
    ///
    /// Calls made before the page sends `_dsb.dsinit` wait and go out in order after it. The call
    /// settles exactly once: with the result, with a ``BridgeError``, or with code `cancelled` when
    /// the awaiting task is cancelled. A page written for dsbridge.js 3.1.4 never answers a call to a
    /// handler it lacks; cancel the task (for example with a timeout) to stop waiting.
    ///
    /// - Throws: ``BridgeError``: `unencodableValue` for an argument that does not encode,
    ///   `invalidResult` for a result that does not decode into `Result`, `pageGone` when the page
    ///   unloads first, `cancelled` on cancellation, or the error the page reported.
    public func call<Result: Decodable & Sendable, each Argument: Encodable>(
        _ method: String,
        _ arguments: repeat each Argument,
        returning: Result.Type = Result.self
    ) async throws -> Result {
        try await call(method, argumentText: try encodeArguments(repeat each arguments), returning: Result.self)
    }

    /// Calls the page's handler `method` with a list of positional arguments built at run time;
    /// otherwise the same as ``call(_:_:returning:)``.
    public func call<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [JSONValue],
        returning: Result.Type = Result.self
    ) async throws -> Result {
        try await call(method, argumentText: try encodeArgumentList(arguments), returning: Result.self)
    }

    private func call<Result: Decodable & Sendable>(
        _ method: String,
        argumentText: JSONText,
        returning: Result.Type
    ) async throws -> Result {
        let serializer = components.serializer
        let made = Locked<Int?>(nil)  // the call's id, once it is made
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: Self.cancelled)
                    return
                }
                guard let id = make(
                    PendingCall(
                        isMultiResponse: false,
                        receive: { answer, _ in
                            continuation.resume(with: Self.decodeReturnedValue(answer, as: Result.self, serializer: serializer, method: method))
                        },
                        fail: { continuation.resume(throwing: $0) }
                    ),
                    method: method,
                    arguments: argumentText
                ) else { return }
                made.withLock { $0 = id }
                // Cancelled while it was being made: the handler below found no id to cancel.
                if Task.isCancelled { cancelPendingCall(id) }
            }
        } onCancel: {
            if let id = made.withLock({ $0 }) { self.cancelPendingCall(id) }
        }
    }

    /// Calls the page's asynchronous handler `method` and yields each of its results until the
    /// handler marks one complete. Ending the iteration early stops listening for more.
    public func stream<Element: Decodable & Sendable, each Argument: Encodable>(
        _ method: String,
        _ arguments: repeat each Argument,
        of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        stream(method, argumentText: Swift.Result { try encodeArguments(repeat each arguments) }, of: Element.self)
    }

    /// Calls the page's asynchronous handler `method` with a list of positional arguments built at
    /// run time; otherwise the same as ``stream(_:_:of:)``.
    public func stream<Element: Decodable & Sendable>(
        _ method: String,
        arguments: [JSONValue],
        of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        stream(method, argumentText: Swift.Result { try encodeArgumentList(arguments) }, of: Element.self)
    }

    private func stream<Element: Decodable & Sendable>(
        _ method: String,
        argumentText encoded: Swift.Result<JSONText, any Error>,
        of: Element.Type
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let argumentText: JSONText
        do {
            argumentText = try encoded.get()
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let serializer = components.serializer
        let call = PendingCall(
            isMultiResponse: true,
            receive: { answer, complete in
                switch Self.decodeReturnedValue(answer, as: Element.self, serializer: serializer, method: method) {
                case .success(let element):
                    continuation.yield(element)
                    if complete { continuation.finish() }
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            },
            fail: { continuation.finish(throwing: $0) }
        )
        guard let id = make(call, method: method, arguments: argumentText) else { return stream }
        continuation.onTermination = { [weak self] _ in self?.cancelPendingCall(id) }
        return stream
    }

    /// Whether the page has a handler named `name` (`"m"` or `"ns.m"`), asked through the page's
    /// own `_hasJavascriptMethod`. dsbridge.js 3.1.4 answers nothing (no `data`) for a namespace it
    /// lacks; that is `false`, as DSBridge-iOS reads it.
    public func hasJavaScriptMethod(_ name: String) async throws -> Bool {
        try await call("_hasJavascriptMethod", name, returning: Bool?.self) ?? false
    }

    /// Takes `_dsb.returnValue` from the page: settles or feeds the call it answers. Answers for
    /// unknown or finished calls are dropped.
    func receiveReturnValue(_ header: ReturnHeader, data: Data?) {
        let complete = header.complete ?? true
        let call: PendingCall? = state.withLock { state in
            guard let call = state.pending[header.id] else { return nil }
            if !call.isMultiResponse || complete {
                state.pending[header.id] = nil
            }
            return call
        }
        guard let call else {
            components.logging.log(.warning, "dropped a result for call \(header.id), which is not waiting")
            return
        }
        call.receive(data, complete)
    }

    /// Makes a call of the page's handler `method`: gives it the next id, registers it and queues its
    /// message in one step, so calls reach the page in the order they were made. Returns the id, or
    /// `nil` after failing the call when as many calls wait as ``BridgeLimits/pendingCalls`` allows.
    private func make(_ call: PendingCall, method: String, arguments: JSONText) -> Int? {
        let limit = components.limits.pendingCalls
        let id: Int? = issue { state in
            guard state.pending.count < limit else { return (nil, nil) }
            state.lastCallbackId += 1
            let id = state.lastCallbackId
            state.pending[id] = call
            return (id, Outgoing(message: .call(method: method, callbackId: id, arguments: arguments), epoch: state.epoch))
        }
        if id == nil {
            call.fail(BridgeError(code: .limitExceeded, message: "\(limit) calls already wait for the page, the limit"))
        }
        return id
    }

    private static let cancelled = BridgeError(code: .cancelled, message: "the call was cancelled")

    private func cancelPendingCall(_ id: Int) {
        let call = state.withLock { $0.pending.removeValue(forKey: id) }
        call?.fail(Self.cancelled)
    }

    private func encodeArguments<each Argument: Encodable>(_ arguments: repeat each Argument) throws -> JSONText {
        var encoded: [Data] = []
        for argument in repeat each arguments {
            encoded.append(try encodeArgument(argument))
        }
        return try joinArguments(encoded)
    }

    private func encodeArgumentList(_ arguments: [JSONValue]) throws -> JSONText {
        try joinArguments(arguments.map(encodeArgument))
    }

    private func encodeArgument(_ argument: some Encodable) throws -> Data {
        do {
            return try components.serializer.encode(argument)
        } catch {
            throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: "an argument"), cause: error)
        }
    }

    /// `[a,b,c]` from encoded arguments, checked to be JSON before it can reach a script.
    private func joinArguments(_ encoded: [Data]) throws -> JSONText {
        var text = Data("[".utf8)
        for (index, argument) in encoded.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(argument)
        }
        text.append(UInt8(ascii: "]"))
        return try JSONText(validating: text)
    }

    /// Decodes the `data` of `_dsb.returnValue` (`{"id", "data", "complete", "error"}`) as `Value`.
    private static func decodeReturnedValue<Value: Decodable>(
        _ answer: Data?, as type: Value.Type, serializer: any JSONSerializer, method: String
    ) -> Swift.Result<Value, any Error> {
        func invalid(_ error: any Error) -> Swift.Result<Value, any Error> {
            .failure(BridgeError(code: .invalidResult, message: "the result of \"\(method)\" does not decode: \(describeDecodingFailure(error, in: "data"))"))
        }
        let returned: ReturnedValue<Value>
        do {
            returned = try serializer.decode(ReturnedValue<Value>.self, fromData: answer)
        } catch {
            return invalid(error)
        }
        if let error = returned.error { return .failure(error) }
        if let value = returned.value { return .success(value) }
        do {
            return .success(try serializer.decode(Value.self, fromData: nil))
        } catch {
            return invalid(error)
        }
    }
}
