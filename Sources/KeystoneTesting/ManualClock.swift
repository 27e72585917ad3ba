// ManualClock.swift — a clock that moves only when a test advances it.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A clock whose time moves only when ``advance(by:)`` is called, for tests of the evaluator's
/// window that never sleep.
///
/// A sleeper whose deadline has passed (or passes during ``advance(by:)``) resumes; a cancelled
/// sleeper throws `CancellationError`.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time advanced since the clock was made.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// How long after the clock's start this instant is.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// How long from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var lastSleeper = 0
        /// Who waits for a number of sleepers (``sleepers(_:)``).
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The watchers whose count of sleepers is reached, taken out.
        mutating func watchersReached() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let reached = watchers.filter { $0.count <= count }.map(\.continuation)
            watchers.removeAll { $0.count <= count }
            return reached
        }
    }

    private let state = Locked(State())

    /// Creates a clock at its start, which moves only when advanced.
    public init() {}

    /// The clock's current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock tells apart: none, since time moves only when a test says.
    public var minimumResolution: Duration { .zero }

    /// Returns once the clock is advanced to `deadline`, or throws `CancellationError` if the task
    /// is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.lastSleeper += 1
            return state.lastSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (isDue, reached) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    guard deadline > state.now else { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, state.watchersReached())
                }
                reached.forEach { $0.resume() }
                if isDue {
                    continuation.resume()
                } else if Task.isCancelled {
                    state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` sleepers wait on the clock: a test that advances it past a
    /// timer started elsewhere (say, a call's timeout) first waits for that timer to sleep, so the
    /// advance cannot come before the deadline is set.
    public func sleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                state.watchers.append((count, continuation))
                return state.watchersReached()
            }
            reached.forEach { $0.resume() }
        }
    }

    /// Moves time forward by `duration`, resuming every sleeper whose deadline is reached.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        due.forEach { $0.continuation.resume() }
    }
}
