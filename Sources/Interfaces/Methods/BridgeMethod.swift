// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// ``MethodList`` builds these from typed closures; a registry stores them and a dispatcher runs
/// them. Both may be written outside the package: every part of a method is public.
public struct BridgeMethod: Sendable {
    /// Decodes the page's `data` straight into the method's typed input and runs it.
    public let invoker: Invoker

    /// A method that runs `invoker`.
    public init(invoker: Invoker) {
        self.invoker = invoker
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
