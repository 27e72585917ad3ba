// AuditMiddleware.swift — middleware of its own: refuses a namespace and keeps an audit trail.
import Keystone
import Synchronization

/// Refuses calls to `closedNamespace` and records every call it sees: name, origin, outcome.
public final class AuditMiddleware: CallMiddleware {
    public let closedNamespace: String
    private let entries = Mutex<[String]>([])

    /// Every call seen, in order.
    public var trail: [String] { entries.withLock { $0 } }

    public init(closing namespace: String) {
        closedNamespace = namespace
    }

    public func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        let origin = call.frame.origin ?? "unknown origin"
        guard call.name.namespace != closedNamespace else {
            entries.withLock { $0.append("refused \(call.name) from \(origin)") }
            throw BridgeError(code: 1403, message: "\(closedNamespace) is closed")
        }
        entries.withLock { $0.append("\(call.isAsynchronous ? "started" : "ran") \(call.name) from \(origin)") }
        return try next()
    }

    public func interceptTask<Answer: Sendable>(_ call: InboundCall, next: @Sendable () async throws -> Answer) async throws -> Answer {
        defer { entries.withLock { $0.append("finished \(call.name)") } }
        return try await next()
    }
}
