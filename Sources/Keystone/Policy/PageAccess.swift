// PageAccess.swift — what a page load has established about itself: authorisation, declared APIs.
/// What the current page load has established about itself with the app. It lasts for that page
/// load only: the next page starts with nothing.
public struct PageAccess: Sendable, Hashable {
    /// Whether the page presented credentials the app's policy accepted (`_dsb.authorize`).
    public var isAuthorized: Bool
    /// The full names of the methods the page declared it will use (`_dsb.declare`), or `nil` when
    /// it declared nothing.
    public var declaredMethods: Set<String>?

    /// Creates what a page load may do: whether it has authorised itself, and the methods it
    /// declared.
    public init(isAuthorized: Bool = false, declaredMethods: Set<String>? = nil) {
        self.isAuthorized = isAuthorized
        self.declaredMethods = declaredMethods
    }
}
