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

extension MethodLookup {
    /// The method found, or the `notFound` error every call kind answers for `name`: JSON calls,
    /// calls with bytes and streams alike say which namespace or method is missing.
    func method(for name: MethodName) throws(BridgeError) -> BridgeMethod {
        switch self {
        case .found(let method):
            return method
        case .noInterface:
            let namespace = name.namespace.isEmpty ? "the empty namespace" : "namespace \"\(name.namespace)\""
            throw BridgeError(code: .notFound, message: "no interface is registered under \(namespace)")
        case .noMethod:
            throw BridgeError(code: .notFound, message: "no method \"\(name)\"")
        }
    }
}
