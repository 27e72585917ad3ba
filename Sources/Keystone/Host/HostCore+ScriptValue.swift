// HostCore+ScriptValue.swift — the app's own script's value, read the same way by every host.
import Foundation

extension HostCore {
    /// The value of a script the app evaluated in the page (`evaluate(javascript:)`), from the JSON
    /// text of its completion value the engine wrote (`nil` for `undefined`, which is `null`).
    /// - Throws: `BridgeError` (`limitExceeded`) when the text is larger than `limit` bytes,
    ///   ``scriptValueNotJSON`` when it does not decode.
    public static func scriptValue(json: Data?, limit: Int) throws(BridgeError) -> JSONValue {
        guard let json else { return .null }
        guard json.count <= limit else { throw scriptValueTooLarge(limit: limit) }
        do {
            return try DefaultJSONSerializer().decode(JSONValue.self, from: json)
        } catch {
            throw scriptValueNotJSON
        }
    }

    /// The error of a script whose value is larger than `limit` bytes, for a host that measures the
    /// value before the engine writes it as JSON.
    public static func scriptValueTooLarge(limit: Int) -> BridgeError {
        BridgeError(code: .limitExceeded, message: "the script's value is larger than BridgeLimits.evaluationResultBytes (\(limit) bytes)")
    }

    /// The error of a script whose value is not JSON (a function, `NaN`, a date the engine cannot write).
    public static let scriptValueNotJSON = BridgeError(code: .failed, message: "the script's value is not JSON")
}
