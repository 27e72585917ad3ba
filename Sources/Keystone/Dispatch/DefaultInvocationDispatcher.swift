// DefaultInvocationDispatcher.swift — the default dispatcher over a registry's erased methods.
/// The default ``InvocationDispatcher``.
public struct DefaultInvocationDispatcher: InvocationDispatcher {
    /// Creates the dispatcher.
    public init() {}

    /// Runs `call` over `registry`: a synchronous method at once, an asynchronous or multi-response
    /// one as its work, for the Keystone to run (with or without a callback), or refuses it with a coded error.
    public func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome {
        let method = try Self.find(call.name, in: registry)
        let (data, serializer, context) = (call.data, environment.serializer, environment.context)
        switch method.invoker {
        case .sync(let run):
            guard !call.isAsynchronous || call.acceptsInlineAnswer else {
                throw BridgeError(code: .unsupportedCallKind, message: "\"\(call.name)\" is synchronous: call it without a callback")
            }
            return .answered(try run(data, serializer, context))
        case .async(let start):
            // Without a callback too: it runs, and its result is dropped (DSBridge-Android's way).
            return .work(.single(try start(data, serializer, context)))
        case .multiResponse(let start):
            return .work(.multiResponse(try start(data, serializer, context)))
        }
    }

    private static func find(_ name: MethodName, in registry: any InterfaceRegistry) throws(BridgeError) -> BridgeMethod {
        try registry.lookup(name).method(for: name)
    }
}
