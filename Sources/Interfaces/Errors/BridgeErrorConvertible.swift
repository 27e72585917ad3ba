// BridgeErrorConvertible.swift — an app error that says which code and message the page receives.
/// An app error type that chooses the ``BridgeError`` the page receives when it is thrown.
///
/// ```swift
/// enum LoginError: Error, BridgeErrorConvertible {
///     case notSignedIn
///     var bridgeError: BridgeError { BridgeError(code: 1001, message: "not signed in") }
/// }
/// ```
public protocol BridgeErrorConvertible: Error {
    /// The code and message the page receives for this error.
    var bridgeError: BridgeError { get }
}
