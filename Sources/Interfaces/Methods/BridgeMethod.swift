// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// ``MethodList`` builds these from typed closures; a registry stores them and a dispatcher runs
/// them. Both may be written outside the package: every part of a method is public.
public struct BridgeMethod: Sendable {
    /// Decodes the page's `data` straight into the method's typed input and runs it.
    public let invoker: Invoker
    /// Whether the method's input is `Data` or a ``ByteStream``: Keystone's page runtime may send
    /// it as raw bytes.
    public let takesBytes: Bool
    /// Whether the method's input is a ``ByteStream``: it starts at once and reads the page's
    /// bytes as they arrive.
    public let takesByteStream: Bool
    /// Whether the method's result is `Data`: it goes to Keystone's page runtime as raw bytes.
    public let returnsBytes: Bool
    /// The types the method takes and returns, for its schema; `nil` for a method made outside
    /// ``MethodList``.
    package let signature: MethodSignature?

    /// A method that runs `invoker`; `takesBytes` and `returnsBytes` say whether its input and its
    /// result are bytes, `takesByteStream` whether its input is a stream of them (``MethodList``
    /// sets them from the method's types).
    public init(invoker: Invoker, takesBytes: Bool = false, takesByteStream: Bool = false, returnsBytes: Bool = false) {
        self.init(invoker: invoker, takesBytes: takesBytes, takesByteStream: takesByteStream, returnsBytes: returnsBytes, signature: nil)
    }

    package init(invoker: Invoker, takesBytes: Bool = false, takesByteStream: Bool = false, returnsBytes: Bool = false, signature: MethodSignature?) {
        self.signature = signature
        self.invoker = invoker
        self.takesBytes = takesBytes || takesByteStream
        self.takesByteStream = takesByteStream
        self.returnsBytes = returnsBytes
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
