// EvaluatorStateMachine.swift — the batching rules as a pure value: input events, output actions.
/// The batching rules of ``BatchingEvaluator``, without locks, clocks or side effects.
///
/// - Leading edge: a message sent when nothing was flushed in the last `window` goes out at once.
/// - Inside the window, messages collect and go out together, in order, when the window ends, as
///   one batch per run of messages written for the same runtime.
/// - Discarding drops whatever waits; the window keeps running.
struct EvaluatorStateMachine<Instant: InstantProtocol>: Sendable where Instant: Sendable {
    enum Action: Equatable {
        case none
        case deliver([ScriptBatch])
        case scheduleFlush(at: Instant)
    }

    let window: Instant.Duration
    private(set) var waiting: [(message: PageMessage, runtime: PageRuntime, pageLoad: PageEpoch)] = []
    private var lastFlush: Instant?
    private var isFlushScheduled = false

    init(window: Instant.Duration) {
        self.window = window
    }

    mutating func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageEpoch = .first, now: Instant) -> Action {
        waiting.append(contentsOf: messages.lazy.map { ($0, runtime, pageLoad) })
        return flushOrSchedule(now: now)
    }

    mutating func discardQueued() {
        waiting.removeAll()
    }

    /// The scheduled window end has come.
    mutating func windowDidEnd(now: Instant) -> Action {
        isFlushScheduled = false
        return flushOrSchedule(now: now)
    }

    private mutating func flushOrSchedule(now: Instant) -> Action {
        guard !waiting.isEmpty, !isFlushScheduled else { return .none }
        if let lastFlush, now < lastFlush.advanced(by: window) {
            isFlushScheduled = true
            return .scheduleFlush(at: lastFlush.advanced(by: window))
        }
        lastFlush = now
        defer { waiting.removeAll() }
        return .deliver(batches())
    }

    /// The waiting messages as batches, a new one wherever the runtime or the page load changes.
    private func batches() -> [ScriptBatch] {
        var batches: [ScriptBatch] = []
        var start = 0
        for index in waiting.indices where index + 1 == waiting.count || !Self.sameBatch(waiting[index], waiting[index + 1]) {
            let last = waiting[index]
            batches.append(ScriptBatch(messages: waiting[start...index].map(\.message), runtime: last.runtime, pageLoad: last.pageLoad))
            start = index + 1
        }
        return batches
    }

    private static func sameBatch(
        _ a: (message: PageMessage, runtime: PageRuntime, pageLoad: PageEpoch),
        _ b: (message: PageMessage, runtime: PageRuntime, pageLoad: PageEpoch)
    ) -> Bool {
        a.runtime == b.runtime && a.pageLoad == b.pageLoad
    }
}
