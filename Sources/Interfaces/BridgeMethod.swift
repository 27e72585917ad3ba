// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// Built by ``MethodList``; a custom ``BridgeInterface`` never builds one by hand. Dispatchers store
/// and return these; Keystone runs one against the raw `data` of a page's call.
public struct BridgeMethod: Sendable {
    /// How the method answers.
    public let kind: MethodKind
    /// Decodes `data` straight into the method's typed input and runs it.
    package let invoker: Invoker

    package init(kind: MethodKind, invoker: Invoker) {
        self.kind = kind
        self.invoker = invoker
    }
}

/// A method's body, taking the raw bytes of the page's `data` (`nil` when absent, read as `null`).
///
/// Each case decodes its input first and throws ``InvalidArgument`` when it does not decode, before
/// any of the method's own code runs; the asynchronous kinds then return the work to start.
package enum Invoker: Sendable {
    case sync(@Sendable (_ data: Data?, _ serializer: any JSONSerializer) throws -> Data)
    case async(@Sendable (_ data: Data?, _ serializer: any JSONSerializer) throws -> @Sendable () async throws -> Data)
    case multiResponse(
        @Sendable (_ data: Data?, _ serializer: any JSONSerializer) throws
            -> @Sendable (_ emit: @escaping @Sendable (Data) async throws -> Void) async throws -> Void
    )
}

/// The page's `data` did not decode into the method's input.
package struct InvalidArgument: Error {
    /// Where decoding failed and what was expected, without the payload itself.
    package var reason: String
}
