// CodingFailure+Description.swift — says where decoding or encoding failed, never what a value held.
/// Describes a decoding failure by where it happened (under `root`) and what was expected, never by
/// echoing the payload: a `dataCorrupted` error's own description often quotes the value (an enum's
/// "invalid String value …"), so it is not used.
package func describeDecodingFailure(_ error: any Error, in root: String) -> String {
    guard let error = error as? DecodingError else { return "the value at \(root) could not be read" }
    switch error {
    case .typeMismatch(let type, let context):
        return "expected \(type) at \(path(root, context.codingPath))"
    case .valueNotFound(let type, let context):
        return "expected \(type) but found null at \(path(root, context.codingPath))"
    case .keyNotFound(let key, let context):
        return "missing key \"\(pathKey(key.stringValue))\" at \(path(root, context.codingPath))"
    case .dataCorrupted(let context):
        return "the value at \(path(root, context.codingPath)) is not one its type accepts"
    @unknown default:
        return "the value at \(root) could not be read"
    }
}

/// Describes an encoding failure by where it happened (under `root`) and the type of the value,
/// never by the value or the encoder's description of it.
package func describeEncodingFailure(_ error: any Error, in root: String) -> String {
    guard case .invalidValue(let value, let context) = error as? EncodingError else {
        return "the value at \(root) could not be encoded as JSON"
    }
    return "a \(type(of: value)) at \(path(root, context.codingPath)) cannot be encoded as JSON"
}

/// `root.key[2].other`, each key cut to a few dozen characters and the whole to its last part, so
/// a page's own dictionary keys cannot make a message long.
private func path(_ root: String, _ codingPath: [any CodingKey]) -> String {
    var parts = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(pathKey(key.stringValue))" }
    if parts.count > 8 { parts = ["…"] + parts.suffix(8) }
    return root + parts.joined()
}

private func pathKey(_ key: String) -> String {
    key.count > 32 ? key.prefix(32) + "…" : key
}
