// Mutex.swift — the examples' own lock (Keystone's is not public, and need not be).
import Foundation

/// A value behind a lock.
public final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
