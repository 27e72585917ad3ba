// CallParts.swift — the bytes of one call that move beside its JSON: the parts the page sent with
// it, and the parts of its results on their way to the page.
import Foundation

/// The bytes of one call of a page whose runtime moves `Data` as parts (Keystone's runtime),
/// carried by the call's ``CallContext``.
///
/// - The page's parts: every `Data` in the page's argument arrived as raw bytes, and the JSON names
///   each by its index. ``MethodList`` decodes the argument with them; a ``ByteStream`` input reads
///   the live ``stream`` instead.
/// - The results' parts: ``MethodList`` encodes a result with each `Data` in it a part, keeps the
///   parts here under the marker the JSON holds (``keep(_:)``), and the hub takes them back from the
///   JSON it receives (``claim(in:)``). The JSON says where its parts are, so a middleware that
///   passes a result on passes its parts too, and two results written at once never mix theirs.
/// - A producer of results with parts waits while the page has ``window`` of them still to fetch.
package final class CallParts: Sendable {
    /// The parts the page sent with the call, by index.
    package let received: [Data]
    /// The stream of bytes the page is sending as the call's argument, for a method whose input is
    /// a ``ByteStream``.
    package let stream: ByteStream?
    /// The serializer that writes the call's results, each `Data` a part.
    let serializer: any BytePartsSerializer
    /// The origin of the frame that made the call, as the engine reported it: the tickets for the
    /// results' parts are issued to it.
    package let origin: String?
    /// Whether the call's results move their `Data` as parts; a durable call's do not: its outcome
    /// is kept, and may be handed to a later document, as JSON with its bytes as base64.
    let movesResults: Bool
    private let state = Locked(State())

    private struct State {
        var kept: [ByteParts] = []
        var outstanding = 0
        var waiter: CheckedContinuation<Void, Never>?
        var isCancelled = false
    }

    package init(received: [Data] = [], stream: ByteStream? = nil, serializer: any BytePartsSerializer, origin: String?, movesResults: Bool = true) {
        self.received = received
        self.stream = stream
        self.serializer = serializer
        self.origin = origin
        self.movesResults = movesResults
    }

    /// The same call's parts with the page's `received` ones, or its live `stream`.
    package func with(received: [Data] = [], stream: ByteStream? = nil) -> CallParts {
        CallParts(received: received, stream: stream, serializer: serializer, origin: origin, movesResults: movesResults)
    }

    /// The same call's parts, its results writing their bytes as base64 in their JSON.
    package var keepingResultsInJSON: CallParts {
        CallParts(received: received, stream: stream, serializer: serializer, origin: origin, movesResults: false)
    }

    /// Encodes a result of the call: its JSON, each `Data` a part kept here.
    func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let (json, parts) = try serializer.encodeMovingParts(value)
        if let parts { state.withLock { $0.kept.append(parts) } }
        return json
    }

    /// Decodes the page's argument, each number where a `Data` is read naming one of its parts.
    func decode<Value: Decodable>(_ type: Value.Type, from json: Data?) throws -> Value {
        try serializer.decode(type, from: json ?? Data("null".utf8), parts: received)
    }

    /// The parts `json` holds the markers of, taken; `nil` when it holds none (the commonest
    /// result, found so with one look under the lock).
    package func claim(in json: Data) -> ByteParts? {
        state.withLock { state in
            guard !state.kept.isEmpty else { return nil }
            for (index, parts) in state.kept.enumerated() where !parts.locate(in: json).isEmpty {
                return state.kept.remove(at: index)
            }
            return nil
        }
    }

    /// How many results with parts may wait for the page to fetch them before a producer waits.
    package static let window = 4

    /// A result's parts went to the page, to be fetched.
    package func sent() {
        state.withLock { $0.outstanding += 1 }
    }

    /// The page fetched a result's parts (or their ticket went): a producer waiting for room goes on.
    package func fetched() {
        let waiter = state.withLock { flow in
            flow.outstanding -= 1
            defer { flow.waiter = nil }
            return flow.waiter
        }
        waiter?.resume()
    }

    /// Whether a producer waits for room now.
    package var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Returns once fewer than ``window`` results wait for the page to fetch their parts, or the
    /// task is cancelled: a producer of bytes never runs ahead of the page by more. `onWait` is told
    /// when the producer begins to wait (a test's way to know it, without polling).
    package func waitForRoom(onWait: (@Sendable () -> Void)? = nil) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isReady = state.withLock { flow in
                    guard flow.outstanding >= Self.window, !flow.isCancelled else { return true }
                    flow.waiter = continuation
                    return false
                }
                if isReady { continuation.resume() } else { onWait?() }
            }
        } onCancel: {
            let waiter = state.withLock { flow in
                flow.isCancelled = true
                defer { flow.waiter = nil }
                return flow.waiter
            }
            waiter?.resume()
        }
    }
}
