// PostedText.swift — the text a page posts to a host, read by length, never as a C string.
import Foundation
import Keystone

/// Reading what a page posts to a host: as the engine's UTF-8 bytes, measured in the UTF-16 code
/// units JavaScript counts, so a NUL or a lone surrogate in one call never shortens, shifts or
/// merges another.
///
/// An engine writes a lone surrogate either as U+FFFD or as its three WTF-8 bytes; both are one
/// UTF-16 code unit, and so is every three-byte sequence, so lengths counted here match the page's
/// `length` whichever the engine does. A call whose text holds such a value fails on its own, with
/// a coded error, when the hub reads it.
public enum PostedText {
    /// The bytes of a text, read in place.
    public typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The method a batch of messages is sent as; no method a page calls can have this name.
    public static let batchMethod = "\u{1}batch"

    /// How many UTF-16 code units the text whose UTF-8 (or WTF-8) bytes are `bytes` has.
    public static func utf16Count(_ bytes: Bytes) -> Int {
        var units = 0
        var index = 0
        while index < bytes.count {
            let (width, count) = Self.width(of: bytes[index])
            index += width
            units += count
        }
        return units
    }

    /// The end of the first `units` UTF-16 code units of `bytes`, as a byte offset; `nil` when
    /// `bytes` is shorter or a character straddles the end.
    public static func offset(ofUTF16Units units: Int, in bytes: Bytes) -> Int? {
        var counted = 0
        var index = 0
        while counted < units {
            guard index < bytes.count else { return nil }
            let (width, count) = Self.width(of: bytes[index])
            index += width
            counted += count
        }
        return counted == units && index <= bytes.count ? index : nil
    }

    /// How many bytes a sequence starting with `lead` takes, and how many UTF-16 code units it
    /// makes; a stray continuation byte counts as one of each, as its replacement character would.
    private static func width(of lead: UInt8) -> (bytes: Int, units: Int) {
        switch lead {
        case 0xF0...0xF7: (4, 2)
        case 0xE0...0xEF: (3, 1)
        case 0xC0...0xDF: (2, 1)
        default: (1, 1)
        }
    }

    /// Appends `answer` to a batch's `answers`, framed: its length in UTF-16 code units, `:`, then
    /// itself.
    public static func appendFramed(_ answer: String, to answers: inout String) {
        answers += String(answer.utf16.count)
        answers += ":"
        answers += answer
    }

    /// Answers a batch — each message framed as its length in UTF-16 code units, `:` and the
    /// message (`method`, a new line, the arguments) — with each answer framed the same way, in
    /// order. At most `limit` messages are answered one by one; past them, or where the framing
    /// cannot be read, the rest of the batch gets one refusal. `answer` answers one message from
    /// its method's and arguments' bytes; a message without a new line names no method.
    public static func answerBatch(_ batch: Bytes, limit: Int, _ answer: (_ method: Bytes, _ arguments: Bytes) -> String) -> String {
        var answers = ""
        var rest = batch
        var count = 0
        while !rest.isEmpty {
            guard count < limit else {
                appendFramed(Refusal.tooManyMessages(limit), to: &answers)
                break
            }
            count += 1
            var digits = 0
            while digits < rest.count, digits < 10, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(rest[digits]) { digits += 1 }
            guard digits > 0, digits < 10, digits < rest.count, rest[digits] == UInt8(ascii: ":"),
                let length = Int(String(decoding: Bytes(rebasing: rest[..<digits]), as: UTF8.self)),
                case let body = Bytes(rebasing: rest[(digits + 1)...]),
                let end = offset(ofUTF16Units: length, in: body)
            else {
                appendFramed(Refusal.unreadableBatch, to: &answers)
                break
            }
            let message = Bytes(rebasing: body[..<end])
            rest = Bytes(rebasing: body[end...])
            guard let newline = message.firstIndex(of: UInt8(ascii: "\n")) else {
                appendFramed(Refusal.namesNoMethod, to: &answers)
                continue
            }
            appendFramed(answer(Bytes(rebasing: message[..<newline]), Bytes(rebasing: message[(newline + 1)...])), to: &answers)
        }
        return answers
    }

    /// A console line's text as a host relays it: at most `limit` bytes of `bytes` (cut at a
    /// character's start, then `…`), with new lines and carriage returns written `\n` and `\r`, so
    /// one line stays one line.
    public static func consoleText(_ bytes: Bytes, limit: Int) -> String {
        var end = min(bytes.count, max(0, limit))
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        var text = String(decoding: Bytes(rebasing: bytes[..<end]), as: UTF8.self)
        if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            text = escaped
        }
        return end < bytes.count ? text + "…" : text
    }

    /// The answers a host gives for posts it cannot read, each a call's failed answer.
    public enum Refusal {
        /// A message with no new line: it names no method.
        public static let namesNoMethod = CallAnswer.failure(BridgeError(code: .malformedMessage, message: "the message names no method")).text
        /// A batch whose framing cannot be read from here on.
        public static let unreadableBatch = CallAnswer.failure(BridgeError(code: .malformedMessage, message: "a batch of messages could not be read")).text
        /// A call whose text is not the length its sender framed it with: it held a NUL, which the
        /// engine's C string cut short.
        public static let lengthMismatch = CallAnswer.failure(
            BridgeError(code: .malformedMessage, message: "the call's text is not the length it was sent with (it holds a NUL)")
        ).text

        /// The rest of a post past `limit` messages.
        public static func tooManyMessages(_ limit: Int) -> String {
            CallAnswer.failure(BridgeError(code: .limitExceeded, message: "a post may carry at most BridgeLimits.messagesPerPost (\(limit)) calls; the rest were not read")).text
        }
    }
}
