// InterfaceSchema.swift — every registered method's kind, input and output, and the object types
// they use: what typed declarations for a page are written from.

/// The schema of an app's registered interfaces (`Keystone.interfaceSchema`):
/// each method's full name, kind, input and output, and the object types they name, each sorted
/// by name so the same interfaces give the same schema on every run. `Codable`, for tools.
public struct InterfaceSchema: Sendable, Hashable, Codable {
    /// One registered method.
    public struct Method: Sendable, Hashable, Codable {
        /// The name the page calls it by: `namespace.method`, or `method` in the empty namespace.
        public var name: String
        /// How it answers.
        public var kind: MethodKind
        /// What it takes as `data`: ``TypeSchema/nothing`` for a method that ignores it.
        public var input: TypeSchema
        /// What it answers with (each result, for a multi-response method): ``TypeSchema/nothing``
        /// for a method that returns nothing.
        public var output: TypeSchema
        /// What it does, as its registration describes it (`MethodList.describe(_:_:)`).
        public var description: String?
        /// Whether a call of it made without a key runs durably (`MethodList.durable(_:)`): its
        /// outcome is kept as JSON, each `Data` in it base64.
        public var isDurable: Bool

        /// A method `name` of `kind`, taking `input` and answering with `output`.
        public init(name: String, kind: MethodKind, input: TypeSchema, output: TypeSchema, description: String? = nil, isDurable: Bool = false) {
            self.name = name
            self.kind = kind
            self.input = input
            self.output = output
            self.description = description
            self.isDurable = isDurable
        }
    }

    /// The methods, by name.
    public var methods: [Method]
    /// The object types the methods name, by name.
    public var types: [ObjectSchema]

    /// A schema of `methods` and the object `types` they name.
    public init(methods: [Method], types: [ObjectSchema]) {
        self.methods = methods
        self.types = types
    }
}
