// PageSelection.swift — which of a Keystone's pages an event or a call goes to.
/// Which of a Keystone's pages (``Keystone/pages``) an event or a call goes to.
///
/// ```swift
/// try keystone.emit("cart.changed", cart, to: .origin("https://shop.example"))
/// ```
public enum PageSelection: Sendable, Equatable {
    /// Every page open now.
    case all
    /// The pages whose main document is of the origin, as it reported it when its runtime
    /// initialized: a page not yet initialized is of none.
    case origin(String)
    /// The pages named, those of them still open.
    case pages(Set<PageID>)

    /// Whether the selection takes `page`.
    func contains(_ page: KeystonePage) -> Bool {
        switch self {
        case .all: true
        case .origin(let origin): page.origin == origin
        case .pages(let ids): ids.contains(page.id)
        }
    }
}
