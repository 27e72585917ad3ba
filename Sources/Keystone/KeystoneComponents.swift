// KeystoneComponents.swift — the parts a Keystone is built from, each replaceable on its own.
/// The parts of a ``Keystone``. Every one has a default; replace any of them alone.
///
/// ```swift
/// var components = KeystoneComponents()
/// components.serializer = MySerializer()
/// let keystone = Keystone(components: components)
/// ```
public struct KeystoneComponents: Sendable {
    /// Turns values into JSON and back.
    public var serializer: any JSONSerializer
    /// Splits method names into namespace and method.
    public var resolver: any MethodResolver
    /// Holds the registered interfaces.
    public var dispatcher: any InvocationDispatcher
    /// Queues and batches everything bound for the page.
    public var evaluator: any JavaScriptEvaluator
    /// Where log lines go.
    public var logging: KeystoneLogging
    /// The most a page may send or keep open.
    public var limits: BridgeLimits

    public init(
        serializer: any JSONSerializer = DefaultJSONSerializer(),
        resolver: any MethodResolver = DefaultMethodResolver(),
        dispatcher: any InvocationDispatcher = DefaultInvocationDispatcher(),
        evaluator: any JavaScriptEvaluator = BatchingEvaluator(),
        logging: KeystoneLogging = .silent,
        limits: BridgeLimits = BridgeLimits()
    ) {
        self.serializer = serializer
        self.resolver = resolver
        self.dispatcher = dispatcher
        self.evaluator = evaluator
        self.logging = logging
        self.limits = limits
    }
}
