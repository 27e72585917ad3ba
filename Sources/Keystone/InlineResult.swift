// InlineResult.swift — an asynchronous call's result, taken into the call's own answer when it is
// ready in time.
import Foundation

/// Where an asynchronous call's single result goes when the page asked for it inline
/// (``InboundCall/acceptsInlineAnswer``): into the call's own answer when the method finished
/// without ever waiting, on the thread that received the call, while that thread was still
/// answering it; through the callback otherwise. Which of the two it is never depends on timing: a
/// method that waits resumes on another thread, whose offer is refused however soon it comes.
final class InlineResult: Sendable {
    private enum State {
        case open
        case taken(JSONText)
        case closed
    }

    private let state = Locked(State.open)
    /// The thread answering the call, the only one whose offer is taken.
    private let answeringThread = currentThread()

    /// Takes `value` for the call's answer: only on the thread answering the call, before the
    /// answer is written.
    func offer(_ value: JSONText) -> Bool {
        guard Self.currentThread() == answeringThread else { return false }
        return state.withLock { state in
            guard case .open = state else { return false }
            state = .taken(value)
            return true
        }
    }

    /// The calling thread, as a number (a pointer on Apple systems, an integer on Linux).
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Writing the call's answer: the result taken, if any. Later offers are refused.
    func close() -> JSONText? {
        state.withLock { state in
            defer { state = .closed }
            if case .taken(let value) = state { return value }
            return nil
        }
    }
}
