// Keystone+Outbound.swift — Swift calling the page's handlers, with typed results.
import Foundation

/// A Swift call of a page handler that has not settled.
struct PendingCall: Sendable {
    /// Whether the call stays pending for more results until one arrives marked complete.
    let isMultiResponse: Bool
    /// Takes the page's `_dsb.returnValue` arguments (the whole JSON wrapper) for this call.
    let receive: @Sendable (_ arguments: Data, _ complete: Bool) -> Void
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
        let argumentText = try encodeArguments(repeat each arguments)
        let serializer = components.serializer
        let (id, epoch) = nextCallback()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let call = PendingCall(
                    isMultiResponse: false,
                    receive: { arguments, _ in
                        continuation.resume(with: Self.decodeReturnedValue(arguments, as: Result.self, serializer: serializer, method: method))
                    },
                    fail: { continuation.resume(throwing: $0) }
                )
                begin(call, id: id, epoch: epoch, message: .call(method: method, callbackId: id, arguments: argumentText))
            }
        } onCancel: {
            self.cancelPendingCall(id)
        }
    }

    /// Calls the page's asynchronous handler `method` and yields each of its results until the
    /// handler marks one complete. Ending the iteration early stops listening for more.
    public func stream<Element: Decodable & Sendable, each Argument: Encodable>(
        _ method: String,
        _ arguments: repeat each Argument,
        of: Element.Type = Element.self
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let argumentText: JSONText
        do {
            argumentText = try encodeArguments(repeat each arguments)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let serializer = components.serializer
        let (id, epoch) = nextCallback()
        let call = PendingCall(
            isMultiResponse: true,
            receive: { arguments, complete in
                switch Self.decodeReturnedValue(arguments, as: Element.self, serializer: serializer, method: method) {
                case .success(let element):
                    continuation.yield(element)
                    if complete { continuation.finish() }
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            },
            fail: { continuation.finish(throwing: $0) }
        )
        continuation.onTermination = { [weak self] _ in self?.cancelPendingCall(id) }
        begin(call, id: id, epoch: epoch, message: .call(method: method, callbackId: id, arguments: argumentText))
        return stream
    }

    /// Whether the page has a handler named `name` (`"m"` or `"ns.m"`), asked through the page's
    /// own `_hasJavascriptMethod`.
    public func hasJavaScriptMethod(_ name: String) async throws -> Bool {
        try await call("_hasJavascriptMethod", name, returning: Bool.self)
    }

    /// Takes `_dsb.returnValue` from the page: settles or feeds the call it answers. Answers for
    /// unknown or finished calls are dropped.
    func receiveReturnValue(_ header: ReturnHeader, arguments: Data) {
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
        call.receive(arguments, complete)
    }

    private func nextCallback() -> (Int, PageEpoch) {
        state.withLock { state in
            state.lastCallbackId += 1
            return (state.lastCallbackId, state.epoch)
        }
    }

    /// Registers `call` and sends its message, unless the page is already gone or the task is
    /// already cancelled; either way the call settles exactly once.
    private func begin(_ call: PendingCall, id: Int, epoch: PageEpoch, message: PageMessage) {
        let registered = state.withLock { state in
            guard state.epoch == epoch else { return false }
            state.pending[id] = call
            return true
        }
        guard registered else {
            call.fail(BridgeError(code: .pageGone, message: "the page was unloaded before the call was sent"))
            return
        }
        if Task.isCancelled {
            cancelPendingCall(id)
            return
        }
        send(message, epoch: epoch)
    }

    private func cancelPendingCall(_ id: Int) {
        let call = state.withLock { $0.pending.removeValue(forKey: id) }
        call?.fail(BridgeError(code: .cancelled, message: "the call was cancelled"))
    }

    private func encodeArguments<each Argument: Encodable>(_ arguments: repeat each Argument) throws -> JSONText {
        var text = Data("[".utf8)
        var isFirst = true
        for argument in repeat each arguments {
            if !isFirst { text.append(UInt8(ascii: ",")) }
            isFirst = false
            do {
                text.append(try components.serializer.encode(argument))
            } catch {
                throw BridgeError(code: .unencodableValue, message: "an argument could not be encoded: \(error)")
            }
        }
        text.append(UInt8(ascii: "]"))
        return try JSONText(validating: text)
    }

    private static func decodeReturnedValue<Value: Decodable>(
        _ arguments: Data, as type: Value.Type, serializer: any JSONSerializer, method: String
    ) -> Swift.Result<Value, any Error> {
        func invalid(_ error: any Error) -> Swift.Result<Value, any Error> {
            .failure(BridgeError(code: .invalidResult, message: "the result of \"\(method)\" does not decode: \(describeDecodingFailure(error))"))
        }
        let returned: ReturnedValue<Value>
        do {
            let envelope = try serializer.decode(CallEnvelope<ReturnedValue<Value>>.self, from: arguments)
            guard let decoded = envelope.input else {
                return .failure(BridgeError(code: .malformedMessage, message: "the answer to \"\(method)\" has no data"))
            }
            returned = try decoded.get()
        } catch {
            return invalid(error)
        }
        if let error = returned.error { return .failure(error) }
        if let value = returned.value { return .success(value) }
        do {
            return .success(try serializer.decode(Value.self, from: Data("null".utf8)))
        } catch {
            return invalid(error)
        }
    }
}
