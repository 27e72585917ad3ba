// CallPolicy.swift — which callers may use which powers: decided once, in the hub, for every host.
/// Decides which callers may reach the bridge and which namespaces they may call, from the facts a
/// host reports about each call (its frame and origin, and whether the engine vouches for them)
/// and what the page load has established (``PageAccess``). Hosts decide nothing: the Keystone asks
/// its policy about every call, the protocol's own (`_dsb.*`) included, before anything else reads
/// the call.
///
/// An implementation must be fast, must not block, and must throw a `BridgeError` with code
/// `notAllowed` to refuse, with a message naming the rule (it reaches the page).
public protocol CallPolicy: Sendable {
    /// Returns when `frame` may send the bridge anything at all; throws to refuse. Hosts ask before
    /// they read what a sender posted, so a refused sender's message is refused whole, unread. It
    /// must agree with ``admit(_:from:access:)``: what it refuses, that refuses too.
    func admitSender(_ frame: CallerFrame) throws(BridgeError)
    /// Returns when `frame` may call `name` during a page load that has established `access`;
    /// throws to refuse.
    func admit(_ name: MethodName, from frame: CallerFrame, access: PageAccess) throws(BridgeError)
    /// The origins whose documents get the page runtime and the host's relay at all (`nil`: every
    /// document). Hosts read it when they are created.
    var runtimeOrigins: Set<String>? { get }
    /// Whether `credentials`, presented by the page's main frame (`_dsb.authorize`), authorise its
    /// page load. The grant lasts until the page unloads, and holds for that frame's origin: a
    /// subframe of another origin stays unauthorised.
    func authorize(_ credentials: JSONValue, from frame: CallerFrame) async throws -> Bool
}

extension CallPolicy {
    public var runtimeOrigins: Set<String>? { nil }

    /// Admits every sender: each of its calls is still put to ``admit(_:from:access:)``.
    public func admitSender(_ frame: CallerFrame) throws(BridgeError) {}

    public func authorize(_ credentials: JSONValue, from frame: CallerFrame) async throws -> Bool {
        throw BridgeError(code: .notAllowed, message: "this app does not authorise pages")
    }
}
