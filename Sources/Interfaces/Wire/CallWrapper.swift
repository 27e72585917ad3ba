// CallWrapper.swift — the page's `{"data": …, "_dscbstub": …}` wrapper, split without decoding.
import Foundation

/// The wrapper every page call comes in, split into its parts by one pass over the bytes: the raw
/// text of `data`, to be decoded once straight into the method's input, and the callback name.
package struct CallWrapper: Sendable {
    /// The bytes of the `data` value; `nil` when the wrapper has no `data`.
    package var data: Data?
    /// The page's callback (`_dscbstub`): present exactly when the page called asynchronously.
    package var callbackStub: String?
    /// Whether the page takes a synchronous method's result in the answer to an asynchronous call
    /// (`"_dsinline": true`, sent by Keystone's runtime only), saving the second round trip.
    package var acceptsInlineAnswer = false

    /// Splits `text`, which must be one JSON object whose members nest at most `maximumDepth` deep.
    /// - Throws: ``BridgeError`` with code `malformedMessage` saying what is wrong, or
    ///   `limitExceeded` when a member nests deeper than `maximumDepth`.
    package init(splitting text: Data, maximumDepth: Int = .max) throws {
        var data: Range<Int>?
        var isTooDeep = false
        // One pass over the bytes, read in place: the callback name and `_dsinline` are read from
        // them directly, and only `data` is kept, as a slice of `text`.
        let (fault, stub, inline): (String?, String?, Bool) = try text.withUnsafeBytes { raw in
            var scanner = JSONGrammar.Scanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            defer { isTooDeep = scanner.isTooDeep }
            var stub: Range<Int>?
            var inline: Range<Int>?
            scanner.skipSpace()
            guard scanner.peek(UInt8(ascii: "{")) else { return ("the message is not a JSON object", nil, false) }
            scanner.index += 1
            if let fault = Self.scanMembers(&scanner, raw, data: &data, stub: &stub, inline: &inline) { return (fault, nil, false) }
            scanner.skipSpace()
            guard scanner.index == scanner.bytes.count else { return ("the message is not valid JSON", nil, false) }
            return (
                nil,
                try stub.map { try Self.callbackName(UnsafeRawBufferPointer(rebasing: raw[$0])) },
                inline.map { Self.spells(UnsafeRawBufferPointer(rebasing: raw[$0]), Self.trueToken) } ?? false
            )
        }
        if isTooDeep {
            throw BridgeError(code: .limitExceeded, message: "the call nests arrays and objects deeper than the limit of \(maximumDepth) levels")
        }
        if let fault {
            throw BridgeError(code: .malformedMessage, message: fault)
        }
        let base = text.startIndex
        self.data = data.map { text[(base + $0.lowerBound)..<(base + $0.upperBound)] }
        self.callbackStub = stub
        self.acceptsInlineAnswer = inline
    }

    /// Scans an object's members after its `{`, through its `}`, noting where `data`, `_dscbstub`
    /// and `_dsinline` are; returns what is wrong, if anything.
    private static func scanMembers(
        _ scanner: inout JSONGrammar.Scanner, _ raw: UnsafeRawBufferPointer,
        data: inout Range<Int>?, stub: inout Range<Int>?, inline: inout Range<Int>?
    ) -> String? {
        scanner.skipSpace()
        if scanner.peek(UInt8(ascii: "}")) {
            scanner.index += 1
            return nil
        }
        while true {
            let keyStart = scanner.index
            guard scanner.peek(UInt8(ascii: "\"")), scanner.scanString() else { return "the message is not valid JSON" }
            let key = UnsafeRawBufferPointer(rebasing: raw[keyStart..<scanner.index])
            scanner.skipSpace()
            guard scanner.peek(UInt8(ascii: ":")) else { return "the message is not valid JSON" }
            scanner.index += 1
            scanner.skipSpace()
            let valueStart = scanner.index
            guard scanner.skipValue() else { return "the message is not valid JSON" }
            // Keys are compared by what they say, escapes read, and a later key replaces an
            // earlier one: the split JSON.parse would make.
            switch member(named: UnsafeRawBufferPointer(rebasing: key.dropFirst().dropLast())) {
            case .data: data = valueStart..<scanner.index
            case .callbackStub: stub = valueStart..<scanner.index
            case .inline: inline = valueStart..<scanner.index
            case nil: break
            }
            scanner.skipSpace()
            if scanner.peek(UInt8(ascii: ",")) {
                scanner.index += 1
                scanner.skipSpace()
            } else if scanner.peek(UInt8(ascii: "}")) {
                scanner.index += 1
                return nil
            } else {
                return "the message is not valid JSON"
            }
        }
    }

    private enum Member { case data, callbackStub, inline }

    /// Which wrapper member a key's text (between its quotes) names, if any.
    private static func member(named key: UnsafeRawBufferPointer) -> Member? {
        if spells(key, dataKey) { return .data }
        if spells(key, callbackStubKey) { return .callbackStub }
        if spells(key, inlineKey) { return .inline }
        guard key.contains(UInt8(ascii: "\\")), key.count <= 6 * callbackStubKey.count else { return nil }
        switch JSONStrings.unescape(key.bindMemory(to: UInt8.self)) {
        case "data": return .data
        case "_dscbstub": return .callbackStub
        case "_dsinline": return .inline
        default: return nil
        }
    }

    private static let dataKey = Array("data".utf8)
    private static let callbackStubKey = Array("_dscbstub".utf8)
    private static let inlineKey = Array("_dsinline".utf8)
    private static let trueToken = Array("true".utf8)

    /// Whether `bytes` are exactly `word`'s bytes.
    private static func spells(_ bytes: UnsafeRawBufferPointer, _ word: [UInt8]) -> Bool {
        guard bytes.count == word.count, let base = bytes.baseAddress else { return false }
        return word.withUnsafeBytes { memcmp(base, $0.baseAddress!, word.count) == 0 }
    }

    /// The callback name from its JSON token: a string, read directly unless it holds escapes.
    private static func callbackName(_ token: UnsafeRawBufferPointer) throws -> String {
        guard token.count >= 2, token[0] == UInt8(ascii: "\"") else {
            throw BridgeError(code: .malformedMessage, message: "_dscbstub is not a string")
        }
        let content = UnsafeRawBufferPointer(rebasing: token[1..<(token.count - 1)])
        guard content.contains(UInt8(ascii: "\\")) else {
            return String(decoding: content, as: UTF8.self)
        }
        do {
            return try JSONDecoder().decode(String.self, from: Data(token))
        } catch {
            throw BridgeError(code: .malformedMessage, message: "_dscbstub is not a readable string")
        }
    }
}

extension JSONSerializer {
    /// Decodes `Value` from the bytes of a `data` value, a missing one read as JSON `null`.
    package func decode<Value: Decodable>(_ type: Value.Type, fromData data: Data?) throws -> Value {
        try decode(type, from: data ?? Data("null".utf8))
    }
}
