// CallWrapper.swift — the page's `{"data": …, "_dscbstub": …}` wrapper, split without decoding.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

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
    /// Whether the page takes `Data` results as raw bytes over the byte channel (`"_dsbytes"`,
    /// sent by Keystone's runtime only: `true`, a byte count, or `"stream"`).
    package var takesBytes = false
    /// How the page will send the argument as raw bytes over the byte channel, once the hub has
    /// issued a ticket for it, in place of `data`.
    package var upload: Upload?

    /// How the page sends a call's argument as raw bytes.
    package enum Upload: Sendable, Hashable {
        /// At once, this many bytes (`"_dsbytes": N`).
        case bytes(Int)
        /// As a stream of chunks, each posted once the hub has room for it (`"_dsbytes": "stream"`).
        case stream
    }

    /// Splits `text`, which must be one JSON object whose members nest at most `maximumDepth` deep.
    /// - Throws: ``BridgeError`` with code `malformedMessage` saying what is wrong, or
    ///   `limitExceeded` when a member nests deeper than `maximumDepth`.
    package init(splitting text: Data, maximumDepth: Int = .max) throws(BridgeError) {
        // One pass over the bytes, read in place: the callback name and `_dsinline` are read from
        // them directly, and only `data` is kept, as a slice of `text`.
        var data: Range<Int>?
        var bytes: Range<Int>?
        var byteRequest: Result<Upload?, BridgeError>?
        let (fault, isTooDeep, stub, inline) = text.withUnsafeBytes { raw -> (String?, Bool, Result<String, BridgeError>?, Bool) in
            var (stub, inline): (Range<Int>?, Range<Int>?)
            let (fault, isTooDeep) = JSONObjectMembers.scan(raw, keys: Self.keys, maximumDepth: maximumDepth) { key, value in
                switch key {
                case 0: data = value
                case 1: stub = value
                case 2: inline = value
                default: bytes = value
                }
            }
            guard fault == nil, !isTooDeep else { return (fault, isTooDeep, nil, false) }
            if let bytes { byteRequest = Self.byteRequest(UnsafeRawBufferPointer(rebasing: raw[bytes])) }
            return (
                nil, false,
                stub.map { Self.callbackName(UnsafeRawBufferPointer(rebasing: raw[$0])) },
                inline.map { JSONObjectMembers.spells(UnsafeRawBufferPointer(rebasing: raw[$0]), Self.trueToken) } ?? false
            )
        }
        if isTooDeep {
            throw Self.tooDeep(maximumDepth)
        }
        if let fault {
            throw BridgeError(code: .malformedMessage, message: fault)
        }
        let base = text.startIndex
        self.data = data.map { text[(base + $0.lowerBound)..<(base + $0.upperBound)] }
        callbackStub = try stub?.get()
        acceptsInlineAnswer = inline
        if let byteRequest {
            upload = try byteRequest.get()
            takesBytes = true
        }
    }

    /// A wrapper from parts a wire other than DSBridge's has split already. `data` must be one
    /// JSON value nesting at most `maximumDepth` deep, as a split wrapper's is.
    /// - Throws: ``BridgeError`` with code `malformedMessage` when `data` is not one JSON value, or
    ///   `limitExceeded` when it nests deeper than `maximumDepth`.
    package init(data: Data?, callbackStub: String?, acceptsInlineAnswer: Bool, maximumDepth: Int = .max) throws(BridgeError) {
        if let data {
            let (isValue, isTooDeep) = data.withUnsafeBytes { raw in
                var scanner = JSONGrammar.Scanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
                scanner.skipSpace()
                var isValue = scanner.skipValue()
                scanner.skipSpace()
                isValue = isValue && scanner.index == raw.count
                return (isValue, scanner.isTooDeep)
            }
            if isTooDeep {
                throw Self.tooDeep(maximumDepth)
            }
            guard isValue else { throw BridgeError(code: .malformedMessage, message: "the call's data is not one JSON value") }
        }
        self.data = data
        self.callbackStub = callbackStub
        self.acceptsInlineAnswer = acceptsInlineAnswer
    }

    /// The refusal of a call that nests deeper than `maximumDepth`.
    private static func tooDeep(_ maximumDepth: Int) -> BridgeError {
        BridgeError(code: .limitExceeded, message: "the call nests arrays and objects deeper than BridgeLimits.nestingDepth (\(maximumDepth) levels)")
    }

    /// `data`, `_dscbstub`, `_dsinline`, `_dsbytes`, in that order.
    private static let keys = ["data", "_dscbstub", "_dsinline", "_dsbytes"].map { Array($0.utf8) }

    /// What `_dsbytes` asks for: `true`, bytes for `Data` results (`nil`); a byte count, the
    /// argument's size as well: decimal digits only, at most 15 of them (below 2^53, so a page's
    /// number is exact); `"stream"`, the argument as a stream. `false` asks for nothing, and
    /// anything else is refused.
    private static func byteRequest(_ token: UnsafeRawBufferPointer) -> Result<Upload?, BridgeError>? {
        if JSONObjectMembers.spells(token, trueToken) { return .success(nil) }
        if JSONObjectMembers.spells(token, falseToken) { return nil }
        if JSONObjectMembers.spells(token, streamToken) { return .success(.stream) }
        guard !token.isEmpty, token.count <= 15, token.allSatisfy({ (0x30...0x39).contains($0) }), token.count == 1 || token[0] != 0x30 else {
            return .failure(BridgeError(code: .malformedMessage, message: "_dsbytes is neither true, a byte count nor \"stream\""))
        }
        return .success(.bytes(token.reduce(0) { $0 * 10 + Int($1 - 0x30) }))
    }

    private static let falseToken = Array("false".utf8)
    private static let streamToken = Array(#""stream""#.utf8)
    private static let trueToken = Array("true".utf8)

    /// The callback name from its JSON token: a string, read directly unless it holds escapes.
    private static func callbackName(_ token: UnsafeRawBufferPointer) -> Result<String, BridgeError> {
        guard token.count >= 2, token[0] == UInt8(ascii: "\"") else {
            return .failure(BridgeError(code: .malformedMessage, message: "_dscbstub is not a string"))
        }
        let content = UnsafeRawBufferPointer(rebasing: token[1..<(token.count - 1)])
        guard content.contains(UInt8(ascii: "\\")) else {
            return .success(String(decoding: content, as: UTF8.self))
        }
        guard let name = try? JSONDecoder().decode(String.self, from: Data(token)) else {
            return .failure(BridgeError(code: .malformedMessage, message: "_dscbstub is not a readable string"))
        }
        return .success(name)
    }
}
