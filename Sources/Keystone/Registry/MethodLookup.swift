// MethodLookup.swift — what a registry found for a method name.
/// What a registry found for a method name.
public enum MethodLookup: Sendable {
    /// The method the name resolved to.
    case found(BridgeMethod)
    /// No interface is registered under the namespace.
    case noInterface
    /// The namespace has an interface, but it lists no such method.
    case noMethod
}
