// Eventually.swift — waiting for what another task does, without polling: a value that says when it
// changes, and the running calls' own tasks.
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import Testing

/// A value other tasks change under a lock, as `Locked` holds one, that a test can wait on: each
/// change resumes the waiters whose condition it meets, so nothing polls.
final class Watched<Value: Sendable>: Sendable {
    private struct State {
        var value: Value
        var waiters: [(condition: @Sendable (Value) -> Bool, continuation: CheckedContinuation<Value, Never>)] = []
    }

    private let state: Locked<State>

    init(_ value: Value) {
        state = Locked(State(value: value))
    }

    /// Reads or changes the value under the lock; the waiters a change satisfies are resumed after.
    @discardableResult
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, met) = state.withLock { state -> (Result, [(CheckedContinuation<Value, Never>, Value)]) in
            let result = body(&state.value)
            guard !state.waiters.isEmpty else { return (result, []) }
            let value = state.value
            let met = state.waiters.filter { $0.condition(value) }.map { ($0.continuation, value) }
            state.waiters.removeAll { $0.condition(value) }
            return (result, met)
        }
        for (continuation, value) in met { continuation.resume(returning: value) }
        return result
    }

    /// The value once it meets `condition`: at once when it does already, otherwise when a change
    /// makes it.
    @discardableResult
    func until(_ condition: @escaping @Sendable (Value) -> Bool) async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let met: Value? = state.withLock { state in
                guard !condition(state.value) else { return state.value }
                state.waiters.append((condition, continuation))
                return nil
            }
            if let met { continuation.resume(returning: met) }
        }
    }
}

/// Waits until `keystone` runs none of the page's calls, by awaiting the calls' own tasks: a call's
/// task ends after its last message was sent (or dropped), so nothing of it can come later.
func untilNoCallRuns(_ keystone: Keystone, sourceLocation: SourceLocation = #_sourceLocation) async {
    while case let tasks = keystone.runningTasks, !tasks.isEmpty {
        for task in tasks { await task.value }
    }
    // A call whose task is not made yet has none to await: never, for calls a test made and returned from.
    #expect(keystone.runningCallCount == 0, "a call of the page's runs without a task", sourceLocation: sourceLocation)
}
