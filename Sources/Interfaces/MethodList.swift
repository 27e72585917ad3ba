// MethodList.swift — the list an interface fills with the methods the page may call.
import Foundation

/// The methods an interface exposes, each under the name the page calls it by.
///
/// Filled in ``BridgeInterface/exposeMethods(to:)``. Inputs are `Decodable`, outputs `Encodable`,
/// both `Sendable`; the page's single `data` value decodes straight into the input. A method that
/// returns nothing answers the page with `""`, as DSBridge does. Listing a name twice keeps the last.
public struct MethodList: Sendable {
    package private(set) var methods: [String: BridgeMethod] = [:]
    /// Names that can never be called (empty, containing a dot, or padded with white space).
    package private(set) var invalidNames: [String] = []

    public init() {}

    /// The names listed so far.
    public var names: [String] { methods.keys.sorted() }

    // MARK: Synchronous methods — answered inside the page's `prompt`.

    /// A synchronous method taking the page's `data`.
    public mutating func sync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Output
    ) {
        add(name, .sync, .sync { data, serializer in try encodeResult(body(decodeInput(data, serializer)), serializer) })
    }

    /// A synchronous method that ignores `data`.
    public mutating func sync<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () throws -> Output
    ) {
        add(name, .sync, .sync { _, serializer in try encodeResult(body(), serializer) })
    }

    /// A synchronous method taking `data` and returning nothing.
    public mutating func sync<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Void
    ) {
        add(name, .sync, .sync { data, serializer in
            try body(decodeInput(data, serializer))
            return noResult
        })
    }

    /// A synchronous method with neither argument nor result.
    public mutating func sync(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        add(name, .sync, .sync { _, _ in
            try body()
            return noResult
        })
    }

    // MARK: Asynchronous methods — answered once, later, through the page's callback.

    /// An asynchronous method taking the page's `data`.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        add(name, .async, .async { data, serializer in
            let input: Input = try decodeInput(data, serializer)
            return { try encodeResult(await body(input), serializer) }
        })
    }

    /// An asynchronous method that ignores `data`.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws -> Output
    ) {
        add(name, .async, .async { _, serializer in { try encodeResult(await body(), serializer) } })
    }

    /// An asynchronous method taking `data` and returning nothing.
    public mutating func async<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Void
    ) {
        add(name, .async, .async { data, serializer in
            let input: Input = try decodeInput(data, serializer)
            return {
                try await body(input)
                return noResult
            }
        })
    }

    /// An asynchronous method with neither argument nor result.
    public mutating func async(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
        add(name, .async, .async { _, _ in
            {
                try await body()
                return noResult
            }
        })
    }

    // MARK: Multi-response methods — any number of results, then complete or fail.

    /// A multi-response method taking the page's `data`: it writes results, then returns to complete
    /// or throws to fail. Cancellation of the call cancels its task.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, ResponseWriter<Output>) async throws -> Void
    ) {
        add(name, .multiResponse, .multiResponse { data, serializer in
            let input: Input = try decodeInput(data, serializer)
            return { emit in try await body(input, ResponseWriter { try await emit(try encodeResult($0, serializer)) }) }
        })
    }

    /// A multi-response method that ignores `data`.
    public mutating func multiResponse<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        add(name, .multiResponse, .multiResponse { _, serializer in
            { emit in try await body(ResponseWriter { try await emit(try encodeResult($0, serializer)) }) }
        })
    }

    private mutating func add(_ name: String, _ kind: MethodKind, _ invoker: Invoker) {
        guard Self.isValidName(name) else {
            invalidNames.append(name)
            return
        }
        methods[name] = BridgeMethod(kind: kind, invoker: invoker)
    }

    /// A method name is reachable when it is non-empty, has no dot and no surrounding white space.
    package static func isValidName(_ name: String) -> Bool {
        Substring(name).isTrimmedWord && !name.contains(".")
    }
}

/// What a method that returns nothing answers: `""`, as DSBridge does.
private let noResult = Data(#""""#.utf8)

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
