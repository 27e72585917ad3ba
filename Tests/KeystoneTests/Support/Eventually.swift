// Eventually.swift — waiting for what another task does: until a condition holds, or a failure
// that says what never happened.
import Keystone
import Testing

/// Waits until `condition` holds, yielding between checks. What it waits for is work another task
/// finishes on its own (a call's task ending, a result delivered), with no signal of its own to
/// await. Past `guardLimit` (a guard against a hang, never a speed bar: the work takes microseconds)
/// it records an issue saying what never happened, and returns `false`, so a test fails with a
/// message instead of hanging.
@discardableResult
func eventually(
    _ what: Comment, guardLimit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: guardLimit)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
    }
    return true
}

/// Waits until `keystone` runs none of the page's calls: a call's task ends after its last message
/// was sent (or dropped), so nothing of it can come later. Yields, never sleeps.
func untilNoCallRuns(_ keystone: Keystone) async {
    await eventually("every call of the page's has ended") { keystone.runningCallCount == 0 }
}

/// Waits until `keystone` runs no more than `count` of the page's calls.
func untilNoCallRunsBut(_ count: Int, _ keystone: Keystone) async {
    await eventually("at most \(count) calls of the page's run") { keystone.runningCallCount <= count }
}
