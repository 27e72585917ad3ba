// ReturnMessage.swift — the page's `_dsb.returnValue`, split once: which call, and its answer's bytes.
import Foundation

/// The page's answer to a Swift call, `{"id": …, "data": …, "complete": …, "error": …}`, split by
/// one pass over its bytes: the call it answers is found by `id`, and only then is the answer
/// decoded, once, into the type that call asked for.
struct ReturnMessage: Sendable {
    /// The Swift call answered.
    var id: Int
    /// Whether this is the call's last answer (`complete`; absent or `null` is `true`).
    var complete: Bool
    /// The answer's value and error, as bytes.
    var answer: PageAnswer
    /// Whether the page's runtime says the handler never saw the call (`undelivered`: it could not
    /// fetch the arguments' bytes), so the error is the document's, not the handler's.
    var isUndelivered = false

    /// Splits `text`, which must be one JSON object nesting at most `maximumDepth` deep.
    /// - Throws: `BridgeError` with code `invalidArgument` saying which member is wrong (never what
    ///   it holds), or `limitExceeded` when the message nests deeper than `maximumDepth`.
    init(splitting text: Data, maximumDepth: Int = .max) throws(BridgeError) {
        var (id, data, complete, error, undelivered): (Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?)
        let (fault, isTooDeep) = text.withUnsafeBytes { raw in
            JSONObjectMembers.scan(raw, keys: Self.keys, maximumDepth: maximumDepth) { key, value in
                switch key {
                case 0: id = value
                case 1: data = value
                case 2: complete = value
                case 3: error = value
                default: undelivered = value
                }
            }
        }
        if isTooDeep {
            throw BridgeError(code: .limitExceeded, message: "the answer nests arrays and objects deeper than BridgeLimits.nestingDepth (\(maximumDepth) levels)")
        }
        if let fault { throw Self.invalid(fault) }
        let base = text.startIndex
        func slice(_ range: Range<Int>) -> Data { text[(base + range.lowerBound)..<(base + range.upperBound)] }
        guard let id, let number = Self.integer(slice(id)) else { throw Self.invalid("id is not an integer") }
        self.id = number
        switch complete.map(slice) {
        case nil, Self.trueToken?, Self.nullToken?: self.complete = true
        case Self.falseToken?: self.complete = false
        default: throw Self.invalid("complete is not a boolean")
        }
        isUndelivered = undelivered.map(slice) == Self.trueToken
        // `"error": null` is no error, as `decodeIfPresent` reads it.
        answer = PageAnswer(value: data.map(slice), error: error.map(slice).flatMap { $0 == Self.nullToken ? nil : $0 })
    }

    /// `id`, `data`, `complete`, `error`, `undelivered`, in that order.
    private static let keys = [Array("id".utf8), Array("data".utf8), Array("complete".utf8), Array("error".utf8), Array("undelivered".utf8)]
    private static let trueToken = Data("true".utf8)
    private static let falseToken = Data("false".utf8)
    private static let nullToken = Data("null".utf8)

    private static func invalid(_ reason: String) -> BridgeError {
        BridgeError(code: .invalidArgument, message: "invalid argument for \"_dsb.returnValue\": \(reason)")
    }

    /// A JSON integer token (`-?digits`, at most 18 digits), as a number.
    private static func integer(_ token: Data) -> Int? {
        let digits = token.first == UInt8(ascii: "-") ? token.dropFirst() : token[...]
        guard (1...18).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return token.count == digits.count ? magnitude : -magnitude
    }
}

/// A page handler's answer to a Swift call, as bytes not yet decoded.
struct PageAnswer: Sendable {
    /// The bytes of `data`; `nil` when absent (a handler that returned `undefined`).
    var value: Data?
    /// The bytes of the error the page reported instead of a value; `nil` when there is none.
    var error: Data?

    /// No value and no error: what a wait for the page to initialize receives.
    static let none = PageAnswer(value: nil, error: nil)

    /// The answer decoded as the result of the page handler `method`: the page's error, or the
    /// value (a missing one read as `null`) as `Value`.
    func decode<Value: Decodable>(as type: Value.Type, serializer: any JSONSerializer, method: String) -> Result<Value, BridgeError> {
        do {
            if let error { return .failure(try serializer.decode(BridgeError.self, from: error)) }
            return .success(try serializer.decode(Value.self, fromData: value))
        } catch {
            return .failure(BridgeError(code: .invalidResult, message: "the result of \"\(method)\" does not decode: \(describeDecodingFailure(error, in: "data"))"))
        }
    }
}
