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
    /// Whether a call the page makes without a key runs as a durable call all the same
    /// (``MethodList/durable(_:)``): to its end whatever becomes of the page, its outcome kept for
    /// a later document of the page's origin.
    public let isDurable: Bool

    /// A method that runs `invoker`; `isDurable` as ``MethodList/durable(_:)`` makes one.
    public init(invoker: Invoker, isDurable: Bool = false) {
        self.init(invoker: invoker, readsByteStream: false, signature: nil, isDurable: isDurable)
    }

    package init(invoker: Invoker, readsByteStream: Bool = false, signature: MethodSignature?, isDurable: Bool = false) {
        self.signature = signature
        self.invoker = invoker
        self.readsByteStream = readsByteStream
        self.isDurable = isDurable
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
