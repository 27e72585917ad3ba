// BuiltInRegistry.swift — the registry holding the `_dsb` interfaces, fixed once built.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Holds the protocol's own methods under `_dsb` — ``BuiltInInterface``, and those a room adds —
/// and nothing else: it cannot be registered in or removed from, so an
/// app's registry never holds the protocol's methods and the protocol's methods never change.
struct BuiltInRegistry: InterfaceRegistry {
    private let methods: [String: BridgeMethod]

    /// The built-ins `interfaces` list, in that order; a name listed twice is the last one's.
    init(_ interfaces: [any BridgeInterface]) {
        var list = MethodList()
        for interface in interfaces { interface.exposeMethods(to: &list) }
        methods = list.methods
    }

    func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        throw BridgeError(code: .invalidRegistration, message: "the \(MethodName.builtInNamespace) namespace is the protocol's own")
    }

    func removeInterface(namespace: String) -> Bool { false }

    func lookup(_ name: MethodName) -> MethodLookup {
        guard name.namespace == MethodName.builtInNamespace else { return .noInterface }
        return methods[name.name].map(MethodLookup.found) ?? .noMethod
    }

    var interfaces: [String: [String: BridgeMethod]] { [MethodName.builtInNamespace: methods] }
}
