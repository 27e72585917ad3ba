// AllowListRegistry.swift — a registry of its own: only namespaces on a list may be registered.
import Keystone
import Synchronization

/// Registers interfaces only under the namespaces it was given, and answers lookups from them.
public final class AllowListRegistry: InterfaceRegistry {
    private let allowed: Set<String>
    private let interfaces = Mutex<[String: MethodList]>([:])

    public init(allowing namespaces: Set<String>) {
        allowed = namespaces
    }

    public func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try methods.checkRegistration(namespace: namespace)
        guard allowed.contains(namespace) else {
            throw BridgeError(code: .invalidRegistration, message: "\"\(namespace)\" is not on the allow list")
        }
        interfaces.withLock { $0[namespace] = methods }
    }

    public func removeInterface(namespace: String) -> Bool {
        interfaces.withLock { $0.removeValue(forKey: namespace) != nil }
    }

    public func lookup(_ name: MethodName) -> MethodLookup {
        interfaces.withLock { interfaces in
            guard let list = interfaces[name.namespace] else { return .noInterface }
            return list.methods[name.name].map(MethodLookup.found) ?? .noMethod
        }
    }
}
