// DefaultInterfaceRegistry.swift — the default registry: method lists by namespace, behind a lock.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The default ``InterfaceRegistry``: a dictionary of method lists behind a lock.
public final class DefaultInterfaceRegistry: InterfaceRegistry {
    private let interfaces = Locked<[String: MethodList]>([:])

    /// Creates an empty registry.
    public init() {}

    public func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try methods.checkRegistration(namespace: namespace)
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
