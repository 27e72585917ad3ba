// EvaluatorStateMachine.swift — the batching rules as a pure value: input events, output actions.
/// The batching rules of ``BatchingEvaluator``, without locks, clocks or side effects.
///
/// - Before the page initializes, messages wait.
/// - Leading edge: a message sent when nothing was flushed in the last `window` goes out at once.
/// - Inside the window, messages collect and go out together, in order, when the window ends.
/// - A message for an older page epoch is dropped, whether it arrives late or was waiting.
/// - A message for a newer epoch starts that epoch, as an unload would: whoever stamped it already
///   knows the page is gone, even if the unload itself has not arrived yet.
struct EvaluatorStateMachine<Instant: InstantProtocol>: Sendable where Instant: Sendable {
    enum Action: Equatable {
        case none
        case deliver([PageMessage], PageRuntime)
        case scheduleFlush(at: Instant)
    }

    let window: Instant.Duration
    private(set) var epoch = PageEpoch.first
    private(set) var isPageReady = false
    private(set) var runtime = PageRuntime.dsbridge
    private(set) var waiting: [(message: PageMessage, epoch: PageEpoch)] = []
    private var lastFlush: Instant?
    private var isFlushScheduled = false

    init(window: Instant.Duration) {
        self.window = window
    }

    mutating func send(_ message: PageMessage, epoch: PageEpoch, now: Instant) -> Action {
        guard epoch >= self.epoch else { return .none }
        if epoch > self.epoch { pageDidUnload(startingEpoch: epoch) }
        waiting.append((message, epoch))
        return flushOrSchedule(now: now)
    }

    mutating func pageDidInitialize(runtime: PageRuntime, now: Instant) -> Action {
        isPageReady = true
        // A page with two bridge scripts initializes twice; once Keystone's has spoken, it stays.
        if runtime == .keystone { self.runtime = .keystone }
        return flushOrSchedule(now: now)
    }

    mutating func pageDidUnload(startingEpoch epoch: PageEpoch) {
        self.epoch = max(self.epoch, epoch)
        isPageReady = false
        runtime = .dsbridge
        waiting.removeAll { $0.epoch < self.epoch }
    }

    /// The scheduled window end has come.
    mutating func windowDidEnd(now: Instant) -> Action {
        isFlushScheduled = false
        return flushOrSchedule(now: now)
    }

    private mutating func flushOrSchedule(now: Instant) -> Action {
        guard isPageReady, !waiting.isEmpty, !isFlushScheduled else { return .none }
        if let lastFlush, now < lastFlush.advanced(by: window) {
            isFlushScheduled = true
            return .scheduleFlush(at: lastFlush.advanced(by: window))
        }
        lastFlush = now
        defer { waiting.removeAll() }
        return .deliver(waiting.map(\.message), runtime)
    }
}
