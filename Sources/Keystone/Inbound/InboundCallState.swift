// InboundCallState.swift — what one running call of the page's has done: where its single result
// went, and whether its last result has gone.
import Foundation

/// The state of one running call of the page's, as a value: the task's results and the call's
/// answer consult it (behind one lock, ``InboundCallRunner``'s), and nothing else keeps any.
///
/// It keeps two rules:
/// - ``InboundCall/acceptsInlineAnswer``'s: an asynchronous method's single result goes into the
///   call's own answer only when offered on the thread answering the call before the answer is
///   written.
/// - A call answers at most one result marked complete; nothing is sent after it.
struct InboundCallState: Sendable {
    private enum Inline {
        /// The call takes no result in its answer.
        case refused
        /// The answer is not yet written; only `thread` may offer the result.
        case open(thread: UInt)
        /// The result the answer will carry.
        case taken(SingleResult)
        /// The answer is written.
        case closed
    }

    private var inline: Inline
    /// Whether a result marked complete has gone: the page's callback is gone with it.
    private(set) var isFinished = false

    /// A call whose answer takes a single result offered on `answeringThread` (`nil`: takes none).
    init(answeringThread: UInt?) {
        inline = answeringThread.map { .open(thread: $0) } ?? .refused
    }

    /// Takes `result`, offered on `thread`, for the call's answer: only on the answering thread,
    /// before the answer is written. A result taken is the call's last.
    mutating func offerInline(_ result: SingleResult, on thread: UInt) -> Bool {
        guard case .open(let answering) = inline, answering == thread, !isFinished else { return false }
        inline = .taken(result)
        isFinished = true
        return true
    }

    /// Where a call's single result goes.
    enum SingleResultRoute: Equatable {
        /// Into the call's answer (``offerInline(_:on:)`` took it).
        case answer
        /// To the page's callback.
        case callback
        /// Nowhere: the call has already finished.
        case nowhere
    }

    /// The call's single result, ready on `thread`: into its answer when that takes it, else to its
    /// callback unless the call has finished. Either way the call is finished after it. One step,
    /// so the commonest call, which takes nothing inline, looks at its state once.
    mutating func route(singleResult result: SingleResult, on thread: UInt) -> SingleResultRoute {
        if offerInline(result, on: thread) { return .answer }
        return send(isFinal: true) ? .callback : .nowhere
    }

    /// The call's answer is being written: the result it carries, if one was taken. Later offers
    /// are refused.
    mutating func closeInline() -> SingleResult? {
        defer { inline = .closed }
        if case .taken(let result) = inline { return result }
        return nil
    }

    /// A result is about to go to the page's callback: `false` when the call has already finished
    /// (the result must not go).
    mutating func send(isFinal: Bool) -> Bool {
        guard !isFinished else { return false }
        isFinished = isFinal
        return true
    }

    /// The calling thread, as a number (a pointer on Apple systems, an integer on Linux).
    static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
