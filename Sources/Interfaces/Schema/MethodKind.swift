// MethodKind.swift — how a method answers: once, later, or many times.
/// How an interface method answers the page.
public enum MethodKind: String, Sendable, Hashable, Codable {
    /// Answers inside the page's synchronous `prompt`.
    case sync
    /// Answers once, later, through the page's callback.
    case async
    /// Answers any number of times through the page's callback, then completes or fails.
    case multiResponse

    /// Whether the page must call this method with a callback (`_dscbstub`).
    package var isAsynchronous: Bool { self != .sync }
}
