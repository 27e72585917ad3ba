// SchemaRecorder.swift — learns the shape of a Decodable type by decoding it once from a decoder
// that records what the type asks for.
import Foundation

/// Learns the ``TypeSchema`` of `Decodable` types: each is decoded once from a decoder that answers
/// every request with a placeholder and records what was asked (a key and its type, whether it may
/// be absent, a single value, a list). Object types are named after the Swift type, recorded once
/// in ``types``, and a type met again while it is being recorded (a recursive one) is referred to
/// by name.
///
/// What cannot be learnt is ``TypeSchema/unknown``, never a wrong type: a type that decodes itself
/// from keys it does not name in advance, or whose decoding fails on a placeholder (an enumeration
/// that is not `CaseIterable`).
package final class SchemaRecorder {
    /// The object types met so far, by name.
    package private(set) var types: [String: ObjectSchema] = [:]
    /// The types being recorded now, outermost first.
    private var recording: [ObjectIdentifier] = []
    /// The name each recorded type has, told apart from another type of the same name.
    private var names: [ObjectIdentifier: String] = [:]
    /// `Date`, `Data` and `URL` as the configured serializer writes them (`Data` as bytes where it
    /// moves them as parts).
    private let foundationValues: [ObjectIdentifier: TypeSchema]

    /// A recorder that writes `Date`, `Data` and `URL` as `serializer` writes them (the default
    /// serializer's way, without one): each is encoded once and its JSON looked at.
    package init(serializer: (any JSONSerializer)? = nil) {
        guard let serializer else {
            foundationValues = [:]
            return
        }
        func written(_ value: some Encodable) -> TypeSchema {
            guard let text = try? serializer.encode(value), let first = text.first(where: { !" \t\r\n".utf8.contains($0) }) else { return .unknown }
            switch first {
            case UInt8(ascii: "\""): return .string
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
            case UInt8(ascii: "["): return .array(.integer)
            default: return .unknown
            }
        }
        foundationValues = [
            ObjectIdentifier(Date.self): written(Date(timeIntervalSinceReferenceDate: 0)),
            // `Data` a serializer moves as parts is bytes on the page, however it writes base64.
            ObjectIdentifier(Data.self): (serializer as? any BytePartsSerializer)?.movesParts == true ? .bytes : written(Data([1])),
            ObjectIdentifier(URL.self): written(URL(string: "https://example.com/")),
        ]
    }

    /// The schema of `type` as the default serializer writes it.
    package func schema<T: Decodable>(of type: T.Type) -> TypeSchema {
        if let written = foundationValues[ObjectIdentifier(type)] { return written }
        if let known = Self.primitive(type) { return known }
        if let container = type as? any ContainerSchema.Type { return container.schema(in: self) }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type, let literals = Self.literals(of: enumeration) {
            return .literals(literals)
        }
        let id = ObjectIdentifier(type)
        if let name = names[id] { return .named(name) }  // recorded, or being recorded (recursive)
        let name = uniqueName(for: type)
        names[id] = name
        recording.append(id)
        defer { recording.removeLast() }
        // A placeholder an optional field cannot have (an enumeration whose cases are not known)
        // stops the decoding there: it is decoded again with that field absent, to learn the rest.
        let shape = Shape()
        for _ in 0..<Self.passes {
            do {
                _ = try T(from: RecordingDecoder(recorder: self, record: shape))
                break
            } catch {
                guard let key = shape.failedOptionalKey, shape.absentKeys.insert(key).inserted else { break }
            }
        }
        if case .object(let fields) = shape.kind {
            types[name] = ObjectSchema(name: name, fields: fields)
            return .named(name)
        }
        // Not an object: it is described where it is used, and has no name of its own.
        names[id] = nil
        switch shape.kind {
        case .single(let schema): return schema
        case .list(let element): return .array(element)
        case .object, nil: return .unknown
        }
    }

    /// The schema of a method's result of `type`: its full type where it is
    /// also `Decodable`, what it says of itself where it is ``SchemaDescribing``, and otherwise
    /// ``TypeSchema/unknown``.
    package func schema<T>(ofResult type: T.Type) -> TypeSchema {
        if let describing = type as? any SchemaDescribing.Type { return describing.schema(in: self) }
        if let decodable = type as? any Decodable.Type { return schema(of: decodable) }
        return .unknown
    }

    /// Records `object` as an object type, for a type that describes itself.
    package func record(_ object: ObjectSchema) -> TypeSchema {
        if types[object.name] == nil { types[object.name] = object }
        return .named(object.name)
    }

    /// A value of `type` that decodes from nothing, recording nothing: what a recording decoder
    /// hands back for each request.
    func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = Self.primitiveValue(type) { return value }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type, let first = Self.firstCase(of: enumeration) as? T {
            return first
        }
        // A recursive type has no finite placeholder of its own (an optional or a list of it does).
        if recording.contains(ObjectIdentifier(type)), !(type is any ContainerSchema.Type) {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "a recursive value"))
        }
        return try T(from: RecordingDecoder(recorder: self, record: nil))
    }

    /// The most times one type is decoded to learn it.
    private static let passes = 16

    // MARK: Primitives

    private static func primitive<T>(_ type: T.Type) -> TypeSchema? {
        switch type {
        case is String.Type, is URL.Type: .string
        case is Data.Type: .bytes
        case is Bool.Type: .boolean
        case is Double.Type, is Float.Type, is Date.Type, is Decimal.Type: .number
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            .integer
        case is JSONValue.Type: .json
        case is ByteStream.Type: .byteStream
        default: nil
        }
    }

    private static func primitiveValue<T>(_ type: T.Type) -> T? {
        let value: Any? =
            switch type {
            case is String.Type: ""
            case is URL.Type: URL(string: "about:blank")
            case is Data.Type: Data()
            case is Bool.Type: false
            case is Double.Type: 0.0
            case is Float.Type: Float(0)
            case is Date.Type: Date(timeIntervalSinceReferenceDate: 0)
            case is Decimal.Type: Decimal(0)
            case is Int.Type: 0
            case is Int8.Type: Int8(0)
            case is Int16.Type: Int16(0)
            case is Int32.Type: Int32(0)
            case is Int64.Type: Int64(0)
            case is UInt.Type: UInt(0)
            case is UInt8.Type: UInt8(0)
            case is UInt16.Type: UInt16(0)
            case is UInt32.Type: UInt32(0)
            case is UInt64.Type: UInt64(0)
            case is JSONValue.Type: JSONValue.null
            case is ByteStream.Type: ByteStream([])
            default: nil
            }
        return value as? T
    }

    // MARK: Enumerations

    private static func literals<E: CaseIterable & RawRepresentable>(of type: E.Type) -> [JSONValue]? {
        let values = type.allCases.map { value -> JSONValue? in
            switch value.rawValue as Any {
            case let text as String: .string(text)
            case let number as Int: .number(Double(number))
            default: nil
            }
        }
        guard !values.isEmpty, !values.contains(nil) else { return nil }
        return values.compactMap { $0 }
    }

    private static func firstCase<E: CaseIterable & RawRepresentable>(of type: E.Type) -> Any? {
        type.allCases.first
    }

    // MARK: Names

    /// The Swift type's name; a second type of the same name (from another module, or nested
    /// elsewhere) gets its full name.
    private func uniqueName<T>(for type: T.Type) -> String {
        let short = String(describing: type)
        guard types[short] != nil || names.values.contains(short) else { return short }
        return String(reflecting: type)
    }
}

