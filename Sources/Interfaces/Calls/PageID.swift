// PageID.swift — which of a hub's pages (web views) a call came from, or a message goes to.
/// One of the pages a hub serves: a web view of the app's, each with its own page loads. A Keystone
/// attached to one host serves one page, ``first``; each further host attached at once gets the next.
///
/// ```swift
/// methods.sync("whoami") { (context: CallContext) in context.pageID.rawValue }
/// ```
public struct PageID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The page's number: the first is 1, each page opened after it a larger one, never reused.
    public let rawValue: Int

    /// The page numbered `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A hub's first page: a Keystone's own.
    public static let first = PageID(rawValue: 1)

    public static func < (lhs: PageID, rhs: PageID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "page #\(rawValue)" }
}
