// RecordingDecoder.swift — the decoder a SchemaRecorder decodes a type from: every request answered
// with a placeholder, and, for the type being recorded, noted.
import Foundation

/// Decodes any `Decodable` type from nothing: each request is answered with a placeholder value
/// (``SchemaRecorder/placeholder(_:)``). With a ``Shape``, it notes what the type asked for: its
/// keys and their types, a single value, or a list's element.
final class RecordingDecoder: Decoder {
    let recorder: SchemaRecorder
    /// Where what the type asks for is noted; `nil` while making a placeholder.
    let record: Shape?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(recorder: SchemaRecorder, record: Shape?) {
        self.recorder = recorder
        self.record = record
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let record, record.kind == nil { record.kind = .object([]) }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(decoder: self)
    }
}

/// An object's keys: every one is there, none is `null`, and each noted with its type; one the type
/// first asks whether it is `null` (`decodeIfPresent`) is noted as one it may leave out.
private struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    /// Keys asked about as `null`: decoded only where present.
    private let optionalKeys = OptionalKeys()

    init(decoder: RecordingDecoder) {
        self.decoder = decoder
    }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        optionalKeys.names.insert(key.stringValue)
        // Making a placeholder, an optional is absent; recording, it is decoded to learn its type,
        // unless its placeholder could not be made.
        guard let record = decoder.record else { return true }
        return record.absentKeys.contains(key.stringValue)
    }

    private func field<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let isRequired = !optionalKeys.names.contains(key.stringValue)
        guard let record = decoder.record else { return try decoder.recorder.placeholder(type) }
        record.field(key.stringValue, decoder.recorder.schema(of: type), isRequired: isRequired)
        record.failedOptionalKey = isRequired ? nil : key.stringValue
        let value = try decoder.recorder.placeholder(type)
        record.failedOptionalKey = nil
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        decoder.record?.field(key.stringValue, .unknown, isRequired: true)
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(decoder: RecordingDecoder(recorder: decoder.recorder, record: nil)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        decoder.record?.field(key.stringValue, .array(.unknown), isRequired: true)
        return RecordingUnkeyedContainer(decoder: RecordingDecoder(recorder: decoder.recorder, record: nil))
    }

    func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: decoder.recorder, record: nil) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RecordingDecoder(recorder: decoder.recorder, record: nil) }
}

/// The keys a keyed container was asked about as `null`.
private final class OptionalKeys {
    var names: Set<String> = []
}

/// A single value, noted with its type; `null` only while making a placeholder.
private struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { decoder.record == nil }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        if let record = decoder.record, record.kind == nil { record.kind = .single(decoder.recorder.schema(of: type)) }
        return try decoder.recorder.placeholder(type)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
}

/// A list: recording, one element, noted with its type; making a placeholder, empty.
private struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }
    var count: Int? { decoder.record == nil ? 0 : nil }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { decoder.record == nil || currentIndex > 0 }

    init(decoder: RecordingDecoder) {
        self.decoder = decoder
    }

    mutating func decodeNil() throws -> Bool { false }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        if let record = decoder.record, record.kind == nil { record.kind = .list(decoder.recorder.schema(of: type)) }
        currentIndex += 1
        return try decoder.recorder.placeholder(type)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(decoder: RecordingDecoder(recorder: decoder.recorder, record: nil)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return RecordingUnkeyedContainer(decoder: RecordingDecoder(recorder: decoder.recorder, record: nil))
    }

    mutating func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: decoder.recorder, record: nil) }
}
