// EvaluatorStateMachine.swift — the batching rules as a pure value: input events, output actions.
import KeystoneInterfaces

/// The batching rules of ``BatchingEvaluator``, without locks, clocks or side effects.
///
/// With ``FlushPolicy/whenIdle``:
/// - A message sent while no evaluation is in flight goes out at once.
/// - While one is, messages collect and go out together the moment it finishes, or when the first
///   of them has waited `window`, whichever comes first. An engine that answers within the window
///   never has a second evaluation in flight; one that does not (or whose report is lost) still
///   gets what waits, one evaluation per window at most.
///
/// With ``FlushPolicy/fixedWindow``:
/// - Leading edge: a message sent when nothing was flushed in the last `window` goes out at once.
/// - Inside the window, messages collect and go out together when the window ends.
///
/// Either way, what goes out together is one batch per run of messages written for the same
/// runtime and page load and bound for the same frame, in order; discarding drops whatever waits.
///
/// Time is a `Duration` since a fixed start the owner chooses (``BatchingEvaluator`` counts from
/// its creation), so the machine is one concrete type whatever the clock.
struct EvaluatorStateMachine: Sendable {
    enum Action: Equatable {
        case none
        case deliver([ScriptBatch])
        case scheduleFlush(at: Duration)
    }

    let window: Duration
    let policy: FlushPolicy
    /// Evaluations handed to the target that it has not reported finished.
    private(set) var inFlight = 0
    /// What waits, already grouped: one group per run of messages for the same runtime, page load
    /// and frame, each a batch when it goes out. Messages are appended in place: a flood that
    /// collects while an evaluation is in flight costs linear time.
    private(set) var waiting: [(messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?)] = []
    private var lastFlush: Duration?
    /// When the oldest message still waiting began to wait.
    private var waitingSince: Duration?
    private var isFlushScheduled = false

    init(window: Duration, policy: FlushPolicy = .fixedWindow) {
        self.window = window
        self.policy = policy
    }

    mutating func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad = .first, frame: FrameDocument? = nil, now: Duration) -> Action {
        if !messages.isEmpty {
            if waiting.isEmpty { waitingSince = now }
            if let last = waiting.last, last.runtime == runtime, last.pageLoad == pageLoad, last.frame == frame {
                waiting[waiting.count - 1].messages.append(contentsOf: messages)
            } else {
                waiting.append((messages, runtime, pageLoad, frame))
            }
        }
        switch policy {
        case .fixedWindow:
            return flushOrSchedule(now: now)
        case .whenIdle:
            return inFlight == 0 ? deliver(now: now) : flushWhenWaitedTooLong(now: now)
        }
    }

    /// The target finished an evaluation: with ``FlushPolicy/whenIdle``, what collected goes out.
    mutating func evaluationDidFinish(now: Duration) -> Action {
        inFlight = max(0, inFlight - 1)
        guard policy == .whenIdle, inFlight == 0, !waiting.isEmpty else { return .none }
        return deliver(now: now)
    }

    mutating func discardQueued() {
        waiting.removeAll()
        waitingSince = nil
    }

    /// A scheduled flush has come: the window's end (``FlushPolicy/fixedWindow``), or the moment
    /// the oldest waiting message has waited the window (``FlushPolicy/whenIdle``).
    mutating func windowDidEnd(now: Duration) -> Action {
        isFlushScheduled = false
        switch policy {
        case .fixedWindow:
            return flushOrSchedule(now: now)
        case .whenIdle:
            return flushWhenWaitedTooLong(now: now)
        }
    }

    /// While an evaluation is in flight (with ``FlushPolicy/whenIdle`` nothing waits otherwise):
    /// what has waited the window goes out anyway; otherwise a flush is scheduled for the moment
    /// it will have (one at a time).
    private mutating func flushWhenWaitedTooLong(now: Duration) -> Action {
        guard let waitingSince, !waiting.isEmpty else { return .none }
        let due = waitingSince + window
        if now >= due { return deliver(now: now) }
        guard !isFlushScheduled else { return .none }
        isFlushScheduled = true
        return .scheduleFlush(at: due)
    }

    private mutating func flushOrSchedule(now: Duration) -> Action {
        guard !waiting.isEmpty, !isFlushScheduled else { return .none }
        if let lastFlush, now < lastFlush + window {
            isFlushScheduled = true
            return .scheduleFlush(at: lastFlush + window)
        }
        return deliver(now: now)
    }

    private mutating func deliver(now: Duration) -> Action {
        lastFlush = now
        waitingSince = nil
        let batches = waiting.map { ScriptBatch(messages: $0.messages, runtime: $0.runtime, pageLoad: $0.pageLoad, frame: $0.frame) }
        waiting = []
        inFlight += batches.count
        return .deliver(batches)
    }
}
