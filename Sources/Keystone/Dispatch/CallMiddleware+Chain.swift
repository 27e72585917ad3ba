// CallMiddleware+Chain.swift — running a call through every middleware, the first outermost.
extension Array where Element == any CallMiddleware {
    /// Runs `body` inside every middleware's ``CallMiddleware/intercept(_:next:)``, the first outermost.
    func intercept<Answer>(_ call: InboundCall, _ body: () throws -> Answer) throws -> Answer {
        try intercept(call, self[...], body)
    }

    private func intercept<Answer>(_ call: InboundCall, _ rest: ArraySlice<any CallMiddleware>, _ body: () throws -> Answer) throws -> Answer {
        guard let first = rest.first else { return try body() }
        return try first.intercept(call) { try intercept(call, rest.dropFirst(), body) }
    }

    /// Runs `body` inside every middleware's ``CallMiddleware/interceptTask(_:next:)``, the first outermost.
    func interceptTask<Answer: Sendable>(_ call: InboundCall, _ body: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        try await Self.interceptTask(call, self[...], body)
    }

    private static func interceptTask<Answer: Sendable>(
        _ call: InboundCall, _ rest: ArraySlice<any CallMiddleware>, _ body: @escaping @Sendable () async throws -> Answer
    ) async throws -> Answer {
        guard let first = rest.first else { return try await body() }
        let inner = rest.dropFirst()
        return try await first.interceptTask(call) { try await interceptTask(call, inner, body) }
    }
}
