// TreeEncoder.swift — encodes values into an ordered tree, then writes it as JSON in one pass.
import Foundation

/// An `Encoder` that builds the value as a tree whose objects keep their keys in the order they
/// were encoded, then writes it out: the default serializer's encoder.
///
/// One instance encodes a whole value, keeping the coding path as a stack. Like `JSONEncoder` with
/// its default settings: `Data` is written as base64, `URL` as its absolute string, `Date` as it
/// encodes itself, and a non-finite number is an `EncodingError`. A `JSONValue` is written as it is.
package final class TreeEncoder: Encoder {
    /// A value encoded so far.
    enum Node {
        case null
        case bool(Bool)
        case integer(Int64)
        case unsigned(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        /// A number's text, written as it is (`Decimal`).
        case number(String)
        case json(JSONValue)
        case array(ArrayBox)
        case object(ObjectBox)
    }

    // The encoder's state, and its boxes', are read and written by one thread, one access at a
    // time, for one value: the run-time exclusivity check on each access (a thread-local lookup,
    // about 40 instructions) would cost a small call several thousand instructions, so it is left out.

    final class ArrayBox {
        @exclusivity(unchecked) var elements: [Node] = []
    }

    final class ObjectBox {
        /// A key encoded again keeps its place and takes the new value.
        @exclusivity(unchecked) var members = OrderedMembers<Node>()
    }

    @exclusivity(unchecked) package var codingPath: [any CodingKey] = []
    package let userInfo: [CodingUserInfoKey: Any]
    /// What the value being encoded has produced.
    @exclusivity(unchecked) var value: Node?

    /// Whether each `Data` goes as a part, its marker written in its place, rather than as base64.
    let collectsParts: Bool
    /// The parts collected so far.
    @exclusivity(unchecked) package private(set) var parts: ByteParts?

    package init(userInfo: [CodingUserInfoKey: Any], collectsParts: Bool = false) {
        self.userInfo = userInfo
        self.collectsParts = collectsParts
    }

    /// Keeps `data` as the next part; the string that stands for it in the JSON.
    private func part(_ data: Data) -> String {
        ByteParts.add(data, to: &parts)
    }

    /// Encodes `value` and writes the whole tree as UTF-8 JSON text.
    package func encodeRoot<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.write(try box(value, depth: 0, extra: [], key: nil), to: &out)
        return out
    }

    /// `value` as a node, encoded with the path at `depth` keys, then `extra`, then `key`.
    func box<Value: Encodable>(_ value: Value, depth: Int, extra: [any CodingKey], key: (any CodingKey)?) throws -> Node {
        // Types compared, not cast: a comparison costs next to nothing on this path.
        if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if Value.self == JSONValue.self { return .json(unsafeBitCast(value, to: JSONValue.self)) }
        codingPath.enter(depth: depth, extra: extra, key: key)
        defer { codingPath.leave(to: depth) }
        if Value.self == Double.self { return try checked(unsafeBitCast(value, to: Double.self), at: codingPath) }
        if Value.self == Data.self {
            let data = value as! Data
            return .string(collectsParts ? part(data) : data.base64EncodedString())
        }
        if Value.self == URL.self { return .string((value as! URL).absoluteString) }
        if Value.self == Decimal.self { return .number((value as! Decimal).description) }
        let saved = self.value
        self.value = nil
        defer { self.value = saved }
        try value.encode(to: self)
        return self.value ?? .object(ObjectBox())  // a value that encoded nothing is `{}`, as with JSONEncoder
    }

    func encodeJSON(_ json: JSONValue) {
        value = .json(json)
    }

    func checked(_ value: Double, at path: @autoclosure () -> [any CodingKey]) throws -> Node {
        guard value.isFinite else { throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "a number that is not finite")) }
        return .double(value)
    }

    func checked(_ value: Float, at path: @autoclosure () -> [any CodingKey]) throws -> Node {
        guard value.isFinite else { throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "a number that is not finite")) }
        return .float(value)
    }

    // MARK: Containers

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let box) = value {
            return KeyedEncodingContainer(TreeKeyedContainer(encoder: self, box: box, position: CodingPathPosition(depth: codingPath.count, extra: [])))
        }
        let box = ObjectBox()
        value = .object(box)
        return KeyedEncodingContainer(TreeKeyedContainer(encoder: self, box: box, position: CodingPathPosition(depth: codingPath.count, extra: [])))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let box) = value {
            return TreeUnkeyedContainer(encoder: self, box: box, position: CodingPathPosition(depth: codingPath.count, extra: []))
        }
        let box = ArrayBox()
        value = .array(box)
        return TreeUnkeyedContainer(encoder: self, box: box, position: CodingPathPosition(depth: codingPath.count, extra: []))
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self, depth: codingPath.count)
    }
}

