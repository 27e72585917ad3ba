// Stopwatch.swift — the time since a part of the Keystone began, on the components' clock.

/// The time since now, on `clock`, each time it is asked: how the durable calls date their outcomes
/// and the trace its records.
func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
}
