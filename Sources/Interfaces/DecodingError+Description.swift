// DecodingError+Description.swift — says where decoding failed, never what the payload held.
/// Describes a decoding failure by where it happened (under `root`) and what was expected, never by
/// echoing the payload itself.
package func describeDecodingFailure(_ error: any Error, in root: String) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.reduce(into: root) { text, key in
            text += key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
        }
    }
    switch error {
    case .typeMismatch(let type, let context):
        return "expected \(type) at \(path(context))"
    case .valueNotFound(let type, let context):
        return "expected \(type) but found null at \(path(context))"
    case .keyNotFound(let key, let context):
        return "missing key \"\(key.stringValue)\" at \(path(context))"
    case .dataCorrupted(let context):
        return "\(context.debugDescription) (at \(path(context)))"
    @unknown default:
        return String(describing: error)
    }
}
