// MethodResolverTests.swift — the default resolver reads a name byte by byte where it can, and
// always as the rule reads it character by character.
import Keystone
import Testing

@Suite("The default method resolver")
struct MethodResolverTests {
    /// The rule, read character by character: white space trimmed at both ends, the namespace
    /// before the last dot, every part non-empty and not padded with white space.
    static func byTheRule(_ method: String) -> MethodName? {
        var trimmed = Substring(method)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        func isWord(_ part: Substring) -> Bool { part.first.map { !$0.isWhitespace } == true && part.last.map { !$0.isWhitespace } == true }
        guard let dot = trimmed.utf8.lastIndex(of: UInt8(ascii: ".")) else {
            return isWord(trimmed) ? MethodName(namespace: "", name: String(trimmed)) : nil
        }
        let namespace = Substring(trimmed.utf8[..<dot])
        let name = Substring(trimmed.utf8[trimmed.utf8.index(after: dot)...])
        let parts = namespace.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { Substring($0) }
        guard isWord(name), parts.allSatisfy(isWord) else { return nil }
        return MethodName(namespace: String(namespace), name: String(name))
    }

    @Test(arguments: [
        "m", "a.m", "a.b.c.m", "  a.b.m\t\n", "math.basic.ops.mul",
        "", " ", ".", ".m", "a.", "a..m", "a. b.m", "a .b.m", "a.b .m", "a.\tm", "\u{0B}a.m",
        "é.m", "a.é", "é", "数学.加", "a.m\u{301}", "a\u{301}.m", "a.\u{301}m", "\u{301}a.m",
        "\u{A0}a.m", "a.m\u{A0}", "a.\u{A0}m", "a\u{A0}.m", "\u{2003}math.add\u{2003}", "a.\u{2003}.m",
        "a.b\u{200D}.m", "🙂.😀", "a.🙂 ", " 🙂.m",
    ])
    func aNameResolvesAsTheRuleReadsIt(_ method: String) {
        let resolved = try? DefaultMethodResolver().resolve(method)
        #expect(resolved == Self.byTheRule(method), "\(method.debugDescription)")
    }

    @Test func aNameItRefusesIsNotFoundAndQuotedTrimmed() {
        #expect(throws: BridgeError(code: .notFound, message: "\"a..m\" is not a method name: a part is empty or padded with white space")) {
            try DefaultMethodResolver().resolve("  a..m ")
        }
        #expect(throws: BridgeError(code: .notFound, message: "\"a.\u{A0}m\" is not a method name: a part is empty or padded with white space")) {
            try DefaultMethodResolver().resolve("\u{A0}a.\u{A0}m")
        }
    }

    @Test func theNamespaceIsEverythingBeforeTheLastDot() throws {
        #expect(try DefaultMethodResolver().resolve("a.b.c.m") == MethodName(namespace: "a.b.c", name: "m"))
        #expect(try DefaultMethodResolver().resolve("m") == MethodName(namespace: "", name: "m"))
    }
}
