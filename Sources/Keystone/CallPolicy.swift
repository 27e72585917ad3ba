// CallPolicy.swift — which frames may call: decided once, in the hub, for every host.
/// Decides which callers may reach the bridge at all, from the facts a host reports about each call
/// (its frame and origin). Hosts decide nothing: the Keystone asks its policy about every call,
/// the protocol's own (`_dsb.*`) included, before anything else reads the call.
///
/// An implementation must be fast, must not block, and must throw a ``BridgeError`` (code
/// `notAllowed`) to refuse. Its message reaches the page.
public protocol CallPolicy: Sendable {
    /// Returns when `frame` may call `name`; throws to refuse.
    func admit(_ name: MethodName, from frame: CallerFrame) throws(BridgeError)
}

/// The default ``CallPolicy``: the main frame may call; subframes only when ``allowsSubframes``;
/// callers the engine cannot vouch for only when ``allowsUnattested``.
///
/// Whatever the policy, the Keystone refuses a subframe's asynchronous calls: results are evaluated
/// in the main frame, where the subframe's callback does not exist, so no answer could reach it.
public struct DefaultCallPolicy: CallPolicy {
    /// Whether calls from subframes are answered. Off by default.
    public var allowsSubframes: Bool
    /// Whether calls the engine cannot vouch for are answered, as if from a subframe of unknown
    /// origin (so ``allowsSubframes`` must be on too). Off by default.
    public var allowsUnattested: Bool

    public init(allowsSubframes: Bool = false, allowsUnattested: Bool = false) {
        self.allowsSubframes = allowsSubframes
        self.allowsUnattested = allowsUnattested
    }

    public func admit(_ name: MethodName, from frame: CallerFrame) throws(BridgeError) {
        guard frame.isAttested || allowsUnattested else {
            throw BridgeError(code: .notAllowed, message: "calls the engine cannot attribute to a frame are refused")
        }
        guard frame.isAttestedMainFrame || allowsSubframes else {
            throw BridgeError(code: .notAllowed, message: "calls from subframes are refused")
        }
    }
}
