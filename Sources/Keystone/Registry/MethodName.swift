// MethodName.swift — a method's full name, split into namespace and method.
/// A method name split into the namespace it is registered under and the method's own name.
public struct MethodName: Sendable, Hashable, CustomStringConvertible {
    /// Everything before the last dot: `""`, `"a"`, `"a.b.c"`.
    public var namespace: String
    /// The method's name within its namespace.
    public var name: String

    /// Creates a resolved name: the namespace before the last dot, and the method after it.
    public init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    public var description: String { namespace.isEmpty ? name : "\(namespace).\(name)" }

    /// Whether `namespace` can be registered: `""`, or dot-separated parts that are non-empty and
    /// carry no surrounding white space.
    public static func isValidNamespace(_ namespace: some StringProtocol) -> Bool {
        var rest = Substring(namespace)
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            guard rest[..<dot].isTrimmedWord else { return false }
            rest = rest[rest.utf8.index(after: dot)...]
        }
        return namespace.isEmpty || rest.isTrimmedWord
    }
}

extension MethodName {
    /// The namespace of the methods dsbridge.js calls on its own; apps cannot register it.
    package static let builtInNamespace = "_dsb"
}
