// FoundationJSONSerializer.swift — a serializer around Foundation's JSONDecoder and JSONEncoder.
import Foundation

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
