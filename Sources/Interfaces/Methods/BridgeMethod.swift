// BridgeMethod.swift — one interface method with its types erased: the only place erasure happens.
import Foundation

/// One method of a registered interface, with its input and output types erased.
///
/// ``MethodList`` builds these from typed closures; a registry stores them and a dispatcher runs
/// them. Both may be written outside the package: every part of a method is public.
public struct BridgeMethod: Sendable {
    /// Decodes the page's `data` straight into the method's typed input and runs it.
    public let invoker: Invoker
    /// Whether the method's input is `Data`: Keystone's page runtime may send it as raw bytes.
    public let takesBytes: Bool
    /// Whether the method's result is `Data`: it goes to Keystone's page runtime as raw bytes.
    public let returnsBytes: Bool

    /// A method that runs `invoker`; `takesBytes` and `returnsBytes` say whether its input and its
    /// result are `Data` (``MethodList`` sets them from the method's types).
    public init(invoker: Invoker, takesBytes: Bool = false, returnsBytes: Bool = false) {
        self.invoker = invoker
        self.takesBytes = takesBytes
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
