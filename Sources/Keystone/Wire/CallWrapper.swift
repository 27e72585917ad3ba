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
    /// Whether the page moves `Data` as parts (`"_dsparts"`, sent by Keystone's runtime only): its
    /// results' `Data` may go to it as bytes.
    package var speaksParts = false
    /// The parts of the page's argument, to be sent over the byte channel once the hub has issued a
    /// ticket for them; `nil` when it has none.
    package var parts: Parts?
    /// The page's idempotency key for a durable call (`"_dsdurable"`, sent by Keystone's runtime
    /// only): the call runs once under it and outlives its page load.
    package var durableKey: String?

    /// Whether the call says what only Keystone's runtime says (``acceptsInlineAnswer``,
    /// ``speaksParts``, ``durableKey``): the document that made it runs Keystone's runtime, whether
    /// or not it has announced itself yet.
    package var speaksKeystone: Bool { acceptsInlineAnswer || speaksParts || durableKey != nil }

    /// The parts a page's argument has, as its call announces them (`"_dsparts"`).
    package enum Parts: Sendable, Hashable {
        /// `Data` values of these sizes, which `data` names by their index (`[N, …]`).
        case sizes([Int])
        /// A stream of bytes, the whole argument (`"stream"`).
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
        var announced: Result<Parts?, BridgeError>?
        var durable: Result<String, BridgeError>?
        let (fault, isTooDeep, stub, inline) = text.withUnsafeBytes { raw -> (String?, Bool, Result<String, BridgeError>?, Bool) in
            var (stub, inline, key): (Range<Int>?, Range<Int>?, Range<Int>?)
            let (fault, isTooDeep) = JSONObjectMembers.scan(raw, keys: Self.keys, maximumDepth: maximumDepth) { index, value in
                switch index {
                case 0: data = value
                case 1: stub = value
                case 2: inline = value
                case 3: bytes = value
                default: key = value
                }
            }
            guard fault == nil, !isTooDeep else { return (fault, isTooDeep, nil, false) }
            if let bytes { announced = Self.parts(UnsafeRawBufferPointer(rebasing: raw[bytes])) }
            if let key { durable = Self.string(UnsafeRawBufferPointer(rebasing: raw[key]), named: "_dsdurable") }
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
        if let announced {
            parts = try announced.get()
            speaksParts = true
        }
        durableKey = try durable?.get()
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

    /// `data`, `_dscbstub`, `_dsinline`, `_dsparts`, `_dsdurable`, in that order.
    private static let keys = ["data", "_dscbstub", "_dsinline", "_dsparts", "_dsdurable"].map { Array($0.utf8) }

    /// What `_dsparts` announces: `[]`, no parts (but `Data` results may come as bytes); sizes,
    /// `[N, …]`, each decimal digits only, at most 15 of them (below 2^53, so a page's number is
    /// exact); `"stream"`, the argument as a stream. Anything else is refused.
    private static func parts(_ token: UnsafeRawBufferPointer) -> Result<Parts?, BridgeError> {
        if JSONObjectMembers.spells(token, streamToken) { return .success(.stream) }
        guard token.count >= 2, token.first == UInt8(ascii: "["), token.last == UInt8(ascii: "]") else { return .failure(Self.malformedParts) }
        var sizes: [Int] = []
        var digits = 0
        var size = 0
        for byte in token.dropFirst().dropLast() {
            switch byte {
            case 0x30...0x39:
                guard digits < 15, digits == 0 || size > 0 else { return .failure(Self.malformedParts) }
                size = size * 10 + Int(byte - 0x30)
                digits += 1
            case UInt8(ascii: ","):
                guard digits > 0 else { return .failure(Self.malformedParts) }
                guard sizes.count < maximumParts else { return .failure(Self.tooManyParts) }
                sizes.append(size)
                (digits, size) = (0, 0)
            default:
                return .failure(Self.malformedParts)
            }
        }
        if digits > 0 {
            guard sizes.count < maximumParts else { return .failure(Self.tooManyParts) }
            sizes.append(size)
        } else if !sizes.isEmpty {
            return .failure(Self.malformedParts)
        }
        return .success(sizes.isEmpty ? nil : .sizes(sizes))
    }

    /// The most parts one call's argument may have: thousands of thumbnails, not a flood of empty
    /// ones each the hub would keep.
    static let maximumParts = 65_536

    /// The refusals of an announcement, made once: the commonest call reads `[]` and makes none.
    private static let malformedParts = BridgeError(code: .malformedMessage, message: "_dsparts is neither a list of byte counts nor \"stream\"")
    private static let tooManyParts = BridgeError(code: .limitExceeded, message: "a call carries at most \(maximumParts) parts")

    private static let streamToken = Array(#""stream""#.utf8)
    private static let trueToken = Array("true".utf8)

    /// The callback name from its JSON token: a string, read directly unless it holds escapes.
    private static func callbackName(_ token: UnsafeRawBufferPointer) -> Result<String, BridgeError> {
        string(token, named: "_dscbstub")
    }

    /// The string member `name` from its JSON token, read directly unless it holds escapes.
    private static func string(_ token: UnsafeRawBufferPointer, named name: String) -> Result<String, BridgeError> {
        guard token.count >= 2, token[0] == UInt8(ascii: "\"") else {
            return .failure(BridgeError(code: .malformedMessage, message: "\(name) is not a string"))
        }
        let content = UnsafeRawBufferPointer(rebasing: token[1..<(token.count - 1)])
        guard content.contains(UInt8(ascii: "\\")) else {
            return .success(String(decoding: content, as: UTF8.self))
        }
        guard let text = try? JSONDecoder().decode(String.self, from: Data(token)) else {
            return .failure(BridgeError(code: .malformedMessage, message: "\(name) is not a readable string"))
        }
        return .success(text)
    }

    /// Whether `name` is a callback name the page runtime opens: `dscb` and digits (dsbridge.js), then
    /// optionally `_` and a load token of lowercase letters and digits (Keystone's runtime). Results
    /// are only ever evaluated as calls of such names, never of an arbitrary global (`eval`).
    static func isCallbackName(_ name: String) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.starts(with: callbackNamePrefix) else { return false }
            let counter = bytes[callbackNamePrefix.count...]
            guard let end = counter.firstIndex(where: { !digits.contains($0) }) else { return !counter.isEmpty }
            guard end > counter.startIndex, bytes[end] == UInt8(ascii: "_"), end + 1 < bytes.count else { return false }
            return bytes[(end + 1)...].allSatisfy { digits.contains($0) || letters.contains($0) }
        }
    }

    private static let callbackNamePrefix = Array("dscb".utf8)
}
