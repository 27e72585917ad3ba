// MethodCoding.swift — how a method's input is decoded and its result encoded, and how a method
// that asks for the main actor gets it: the helpers MethodList's erasure calls.
import Foundation

/// How a method's result becomes the JSON its invoker returns: encoded by the serializer, or no
/// bytes (``Invoker/noResult``) for a method that returns nothing. For a page that moves `Data` as
/// parts, each `Data` in the result is one (``CallParts``).
struct ResultEncoding<Output>: Sendable {
    let encode: @Sendable (Output, any JSONSerializer, CallParts?) throws -> Data
    /// The result's schema, learnt when it is asked for.
    var schema: @Sendable (SchemaRecorder) -> TypeSchema = { _ in .nothing }
}

extension ResultEncoding where Output: Encodable & Sendable {
    static var json: Self {
        Self(
            encode: { value, serializer, parts in
                guard let parts, parts.movesResults else { return try encodeResult(value, serializer) }
                do {
                    return try parts.encode(value)
                } catch {
                    throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: "the result"), cause: error)
                }
            },
            schema: { recorder in recorder.schema(ofResult: Output.self) })
    }
}

extension ResultEncoding where Output == Void {
    static var nothing: Self { Self { _, _, _ in Invoker.noResult } }
}

/// What a method takes: whether it is a ``ByteStream``, and its schema, learnt when it is asked for.
struct InputDescription {
    var isStream: Bool
    var schema: @Sendable (SchemaRecorder) -> TypeSchema

    static func of<Input: Decodable & Sendable>(_ input: Input.Type) -> Self {
        Self(isStream: input == ByteStream.self) { recorder in recorder.schema(of: Input.self) }
    }

    /// A method that ignores `data`.
    static var nothing: Self { Self(isStream: false) { _ in .nothing } }
}

/// Runs `body` on the main actor and waits for it: at once on the main thread, where hosts answer
/// synchronous calls, or in work of the main queue (which a process that parks its main thread in
/// `dispatchMain()` runs on another thread), and through the main queue from anywhere else.
func onMainActor<Output: Sendable>(_ body: @MainActor () throws -> Output) throws -> Output {
    if Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey.key) != nil { return try MainActor.assumeIsolated(body) }
    return try DispatchQueue.main.sync { try MainActor.assumeIsolated(body) }
}

/// A key the main queue, and only it, has a value for: set once, before it is first read.
let mainQueueKey = MainQueueKey()

/// Holds the main queue's key; `@unchecked` because Dispatch keys are immutable and thread-safe
/// though not every SDK marks them `Sendable`.
struct MainQueueKey: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()

    init() {
        DispatchQueue.main.setSpecific(key: key, value: true)
    }
}
/// The one place a method's input is decoded: straight from the bytes of `data`, each `Data` in
/// it one of the parts the page sent beside it, if any; a ``ByteStream`` input the page is sending
/// live is that stream.
func decodeInput<Input: Decodable>(_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws -> Input {
    // Cast without an optional of `Input`: an unspecialized generic function sets its locals up on
    // entry, and an `Input?` would cost every call a metadata lookup. The commonest call moves no
    // bytes: one check of the context.
    do {
        if let parts = context.parts {
            if Input.self == ByteStream.self, let stream = parts.stream { return stream as! Input }
            if !parts.received.isEmpty { return try parts.decode(Input.self, from: data) }
        }
        return try serializer.decode(Input.self, fromData: data)
    } catch {
        throw InvalidArgument(reason: describeDecodingFailure(error, in: "data"))
    }
}

func encodeResult<Output: Encodable>(_ value: Output, _ serializer: any JSONSerializer) throws -> Data {
    do {
        return try serializer.encode(value)
    } catch {
        throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: "the result"), cause: error)
    }
}
