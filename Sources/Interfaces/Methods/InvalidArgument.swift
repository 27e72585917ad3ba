// InvalidArgument.swift — the page's `data` did not decode into a method's input.
/// The page's `data` did not decode into the method's input. A dispatcher reports it as
/// ``BridgeError/Code-swift.struct/invalidArgument`` naming the method.
package struct InvalidArgument: Error, Sendable {
    /// Where decoding failed and what was expected, without the payload itself.
    package var reason: String

    /// Creates the error, with `reason` saying what was wrong (never quoting the value).
    package init(reason: String) {
        self.reason = reason
    }
}
