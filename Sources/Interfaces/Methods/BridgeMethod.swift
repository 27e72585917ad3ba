// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// ``MethodList`` builds these from typed closures; a registry stores them and a dispatcher runs
/// them. Both may be written outside the package: every part of a method is public.
public struct BridgeMethod: Sendable {
    /// Decodes the page's `data` straight into the method's typed input and runs it.
    public let invoker: Invoker
    /// Whether the method's input is a ``ByteStream``: it starts as soon as the page calls it
    /// with a stream, and reads the page's bytes as they arrive.
    package let readsByteStream: Bool
    /// The types the method takes and returns, for its schema; `nil` for a method made outside
    /// ``MethodList``.
    package let signature: MethodSignature?

    /// A method that runs `invoker`.
    public init(invoker: Invoker) {
        self.init(invoker: invoker, readsByteStream: false, signature: nil)
    }

    package init(invoker: Invoker, readsByteStream: Bool = false, signature: MethodSignature?) {
        self.signature = signature
        self.invoker = invoker
        self.readsByteStream = readsByteStream
    }

    /// How the method answers: its invoker's kind.
    public var kind: MethodKind {
        switch invoker {
        case .sync: .sync
        case .async: .async
        case .multiResponse: .multiResponse
        }
    }
}
