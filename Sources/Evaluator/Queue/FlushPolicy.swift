// FlushPolicy.swift — when the evaluator hands what waits to the page.
/// When ``BatchingEvaluator`` hands waiting messages to the page.
public enum FlushPolicy: Sendable, Hashable {
    /// When the page is idle, a message goes out at once; while the engine still runs an
    /// evaluation, new messages collect and go out together the moment it finishes, or once the
    /// first of them has waited the window, whichever comes first. A chain of awaited calls pays
    /// no window at all, a flood of results costs a few large evaluations instead of many small
    /// ones, and while the engine answers within the window there is one evaluation in flight at
    /// most. The default.
    ///
    /// The window bounds the wait: an engine that takes longer than the window over one
    /// evaluation, or a completion report that never comes, cannot hold the page's results. It
    /// then gets what waits once per window, as under ``fixedWindow``.
    case whenIdle
    /// The classic rule: a message goes out at once when nothing went out in the last window;
    /// otherwise it waits for the window to end.
    case fixedWindow
}
