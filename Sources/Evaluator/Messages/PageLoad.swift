// PageLoad.swift — which page load a message, a call or a task belongs to.
/// Identifies one page load. Each navigation or reload starts a new one; a message sent for an
/// older one is dropped, so a late result can never reach the next page's callbacks.
public struct PageLoad: Sendable, Hashable, CustomStringConvertible {
    /// The page load's number: each new page load has a larger one.
    package let rawValue: Int

    /// Creates the page load numbered `rawValue`.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The first page load.
    public static let first = PageLoad(rawValue: 0)

    /// The page load after this one.
    package var next: PageLoad { PageLoad(rawValue: rawValue + 1) }

    public var description: String { "page \(rawValue)" }
}
