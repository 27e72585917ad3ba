// Locked.swift — the package's one lock: a value and the system's plainest lock in one allocation,
// never called out of while held.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Foundation
#endif

/// A value guarded by a lock.
///
/// The closure given to ``withLock(_:)`` must only compute: it must not call user code, await, or
/// re-enter the same lock. Work that follows from the new state happens after the closure returns.
///
/// The value and the lock share one allocation, made once (an `os_unfair_lock` on Apple systems, a
/// `pthread_mutex_t` on Linux): a call's state costs one object, not a lock object of its own with
/// the mutex and condition Foundation's `NSLock` allocates beside it on Linux. Copies share the
/// same value and lock.
///
/// It is inlinable, so each module specialises it for its own values and a lock looks up no
/// generic metadata. That is why it is public behind an SPI rather than `package`: the compiler
/// treats `package` declarations as resilient and never inlines them into another module. The
/// package's modules import it with `@_spi(KeystoneInternal) import Interfaces`; it is not part of
/// the package's API.
@_spi(KeystoneInternal)
public struct Locked<State>: @unchecked Sendable {
    @usableFromInline let storage: LockedStorage<State>

    @inlinable
    public init(_ state: State) {
        storage = unsafeDowncast(LockedStorage<State>.create(minimumCapacity: 1) { _ in state }, to: LockedStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { initializeLock($0) }
    }

    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, lock in
            acquireLock(lock)
            defer { releaseLock(lock) }
            return try body(&state.pointee)
        }
    }
}

/// A ``Locked`` value (the buffer's header) and, tail-allocated where it never moves, its lock.
@usableFromInline
final class LockedStorage<State>: ManagedBuffer<State, PlatformLock> {
    // The header (the value) is destroyed by `ManagedBuffer` itself; the lock is ours.
    deinit {
        withUnsafeMutablePointerToElements { destroyLock($0) }
    }
}

#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock
@inlinable func initializeLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.initialize(to: os_unfair_lock()) }
@inlinable func acquireLock(_ lock: UnsafeMutablePointer<PlatformLock>) { os_unfair_lock_lock(lock) }
@inlinable func releaseLock(_ lock: UnsafeMutablePointer<PlatformLock>) { os_unfair_lock_unlock(lock) }
@usableFromInline func destroyLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.deinitialize(count: 1) }
#elseif canImport(Glibc) || canImport(Musl)
@usableFromInline typealias PlatformLock = pthread_mutex_t
@inlinable func initializeLock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
}
@inlinable func acquireLock(_ lock: UnsafeMutablePointer<PlatformLock>) { pthread_mutex_lock(lock) }
@inlinable func releaseLock(_ lock: UnsafeMutablePointer<PlatformLock>) { pthread_mutex_unlock(lock) }
@usableFromInline func destroyLock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    pthread_mutex_destroy(lock)
    lock.deinitialize(count: 1)
}
#else
@usableFromInline typealias PlatformLock = NSLock
@inlinable func initializeLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.initialize(to: NSLock()) }
@inlinable func acquireLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.pointee.lock() }
@inlinable func releaseLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.pointee.unlock() }
@usableFromInline func destroyLock(_ lock: UnsafeMutablePointer<PlatformLock>) { lock.deinitialize(count: 1) }
#endif
