// InterfaceRegistry.swift — where registered interfaces live, by namespace.
/// What a registry found for a method name.
public enum MethodLookup: Sendable {
    /// The method the name resolved to.
    case found(BridgeMethod)
    /// No interface is registered under the namespace.
    case noInterface
    /// The namespace has an interface, but it lists no such method.
    case noMethod
}

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
    /// ``Keystone/registeredInterfaces`` lists, for diagnostics and generated types.
    var interfaces: [String: [String: BridgeMethod]] { get }
}

/// A registered interface, as ``Keystone/registeredInterfaces`` lists it.
public struct RegisteredInterface: Sendable, Hashable {
    /// The namespace it is registered under (`""` for the empty one).
    public var namespace: String
    /// Its methods, by name in order.
    public var methods: [Method]

    /// An interface under `namespace` with `methods`.
    public init(namespace: String, methods: [Method]) {
        self.namespace = namespace
        self.methods = methods
    }

    /// One method of a registered interface.
    public struct Method: Sendable, Hashable {
        /// The name the page calls it by within the namespace.
        public var name: String
        /// How it answers.
        public var kind: MethodKind

        /// A method called `name` that answers as `kind` says.
        public init(name: String, kind: MethodKind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The interfaces of `registry`, by namespace in order.
    static func list(_ registry: any InterfaceRegistry) -> [RegisteredInterface] {
        registry.interfaces.map { namespace, methods in
            RegisteredInterface(
                namespace: namespace, methods: methods.map { Method(name: $0.key, kind: $0.value.kind) }.sorted { $0.name < $1.name }
            )
        }.sorted { $0.namespace < $1.namespace }
    }
}
