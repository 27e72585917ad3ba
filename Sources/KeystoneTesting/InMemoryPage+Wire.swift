// InMemoryPage+Wire.swift — the exact texts the page sends and reads: call wrappers, callbacks,
// answers, and the byte channel's pieces.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InMemoryPage {
    // MARK: Wire helpers

    /// Registers `window.dscbN`, sends the asynchronous call (as a script message in Keystone's
    /// runtime, a `prompt` otherwise), and returns the callback's name and what it receives.
    /// With `inline`, it asks for a synchronous method's result in the answer (`_dsinline`), as
    /// Keystone's runtime does from `invoke`. Keystone's runtime sends each `Data` in `data` as a
    /// part over the byte channel where the page has one (its pieces posted once the ticket is the
    /// answer), and as base64 in its place where it has none.
    func start(_ method: String, _ data: some Encodable & Sendable, inline: Bool = false) async throws -> (String, Results) {
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
    func startNow(_ method: String, _ data: some Encodable & Sendable, inline: Bool = false, streamed: Bool = false) throws -> (String, Results) {
        let (callback, results) = try openCallback()
        // `invoke` and `stream` of Keystone's runtime take results' `Data` as parts.
        let speaksParts = runtime == .keystone && (inline || streamed)
        let arguments = try encodeCall(data, callback: callback, inline: inline, parts: speaksParts ? .array([]) : nil)
        let answer = runtime == .keystone ? (hub.refusal(of: frame) ?? hub.handleMessage(method, arguments: arguments, frame: frame)) : prompt(method, argumentText: arguments)
        return settle(callback, results, by: answer, inline: inline)
    }

    /// The page's serializer as it moves `Data` as parts, if it does.
    var partsSerializer: (any BytePartsSerializer)? {
        (serializer as? any BytePartsSerializer).flatMap { $0.movesParts ? $0 : nil }
    }

    /// Posts one piece (or the end) of a call's parts under the ticket at `address`, as the page's
    /// `fetch` posts it, answered whenever the hub answers it.
    func send(_ kind: ByteRequest.Kind, _ body: Data, to address: String) async -> ByteResponse {
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
    func openCallback() throws -> (String, Results) {
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
    func settle(_ callback: String, _ stream: Results, by answer: String?, inline: Bool) -> (String, Results) {
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
    func encodeCall(_ data: some Encodable & Sendable, callback: String?, inline: Bool = false, parts: JSONValue? = nil, durable: String? = nil) throws -> String {
        let arguments = CallArguments(data: data, _dscbstub: callback, _dsinline: inline ? true : nil, _dsparts: parts, _dsdurable: durable)
        return String(decoding: try serializer.encode(arguments), as: UTF8.self)
    }

    /// The ticket's address in an answer that asks for the call's parts (`"ticket"`).
    func ticket(_ answer: String?) -> String? {
        struct Ticket: Decodable { var ticket: String? }
        return answer.flatMap { try? serializer.decode(Ticket.self, from: Data($0.utf8)).ticket }
    }

    /// The `data` of an answer marked `"inline": true`, as JSON text; `.some(nil)` for one marked
    /// `"void": true` (a method that returns nothing).
    func inlineValue(_ answer: String?) -> JSONText?? {
        guard let answer, let header = try? serializer.decode(AnswerHeader.self, from: Data(answer.utf8)), header.inline == true,
            case .success(let value) = decodeAnswer(answer, as: JSONValue.self)
        else { return nil }
        if header.void == true { return .some(nil) }
        return (try? JSONText(validating: serializer.encode(value))).map { .some($0) }
    }

    /// Reads `{"code", "data", "error"}` as a page would, throwing the native error; an answer
    /// marked `"void": true` reads as `undefined` (`null`) when `voidIsUndefined` (Keystone's
    /// `invoke`), as its `data` (`""`) otherwise (dsbridge.js).
    func decodeAnswer<Result: Decodable>(
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
struct CallArguments<Value: Encodable>: Encodable {
    var data: Value
    var _dscbstub: String?
    var _dsinline: Bool?
    var _dsparts: JSONValue?
    var _dsdurable: String?
}

/// The part of a native answer a page checks first.
struct AnswerHeader: Decodable {
    var code: Int
    var error: BridgeError?
    var inline: Bool?
    var void: Bool?
}

/// The `data` of a native answer.
struct AnswerBody<Value: Decodable>: Decodable {
    var data: Value
}
