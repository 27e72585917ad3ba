// DefaultJSONSerializer.swift — Keystone's own serializer: JSON.parse's and JSON.stringify's behaviour.
import Foundation

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
        try decode(type, from: json, parts: nil)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from json: Data, parts: [Data]?) throws -> Value {
        try json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Value in
            let bytes = raw.bindMemory(to: UInt8.self)
            let tape: JSONTape
            do throws(JSONTape.Fault) {
                tape = try JSONTape(parsing: bytes, maximumDepth: maximumDepth)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description))
            }
            return try TapeDecoder(tape: tape, bytes: bytes, userInfo: coderUserInfo, parts: parts).decodeRoot(type)
        }
    }

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try TreeEncoder(userInfo: coderUserInfo).encodeRoot(value))
    }
}

extension DefaultJSONSerializer: BytePartsSerializer {
    package var movesParts: Bool { true }

    package func encodeMovingParts<Value: Encodable>(_ value: Value) throws -> (json: Data, parts: ByteParts?) {
        let encoder = TreeEncoder(userInfo: coderUserInfo, collectsParts: true)
        let json = Data(try encoder.encodeRoot(value))
        return (json, encoder.parts)
    }

    package func decode<Value: Decodable>(_ type: Value.Type, from json: Data, parts: [Data]) throws -> Value {
        try decode(type, from: json, parts: Optional(parts))
    }
}
