// MethodList.swift — the list an interface fills with the methods the page may call.
import Foundation

/// The methods an interface exposes, each under the name the page calls it by.
///
/// Filled in ``BridgeInterface/exposeMethods(to:)``. Inputs are `Decodable`, outputs `Encodable`,
/// both `Sendable`; the page's single `data` value decodes straight into the input. A method that
/// returns nothing answers the page with `""`, as DSBridge does. Any method may also take a
/// ``CallContext`` after its input, to learn who called and to reach the page that called. Listing
/// a name twice keeps the last.
public struct MethodList: Sendable {
    /// The methods listed so far, by name.
    public private(set) var methods: [String: BridgeMethod] = [:]
    /// Names that can never be called (empty, containing a dot, or padded with white space); a
    /// registry refuses a list that has any.
    public private(set) var invalidNames: [String] = []

    /// Creates an empty list; an interface fills it in `exposeMethods(to:)`.
    public init() {}

    /// The names listed so far.
    public var names: [String] { methods.keys.sorted() }

    /// Lists `method` under `name`: the way to add a method built by hand.
    public mutating func add(_ name: String, _ method: BridgeMethod) {
        guard Self.isValidName(name) else {
            invalidNames.append(name)
            return
        }
        methods[name] = method
    }

    /// A method name is reachable when it is non-empty, has no dot and no surrounding white space.
    public static func isValidName(_ name: String) -> Bool {
        Substring(name).isTrimmedWord && !name.contains(".")
    }

    // MARK: Synchronous methods — answered inside the page's `prompt`.

    /// A synchronous method taking the page's `data`.
    public mutating func sync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Output
    ) {
        addSync(name) { data, serializer, _ in try body(decodeInput(data, serializer)) }
    }

    /// A synchronous method taking the page's `data` and the call's context.
    public mutating func sync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext) throws -> Output
    ) {
        addSync(name) { data, serializer, context in try body(decodeInput(data, serializer), context) }
    }

    /// A synchronous method that ignores `data`.
    public mutating func sync<Output: Encodable & Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> Output) {
        addSync(name) { _, _, _ in try body() }
    }

    /// A synchronous method that ignores `data` and takes the call's context.
    public mutating func sync<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (CallContext) throws -> Output
    ) {
        addSync(name) { _, _, context in try body(context) }
    }

    /// A synchronous method taking `data` and returning nothing.
    public mutating func sync<Input: Decodable & Sendable>(_ name: String, _ body: @escaping @Sendable (Input) throws -> Void) {
        addSync(name) { data, serializer, _ in NoResult(try body(decodeInput(data, serializer))) }
    }

    /// A synchronous method with neither argument nor result.
    public mutating func sync(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        addSync(name) { _, _, _ in NoResult(try body()) }
    }

    // MARK: Asynchronous methods — answered once, later, through the page's callback.

    /// An asynchronous method taking the page's `data`.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        addAsync(name) { data, serializer, _ in
            let input: Input = try decodeInput(data, serializer)
            return { try await body(input) }
        }
    }

    /// An asynchronous method taking the page's `data` and the call's context.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext) async throws -> Output
    ) {
        addAsync(name) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer)
            return { try await body(input, context) }
        }
    }

    /// An asynchronous method that ignores `data`.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws -> Output
    ) {
        addAsync(name) { _, _, _ in { try await body() } }
    }

    /// An asynchronous method that ignores `data` and takes the call's context.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (CallContext) async throws -> Output
    ) {
        addAsync(name) { _, _, context in { try await body(context) } }
    }

    /// An asynchronous method taking `data` and returning nothing.
    public mutating func async<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Void
    ) {
        addAsync(name) { data, serializer, _ in
            let input: Input = try decodeInput(data, serializer)
            return { NoResult(try await body(input)) }
        }
    }

    /// An asynchronous method with neither argument nor result.
    public mutating func async(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
        addAsync(name) { _, _, _ in { NoResult(try await body()) } }
    }

    // MARK: Multi-response methods — any number of results, then complete or fail.

    /// A multi-response method taking the page's `data`: it writes results, then returns to complete
    /// (or finishes with a last value) or throws to fail. Cancellation of the call cancels its task.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name) { data, serializer, _ in
            let input: Input = try decodeInput(data, serializer)
            return { writer in try await body(input, writer) }
        }
    }

    /// A multi-response method taking the page's `data` and the call's context.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext, ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer)
            return { writer in try await body(input, context, writer) }
        }
    }

    /// A multi-response method that ignores `data`.
    public mutating func multiResponse<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name) { _, _, _ in { writer in try await body(writer) } }
    }

    // MARK: Erasure — the one place each kind's types are erased.

    private mutating func addSync<Output: Encodable & Sendable>(
        _ name: String, _ run: @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws -> Output
    ) {
        add(
            name,
            BridgeMethod(
                invoker: .sync { data, serializer, context in
                    try encodeResult(run(data, serializer, context), serializer)
                }))
    }

    private mutating func addAsync<Output: Encodable & Sendable>(
        _ name: String,
        _ start: @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws -> @Sendable () async throws -> Output
    ) {
        add(
            name,
            BridgeMethod(
                invoker: .async { data, serializer, context in
                    let run = try start(data, serializer, context)
                    return { try encodeResult(await run(), serializer) }
                }))
    }

    private mutating func addMultiResponse<Output: Encodable & Sendable>(
        _ name: String,
        _ start:
            @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws
            -> @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        add(
            name,
            BridgeMethod(
                invoker: .multiResponse { data, serializer, context in
                    let run = try start(data, serializer, context)
                    return { sink in
                        try await run(ResponseWriter { value, isFinal in try await sink.send(encodeResult(value, serializer), isFinal: isFinal) })
                    }
                }))
    }
}

/// What a method that returns nothing answers: `""`, as DSBridge does.
private struct NoResult: Encodable, Sendable {
    init(_: Void) {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("")
    }
}

/// The one place a method's input is decoded: straight from the bytes of `data`.
private func decodeInput<Input: Decodable>(_ data: Data?, _ serializer: any JSONSerializer) throws -> Input {
    do {
        return try serializer.decode(Input.self, fromData: data)
    } catch {
        throw InvalidArgument(reason: describeDecodingFailure(error, in: "data"))
    }
}

private func encodeResult<Output: Encodable>(_ value: Output, _ serializer: any JSONSerializer) throws -> Data {
    do {
        return try serializer.encode(value)
    } catch {
        throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: "the result"), cause: error)
    }
}
