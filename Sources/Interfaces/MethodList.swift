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
        add(name, .sync, Input.self) { input, serializer in .sync { try encodeResult(body(input), serializer) } }
    }

    /// A synchronous method that ignores `data`.
    public mutating func sync<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () throws -> Output
    ) {
        add(name, .sync, NoInput.self) { _, serializer in .sync { try encodeResult(body(), serializer) } }
    }

    /// A synchronous method taking `data` and returning nothing.
    public mutating func sync<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Void
    ) {
        add(name, .sync, Input.self) { input, _ in .sync { try body(input); return noResult } }
    }

    /// A synchronous method with neither argument nor result.
    public mutating func sync(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        add(name, .sync, NoInput.self) { _, _ in .sync { try body(); return noResult } }
    }

    // MARK: Asynchronous methods — answered once, later, through the page's callback.

    /// An asynchronous method taking the page's `data`.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        add(name, .async, Input.self) { input, serializer in
            .async { try encodeResult(await body(input), serializer) }
        }
    }

    /// An asynchronous method that ignores `data`.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws -> Output
    ) {
        add(name, .async, NoInput.self) { _, serializer in .async { try encodeResult(await body(), serializer) } }
    }

    /// An asynchronous method taking `data` and returning nothing.
    public mutating func async<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Void
    ) {
        add(name, .async, Input.self) { input, _ in .async { try await body(input); return noResult } }
    }

    /// An asynchronous method with neither argument nor result.
    public mutating func async(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
        add(name, .async, NoInput.self) { _, _ in .async { try await body(); return noResult } }
    }

    // MARK: Multi-response methods — any number of results, then complete or fail.

    /// A multi-response method taking the page's `data`: it writes results, then returns to complete
    /// or throws to fail. Cancellation of the call cancels its task.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, ResponseWriter<Output>) async throws -> Void
    ) {
        add(name, .multiResponse, Input.self) { input, serializer in
            .multiResponse { emit in
                try await body(input, ResponseWriter { try await emit(try encodeResult($0, serializer)) })
            }
        }
    }

    /// A multi-response method that ignores `data`.
    public mutating func multiResponse<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        add(name, .multiResponse, NoInput.self) { _, serializer in
            .multiResponse { emit in
                try await body(ResponseWriter { try await emit(try encodeResult($0, serializer)) })
            }
        }
    }

    /// The one place a typed method is erased: decoding is bound to `Input` here.
    private mutating func add<Input: Decodable & Sendable>(
        _ name: String,
        _ kind: MethodKind,
        _ input: Input.Type,
        _ makeInvocation: @escaping @Sendable (Input, any JSONSerializer) -> Invocation
    ) {
        guard Self.isValidName(name) else {
            invalidNames.append(name)
            return
        }
        methods[name] = BridgeMethod(kind: kind) { arguments, serializer in
            let (stub, input) = CallEnvelope<Input>.decode(arguments, with: serializer)
            return DecodedCall(callbackStub: stub, invocation: input.map { makeInvocation($0, serializer) })
        }
    }

    /// A method name is reachable when it is non-empty, has no dot and no surrounding white space.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(".")
            && name.trimmingCharacters(in: .whitespacesAndNewlines) == name
    }
}

/// What a method that returns nothing answers: `""`, as DSBridge does.
private let noResult = Data(#""""#.utf8)

private func encodeResult<Output: Encodable>(_ value: Output, _ serializer: any JSONSerializer) throws -> Data {
    do {
        return try serializer.encode(value)
    } catch {
        throw BridgeError(code: .unencodableValue, message: "the result could not be encoded: \(error)")
    }
}
