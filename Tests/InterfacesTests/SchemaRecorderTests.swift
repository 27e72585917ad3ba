// SchemaRecorderTests.swift — the shape of Swift types as a page sees them, learnt by decoding each
// once from a recording decoder.
import Foundation
import Testing

@testable import KeystoneInterfaces

@Suite("Schema recorder")
struct SchemaRecorderTests {
    struct Point: Codable { var x: Double; var y: Double }
    struct Shape: Codable {
        var name: String
        var corners: [Point]
        var tags: Set<String>
        var notes: String?
        var weights: [String: Int]
        var origin: Point
    }
    enum Colour: String, Codable, CaseIterable { case red, green }
    enum Level: Int, Codable, CaseIterable {
        case low = 1
        case high = 3
    }
    enum Mood: String, Codable { case calm }  // its cases are not known
    struct Paint: Codable { var colour: Colour; var mood: Mood?; var level: Level? }
    struct Node: Codable { var value: Int; var children: [Node]; var parent: Parent? }
    final class Parent: Codable { var node: Node?; init() {} }
    struct Wrapped: Codable {
        var id: String
        init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(String.self) }
    }
    struct Stamps: Codable { var at: Date; var link: URL; var blob: Data; var any: JSONValue }

    /// One type and the schema it should have.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let schema: @Sendable () -> TypeSchema
        let expected: TypeSchema

        init<T: Decodable & SendableMetatype>(_ type: T.Type, _ expected: TypeSchema) {
            testDescription = String(describing: type)
            schema = { SchemaRecorder().schema(of: T.self) }
            self.expected = expected
        }
    }

    @Test(arguments: [
        Case(String.self, .string), Case(Int.self, .integer), Case(UInt8.self, .integer), Case(Double.self, .number), Case(Bool.self, .boolean),
        Case([Int].self, .array(.integer)), Case(Int?.self, .optional(.integer)), Case([String: [Bool]].self, .dictionary(.array(.boolean))),
        Case(ByteStream.self, .byteStream), Case(Colour.self, .literals([.string("red"), .string("green")])),
        Case(Level.self, .literals([.number(1), .number(3)])), Case(Wrapped.self, .string),
    ])
    func valuesAreDescribedByTheirJSON(_ item: Case) {
        #expect(item.schema() == item.expected)
    }

    @Test func anObjectIsNamedAndItsFieldsRecordedInOrder() throws {
        let recorder = SchemaRecorder()
        #expect(recorder.schema(of: Shape.self) == .named("Shape"))
        let shape = try #require(recorder.types["Shape"])
        #expect(shape.fields.map(\.name) == ["name", "corners", "tags", "notes", "weights", "origin"])
        #expect(shape.fields.map(\.type) == [.string, .array(.named("Point")), .array(.string), .string, .dictionary(.integer), .named("Point")])
        #expect(shape.fields.map(\.isRequired) == [true, true, true, false, true, true])
        #expect(recorder.types["Point"]?.fields.map(\.name) == ["x", "y"])
    }

    @Test func enumerationsWhoseCasesAreKnownAreLiteralsAndOthersTheirRawType() throws {
        let recorder = SchemaRecorder()
        _ = recorder.schema(of: Paint.self)
        let paint = try #require(recorder.types["Paint"])
        // A field after one whose placeholder cannot be made is learnt all the same.
        #expect(paint.fields.map(\.type) == [.literals([.string("red"), .string("green")]), .string, .literals([.number(1), .number(3)])])
        #expect(paint.fields.map(\.isRequired) == [true, false, false])
    }

    @Test func aRecursiveTypeRefersToItselfByName() throws {
        let recorder = SchemaRecorder()
        #expect(recorder.schema(of: Node.self) == .named("Node"))
        #expect(recorder.types["Node"]?.fields.map(\.type) == [.integer, .array(.named("Node")), .named("Parent")])
        #expect(recorder.types["Parent"]?.fields.map(\.type) == [.named("Node")])
        #expect(recorder.types["Parent"]?.fields.map(\.isRequired) == [false])
    }

    @Test func foundationValuesAreWhatTheDefaultSerializerWrites() throws {
        let recorder = SchemaRecorder()
        _ = recorder.schema(of: Stamps.self)
        #expect(recorder.types["Stamps"]?.fields.map(\.type) == [.number, .string, .bytes, .json])
    }

    @Test func foundationValuesAreWhatTheConfiguredSerializerWrites() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .deferredToData
        let recorder = SchemaRecorder(serializer: FoundationJSONSerializer(encoder: encoder))
        _ = recorder.schema(of: Stamps.self)
        #expect(recorder.types["Stamps"]?.fields.map(\.type) == [.string, .string, .array(.integer), .json])
    }

    @Test func theSameTypeIsRecordedOnce() {
        let recorder = SchemaRecorder()
        _ = recorder.schema(of: [Point].self)
        _ = recorder.schema(of: Point?.self)
        #expect(recorder.types.keys.sorted() == ["Point"])
    }
}
