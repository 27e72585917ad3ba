// MethodSignature.swift — a registered method's input and output types, kept as what learns their
// schemas when asked.

/// The schemas of a method's input and output, learnt by a ``SchemaRecorder`` when they are asked
/// for, never at registration: a type's decoding runs only then. One object, so a method copied
/// on every call retains one reference for it, not two closures.
package final class MethodSignature: Sendable {
    package let input: @Sendable (SchemaRecorder) -> TypeSchema
    package let output: @Sendable (SchemaRecorder) -> TypeSchema
    /// What the method does, in the app's words (``MethodList/describe(_:_:)``).
    package let description: String?

    init(
        input: @escaping @Sendable (SchemaRecorder) -> TypeSchema, output: @escaping @Sendable (SchemaRecorder) -> TypeSchema,
        description: String? = nil
    ) {
        self.input = input
        self.output = output
        self.description = description
    }

    /// The same signature with `description`; a method made outside `MethodList` gets unknown types.
    static func describing(_ signature: MethodSignature?, as description: String) -> MethodSignature {
        let unknown: @Sendable (SchemaRecorder) -> TypeSchema = { _ in .unknown }
        return MethodSignature(input: signature?.input ?? unknown, output: signature?.output ?? unknown, description: description)
    }
}
