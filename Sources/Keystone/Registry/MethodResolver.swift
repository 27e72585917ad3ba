// MethodResolver.swift — how a method name from the page splits into namespace and method.

/// Splits the method name a page calls into a ``MethodName``.
///
/// An implementation must throw a `BridgeError` (code `notFound`) for a name that can name no
/// method, rather than return something unusable, and must be safe to call from many threads.
public protocol MethodResolver: Sendable {
    /// The namespace and method that `method` names.
    func resolve(_ method: String) throws(BridgeError) -> MethodName
}
