// PostedTextTests.swift — what a page posts is read by length: a NUL or a lone surrogate in one call
// never shortens, shifts or merges another.
import Keystone
import KeystoneHost
import Testing

@Suite("Posted text")
struct PostedTextTests {
    /// Runs `body` with `bytes` as the engine would hand them over.
    func with<R>(_ bytes: [UInt8], _ body: (PostedText.Bytes) -> R) -> R {
        bytes.withUnsafeBufferPointer(body)
    }

    func framed(_ message: String) -> [UInt8] {
        Array("\(message.utf16.count):".utf8) + Array(message.utf8)
    }

    /// WTF-8 bytes of a lone high surrogate, as an engine may write one.
    let loneSurrogate: [UInt8] = [0xED, 0xA0, 0x80]

    @Test func lengthsAreCountedInTheUTF16CodeUnitsThePageCounts() {
        #expect(with(Array("abc".utf8), PostedText.utf16Count) == 3)
        #expect(with(Array("é€😀".utf8), PostedText.utf16Count) == 4)
        #expect(with([0x61, 0x00, 0x62], PostedText.utf16Count) == 3)
        #expect(with(loneSurrogate, PostedText.utf16Count) == 1)
        #expect(with(Array("\u{FFFD}".utf8), PostedText.utf16Count) == 1)
        #expect(with(Array("a😀".utf8)) { PostedText.offset(ofUTF16Units: 2, in: $0) } == nil)  // the emoji straddles
        #expect(with(Array("a😀".utf8)) { PostedText.offset(ofUTF16Units: 3, in: $0) } == 5)
    }

    @Test func aCallWithANulOrALoneSurrogateInItsNameFailsAloneAndTheRestAreAnswered() {
        let nul = framed("math.add\u{0}math.slowAdd\n{}")
        let surrogate = Array("12:".utf8) + Array("math.".utf8) + loneSurrogate + Array("add\n{}".utf8)
        let batch = nul + surrogate + framed("math.add\n{}")
        var seen: [String] = []
        let answers = with(batch) { bytes in
            PostedText.answerBatch(bytes, limit: 10) { method, _ in
                let name = String(decoding: method, as: UTF8.self)
                seen.append(name)
                return name == "math.add" ? "ok" : "refused"
            }
        }
        #expect(seen.count == 3)
        #expect(seen[0] == "math.add\u{0}math.slowAdd")  // whole, never cut at the NUL
        #expect(seen[2] == "math.add")
        #expect(answers == "7:refused7:refused2:ok")
    }

    @Test func aPostPastTheLimitIsAnsweredOnceForTheRestUnread() {
        let batch = (0..<5).flatMap { _ in framed("m\n{}") }
        var calls = 0
        let answers = with(batch) {
            PostedText.answerBatch($0, limit: 2) { _, _ in
                calls += 1; return "a"
            }
        }
        #expect(calls == 2)
        #expect(answers.hasPrefix("1:a1:a"))
        #expect(answers.contains(#""code":12"#))
        #expect(answers.utf8.count < 200)
    }

    @Test func aFramingThatCannotBeReadEndsTheBatchWithOneRefusalAndAMessageWithoutANewLineNamesNoMethod() {
        for broken in ["x:", "99:abc", "12345678901:a", ":a", "3"] {
            let answers = with(framed("m\n{}") + Array(broken.utf8)) { PostedText.answerBatch($0, limit: 10) { _, _ in "a" } }
            #expect(answers.hasPrefix("1:a"))
            #expect(answers.dropFirst(3).contains("could not be read"))
        }
        let answers = with(framed("no new line")) { PostedText.answerBatch($0, limit: 10) { _, _ in "a" } }
        #expect(answers.contains("names no method"))
    }

    @Test func aConsoleLineStaysOneLineAndIsCutAtACharactersStartPastItsLimit() {
        #expect(with(Array("e2e: 1 passed\nok - forged\r".utf8)) { PostedText.consoleText($0, limit: 100) } == #"e2e: 1 passed\nok - forged\r"#)
        #expect(with(Array("abc".utf8)) { PostedText.consoleText($0, limit: 3) } == "abc")
        #expect(with(Array("abcd".utf8)) { PostedText.consoleText($0, limit: 3) } == "abc…")
        #expect(with(Array("a€b".utf8)) { PostedText.consoleText($0, limit: 2) } == "a…")  // never half a character
    }
}
