import Foundation
// JSONText.swift — UTF-8 text checked to be one JSON value: the only kind of value put in a script.
import KeystoneInterfaces

/// UTF-8 text that is known to hold exactly one JSON value.
///
/// Every value Keystone places in a script is a `JSONText`, so whatever a serializer produces, a
/// value cannot end a literal early or run as code: text that is not JSON never gets this far. It
/// also knows where its object keys spell `__proto__`, so a script can give the page those members
/// as data, as `JSON.parse` would, rather than as a prototype.
public struct JSONText: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 bytes of the JSON text.
    public let bytes: Data
    /// The byte ranges of the object keys that spell `__proto__` (usually none).
    let protoKeys: [Range<Int>]

    /// Checks that `bytes` is exactly one JSON value (surrounding white space allowed).
    /// - Throws: `BridgeError` with code `unencodableValue` when it is not.
    public init(validating bytes: Data) throws(BridgeError) {
        let (offset, protoKeys) = JSONGrammar.check(bytes)
        if let offset {
            throw BridgeError(code: .unencodableValue, message: "the serializer produced text that is not JSON (byte \(offset))")
        }
        self.bytes = bytes
        self.protoKeys = protoKeys
    }

    /// The JSON text of a string value: `"…"` with quotes, backslashes, control characters and
    /// U+2028/U+2029 escaped, so the result is a valid JSON string and JavaScript string literal.
    public init(quoting string: String) {
        var out = [UInt8]()
        out.reserveCapacity(string.utf8.count + 2)
        JSONText.appendQuoted(string, to: &out)
        bytes = Data(out)
        protoKeys = []
    }

    /// The text as a Swift string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { string }
}

extension JSONText {
    /// Appends `string` as a quoted JSON string literal that is also a safe JavaScript literal.
    package static func appendQuoted(_ string: some StringProtocol, to out: inout [UInt8]) {
        JSONStrings.appendQuoted(string, to: &out)
    }

    /// Appends JSON text as JavaScript source that evaluates to what `JSON.parse` would give: byte
    /// for byte, except that U+2028 and U+2029 (legal raw in JSON strings, line terminators in
    /// older JavaScript) become `\u2028` and `\u2029`, and an object key that spells `__proto__`
    /// becomes the computed key `["__proto__"]`, which makes an own property as `JSON.parse` does
    /// where the plain key would set the object's prototype.
    package static func appendScriptLiteral(_ text: JSONText, to out: inout [UInt8]) {
        text.bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            for key in text.protoKeys {
                appendEscapingLineTerminators(UnsafeBufferPointer(rebasing: bytes[start..<key.lowerBound]), to: &out)
                out.append(contentsOf: #"["__proto__"]"#.utf8)
                start = key.upperBound
            }
            appendEscapingLineTerminators(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), to: &out)
        }
    }

    /// Appends JSON bytes with U+2028 and U+2029 escaped. Outside strings valid JSON cannot hold
    /// them, so the escape is always inside a string.
    private static func appendEscapingLineTerminators(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            if bytes[index] == 0xE2, index + 2 < count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                out.append(contentsOf: #"\u202"#.utf8)
                out.append(bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
    }
}
