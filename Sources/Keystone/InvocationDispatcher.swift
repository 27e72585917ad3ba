// InvocationDispatcher.swift — holds the registered interfaces and finds the method a call names.
/// What a dispatcher found for a method name.
public enum MethodLookup: Sendable {
    case found(BridgeMethod)
    /// No interface is registered under the namespace.
    case noInterface
    /// The namespace has an interface, but it lists no such method.
    case noMethod
}

/// Holds the interfaces registered under namespaces and finds the method a call names.
///
/// An implementation must keep one method list per namespace (registering again replaces it), be
/// safe to call from many threads at once, and never call out while holding a lock.
public protocol InvocationDispatcher: Sendable {
    /// Registers `methods` under `namespace`, replacing what was there.
    func register(_ methods: MethodList, namespace: String)
    /// Removes the interface under `namespace`; returns whether there was one.
    @discardableResult
    func removeInterface(namespace: String) -> Bool
    /// The method `name` names.
    func lookup(_ name: MethodName) -> MethodLookup
}

/// The default dispatcher: a dictionary of method lists behind a lock.
public final class DefaultInvocationDispatcher: InvocationDispatcher {
    private let interfaces = Locked<[String: MethodList]>([:])

    public init() {}

    public func register(_ methods: MethodList, namespace: String) {
        interfaces.withLock { $0[namespace] = methods }
    }

    @discardableResult
    public func removeInterface(namespace: String) -> Bool {
        interfaces.withLock { $0.removeValue(forKey: namespace) != nil }
    }

    public func lookup(_ name: MethodName) -> MethodLookup {
        interfaces.withLock { interfaces in
            guard let list = interfaces[name.namespace] else { return .noInterface }
            guard let method = list.methods[name.name] else { return .noMethod }
            return .found(method)
        }
    }
}
