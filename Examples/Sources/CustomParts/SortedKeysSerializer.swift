// SortedKeysSerializer.swift — a serializer of its own: Foundation's coders, sorted keys, ISO dates.
import Foundation
import Keystone
import Synchronization

/// Writes object keys sorted and dates as ISO 8601 text, and counts what it encodes.
public final class SortedKeysSerializer: JSONSerializer {
    private let encodes = Mutex(0)

    public init() {}

    /// How many values this serializer has encoded.
    public var encodeCount: Int { encodes.withLock { $0 } }

    public func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: json)
    }

    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        encodes.withLock { $0 += 1 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}
