// TypeSchema.swift — the shape a value has in JSON on the page, learnt from its Swift type.
import Foundation

/// The shape a value of a method's input or output has on the page, learnt from its Swift type
/// (by decoding it once from a decoder that records what it asks for): what typed declarations of
/// an interface are written from.
public indirect enum TypeSchema: Sendable, Hashable, Codable {
    /// Not known: any value (`unknown`). Never a wrong type.
    case unknown
    /// Any JSON value (``JSONValue``).
    case json
    /// Nothing: a method that returns nothing.
    case nothing
    /// `true` or `false`.
    case boolean
    /// A number with a fraction (`Double`, `Float`, and `Date` as it encodes itself).
    case number
    /// A whole number (`Int` and its sized kinds).
    case integer
    /// A string (and `URL`).
    case string
    /// `Data`, anywhere in a value: a `Uint8Array` on the page, and any bytes from it.
    case bytes
    /// A ``ByteStream``: bytes, or a `ReadableStream` of them, from the page.
    case byteStream
    /// The value, or `null`.
    case optional(TypeSchema)
    /// A list of the value (and a `Set`).
    case array(TypeSchema)
    /// An object whose keys are any strings, each holding the value.
    case dictionary(TypeSchema)
    /// One of these values: an enumeration's raw values, where its cases are known (`CaseIterable`).
    case literals([JSONValue])
    /// An object type, described once in the schema's types under this name.
    case named(String)
}

/// An object type: its name (the Swift type's) and its fields, in the order it decodes them.
public struct ObjectSchema: Sendable, Hashable, Codable {
    /// One field of the object.
    public struct Field: Sendable, Hashable, Codable {
        /// The key it is written under.
        public var name: String
        /// What its value is.
        public var type: TypeSchema
        /// Whether the object always has it (`decode`), or may leave it out (`decodeIfPresent`).
        public var isRequired: Bool

        /// A field `name` of `type`, always there when `isRequired`.
        public init(name: String, type: TypeSchema, isRequired: Bool) {
            self.name = name
            self.type = type
            self.isRequired = isRequired
        }
    }

    /// The Swift type's name (its full name where two types share one).
    public var name: String
    /// Its fields, in the order it decodes them.
    public var fields: [Field]

    /// An object type `name` with `fields`.
    public init(name: String, fields: [Field]) {
        self.name = name
        self.fields = fields
    }
}
