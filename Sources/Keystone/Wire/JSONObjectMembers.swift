// JSONObjectMembers.swift — one JSON object's members, found by one pass over its bytes.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Finds the members of one JSON object in a single pass over its bytes, without decoding them:
/// each key is compared by what it says (escapes read), and each value is handed on as the range
/// of its bytes. The wrapper of a page's call and the page's answer to a Swift call are both read
/// this way, so a value is decoded once, straight into the type that wants it.
enum JSONObjectMembers {
    /// Scans `raw`, which must be one JSON object nesting at most `maximumDepth` deep, calling
    /// `visit` with the index of each key in `keys` that it meets and its value's byte range. A
    /// later member of the same key replaces an earlier one, as `JSON.parse` does.
    /// - Returns: what is wrong with the bytes, if anything; `isTooDeep` when a value nests deeper
    ///   than `maximumDepth`.
    @inline(__always)
    static func scan(
        _ raw: UnsafeRawBufferPointer, keys: [[UInt8]], maximumDepth: Int, visit: (_ key: Int, _ value: Range<Int>) -> Void
    ) -> (fault: String?, isTooDeep: Bool) {
        var scanner = JSONGrammar.Scanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
        let fault = scanObject(&scanner, raw, keys: keys, visit: visit)
        return (scanner.isTooDeep ? nil : fault, scanner.isTooDeep)
    }

    @inline(__always)
    private static func scanObject(
        _ scanner: inout JSONGrammar.Scanner, _ raw: UnsafeRawBufferPointer, keys: [[UInt8]], visit: (Int, Range<Int>) -> Void
    ) -> String? {
        scanner.skipSpace()
        guard scanner.peek(UInt8(ascii: "{")) else { return "the message is not a JSON object" }
        scanner.index += 1
        scanner.skipSpace()
        if scanner.peek(UInt8(ascii: "}")) {
            scanner.index += 1
            return end(&scanner)
        }
        while true {
            let keyStart = scanner.index
            guard scanner.peek(UInt8(ascii: "\"")), scanner.scanString() else { return invalid }
            let key = UnsafeRawBufferPointer(rebasing: raw[(keyStart + 1)..<(scanner.index - 1)])
            scanner.skipSpace()
            guard scanner.peek(UInt8(ascii: ":")) else { return invalid }
            scanner.index += 1
            scanner.skipSpace()
            let valueStart = scanner.index
            guard scanner.skipValue() else { return invalid }
            if let index = position(of: key, in: keys) { visit(index, valueStart..<scanner.index) }
            scanner.skipSpace()
            if scanner.peek(UInt8(ascii: ",")) {
                scanner.index += 1
                scanner.skipSpace()
            } else if scanner.peek(UInt8(ascii: "}")) {
                scanner.index += 1
                return end(&scanner)
            } else {
                return invalid
            }
        }
    }

    private static let invalid = "the message is not valid JSON"

    /// Nothing but white space may follow the object.
    private static func end(_ scanner: inout JSONGrammar.Scanner) -> String? {
        scanner.skipSpace()
        return scanner.index == scanner.bytes.count ? nil : invalid
    }

    /// Which of `keys` a key's text (between its quotes) says, if any.
    private static func position(of key: UnsafeRawBufferPointer, in keys: [[UInt8]]) -> Int? {
        var index = 0
        while index < keys.count {
            if spells(key, keys[index]) { return index }
            index += 1
        }
        guard key.contains(UInt8(ascii: "\\")), key.count <= 6 * (keys.map(\.count).max() ?? 0), let text = JSONStrings.unescape(key.bindMemory(to: UInt8.self)) else {
            return nil
        }
        return keys.firstIndex { $0.elementsEqual(text.utf8) }
    }

    /// Whether `bytes` are exactly `word`'s bytes.
    static func spells(_ bytes: UnsafeRawBufferPointer, _ word: [UInt8]) -> Bool {
        guard bytes.count == word.count, let base = bytes.baseAddress else { return word.isEmpty && bytes.isEmpty }
        return word.withUnsafeBytes { memcmp(base, $0.baseAddress!, word.count) == 0 }
    }
}
