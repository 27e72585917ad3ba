// DefaultMethodResolver.swift — the default resolver: trims the name and splits it at its last dot.
/// The DSBridge rule: surrounding white space is trimmed, the namespace is everything before the
/// LAST dot, and no part may be empty (`".m"`, `"a..m"`, `"a."` are refused).
public struct DefaultMethodResolver: MethodResolver {
    /// Creates the resolver.
    public init() {}

    public func resolve(_ method: String) throws(BridgeError) -> MethodName {
        var text = method
        switch text.withUTF8(Self.splitASCII) {
        case .name(let namespace, let name): return MethodName(namespace: namespace, name: name)
        case .notAName: throw notAName(Substring(method).trimmingWhiteSpace)
        case .needsCharacters: return try resolveByCharacters(method)
        }
    }

    /// What the bytes of a name say, read without looking for character boundaries.
    private enum ByteSplit {
        case name(String, String)
        case notAName
        /// A non-ASCII byte stands where white space is looked for: whether it is white space is a
        /// question for characters.
        case needsCharacters
    }

    /// The common case, a name whose parts begin and end with ASCII, read byte by byte: a dot is
    /// one byte in UTF-8 and never part of another character's bytes.
    private static func splitASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteSplit {
        var start = 0
        var end = bytes.count
        while start < end, isASCIIWhiteSpace(bytes[start]) { start += 1 }
        while end > start, isASCIIWhiteSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return .notAName }
        var dot = end - 1
        while dot >= start, bytes[dot] != UInt8(ascii: ".") { dot -= 1 }
        // Every part, between dots, must be a trimmed word.
        var partStart = start
        for index in start...end where index == end || bytes[index] == UInt8(ascii: ".") {
            guard index > partStart else { return .notAName }
            guard let isWord = asciiTrimmedWord(first: bytes[partStart], last: bytes[index - 1]) else { return .needsCharacters }
            guard isWord else { return .notAName }
            partStart = index + 1
        }
        let text = { (range: Range<Int>) in String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return dot < start ? .name("", text(start..<end)) : .name(text(start..<dot), text(dot + 1..<end))
    }

    /// The same rule, for a name with a non-ASCII character at the end of a part.
    private func resolveByCharacters(_ method: String) throws(BridgeError) -> MethodName {
        let trimmed = Substring(method).trimmingWhiteSpace
        let bytes = trimmed.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else {
            guard trimmed.isTrimmedWord else { throw notAName(trimmed) }
            return MethodName(namespace: "", name: String(trimmed))
        }
        let namespace = Substring(bytes[..<dot])
        let name = Substring(bytes[bytes.index(after: dot)...])
        // A dot needs a namespace before it: ".m" names nothing, it is not "m" in the empty one.
        guard !namespace.isEmpty, name.isTrimmedWord, MethodName.isValidNamespace(namespace) else { throw notAName(trimmed) }
        return MethodName(namespace: String(namespace), name: String(name))
    }

    private func notAName(_ text: Substring) -> BridgeError {
        BridgeError(code: .notFound, message: "\"\(text)\" is not a method name: a part is empty or padded with white space")
    }
}
