// FoundationJSONSerializer.swift — a serializer around Foundation's JSONDecoder and JSONEncoder.
import Foundation

/// A serializer around Foundation's `JSONDecoder` and `JSONEncoder`, for their strategies (dates,
/// keys, data). Foundation's coders keep neither object key order nor, for repeated keys, the
/// last value, and read a nested `JSONValue` by trying each kind in turn; a whole `JSONValue` is
/// read and written by Keystone's own coder instead.
///
/// `Data` is base64 by default in both coders, and then moves as raw bytes where the page can take
/// them: the serializer sets the coders' data strategies to base64 that can also stand for a part of
/// the call's bytes. Coders given another data strategy keep it, and their `Data` always travels as
/// they write it.
public struct FoundationJSONSerializer: JSONSerializer {
    private let decoder: JSONDecoder
    private let encoder: JSONEncoder
    package let movesParts: Bool

    /// Creates a serializer around the given coders. Do not change their settings once shared.
    public init(decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()) {
        self.decoder = decoder
        self.encoder = encoder
        var movesParts = false
        if case .base64 = encoder.dataEncodingStrategy, case .base64 = decoder.dataDecodingStrategy {
            encoder.dataEncodingStrategy = .custom(Self.encodeData)
            decoder.dataDecodingStrategy = .custom(Self.decodeData)
            movesParts = true
        }
        self.movesParts = movesParts
    }

    /// `Data` as base64, or as a part of the value's bytes while they are collected.
    private static func encodeData(_ data: Data, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.collected?.withLock { ByteParts.add(data, to: &$0) } ?? data.base64EncodedString())
    }

    /// `Data` from base64, or from the part a number names while the page's parts are read.
    private static func decodeData(from decoder: any Decoder) throws -> Data {
        let container = try decoder.singleValueContainer()
        if let parts = Self.received, let index = try? container.decode(Int.self) {
            return try ByteParts.part(index, of: parts, codingPath: decoder.codingPath)
        }
        guard let data = Data(base64Encoded: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a string is not base64")
        }
        return data
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

extension FoundationJSONSerializer: BytePartsSerializer {
    package func encodeMovingParts<Value: Encodable>(_ value: Value) throws -> (json: Data, parts: ByteParts?) {
        guard movesParts, Value.self != JSONValue.self else { return (try encode(value), nil) }
        let collected = Locked<ByteParts?>(nil)
        let json = try Self.$collected.withValue(collected) { try encoder.encode(value) }
        return (json, collected.withLock { $0 })
    }

    package func decode<Value: Decodable>(_ type: Value.Type, from json: Data, parts: [Data]) throws -> Value {
        guard movesParts, type != JSONValue.self else { return try decode(type, from: json) }
        return try Self.$received.withValue(parts) { try decoder.decode(type, from: json) }
    }

    /// The parts of the value being encoded now, and the page's parts of the value being decoded
    /// now: Foundation's coders are synchronous, so the scope is the coding call.
    @TaskLocal private static var collected: Locked<ByteParts?>?
    @TaskLocal private static var received: [Data]?
}
