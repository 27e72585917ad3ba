// JSONValue.swift — any JSON value, for interfaces that want untyped access to what the page sends.
/// Any JSON value.
///
/// Use it as a method's input or output type for untyped access: the page's `data` decodes into it
/// whatever its shape, and any `JSONValue` result is sent back as it is. Numbers are `Double`, as
/// they are in JavaScript; objects keep their keys in order (``JSONObject``).
///
/// The default serializer reads a `JSONValue` in one pass over its text, wherever it sits in a
/// typed input, and writes it back with its keys in order. Through other decoders it is read by
/// trying each kind of value in turn, which costs more the deeper the value is nested.
public enum JSONValue: Sendable, Hashable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as a `Double` (as JavaScript holds it).
    case number(Double)
    /// A string.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object, its keys in the order they were written.
    case object(JSONObject)
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? TapeDecoder {
            self = try decoder.jsonValue()
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? decoder.container(keyedBy: AnyCodingKey.self) {
            self = .object(JSONObject(try value.allKeys.map { ($0.stringValue, try value.decode(JSONValue.self, forKey: $0)) }))
        } else {
            // Last, so that a string that cannot be read (a lone surrogate) reports its own error.
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? TreeEncoder {
            encoder.encodeJSON(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .object(let value):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, member) in value { try container.encode(member, forKey: AnyCodingKey(key)) }
        }
    }
}

/// A coding key made from any string or index.
package struct AnyCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?

    package init(_ string: String) {
        self.stringValue = string
    }

    package init(stringValue: String) {
        self.stringValue = stringValue
    }

    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
