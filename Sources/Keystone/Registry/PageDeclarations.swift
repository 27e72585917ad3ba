// PageDeclarations.swift — what Swift asks of the page, declared for its TypeScript: the handlers
// Swift calls and the events it emits, with their types.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's side as Swift uses it, for the page's generated TypeScript
/// (``Keystone/typeScriptDeclarations(page:)``): each handler Swift calls, with the arguments it
/// passes and the answer it reads, and each event it emits, with its value. Swift's calls stay
/// calls by name; these declarations type the page's `register`, `registerAsyn` and `on`.
///
/// ```swift
/// var page = PageDeclarations()
/// page.handler("drafts.save", arguments: Draft.self, answer: Bool.self)
/// page.event("sync.progress", value: Double.self)
/// let declarations = keystone.typeScriptDeclarations(page: page)
/// ```
public struct PageDeclarations: Sendable {
    struct Handler: Sendable {
        var name: String
        var arguments: [@Sendable (SchemaRecorder) -> TypeSchema]
        var answer: @Sendable (SchemaRecorder) -> TypeSchema
    }

    struct Event: Sendable {
        var name: String
        var value: @Sendable (SchemaRecorder) -> TypeSchema
    }

    var handlers: [Handler] = []
    var events: [Event] = []

    /// No handlers and no events.
    public init() {}

    /// A page handler Swift calls (`Keystone.call`, `start`, `stream`) with arguments of these
    /// types, in order, reading its answer (each answer, for a stream) as `Answer`.
    public mutating func handler<each Argument: Decodable & Sendable, Answer: Decodable & Sendable>(
        _ name: String, arguments: repeat (each Argument).Type, answer: Answer.Type
    ) {
        var schemas: [@Sendable (SchemaRecorder) -> TypeSchema] = []
        for type in repeat each arguments {
            schemas.append(Self.learning(type))
        }
        handlers.append(Handler(name: name, arguments: schemas, answer: Self.learning(Answer.self)))
    }

    /// An event Swift emits (`Keystone.emit`) with a value of type `Value`.
    public mutating func event<Value: Decodable & Sendable>(_ name: String, value: Value.Type) {
        events.append(Event(name: name, value: Self.learning(Value.self)))
    }

    /// How a recorder learns `Value`'s schema.
    private static func learning<Value: Decodable & Sendable>(_: Value.Type) -> @Sendable (SchemaRecorder) -> TypeSchema {
        { recorder in recorder.schema(of: Value.self) }
    }

    /// The declarations' types, learnt by `recorder`, sorted by name.
    func schema(recording recorder: SchemaRecorder) -> PageSchema {
        PageSchema(
            handlers: handlers.sorted { $0.name < $1.name }.map { handler in
                PageSchema.Handler(name: handler.name, arguments: handler.arguments.map { $0(recorder) }, answer: handler.answer(recorder))
            },
            events: events.sorted { $0.name < $1.name }.map { PageSchema.Event(name: $0.name, value: $0.value(recorder)) })
    }
}

/// The types of ``PageDeclarations``, as the TypeScript writer reads them.
package struct PageSchema: Sendable, Hashable {
    package struct Handler: Sendable, Hashable {
        package var name: String
        package var arguments: [TypeSchema]
        package var answer: TypeSchema
    }

    package struct Event: Sendable, Hashable {
        package var name: String
        package var value: TypeSchema
    }

    package var handlers: [Handler] = []
    package var events: [Event] = []
}
