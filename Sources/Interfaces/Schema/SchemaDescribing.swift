// SchemaDescribing.swift — how a result type that is only Encodable says what it looks like.

/// A type that says what it looks like on the page, for a method's schema: an `Encodable` result
/// that is not `Decodable`, whose shape cannot be learnt by decoding it.
///
/// ```swift
/// struct Receipt: Encodable, SchemaDescribing {
///     var total: Double
///     static var schemaFields: [ObjectSchema.Field] {
///         [ObjectSchema.Field(name: "total", type: .number, isRequired: true)]
///     }
/// }
/// ```
public protocol SchemaDescribing {
    /// The type's fields, as its encoding writes them.
    static var schemaFields: [ObjectSchema.Field] { get }
}

extension SchemaDescribing {
    /// The type's schema: an object named after it.
    static func schema(in recorder: SchemaRecorder) -> TypeSchema {
        recorder.record(ObjectSchema(name: String(describing: Self.self), fields: schemaFields))
    }
}
