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
    // The decoder's state is read and written by one thread, one access at a time, for one value:
    // the run-time exclusivity check on each access (a thread-local lookup, about 40 instructions)
    // would cost a small call several thousand instructions, so it is left out.
    /// The node being decoded by `init(from:)`.
    @exclusivity(unchecked) var node = 0
    /// The keys from the root to the value being decoded.
    @exclusivity(unchecked) var path: [any CodingKey] = []
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
