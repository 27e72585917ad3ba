// TapeContainers.swift — the keyed, unkeyed and single-value containers a TapeDecoder hands out,
// each reading its nodes in place.
import Foundation

/// A container of a ``TapeDecoder`` at a position on its path.
protocol TapeContainer {
    var decoder: TapeDecoder { get }
    var position: CodingPathPosition { get }
}

extension TapeContainer {
    var codingPath: [any CodingKey] { position.path(on: decoder.path) }

    /// Runs `body`, which reads a value under `key`; an error it throws gets this container's path
    /// plus `key` (the path is built only then: reading a value builds none).
    func at<Result>(_ key: any CodingKey, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DecodingError {
            throw error.relocated(to: codingPath + [key])
        }
    }

    func decode<Value: Decodable>(_ type: Value.Type, at node: Int, key: any CodingKey) throws -> Value {
        try decoder.decode(type, at: node, depth: position.depth, extra: position.extra, key: key)
    }
}

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol, TapeContainer {
    let decoder: TapeDecoder
    let object: Int
    let position: CodingPathPosition
    /// Key → value node, for objects large enough that searching each time would cost too much.
    private let index: [String: Int]?

    init(decoder: TapeDecoder, object: Int, position: CodingPathPosition) throws {
        self.decoder = decoder
        self.object = object
        self.position = position
        if decoder.tape.nodes[object].count > 16 {
            var index: [String: Int] = [:]
            var child = object + 1
            while child < Int(decoder.tape.nodes[object].end) {
                index[try decoder.string(at: child)] = child + 1  // the last of a repeated key wins
                child = Int(decoder.tape.nodes[child + 1].end)
            }
            self.index = index
        } else {
            self.index = nil
        }
    }

    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        var child = object + 1
        while child < Int(decoder.tape.nodes[object].end) {
            if let name = try? decoder.string(at: child), seen.insert(name).inserted, let key = Key(stringValue: name) {
                keys.append(key)
            }
            child = Int(decoder.tape.nodes[child + 1].end)
        }
        return keys
    }

    /// The value node of the member named `name`; the last one when the key repeats.
    private func member(named name: String) -> Int? {
        if let index { return index[name] }
        var name = name
        return name.withUTF8 { wanted in
            var found: Int?
            var child = object + 1
            let end = Int(decoder.tape.nodes[object].end)
            while child < end {
                let entry = decoder.tape.nodes[child]
                if entry.kind == .string {
                    // An unescaped key is its bytes: compared as they are.
                    if Int(entry.count) == wanted.count,
                        wanted.isEmpty || memcmp(decoder.bytes.baseAddress! + Int(entry.start), wanted.baseAddress!, wanted.count) == 0
                    {
                        found = child + 1
                    }
                } else if (try? decoder.string(at: child))?.utf8.elementsEqual(wanted) == true {
                    found = child + 1
                }
                child = Int(decoder.tape.nodes[child + 1].end)
            }
            return found
        }
    }

    private func member(_ key: Key) -> Int? { member(named: key.stringValue) }

    private func require(_ key: Key) throws -> Int {
        guard let node = member(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no such key"))
        }
        return node
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(try require(key)) }

    /// A scalar under `key`, read by `read`.
    private func scalar<Value>(_ key: Key, _ read: (TapeDecoder, Int) throws -> Value) throws -> Value {
        let node = try require(key)
        let decoder = self.decoder
        return try at(key) { try read(decoder, node) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key) { try $0.bool(at: $1) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) { try $0.string(at: $1) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) { try $0.double(at: $1) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) { try $0.float(at: $1) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(key) { try $0.integer(type, at: $1) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key) { try $0.integer(type, at: $1) } }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decode(type, at: try require(key), key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let node = try require(key)
        return try at(key) {
            KeyedDecodingContainer(try TapeKeyedContainer<NestedKey>(decoder: decoder, object: try decoder.expect(.object, at: node, as: [String: Any].self), position: position.nested(key)))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let node = try require(key)
        return try at(key) {
            TapeUnkeyedContainer(decoder: decoder, array: try decoder.expect(.array, at: node, as: [Any].self), position: position.nested(key))
        }
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(at: member(named: "super"), key: AnyCodingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(at: member(key), key: key)
    }

    private func superDecoder(at node: Int?, key: any CodingKey) throws -> any Decoder {
        guard let node else { throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no such key")) }
        let decoder = TapeDecoder(tape: decoder.tape, bytes: decoder.bytes, userInfo: decoder.userInfo)
        decoder.node = node
        decoder.path = codingPath + [key]
        return decoder
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer, TapeContainer {
    let decoder: TapeDecoder
    let array: Int
    let position: CodingPathPosition
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var next: Int

    init(decoder: TapeDecoder, array: Int, position: CodingPathPosition) {
        self.decoder = decoder
        self.array = array
        self.position = position
        self.next = array + 1
    }

    var count: Int? { Int(decoder.tape.nodes[array].count) }
    var isAtEnd: Bool { currentIndex >= Int(decoder.tape.nodes[array].count) }

    private var key: AnyCodingKey { AnyCodingKey(intValue: currentIndex) }

    /// The current element's node, after which the container moves on.
    private mutating func advance(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "no more elements"))
        }
        let node = next
        next = Int(decoder.tape.nodes[node].end)
        currentIndex += 1
        return node
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any?.self, .init(codingPath: codingPath + [key], debugDescription: "no more elements"))
        }
        guard decoder.isNull(next) else { return false }
        _ = try advance(Any?.self)
        return true
    }

    private mutating func scalar<Value>(_ type: Value.Type, _ read: (TapeDecoder, Int) throws -> Value) throws -> Value {
        let key = self.key
        let node = try advance(type)
        let decoder = self.decoder
        return try at(key) { try read(decoder, node) }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) { try $0.bool(at: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) { try $0.string(at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) { try $0.double(at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) { try $0.float(at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) { try $0.integer(type, at: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) { try $0.integer(type, at: $1) } }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let key = self.key
        let node = try advance(type)
        return try decode(type, at: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let key = self.key
        let node = try advance(type)
        return try at(key) {
            KeyedDecodingContainer(try TapeKeyedContainer<NestedKey>(decoder: decoder, object: try decoder.expect(.object, at: node, as: [String: Any].self), position: position.nested(key)))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let key = self.key
        let node = try advance([Any].self)
        return try at(key) {
            TapeUnkeyedContainer(decoder: decoder, array: try decoder.expect(.array, at: node, as: [Any].self), position: position.nested(key))
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let key = self.key
        let node = try advance(Any.self)
        let decoder = TapeDecoder(tape: decoder.tape, bytes: decoder.bytes, userInfo: decoder.userInfo)
        decoder.node = node
        decoder.path = codingPath + [key]
        return decoder
    }
}

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    let node: Int
    let depth: Int

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    func decodeNil() -> Bool { decoder.isNull(node) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: node) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(at: node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double(at: node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.float(at: node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type, at: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type, at: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type, at: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type, at: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type, at: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type, at: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type, at: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type, at: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type, at: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type, at: node) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try decoder.decode(type, at: node, depth: depth, extra: [], key: nil)
    }
}
