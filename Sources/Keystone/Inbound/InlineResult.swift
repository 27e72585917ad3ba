// InlineResult.swift — an asynchronous call's result, taken into the call's own answer when it is
// ready in time.
import Foundation

/// Keeps ``InboundCall/acceptsInlineAnswer``'s rule for an asynchronous method's single result:
/// taken into the call's answer only when offered on the answering thread before the answer is
/// written.
///
/// Only the answering thread ever reads or writes the state: an offer from any other thread is
/// refused before it is looked at, and the answer is written on the answering thread. So the state
/// needs no lock (hence `@unchecked Sendable`), and the commonest call, a synchronous method, pays
/// for no lock it never uses.
final class InlineResult: @unchecked Sendable {
    private enum State {
        case open
        case taken(SingleResult)
        case closed
    }

    /// Read and written on ``answeringThread`` only.
    private var state = State.open
    /// The thread answering the call, the only one whose offer is taken.
    private let answeringThread = currentThread()

    /// Takes `value` for the call's answer: only on the thread answering the call, before the
    /// answer is written.
    func offer(_ value: SingleResult) -> Bool {
        guard Self.currentThread() == answeringThread, case .open = state else { return false }
        state = .taken(value)
        return true
    }

    /// The calling thread, as a number (a pointer on Apple systems, an integer on Linux).
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Writing the call's answer, on the thread answering the call: the result taken, if any.
    /// Later offers are refused.
    func close() -> SingleResult? {
        precondition(Self.currentThread() == answeringThread, "an inline result is closed by the thread answering its call")
        defer { state = .closed }
        if case .taken(let value) = state { return value }
        return nil
    }
}
