// SingleResult.swift — one result of a page's call, checked: a JSON value, or none.
import Foundation

/// One result of a page's call, checked before it can reach a script: a JSON value, or none (a
/// method that returns nothing, `Invoker/noResult`).
enum SingleResult: Sendable {
    case value(JSONText)
    case nothing

    /// Reads a method's result bytes: no bytes is no value; anything else must be JSON.
    init(_ bytes: Data) throws(BridgeError) {
        self = bytes.isEmpty ? .nothing : .value(try JSONText(validating: bytes))
    }

    /// The bytes a prompt's answer carries: the JSON, or none for ``nothing``.
    var bytes: Data {
        switch self {
        case .value(let json): json.bytes
        case .nothing: Invoker.noResult
        }
    }

    /// The message that delivers this result to the page's `callback`. A result of nothing always
    /// completes the call (only a single result can be nothing).
    func message(to callback: String, complete: Bool) -> PageMessage {
        switch self {
        case .value(let json): .result(callback: callback, value: json, complete: complete)
        case .nothing: .noResult(callback: callback)
        }
    }
}
