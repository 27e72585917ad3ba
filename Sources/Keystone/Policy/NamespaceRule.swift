// NamespaceRule.swift — who may call one namespace (and the namespaces under it).
/// Who may call a namespace and the namespaces below it (a rule for `payments` covers
/// `payments.cards` unless that has a rule of its own).
public struct NamespaceRule: Sendable, Hashable {
    /// The origins whose pages may call it (`nil`: every origin the policy admits).
    public var origins: Set<String>?
    /// Whether subframes the policy admits may call it too. Off by default.
    public var allowsSubframes: Bool
    /// Whether it answers before the page is authorised, when the policy authorises pages.
    public var isPublic: Bool

    /// Creates a rule; each parameter sets the property of the same name.
    public init(origins: Set<String>? = nil, allowsSubframes: Bool = false, isPublic: Bool = false) {
        self.origins = origins
        self.allowsSubframes = allowsSubframes
        self.isPublic = isPublic
    }
}
