// MethodSignature.swift — a registered method's input and output types, kept as what learns their
// schemas when asked.

/// The schemas of a method's input and output, learnt by a ``SchemaRecorder`` when they are asked
/// for, never at registration: a type's decoding runs only then. One object, so a method copied
/// on every call retains one reference for it, not two closures.
package final class MethodSignature: Sendable {
    package let input: @Sendable (SchemaRecorder) -> TypeSchema
    package let output: @Sendable (SchemaRecorder) -> TypeSchema

    init(input: @escaping @Sendable (SchemaRecorder) -> TypeSchema, output: @escaping @Sendable (SchemaRecorder) -> TypeSchema) {
        self.input = input
        self.output = output
    }
}
