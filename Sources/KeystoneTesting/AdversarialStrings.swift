// AdversarialStrings.swift — strings that break naive bridges, for round-trip tests of any interface.
/// Strings that break bridges which build JavaScript by pasting text: quotes, backslashes, line
/// terminators JavaScript and JSON disagree on, `</script>`, NUL and every control character,
/// characters outside the BMP, and text that looks like code.
///
/// Run your own interfaces' string inputs through them with ``InMemoryPage``. (Lone surrogates are
/// not here: a Swift `String` cannot hold one.)
public enum AdversarialStrings {
    /// Each string with a short name for test output.
    public static let table: [(name: String, value: String)] = [
        ("empty", ""),
        ("single quote", "it's"),
        ("double quote", #"say "hi""#),
        ("backslashes", #"C:\new\table\u0041\\"#),
        ("new lines", "a\nb\r\nc\td\u{0B}e\u{0C}"),
        ("line separator", "a\u{2028}b"),
        ("paragraph separator", "a\u{2029}b"),
        ("script end", "</script><script>alert(1)</script>"),
        ("html comment", "<!-- -->"),
        ("NUL", "a\u{0}b"),
        ("control characters", String(String.UnicodeScalarView((1..<32).compactMap(Unicode.Scalar.init)))),
        ("DEL and C1", "\u{7F}\u{80}\u{9F}"),
        ("emoji", "😀👍🏽👨‍👩‍👧 🇫🇷"),
        ("BOM and noncharacters", "\u{FEFF}\u{FFFE}\u{FFFF}\u{10FFFF}"),
        ("combining marks", "e\u{301}a\u{308}"),
        ("right to left", "\u{202E}abc\u{202C}שלום"),
        ("CJK", "漢字かなカナ한국어"),
        ("string breakout", #"");alert(1);//"#),
        ("bracket breakout", #""]);window.pwned=1;//"#),
        ("template literal", "`${window.pwned=1}`"),
        ("escapes as text", #"\u2028\ud800\x00"#),
        ("percent signs", "%E2%80%A8 100% %"),
        ("long mixed", String(repeating: "ab\u{2028}😀\"\\</script>", count: 50)),
    ]
}
