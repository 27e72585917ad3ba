// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// Built by ``MethodList``; a custom ``BridgeInterface`` never builds one by hand. Dispatchers store
/// and return these; Keystone decodes a page's arguments against one with the method's own types.
public struct BridgeMethod: Sendable {
    /// How the method answers.
    public let kind: MethodKind
    /// Decodes the page's whole argument text once, straight into the method's typed input.
    package let decode: @Sendable (_ arguments: Data, _ serializer: any JSONSerializer) -> DecodedCall

    package init(
        kind: MethodKind,
        decode: @escaping @Sendable (_ arguments: Data, _ serializer: any JSONSerializer) -> DecodedCall
    ) {
        self.kind = kind
        self.decode = decode
    }
}

/// A page's call decoded against one method.
package struct DecodedCall: Sendable {
    /// The page's callback name (`_dscbstub`), present exactly when the page called asynchronously.
    package var callbackStub: String?
    /// The call, ready to run with its typed input, or why the message or argument did not decode.
    package var invocation: Result<Invocation, DecodeFailure>
}

/// Why a page's call could not be decoded.
package enum DecodeFailure: Error, Sendable {
    /// The wrapper itself is unusable (not JSON, not an object, a callback name that is not a string).
    case malformedMessage(String)
    /// The wrapper is fine but `data` does not decode into the method's input.
    case invalidArgument(String)
}

/// A decoded call, ready to run. Each case returns or emits encoded JSON results.
package enum Invocation: Sendable {
    case sync(@Sendable () throws -> Data)
    case async(@Sendable () async throws -> Data)
    case multiResponse(@Sendable (_ emit: @escaping @Sendable (Data) async throws -> Void) async throws -> Void)
}
