// Locked.swift — the package's one lock: a value behind an NSLock, never called out of while held.
import Foundation

/// A value guarded by a lock.
///
/// The closure given to ``withLock(_:)`` must only compute: it must not call user code, await, or
/// re-enter the same lock. Work that follows from the new state happens after the closure returns.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
