// Substring+Names.swift — the one rule for a usable namespace part or method name, kept cheap.
extension Substring {
    /// Non-empty, with no white space at either end: a usable namespace part or method name.
    package var isTrimmedWord: Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        if let ascii = asciiTrimmedWord(first: first, last: last) { return ascii }
        return self.first?.isWhitespace == false && self.last?.isWhitespace == false
    }

    /// The text without white space at either end; no work when the ends are plain ASCII.
    package var trimmingWhiteSpace: Substring {
        var text = self
        while let byte = text.utf8.first, byte >= 0x80 || isASCIIWhiteSpace(byte) {
            guard text.first?.isWhitespace == true else { break }
            text.removeFirst()
        }
        while let byte = text.utf8.last, byte >= 0x80 || isASCIIWhiteSpace(byte) {
            guard text.last?.isWhitespace == true else { break }
            text.removeLast()
        }
        return text
    }
}

/// Whether a non-empty part whose first and last bytes are `first` and `last` is a trimmed word,
/// told from the bytes when both are ASCII; `nil` when either is not, which only its characters
/// can tell.
package func asciiTrimmedWord(first: UInt8, last: UInt8) -> Bool? {
    guard first < 0x80, last < 0x80 else { return nil }
    return !isASCIIWhiteSpace(first) && !isASCIIWhiteSpace(last)
}

/// Tab, line feed, vertical tab, form feed, carriage return and space.
package func isASCIIWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
}
