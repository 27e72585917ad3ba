// BridgeError.swift — the one error type that crosses the bridge: a code, a message, a cause.
import Foundation

/// An error that crosses the bridge, in either direction.
///
/// Every failure the page or Swift can observe is a `BridgeError`: an unknown method, an argument
/// that does not decode, an error thrown by an interface method, a cancelled call. The page receives
/// its ``code`` and ``message`` as `{"code": …, "message": …}`; the ``cause`` stays on the Swift side.
///
/// Throw one from an interface method to choose the code the page sees:
///
/// ```swift
/// throw BridgeError(code: 1001, message: "not signed in")
/// ```
public struct BridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, as the number the page receives.
    public var code: Code
    /// A human-readable account of what failed. The errors Keystone makes never quote a payload.
    public var message: String
    /// The underlying error, if any. It is not sent to the page and does not take part in equality.
    public var cause: (any Error)?

    /// Creates an error with a code, a message and an optional underlying cause.
    public init(code: Code, message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// Wraps any error: a `BridgeError` stays as it is, a ``BridgeErrorConvertible`` supplies its own,
    /// a `CancellationError` becomes ``Code-swift.struct/cancelled``, a `DecodingError` or
    /// `EncodingError` becomes ``Code-swift.struct/failed`` with a message that says where it failed
    /// but not what the value held, and anything else becomes ``Code-swift.struct/failed`` with the
    /// error's description as the message.
    public init(_ error: any Error) {
        switch error {
        case let error as BridgeError:
            self = error
        case let error as any BridgeErrorConvertible:
            self = error.bridgeError
        case is CancellationError:
            self.init(code: .cancelled, message: "the call was cancelled", cause: CancellationError())
        case is DecodingError:
            self.init(code: .failed, message: describeDecodingFailure(error, in: "a value"), cause: error)
        case is EncodingError:
            self.init(code: .failed, message: describeEncodingFailure(error, in: "a value"), cause: error)
        default:
            self.init(code: .failed, message: String(describing: error), cause: error)
        }
    }

    public var description: String {
        "BridgeError(\(code.rawValue) \(code)): \(message)"
    }

    public static func == (lhs: BridgeError, rhs: BridgeError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension BridgeError: Codable {
    private enum CodingKeys: String, CodingKey {
        case code
        case message
    }

    /// Decodes the wire form `{"code": Int, "message": String}`; a missing message becomes "".
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(Int.self, forKey: .code)
        let message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        self.init(code: Code(rawValue: code), message: message)
    }

    /// Encodes the wire form `{"code": Int, "message": String}`; the cause is not encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(message, forKey: .message)
    }
}
