// AllowListRegistry.swift — a registry of its own: only namespaces on a list may be registered.
import Keystone
import Synchronization

/// Registers interfaces only under the namespaces it was given, and answers lookups from them.
public final class AllowListRegistry: InterfaceRegistry {
    private let allowed: Set<String>
    private let lists = Mutex<[String: MethodList]>([:])

    public init(allowing namespaces: Set<String>) {
        allowed = namespaces
    }

    public func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try methods.checkRegistration(namespace: namespace)
        guard allowed.contains(namespace) else {
            throw BridgeError(code: .invalidRegistration, message: "\"\(namespace)\" is not on the allow list")
        }
        lists.withLock { $0[namespace] = methods }
    }

    public func removeInterface(namespace: String) -> Bool {
        lists.withLock { $0.removeValue(forKey: namespace) != nil }
    }

    public func lookup(_ name: MethodName) -> MethodLookup {
        lists.withLock { lists in
            guard let list = lists[name.namespace] else { return .noInterface }
            return list.methods[name.name].map(MethodLookup.found) ?? .noMethod
        }
    }

    public var interfaces: [String: [String: BridgeMethod]] {
        lists.withLock { $0.mapValues(\.methods) }
    }
}
