// RegisteredInterface.swift — a registered interface and its methods, as a Keystone lists them.
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
