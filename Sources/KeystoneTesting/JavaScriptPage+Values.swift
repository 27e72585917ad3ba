// JavaScriptPage+Values.swift — values as they cross between Swift and a JavaScriptPage: JSON with
// each bytes value a marker and a part beside it, and the errors a page's promise rejects with.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

extension JavaScriptPage {
    /// The marker a bytes value crosses between Swift and the page under, before its index.
    static let partMarker = "keystone-testing-part:"

    /// `json` with each part's marker replaced by the part's bytes as base64, as a `Data` reads.
    static func value(_ json: String, _ parts: [Data], _ serializer: any JSONSerializer) throws -> JSONValue {
        let value = try serializer.decode(JSONValue.self, from: Data(json.utf8))
        guard !parts.isEmpty else { return value }
        return inline(value, parts)
    }

    private static func inline(_ value: JSONValue, _ parts: [Data]) -> JSONValue {
        switch value {
        case .string(let text) where text.hasPrefix(partMarker):
            guard let index = Int(text.dropFirst(partMarker.count)), parts.indices.contains(index) else { return value }
            return .string(parts[index].base64EncodedString())
        case .array(let items): return .array(items.map { inline($0, parts) })
        case .object(let members): return .object(JSONObject(members.map { ($0.0, inline($0.1, parts)) }))
        default: return value
        }
    }

    static func error(_ json: JSONValue) -> BridgeError {
        guard case .object(let members) = json else { return BridgeError(code: .failed, message: "rejected") }
        let code = members.first { $0.0 == "code" }.flatMap { if case .number(let n) = $0.1 { Int(n) } else { nil } }
        let message = members.first { $0.0 == "message" }.flatMap { if case .string(let s) = $0.1 { s } else { nil } } ?? ""
        return BridgeError(code: code.flatMap(BridgeError.Code.init(rawValue:)) ?? .failed, message: message)
    }
}
