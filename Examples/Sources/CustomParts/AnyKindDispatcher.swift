// AnyKindDispatcher.swift — a dispatcher of its own: it runs a method however the page called it.
import Foundation
import Keystone

/// Runs every method however the page called it: a synchronous method called with a callback
/// answers through the callback; an asynchronous one called without a callback is refused, since
/// the page's `prompt` cannot wait for it. Everything else is as the default dispatcher does it.
public struct AnyKindDispatcher: InvocationDispatcher {
    public init() {}

    public func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome {
        guard case .found(let method) = registry.lookup(call.name) else {
            throw BridgeError(code: .notFound, message: "no method \"\(call.name)\"")
        }
        let (data, serializer, context) = (call.data, environment.serializer, environment.context)
        switch method.invoker {
        case .sync(let run):
            // Answered at once; for a call with a callback, the hub sends the result through it.
            return .answered(try run(data, serializer, context))
        case .async(let start) where call.isAsynchronous:
            return .work(.single(try start(data, serializer, context)))
        case .multiResponse(let start) where call.isAsynchronous:
            return .work(.multiResponse(try start(data, serializer, context)))
        case .async, .multiResponse:
            throw BridgeError(code: .unsupportedCallKind, message: "\"\(call.name)\" needs a callback")
        }
    }
}
