// JSONStrings.swift — reading JSON strings and numbers from bytes, and writing strings safely.
/// The byte-level pieces of reading and writing JSON scalars, shared by the parser, the coder and
/// the script renderer.
package enum JSONStrings {
    /// The string an escaped JSON string's bytes (without quotes) stand for; `nil` when an escape
    /// names a lone surrogate, which no Swift `String` can hold. The bytes are already checked to
    /// be well-formed JSON string content.
    package static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = text[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(text, index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate needs its low one, escaped right after it.
                    guard index + 6 <= text.count, text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u") else { return nil }
                    let low = hex4(text, index + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return nil
                }
                UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
            default: out.append(escape)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | (hexValue(text[index + $1]) ?? 0) }
    }

    /// A number written as at most 15 digits (with an optional minus), which a `Double` holds exactly.
    package static func smallInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: text[1...]) : text
        guard digits.count <= 15 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
        }
        return negative ? -value : value
    }

    /// A number written as an integer (digits, with an optional minus) that fits `Integer`.
    package static func integer<Integer: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as type: Integer.Type) -> Integer? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: text[1...]) : text
        guard !digits.isEmpty else { return nil }
        var value: Integer = 0
        for byte in digits {
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            // Accumulated on the number's own side of zero, so the most negative value fits too.
            let (next, overflow2) = negative ? times.subtractingReportingOverflow(Integer(digit)) : times.addingReportingOverflow(Integer(digit))
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    /// Appends `string` as a quoted JSON string that is also a safe JavaScript literal: quotes,
    /// backslashes, control characters, U+2028 and U+2029 escaped; everything else as UTF-8.
    package static func appendQuoted(_ string: some StringProtocol, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = String(string)
        string.withUTF8 { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escape: StaticString?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = #"\""#
                case UInt8(ascii: "\\"): escape = #"\\"#
                case UInt8(ascii: "\n"): escape = #"\n"#
                case UInt8(ascii: "\r"): escape = #"\r"#
                case UInt8(ascii: "\t"): escape = #"\t"#
                case 0..<0x20: escape = ""
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#
                    width = 3
                default: escape = nil
                }
                guard let escape else {
                    index += 1
                    continue
                }
                out.append(contentsOf: bytes[start..<index])
                if escape.utf8CodeUnitCount > 0 {
                    out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
                } else {
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                }
                index += width
                start = index
            }
            out.append(contentsOf: bytes[start..<bytes.count])
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x57 + value
    }
}

/// The value of a hexadecimal digit, or `nil`.
@inline(__always)
package func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte &- 0x30)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte &- 0x57)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte &- 0x37)
    default: nil
    }
}
