// What the security article leaves to the reader: the app's signature check.
import Keystone

/// Checks signatures the app's server issued.
struct Signatures: Sendable {
    func verify(_ credentials: JSONValue, origin: String?) async throws -> Bool { credentials != .null && origin != nil }
}

let signatures = Signatures()
