// FlushPolicy.swift — when the evaluator hands what waits to the page.
/// When ``BatchingEvaluator`` hands waiting messages to the page.
public enum FlushPolicy: Sendable, Hashable {
    /// When the page is idle, a message goes out at once; while the engine still runs an
    /// evaluation, new messages collect and go out together the moment it finishes; none waits
    /// longer than the window. A chain of awaited calls pays no window at all. The default.
    case whenIdle
    /// The classic rule: a message goes out at once when nothing went out in the last window;
    /// otherwise it waits for the window to end.
    case fixedWindow
}
