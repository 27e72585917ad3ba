// MethodResolver.swift — how a method name from the page splits into namespace and method.

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

/// Splits the method name a page calls into a ``MethodName``.
///
/// An implementation must throw a `BridgeError` (code `notFound`) for a name that can name no
/// method, rather than return something unusable, and must be safe to call from many threads.
public protocol MethodResolver: Sendable {
    /// The namespace and method that `method` names.
    func resolve(_ method: String) throws(BridgeError) -> MethodName
}

/// The DSBridge rule: surrounding white space is trimmed, the namespace is everything before the
/// LAST dot, and no part may be empty (`".m"`, `"a..m"`, `"a."` are refused).
public struct DefaultMethodResolver: MethodResolver {
    /// Creates the resolver.
    public init() {}

    public func resolve(_ method: String) throws(BridgeError) -> MethodName {
        let trimmed = Substring(method).trimmingWhiteSpace
        var namespace: Substring = ""
        var name = trimmed
        if let dot = trimmed.utf8.lastIndex(of: UInt8(ascii: ".")) {
            namespace = trimmed[..<dot]
            name = trimmed[trimmed.utf8.index(after: dot)...]
            // A dot needs a namespace before it: ".m" names nothing, it is not "m" in the empty one.
            guard !namespace.isEmpty else { throw notAName(trimmed) }
        }
        guard name.isTrimmedWord, MethodName.isValidNamespace(namespace) else { throw notAName(trimmed) }
        return MethodName(namespace: String(namespace), name: String(name))
    }

    private func notAName(_ text: Substring) -> BridgeError {
        BridgeError(code: .notFound, message: "\"\(text)\" is not a method name: a part is empty or padded with white space")
    }
}
