// InMemoryPage+Values.swift — how an in-memory page's typed calls cross into its page and back:
// values as JSON with their bytes beside them, calls Swift waits on, and the answers the page read.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InMemoryPage {
    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String { JSONText(quoting: text).string }

    /// The page's expression for `data`: with `parts`, on a page whose `Data` moves as bytes, each
    /// `Data` in it is a Uint8Array, as a page's code holds bytes; otherwise it is base64.
    func argument(_ data: some Encodable & Sendable, parts: Bool) throws -> (script: String, parts: [Data]) {
        if parts, runtime == .keystone, let serializer = serializer as? any BytePartsSerializer, serializer.movesParts, hasByteChannel {
            let (json, found) = try serializer.encodeMovingParts(data)
            if let found {
                let text = Self.quoted(String(decoding: json, as: UTF8.self))
                return ("__keystoneTesting.decode(\(text), \(Self.quoted(found.marker)), globalThis.__keystoneParts || [])", found.data)
            }
        }
        return ("JSON.parse(\(Self.quoted(String(decoding: try serializer.encode(data), as: UTF8.self))))", [])
    }

    /// Runs `expression` in the page now, as a page's synchronous call, and returns the answer the
    /// page's runtime read for it.
    func callNow(_ expression: String) throws(BridgeError) -> String? {
        let (result, answer) = page.onQueue {
            page.document.lastAnswer = nil
            let result = page.run(expression)
            return (result, page.document.lastAnswer)
        }
        if case .failure(let error) = result { throw error }
        return answer
    }

    /// Starts a call of the page's whose results Swift reads: its number, the callback the page's
    /// runtime opened for it, and its results.
    func open(parts: [Data], _ script: @escaping (Int) -> String) -> (Int, String?, AsyncThrowingStream<(String, [Data]), any Error>) {
        let (stream, continuation) = AsyncThrowingStream<(String, [Data]), any Error>.makeStream()
        let (id, name) = page.onQueue { () -> (Int, String?) in
            page.lastCall += 1
            let id = page.lastCall
            page.document.calls[id] = .results({ continuation.yield(($0, $1)) }, ended: { error in continuation.finish(throwing: error) })
            page.document.lastAnswer = nil
            switch page.run(script(id), parts: parts) {
            case .success(.string(let name)): return (id, name)
            case .success: return (id, nil)
            case .failure(let error):
                page.document.calls.removeValue(forKey: id)?.end(.failure(error))
                return (id, nil)
            }
        }
        return (id, name, stream)
    }

    /// Runs the call `script` makes and returns what it settles to, decoded; cancelling the
    /// awaiting task aborts it in the page.
    func settled<Result: Decodable & Sendable>(parts: [Data], as: Result.Type, _ script: @escaping @Sendable (Int) -> String) async throws -> Result {
        let page = page
        let id = page.onQueue { () -> Int in
            page.lastCall += 1
            return page.lastCall
        }
        let outcome: Swift.Result<(String, [Data]), BridgeError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                page.soon {
                    page.document.calls[id] = .settle { continuation.resume(returning: $0) }
                    if case .failure(let error) = page.run(script(id), parts: parts) {
                        page.document.calls.removeValue(forKey: id)?.end(.failure(error))
                    }
                }
            }
        } onCancel: {
            page.soon { _ = page.run("__keystoneTesting.abort(\(id))") }
        }
        let (json, found) = try outcome.get()
        return try decode(json, found, as: Result.self)
    }

    /// The page stops waiting for call `id` of callback `name`: it tells native (`_dsb.cancel`), as
    /// Keystone's runtime does for its own calls, and the call's results end.
    func cancelCallback(_ id: Int, _ name: String?) {
        page.soon { [page] in
            if let name { _ = page.run("dsBridge.call('_dsb.cancel', { callback: \(Self.quoted(name)) })") }
            page.document.calls.removeValue(forKey: id)?.end(.failure(BridgeError(code: .cancelled, message: "the page stopped waiting for the call")))
        }
    }

    // MARK: Values

    static func values(_ json: String, _ parts: [Data], _ serializer: any JSONSerializer) throws -> [JSONValue] {
        guard case .array(let items) = try JavaScriptPage.value(json, parts, serializer) else { return [] }
        return items
    }

    func serializedText(_ value: JSONValue) -> String {
        (try? serializer.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A result's JSON, its parts inlined, decoded as `Result`: `invalidResult` when it does not
    /// decode.
    func decode<Result: Decodable>(_ json: String, _ parts: [Data], as: Result.Type) throws -> Result {
        do {
            let bytes = parts.isEmpty ? Data(json.utf8) : try serializer.encode(try JavaScriptPage.value(json, parts, serializer))
            return try serializer.decode(Result.self, from: bytes)
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError(code: .invalidResult, message: "the answer does not decode as \(Result.self)", cause: error)
        }
    }

    /// Reads `{"code", "data", "error"}` as a page would, throwing the native error; an answer
    /// marked `"void": true` reads as its `data` (`""`), as dsbridge.js reads it.
    func decodeAnswer<Result: Decodable>(_ answer: String?, as: Result.Type) -> Swift.Result<Result, any Error> {
        let bytes = Data((answer ?? "{}").utf8)
        return Swift.Result {
            let header = try serializer.decode(AnswerHeader.self, from: bytes)
            if let error = header.error { throw error }
            guard header.code == 0 else {
                throw BridgeError(code: .notFound, message: "the call was not handled (code \(header.code))")
            }
            do {
                return try serializer.decode(AnswerBody<Result>.self, from: bytes).data
            } catch {
                throw BridgeError(code: .invalidResult, message: "the answer does not decode as \(Result.self)", cause: error)
            }
        }
    }
}

/// The part of a native answer a page checks first.
struct AnswerHeader: Decodable {
    var code: Int
    var error: BridgeError?
}

/// The `data` of a native answer.
struct AnswerBody<Value: Decodable>: Decodable {
    var data: Value
}
