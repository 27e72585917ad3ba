// HostCore+ScriptValue.swift — the app's own script's value, read the same way by every host.
import Foundation
import Keystone

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

    /// The script a host evaluates for the app's `javascript`, so that its value is measured in the
    /// page and never crosses to the app past `limit`: it runs `javascript` by indirect `eval` (so
    /// with the global scope and completion value it would have on its own) and evaluates to a
    /// string, ``measuredValue(_:limit:)``'s to read: `=` and the value's JSON text, or a marker
    /// that it was too large, not JSON, or could not be measured (a Content Security Policy
    /// without `'unsafe-eval'`: the host then evaluates `javascript` itself, as it would
    /// unmeasured). `javascript` reaches the page as a string literal, never as code of the
    /// wrapper. An array longer than `limit` is refused before it is written out.
    public static func measuredScript(_ javascript: String, limit: Int) -> String {
        """
        (function(s,n){var v;try{v=(0,eval)(s)}catch(e){if(e instanceof EvalError&&/unsafe-eval/.test(String(e&&e.message)))\
        return "\\u0001unmeasured";throw e}if(v===undefined)return "=null";if(Array.isArray(v)&&v.length>n)return "\\u0001large";\
        var t=JSON.stringify(v);if(typeof t!=="string")return "\\u0001notjson";return t.length<=n?"="+t:"\\u0001large"})\
        (\(JSONText(quoting: javascript).string),\(limit))
        """
    }

    /// What a host does with the string a ``measuredScript(_:limit:)`` evaluated to.
    public enum MeasuredValue: Sendable, Hashable {
        /// The script's value.
        case value(JSONValue)
        /// The page could not measure it (its Content Security Policy forbids `eval`): evaluate the
        /// app's script itself and read its value with ``scriptValue(json:limit:)``.
        case unmeasured
    }

    /// Reads the string a ``measuredScript(_:limit:)`` evaluated to (`nil` when the engine gave none).
    /// - Throws: `limitExceeded` when the page measured the value past `limit`, or its text is
    ///   larger than `limit` bytes; ``scriptValueNotJSON`` when it is not JSON.
    public static func measuredValue(_ text: String?, limit: Int) throws(BridgeError) -> MeasuredValue {
        guard let text else { throw scriptValueNotJSON }
        switch text {
        case "\u{1}unmeasured": return .unmeasured
        case "\u{1}large": throw scriptValueTooLarge(limit: limit)
        case "\u{1}notjson": throw scriptValueNotJSON
        default:
            guard text.hasPrefix("=") else { throw scriptValueNotJSON }
            return .value(try scriptValue(json: Data(text.utf8.dropFirst()), limit: limit))
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
