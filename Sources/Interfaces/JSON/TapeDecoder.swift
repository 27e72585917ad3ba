// TapeDecoder.swift — decodes typed values, and JSONValue, from a parsed tape in one walk.
import Foundation

/// A `Decoder` over a ``JSONTape``: the default serializer's decoder.
///
/// One instance decodes a whole value: it moves from node to node and keeps the coding path as a
/// stack, so nested values cost no allocation of their own. Object members are found by comparing
/// key bytes (a large object gets an index once), and when a key repeats the last member wins, as
/// with `JSON.parse`. A `JSONValue` anywhere in the value is built straight from its nodes.
package final class TapeDecoder: Decoder {
    let tape: JSONTape
    let bytes: UnsafeBufferPointer<UInt8>
    /// The node being decoded by `init(from:)`.
    var node = 0
    /// The keys from the root to the value being decoded.
    var path: [any CodingKey] = []
    package let userInfo: [CodingUserInfoKey: Any]
    /// The page's bytes sent beside the JSON: a `Data` written as a number is the part it names.
    let parts: [Data]?

    package init(tape: JSONTape, bytes: UnsafeBufferPointer<UInt8>, userInfo: [CodingUserInfoKey: Any], parts: [Data]? = nil) {
        self.tape = tape
        self.bytes = bytes
        self.userInfo = userInfo
        self.parts = parts
    }

    package var codingPath: [any CodingKey] { path }

    /// Decodes the value at the root of the tape.
    package func decodeRoot<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try decode(type, at: 0, depth: 0, extra: [], key: nil)
    }

    // MARK: Containers

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try TapeKeyedContainer<Key>(decoder: self, object: try expect(.object, at: node, as: [String: Any].self), position: CodingPathPosition(depth: path.count, extra: [])))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        TapeUnkeyedContainer(decoder: self, array: try expect(.array, at: node, as: [Any].self), position: CodingPathPosition(depth: path.count, extra: []))
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self, node: node, depth: path.count)
    }

    // MARK: Walking

    /// Decodes `type` from `node`, with the coding path at `depth` keys, then `extra`, then `key`.
    func decode<Value: Decodable>(_ type: Value.Type, at node: Int, depth: Int, extra: [any CodingKey], key: (any CodingKey)?) throws -> Value {
        path.enter(depth: depth, extra: extra, key: key)
        defer { path.leave(to: depth) }
        if type == JSONValue.self { return try jsonValue(at: node) as! Value }
        if type == Data.self { return try data(at: node) as! Value }
        if type == URL.self { return try url(at: node) as! Value }
        if type == Decimal.self { return try decimal(at: node) as! Value }
        let saved = self.node
        self.node = node
        defer { self.node = saved }
        return try Value(from: self)
    }

    /// The value at the current node as a `JSONValue`.
    func jsonValue() throws -> JSONValue {
        try jsonValue(at: node)
    }

    /// Builds the `JSONValue` at `node` from its subtree, each node visited once.
    func jsonValue(at node: Int) throws -> JSONValue {
        let entry = tape.nodes[node]
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(try double(at: node))
        case .string, .escapedString: return .string(try string(at: node))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.count))
            var child = node + 1
            while child < Int(entry.end) {
                elements.append(try jsonValue(at: child))
                child = Int(tape.nodes[child].end)
            }
            return .array(elements)
        case .object:
            var object = JSONObject()
            var child = node + 1
            while child < Int(entry.end) {
                let key = try string(at: child)
                object[key] = try jsonValue(at: child + 1)
                child = Int(tape.nodes[child + 1].end)
            }
            return .object(object)
        }
    }

    // MARK: Scalars

    func isNull(_ node: Int) -> Bool { tape.nodes[node].kind == .null }

    func bool(at node: Int) throws -> Bool {
        switch tape.nodes[node].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: node)
        }
    }

    func string(at node: Int) throws -> String {
        let entry = tape.nodes[node]
        let text = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.start + entry.count)])
        switch entry.kind {
        case .string: return String(decoding: text, as: UTF8.self)  // validated UTF-8 while parsing
        case .escapedString:
            guard let string = JSONStrings.unescape(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a string holds a lone surrogate"))
            }
            return string
        default: throw mismatch(String.self, at: node)
        }
    }

    func double(at node: Int) throws -> Double {
        let entry = tape.nodes[node]
        guard entry.kind == .number else { throw mismatch(Double.self, at: node) }
        let text = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.start + entry.count)])
        if let integer = JSONStrings.smallInteger(text) { return Double(integer) }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a number does not fit in Double"))
        }
        return value
    }

    func float(at node: Int) throws -> Float {
        let float = Float(try double(at: node))
        guard float.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a number does not fit in Float"))
        }
        return float
    }

    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at node: Int) throws -> Integer {
        let entry = tape.nodes[node]
        guard entry.kind == .number else { throw mismatch(type, at: node) }
        let text = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.start + entry.count)])
        if let value = JSONStrings.integer(text, as: type) { return value }
        // A fraction or an exponent: accepted when the number is a whole one that fits.
        if let value = Double(String(decoding: text, as: UTF8.self)), let integer = Integer(exactly: value) { return integer }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a number does not fit in \(type)"))
    }

    private func data(at node: Int) throws -> Data {
        if let parts, tape.nodes[node].kind == .number {
            return try ByteParts.part(integer(Int.self, at: node), of: parts, codingPath: path)
        }
        guard let data = Data(base64Encoded: try string(at: node)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a string is not base64"))
        }
        return data
    }

    private func url(at node: Int) throws -> URL {
        guard let url = URL(string: try string(at: node)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a string is not a URL"))
        }
        return url
    }

    private func decimal(at node: Int) throws -> Decimal {
        let entry = tape.nodes[node]
        guard entry.kind == .number else { throw mismatch(Decimal.self, at: node) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.start + entry.count)]), as: UTF8.self)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "a number does not fit in Decimal"))
        }
        return value
    }

    /// `node` itself, when it is of `kind`; a type mismatch naming `type` otherwise.
    func expect(_ kind: JSONTape.Kind, at node: Int, as type: Any.Type) throws -> Int {
        guard tape.nodes[node].kind == kind else { throw mismatch(type, at: node) }
        return node
    }

    func mismatch(_ type: Any.Type, at node: Int) -> DecodingError {
        if tape.nodes[node].kind == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "found a value of another kind"))
    }
}

/// A container of a ``TapeDecoder`` at a position on its path.
private protocol TapeContainer {
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

private struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol, TapeContainer {
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

private struct TapeUnkeyedContainer: UnkeyedDecodingContainer, TapeContainer {
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

private struct TapeSingleValueContainer: SingleValueDecodingContainer {
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

extension DecodingError {
    /// The same error with its context's path replaced by `path`.
    func relocated(to path: [any CodingKey]) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let context): .typeMismatch(type, .init(codingPath: path, debugDescription: context.debugDescription))
        case .valueNotFound(let type, let context): .valueNotFound(type, .init(codingPath: path, debugDescription: context.debugDescription))
        case .keyNotFound(let key, let context): .keyNotFound(key, .init(codingPath: path, debugDescription: context.debugDescription))
        case .dataCorrupted(let context): .dataCorrupted(.init(codingPath: path, debugDescription: context.debugDescription))
        @unknown default: self
        }
    }
}
