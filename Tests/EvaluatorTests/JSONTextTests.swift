// JSONTextTests.swift — the JSON grammar check and the literal quoting that keep scripts safe.
import Foundation
import KeystoneEvaluator
import KeystoneInterfaces
import Testing

@Suite("JSONText")
struct JSONTextTests {
    @Test(arguments: [
        "0", "-0.5e+10", "1E3", #""""#, #""\u00e9\n\/""#, "[]", "{}", " [1, {\"a\": [null, true, false]}] ",
        #"{"a":1,"b":[{"c":"d"}]}"#, "\"\u{2028}\"",
    ])
    func acceptsJSON(_ text: String) throws {
        _ = try JSONText(validating: Data(text.utf8))
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    }

    @Test(arguments: [
        "", " ", "alert(1)", "[1,]", "{\"a\"}", "{\"a\":1,}", "[1] [2]", "01", "1.", "-", ".5", "+1",
        "\"unterminated", "\"raw\nnewline\"", "\"\\x\"", "\"\\u12\"", "tru", "nul", "[", "{\"a\":1",
        "\"a\");alert(1);(\"", "1e", "[1 2]", "{1:2}",
    ])
    func refusesEverythingElse(_ text: String) {
        #expect(throws: BridgeError.self) { try JSONText(validating: Data(text.utf8)) }
    }

    @Test func deepNestingIsCheckedWithoutRecursion() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try JSONText(validating: Data(text.utf8))
    }

    @Test func quotingEscapesEverythingThatCouldEndOrBreakALiteral() throws {
        let raw = "a\"b\\c\n\r\t\u{0}\u{1F}\u{2028}\u{2029}</script>😀"
        let quoted = JSONText(quoting: raw)
        #expect(quoted.string == #""a\"b\\c\n\r\t\u0000\u001f\u2028\u2029</script>😀""#)
        #expect(try JSONDecoder().decode(String.self, from: quoted.bytes) == raw)
    }
}