/// A container of a ``TreeEncoder`` at a position on its path.
private protocol TreeContainer {
    var encoder: TreeEncoder { get }
    var position: CodingPathPosition { get }
}

extension TreeContainer {
    var codingPath: [any CodingKey] { position.path(on: encoder.codingPath) }

    func encoded<Value: Encodable>(_ value: Value, key: any CodingKey) throws -> TreeEncoder.Node {
        try encoder.box(value, depth: position.depth, extra: position.extra, key: key)
    }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, TreeContainer {
    let encoder: TreeEncoder
    let box: TreeEncoder.ObjectBox
    let position: CodingPathPosition

    func encodeNil(forKey key: Key) throws { box.members[key.stringValue] = .null }
    func encode(_ value: Bool, forKey key: Key) throws { box.members[key.stringValue] = .bool(value) }
    func encode(_ value: String, forKey key: Key) throws { box.members[key.stringValue] = .string(value) }
    func encode(_ value: Double, forKey key: Key) throws { box.members[key.stringValue] = try encoder.checked(value, at: codingPath + [key]) }
    func encode(_ value: Float, forKey key: Key) throws { box.members[key.stringValue] = try encoder.checked(value, at: codingPath + [key]) }
    func encode(_ value: Int, forKey key: Key) throws { box.members[key.stringValue] = .integer(Int64(value)) }
    func encode(_ value: Int8, forKey key: Key) throws { box.members[key.stringValue] = .integer(Int64(value)) }
    func encode(_ value: Int16, forKey key: Key) throws { box.members[key.stringValue] = .integer(Int64(value)) }
    func encode(_ value: Int32, forKey key: Key) throws { box.members[key.stringValue] = .integer(Int64(value)) }
    func encode(_ value: Int64, forKey key: Key) throws { box.members[key.stringValue] = .integer(value) }
    func encode(_ value: UInt, forKey key: Key) throws { box.members[key.stringValue] = .unsigned(UInt64(value)) }
    func encode(_ value: UInt8, forKey key: Key) throws { box.members[key.stringValue] = .unsigned(UInt64(value)) }
    func encode(_ value: UInt16, forKey key: Key) throws { box.members[key.stringValue] = .unsigned(UInt64(value)) }
    func encode(_ value: UInt32, forKey key: Key) throws { box.members[key.stringValue] = .unsigned(UInt64(value)) }
    func encode(_ value: UInt64, forKey key: Key) throws { box.members[key.stringValue] = .unsigned(value) }

    func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        box.members[key.stringValue] = try encoded(value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder.ObjectBox()
        box.members[key.stringValue] = .object(nested)
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder, box: nested, position: position.nested(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder.ArrayBox()
        box.members[key.stringValue] = .array(nested)
        return TreeUnkeyedContainer(encoder: encoder, box: nested, position: position.nested(key))
    }

    func superEncoder() -> any Encoder { ReferencingEncoder(parent: encoder, path: codingPath + [AnyCodingKey("super")]) { self.box.members["super"] = $0 } }

    func superEncoder(forKey key: Key) -> any Encoder { ReferencingEncoder(parent: encoder, path: codingPath + [key]) { self.box.members[key.stringValue] = $0 } }
}

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer, TreeContainer {
    let encoder: TreeEncoder
    let box: TreeEncoder.ArrayBox
    let position: CodingPathPosition

    var count: Int { box.elements.count }

    private var key: AnyCodingKey { AnyCodingKey(intValue: box.elements.count) }

    mutating func encodeNil() throws { box.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { box.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { box.elements.append(try encoder.checked(value, at: codingPath + [key])) }
    mutating func encode(_ value: Float) throws { box.elements.append(try encoder.checked(value, at: codingPath + [key])) }
    mutating func encode(_ value: Int) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { box.elements.append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { box.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { box.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { box.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { box.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { box.elements.append(.unsigned(value)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        box.elements.append(try encoded(value, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder.ObjectBox()
        let key = self.key
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder, box: nested, position: position.nested(key)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder.ArrayBox()
        let key = self.key
        box.elements.append(.array(nested))
        return TreeUnkeyedContainer(encoder: encoder, box: nested, position: position.nested(key))
    }

    mutating func superEncoder() -> any Encoder {
        let index = box.elements.count
        let box = self.box
        box.elements.append(.null)
        return ReferencingEncoder(parent: encoder, path: codingPath + [key]) { box.elements[index] = $0 }
    }
}

private struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    let depth: Int

    var codingPath: [any CodingKey] { Array(encoder.codingPath.prefix(depth)) }

    func encodeNil() throws { encoder.value = .null }
    func encode(_ value: Bool) throws { encoder.value = .bool(value) }
    func encode(_ value: String) throws { encoder.value = .string(value) }
    func encode(_ value: Double) throws { encoder.value = try encoder.checked(value, at: codingPath) }
    func encode(_ value: Float) throws { encoder.value = try encoder.checked(value, at: codingPath) }
    func encode(_ value: Int) throws { encoder.value = .integer(Int64(value)) }
    func encode(_ value: Int8) throws { encoder.value = .integer(Int64(value)) }
    func encode(_ value: Int16) throws { encoder.value = .integer(Int64(value)) }
    func encode(_ value: Int32) throws { encoder.value = .integer(Int64(value)) }
    func encode(_ value: Int64) throws { encoder.value = .integer(value) }
    func encode(_ value: UInt) throws { encoder.value = .unsigned(UInt64(value)) }
    func encode(_ value: UInt8) throws { encoder.value = .unsigned(UInt64(value)) }
    func encode(_ value: UInt16) throws { encoder.value = .unsigned(UInt64(value)) }
    func encode(_ value: UInt32) throws { encoder.value = .unsigned(UInt64(value)) }
    func encode(_ value: UInt64) throws { encoder.value = .unsigned(value) }
    func encode<Value: Encodable>(_ value: Value) throws { encoder.value = try encoder.box(value, depth: depth, extra: [], key: nil) }
}

/// The encoder a `superEncoder` call returns: what is encoded through it lands where `store` puts it.
private final class ReferencingEncoder: Encoder {
    let parent: TreeEncoder
    let codingPath: [any CodingKey]
    let store: (TreeEncoder.Node) -> Void
    var userInfo: [CodingUserInfoKey: Any] { parent.userInfo }

    init(parent: TreeEncoder, path: [any CodingKey], store: @escaping (TreeEncoder.Node) -> Void) {
        self.parent = parent
        self.codingPath = path
        self.store = store
    }

    /// A fresh encoder on the same path; whatever it produces is stored when this one goes.
    private lazy var inner: TreeEncoder = {
        let encoder = TreeEncoder(userInfo: parent.userInfo)
        encoder.codingPath = codingPath
        return encoder
    }()

    deinit { store(inner.value ?? .object(TreeEncoder.ObjectBox())) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { inner.container(keyedBy: type) }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { inner.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { inner.singleValueContainer() }
}

/// Writes encoded trees and `JSONValue`s as JSON text.
package enum JSONWriter {
    static func write(_ node: TreeEncoder.Node, to out: inout [UInt8]) {
        switch node {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): appendInteger(value, to: &out)
        case .unsigned(let value): value <= UInt64(Int64.max) ? appendInteger(Int64(value), to: &out) : out.append(contentsOf: String(value).utf8)
        case .double(let value): appendNumber(value, to: &out)
        case .float(let value): out.append(contentsOf: (value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : value.description).utf8)
        case .string(let value): JSONStrings.appendQuoted(value, to: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .json(let value): write(value, to: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (index, element) in box.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            for index in box.members.keys.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONStrings.appendQuoted(box.members.keys[index], to: &out)
                out.append(UInt8(ascii: ":"))
                write(box.members.values[index], to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `value` with its object keys in order. A number that is not finite, which JSON
    /// cannot hold, is written as `null`, as `JSON.stringify` does.
    package static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): value.isFinite ? appendNumber(value, to: &out) : out.append(contentsOf: "null".utf8)
        case .string(let value): JSONStrings.appendQuoted(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONStrings.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A finite `Double` as JavaScript writes it where the two agree: whole numbers below 2^53
    /// without a fraction, everything else in Swift's shortest round-trip form.
    static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value), to: &out)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    /// The decimal digits of `value`, with its sign.
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        // 20 digits and a sign fit; the digits are written from the end of a buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
            var start = buffer.count
            var rest = value.magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start...])))
        }
    }
}
