// DefaultInterfaceRegistry.swift — the default registry: method lists by namespace, behind a lock.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The default ``InterfaceRegistry``: a dictionary of method lists behind a lock.
public final class DefaultInterfaceRegistry: InterfaceRegistry {
    private let lists = Locked<[String: MethodList]>([:])

    /// Creates an empty registry.
    public init() {}

    public func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try methods.checkRegistration(namespace: namespace)
        lists.withLock { $0[namespace] = methods }
    }

    @discardableResult
    public func removeInterface(namespace: String) -> Bool {
        lists.withLock { $0.removeValue(forKey: namespace) != nil }
    }

    public func lookup(_ name: MethodName) -> MethodLookup {
        lists.withLock { lists in
            guard let list = lists[name.namespace] else { return .noInterface }
            guard let method = list.methods[name.name] else { return .noMethod }
            return .found(method)
        }
    }

    public var interfaces: [String: [String: BridgeMethod]] {
        lists.withLock { $0.mapValues(\.methods) }
    }
}
