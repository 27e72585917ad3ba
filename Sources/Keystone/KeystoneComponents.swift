// KeystoneComponents.swift — the parts a Keystone is built from, each replaceable on its own.
/// The parts of a ``Keystone``. Every one has a default; replace any of them alone.
///
/// ```swift
/// var components = KeystoneComponents()
/// components.serializer = MySerializer()
/// components.middleware = [AuditLog(), RefuseNamespace(namespace: "admin")]
/// let keystone = Keystone(components: components)
/// ```
public struct KeystoneComponents: Sendable {
    /// Turns values into JSON and back.
    public var serializer: any JSONSerializer
    /// Splits method names into namespace and method.
    public var resolver: any MethodResolver
    /// Holds the registered interfaces.
    public var registry: any InterfaceRegistry
    /// Runs a resolved call over the registry.
    public var dispatcher: any InvocationDispatcher
    /// Sees every call to an interface, in order, the first outermost.
    public var middleware: [any CallMiddleware]
    /// Decides which frames may call.
    public var policy: any CallPolicy
    /// Queues and batches everything bound for the page: the first page's (a Keystone's own).
    public var evaluator: any JavaScriptEvaluator
    /// Makes the evaluator of each page after the first (``Keystone/addPage()``): every page's
    /// messages are batched on their own, for their own host.
    public var pageEvaluator: @Sendable () -> any JavaScriptEvaluator
    /// What happens when the page calls `window.close()` (`_dsb.closePage`).
    public var closePage: (@Sendable () -> Void)?
    /// Where log lines go.
    public var logging: KeystoneLogging
    /// The most a page may send or keep open.
    public var limits: BridgeLimits
    /// The hub's time, for its deadlines (`BridgeLimits/streamIdleTimeout`): a test passes a manual
    /// clock and advances it.
    public var clock: any Clock<Duration>
    /// What the Keystone traces, and where (`nil`: nothing).
    public var tracing: Tracing?
    /// Where the outcomes of the page's durable calls are kept beyond the app's own life (`nil`: in
    /// the app's memory only).
    public var durableStore: (any DurableCallStore)?

    /// Creates the parts of a Keystone; each parameter sets the property of the same name, and each
    /// defaults to Keystone's own.
    public init(
        serializer: any JSONSerializer = DefaultJSONSerializer(),
        resolver: any MethodResolver = DefaultMethodResolver(),
        registry: any InterfaceRegistry = DefaultInterfaceRegistry(),
        dispatcher: any InvocationDispatcher = DefaultInvocationDispatcher(),
        middleware: [any CallMiddleware] = [],
        policy: any CallPolicy = DefaultCallPolicy(),
        evaluator: any JavaScriptEvaluator = BatchingEvaluator(),
        pageEvaluator: @escaping @Sendable () -> any JavaScriptEvaluator = { BatchingEvaluator() },
        closePage: (@Sendable () -> Void)? = nil,
        logging: KeystoneLogging = .silent,
        limits: BridgeLimits = BridgeLimits(),
        clock: any Clock<Duration> = ContinuousClock(),
        durableStore: (any DurableCallStore)? = nil,
        tracing: Tracing? = nil
    ) {
        self.serializer = serializer
        self.resolver = resolver
        self.registry = registry
        self.dispatcher = dispatcher
        self.middleware = middleware
        self.policy = policy
        self.evaluator = evaluator
        self.pageEvaluator = pageEvaluator
        self.closePage = closePage
        self.logging = logging
        self.limits = limits
        self.clock = clock
        self.durableStore = durableStore
        self.tracing = tracing
    }
}
