// InterfaceRegistry.swift — where registered interfaces live, by namespace.
/// Holds the interfaces registered under namespaces and finds the method a name names.
///
/// An implementation must refuse what can never be called (`MethodList/checkRegistration(namespace:)`
/// says what), keep one method list per namespace (registering again replaces it), be safe to call
/// from many threads at once, and never call out while holding a lock.
public protocol InterfaceRegistry: Sendable {
    /// Registers `methods` under `namespace`, replacing what was there.
    /// - Throws: `BridgeError` with code `invalidRegistration` for an unusable namespace or name.
    func register(_ methods: MethodList, namespace: String) throws(BridgeError)
    /// Removes the interface under `namespace`; returns whether there was one.
    @discardableResult
    func removeInterface(namespace: String) -> Bool
    /// The method `name` names.
    func lookup(_ name: MethodName) -> MethodLookup
    /// Every registered interface's methods, by namespace, then by name: what
    /// ``Keystone/interfaceSchema`` describes, for diagnostics and generated types.
    var interfaces: [String: [String: BridgeMethod]] { get }
}
