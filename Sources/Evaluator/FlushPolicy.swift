// FlushPolicy.swift — when the evaluator hands what waits to the page.
/// When ``BatchingEvaluator`` hands waiting messages to the page.
public enum FlushPolicy: Sendable, Hashable {
    /// When the page is idle, a message goes out at once; while the engine still runs an
    /// evaluation, new messages collect and go out together the moment it finishes, so at most
    /// one evaluation is ever in flight. A chain of awaited calls pays no window at all, and a
    /// flood of results costs a few large evaluations instead of many small ones. The default.
    ///
    /// Nothing waits on a timer: a message waits only for the evaluation the engine is running.
    /// Sending a second one sooner would reach the page no sooner (a page runs one script at a
    /// time), and would only split the batch.
    case whenIdle
    /// The classic rule: a message goes out at once when nothing went out in the last window;
    /// otherwise it waits for the window to end.
    case fixedWindow
}
