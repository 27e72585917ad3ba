// JSONSerializer.swift — how values become JSON bytes and back; one Foundation-backed default.
import Foundation

/// Turns typed values into JSON text and back.
///
/// Every value that crosses the bridge passes through one serializer: a page's argument is decoded
/// straight from the text the page sent into the method's input type, and results are encoded once.
///
/// An implementation must:
/// - produce UTF-8 JSON text from ``encode(_:)`` (Keystone checks text bound for a script and
///   answers with ``BridgeError/Code-swift.struct/unencodableValue`` when it is not JSON);
/// - throw from ``decode(_:from:)`` rather than trap on any input, however malformed;
/// - be safe to call from many threads at once.
public protocol JSONSerializer: Sendable {
    /// Decodes a value of `type` from UTF-8 JSON text.
    func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value
    /// Encodes `value` as UTF-8 JSON text.
    func encode<Value: Encodable>(_ value: Value) throws -> Data
}

/// The default serializer: Keystone's own JSON coder.
///
/// It reads a text in one pass into a flat list of nodes and decodes from that — a `JSONValue`
/// anywhere in a value is built straight from its nodes — so no input costs more than time linear
/// in its size. It behaves as `JSON.parse` and `JSON.stringify` do where Foundation's coders do
/// not: object keys keep their order both ways, and when a key repeats the last value wins. Like
/// `JSONEncoder` and `JSONDecoder` with their default settings, `Data` is base64, `URL` a string,
/// `Date` encodes itself, and a non-finite number is an error. Nesting deeper than
/// ``maximumDepth`` is refused rather than followed.
///
/// For other strategies (dates as ISO 8601 text, snake-case keys), use ``FoundationJSONSerializer``.
public struct DefaultJSONSerializer: JSONSerializer {
    /// How deep arrays and objects may nest in a text this serializer reads.
    public var maximumDepth: Int
    /// What coders hand to `init(from:)` and `encode(to:)` as `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates the serializer, reading at most `maximumDepth` levels of nesting, with `userInfo`
    /// for the values' own `Codable` code.
    public init(maximumDepth: Int = 512, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.maximumDepth = maximumDepth
        self.userInfo = userInfo
    }

    /// ``userInfo`` as the coders take it; the common empty one is not converted for every value.
    private var coderUserInfo: [CodingUserInfoKey: Any] {
        if userInfo.isEmpty { return [:] }
        return userInfo
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        try json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Value in
            let bytes = raw.bindMemory(to: UInt8.self)
            let tape: JSONTape
            do throws(JSONTape.Fault) {
                tape = try JSONTape(parsing: bytes, maximumDepth: maximumDepth)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description))
            }
            return try TapeDecoder(tape: tape, bytes: bytes, userInfo: coderUserInfo).decodeRoot(type)
        }
    }

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try TreeEncoder(userInfo: coderUserInfo).encodeRoot(value))
    }
}

/// A serializer around Foundation's `JSONDecoder` and `JSONEncoder`, for their strategies (dates,
/// keys, data). Foundation's coders keep neither object key order nor, for repeated keys, the
/// last value, and read a nested `JSONValue` by trying each kind in turn; a whole `JSONValue` is
/// read and written by Keystone's own coder instead.
public struct FoundationJSONSerializer: JSONSerializer {
    private let decoder: JSONDecoder
    private let encoder: JSONEncoder

    /// Creates a serializer around the given coders. Do not change their settings once shared.
    public init(decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()) {
        self.decoder = decoder
        self.encoder = encoder
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        if type == JSONValue.self { return try DefaultJSONSerializer().decode(type, from: json) }
        return try decoder.decode(type, from: json)
    }

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        if Value.self == JSONValue.self { return try DefaultJSONSerializer().encode(value) }
        return try encoder.encode(value)
    }
}

extension JSONSerializer {
    /// Decodes `Value` from the bytes of a `data` value, a missing one read as JSON `null`.
    package func decode<Value: Decodable>(_ type: Value.Type, fromData data: Data?) throws -> Value {
        try decode(type, from: data ?? Data("null".utf8))
    }
}
