// JSONGrammar.swift — one-pass JSON syntax checks (RFC 8259) without building any value.
import Foundation

/// Checks JSON syntax without building any value; nesting is tracked on a heap stack, not by recursion.
package enum JSONGrammar {
    /// The offset of the first byte that breaks the grammar, or `nil` when `data` is one JSON value.
    package static func firstError(in data: Data) -> Int? {
        check(data).firstError
    }

    /// Checks that `data` is one JSON value: the offset of the first byte that breaks the grammar
    /// (or `nil`), and the byte ranges of object keys that spell `__proto__`, escapes read — the one
    /// key whose meaning JavaScript source and `JSON.parse` disagree on.
    package static func check(_ data: Data) -> (firstError: Int?, protoKeys: [Range<Int>]) {
        data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            scanner.recordsProtoKeys = true
            scanner.skipSpace()
            guard scanner.skipValue() else { return (scanner.index, []) }
            scanner.skipSpace()
            return (scanner.index == scanner.bytes.count ? nil : scanner.index, scanner.protoKeys)
        }
    }

    /// Walks UTF-8 JSON text byte by byte.
    package struct Scanner {
        package let bytes: UnsafeBufferPointer<UInt8>
        package var index = 0
        /// How deep arrays and objects may nest inside one value ``skipValue()`` moves past.
        package var maximumDepth: Int
        /// Whether ``skipValue()`` stopped because the value nests deeper than ``maximumDepth``.
        package private(set) var isTooDeep = false
        /// Whether object keys that spell `__proto__` are recorded in ``protoKeys``.
        package var recordsProtoKeys = false
        /// The byte ranges (quotes included) of the object keys that spell `__proto__`.
        package private(set) var protoKeys: [Range<Int>] = []

        package init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = .max) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        private enum Container { case array, object }

        /// Moves past one JSON value starting at `index`; `false` (with `index` at the fault) when
        /// the text there is not one.
        ///
        /// Longer than most functions on purpose: one loop over the bytes with an explicit stack,
        /// so nesting costs no recursion and the hot path takes no calls.
        package mutating func skipValue() -> Bool {
            var stack: [Container] = []
            // Expect a value; after it, close containers or continue with `,`.
            while true {
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    guard stack.count < maximumDepth else {  // an empty container is a level too
                        isTooDeep = true
                        return false
                    }
                    index += 1
                    skipSpace()
                    if peek(UInt8(ascii: "}")) {
                        index += 1
                    } else {
                        stack.append(.object)
                        guard scanKey() else { return false }
                        continue
                    }
                case UInt8(ascii: "["):
                    guard stack.count < maximumDepth else {  // an empty container is a level too
                        isTooDeep = true
                        return false
                    }
                    index += 1
                    skipSpace()
                    if peek(UInt8(ascii: "]")) {
                        index += 1
                    } else {
                        stack.append(.array)
                        continue
                    }
                case UInt8(ascii: "\""):
                    guard scanString() else { return false }
                case UInt8(ascii: "t"):
                    guard scanWord("true") else { return false }
                case UInt8(ascii: "f"):
                    guard scanWord("false") else { return false }
                case UInt8(ascii: "n"):
                    guard scanWord("null") else { return false }
                default:
                    guard scanNumber() else { return false }
                }
                // A value ended: close what closes, then expect the next member or the end.
                while true {
                    guard let top = stack.last else { return true }
                    skipSpace()
                    guard index < bytes.count else { return false }
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        skipSpace()
                        if top == .object {
                            guard scanKey() else { return false }
                        }
                        break
                    }
                    guard byte == (top == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")) else { return false }
                    index += 1
                    stack.removeLast()
                }
            }
        }

        /// Whether a string token (quotes included) spells `__proto__`, escapes read.
        private static func spellsProto(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
            if token.count == 11 { return token.elementsEqual(#""__proto__""#.utf8) }
            // Escaped, it is longer, but never more than six bytes a character.
            guard token.count > 11, token.count <= 2 + 6 * 9, token.contains(UInt8(ascii: "\\")) else { return false }
            return JSONStrings.unescape(UnsafeBufferPointer(rebasing: token.dropFirst().dropLast())) == "__proto__"
        }

        package func peek(_ byte: UInt8) -> Bool {
            index < bytes.count && bytes[index] == byte
        }

        package mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// `"key"` then `:`, leaving the index at the member's value.
        private mutating func scanKey() -> Bool {
            let start = index
            guard peek(UInt8(ascii: "\"")), scanString() else { return false }
            if recordsProtoKeys, Self.spellsProto(UnsafeBufferPointer(rebasing: bytes[start..<index])) {
                protoKeys.append(start..<index)
            }
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { return false }
            index += 1
            skipSpace()
            return true
        }

        /// Moves past `word` (`true`, `false`, `null`) at `index`.
        package mutating func scanWord(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                return false
            }
            index += count
            return true
        }

        /// Whether the last string ``scanString()`` moved past held an escape.
        package private(set) var stringHadEscape = false

        /// Moves past a string whose opening quote is at `index`: escapes checked, UTF-8 validated.
        package mutating func scanString() -> Bool {
            index += 1  // opening quote
            stringHadEscape = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                case UInt8(ascii: "\\"):
                    stringHadEscape = true
                    index += 1
                    guard index < bytes.count else { return false }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        guard index + 4 < bytes.count else { return false }
                        for offset in 1...4 where hexValue(bytes[index + offset]) == nil { return false }
                        index += 5
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false
                case 0x20..<0x80:
                    index += 1
                default:
                    guard skipMultiByteCharacter() else { return false }
                }
            }
            return false
        }

        /// Moves past one well-formed UTF-8 sequence of two to four bytes (no overlongs, no surrogates).
        private mutating func skipMultiByteCharacter() -> Bool {
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch bytes[index] {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
            return true
        }

        /// Moves past a number starting at `index`.
        package mutating func scanNumber() -> Bool {
            if peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                skipDigits()
            }
            if peek(UInt8(ascii: ".")) {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { return false }
                skipDigits()
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { return false }
                skipDigits()
            }
            return true
        }

        private mutating func skipDigits() {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    }
}
