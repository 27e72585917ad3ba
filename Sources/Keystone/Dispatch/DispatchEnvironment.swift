// DispatchEnvironment.swift — what a dispatcher runs a call with, from the hub.
/// What a dispatcher runs a call with: the serializer and the call's context.
public struct DispatchEnvironment: Sendable {
    /// The serializer methods decode their input and encode their output with.
    public let serializer: any JSONSerializer
    /// The context a method that asks for one receives.
    public let context: CallContext

    /// Creates the environment a dispatcher runs a call in.
    public init(serializer: any JSONSerializer, context: CallContext) {
        self.serializer = serializer
        self.context = context
    }
}