/// What a recording decoder learnt of one type: the kind of container it asked for, and what it
/// decoded from it.
final class Shape {
    enum Kind {
        case object([ObjectSchema.Field])
        case single(TypeSchema)
        case list(TypeSchema)
    }

    var kind: Kind?
    /// Optional keys read as absent, since their placeholder could not be made.
    var absentKeys: Set<String> = []
    /// The optional key whose placeholder is being made.
    var failedOptionalKey: String?

    func field(_ name: String, _ type: TypeSchema, isRequired: Bool) {
        var fields: [ObjectSchema.Field]
        if case .object(let existing) = kind { fields = existing } else { fields = [] }
        guard !fields.contains(where: { $0.name == name }) else { return }
        fields.append(ObjectSchema.Field(name: name, type: type, isRequired: isRequired))
        kind = .object(fields)
    }
}

// MARK: Containers

/// A type whose schema is made of its elements' (optional, list, set, dictionary).
protocol ContainerSchema {
    static func schema(in recorder: SchemaRecorder) -> TypeSchema
}

extension Optional: ContainerSchema where Wrapped: Decodable {
    static func schema(in recorder: SchemaRecorder) -> TypeSchema {
        .optional(recorder.schema(of: Wrapped.self))
    }
}

extension Array: ContainerSchema where Element: Decodable {
    static func schema(in recorder: SchemaRecorder) -> TypeSchema {
        .array(recorder.schema(of: Element.self))
    }
}

extension Set: ContainerSchema where Element: Decodable {
    static func schema(in recorder: SchemaRecorder) -> TypeSchema {
        .array(recorder.schema(of: Element.self))
    }
}

extension Dictionary: ContainerSchema where Key == String, Value: Decodable {
    static func schema(in recorder: SchemaRecorder) -> TypeSchema {
        .dictionary(recorder.schema(of: Value.self))
    }
}
