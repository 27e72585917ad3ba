// InterfaceSchemaTests.swift — the schema of registered interfaces: each method's kind, input and
// output, learnt from its registration's Swift types.
import Foundation
import Testing

@testable import Keystone

@Suite("Interface schema")
struct InterfaceSchemaTests {
    struct Pair: Codable, Sendable { var a: Int; var b: Int? }
    struct Report: Encodable, Sendable { var text: String }  // Encodable only: not learnt
    struct Receipt: Encodable, Sendable, SchemaDescribing {
        var total: Double
        static var schemaFields: [ObjectSchema.Field] { [ObjectSchema.Field(name: "total", type: .number, isRequired: true)] }
    }

    struct Shop: BridgeInterface {
        func exposeMethods(to methods: inout MethodList) {
            methods.sync("add") { (pair: Pair) in pair.a + (pair.b ?? 0) }
            methods.async("report") { () async in Report(text: "") }
            methods.async("receipt") { (id: String) async in Receipt(total: 0) }
            methods.multiResponse("ticks") { (count: Int, writer: ResponseWriter<[Pair]>) in }
            methods.async("save") { (bytes: Data) async in }
            methods.async("thumbnail") { (id: String) async in Data() }
            methods.async("upload") { (bytes: ByteStream) async in 0 }
            methods.sync("ping") {}
            methods.describe("add", "Adds a and b.")
            methods.describe("ticks", "Counts up.\nEach tick, a list. Never */ ends early.")
            methods.describe("missing", "left alone")
        }
    }

    func schema() throws -> InterfaceSchema {
        let keystone = Keystone()
        try keystone.register(Shop(), namespace: "shop")
        return keystone.interfaceSchema
    }

    @Test func eachMethodHasItsKindInputAndOutput() throws {
        let methods = try schema().methods
        #expect(methods.map(\.name) == ["shop.add", "shop.ping", "shop.receipt", "shop.report", "shop.save", "shop.thumbnail", "shop.ticks", "shop.upload"])
        let byName = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })
        #expect(byName["shop.add"] == InterfaceSchema.Method(name: "shop.add", kind: .sync, input: .named("Pair"), output: .integer, description: "Adds a and b."))
        #expect(byName["shop.ping"]?.input == .nothing)
        #expect(byName["shop.ping"]?.output == .nothing)
        #expect(byName["shop.report"]?.output == .unknown)  // never a wrong type
        #expect(byName["shop.receipt"]?.output == .named("Receipt"))
        #expect(byName["shop.ticks"]?.kind == .multiResponse)
        #expect(byName["shop.ticks"]?.output == .array(.named("Pair")))
        #expect(byName["shop.save"]?.input == .bytes)
        #expect(byName["shop.thumbnail"]?.output == .bytes)
        #expect(byName["shop.upload"]?.input == .byteStream)
    }

    @Test func objectTypesAreListedOnceByName() throws {
        let types = try schema().types
        #expect(types.map(\.name) == ["Pair", "Receipt"])
        #expect(types[0].fields.map(\.isRequired) == [true, false])
    }

    @Test func theSchemaIsTheSameEveryTimeAndSurvivesJSON() throws {
        let schema = try schema()
        #expect(try self.schema() == schema)
        let decoded = try JSONDecoder().decode(InterfaceSchema.self, from: JSONEncoder().encode(schema))
        #expect(decoded == schema)
    }

    @Test func typeScriptDeclarationsNameEveryTypeAndMethodInOrder() throws {
        let keystone = Keystone()
        try keystone.register(Shop(), namespace: "shop")
        let text = keystone.typeScriptDeclarations
        #expect(text == keystone.typeScriptDeclarations)  // the same on every run
        #expect(text.contains("export interface Pair {\n  a: number;\n  b?: number | null;\n}\n"))
        #expect(text.contains("export interface Receipt {\n  total: number;\n}\n"))
        #expect(text.contains(#"    "shop.add": { kind: 'sync'; input: Pair; output: number };"#))
        #expect(text.contains(#"    "shop.ping": { kind: 'sync'; input: undefined; output: void };"#))
        #expect(text.contains(#"    "shop.report": { kind: 'async'; input: undefined; output: unknown };"#))
        #expect(text.contains(#"    "shop.save": { kind: 'async'; input: ByteSource; output: void };"#))
        #expect(text.contains(#"    "shop.thumbnail": { kind: 'async'; input: string; output: Uint8Array };"#))
        #expect(text.contains(#"    "shop.ticks": { kind: 'multiResponse'; input: number; output: Pair[] };"#))
        #expect(text.contains(#"    "shop.upload": { kind: 'async'; input: ByteSource; output: number };"#))
        #expect(text.contains("  interface KeystoneNativeClient {\n    shop: {\n      /** Adds a and b. */\n      add: KeystoneClientMethod<\"shop.add\">;\n"))
    }

    @Test func aMethodDurableByDefaultAnswersWithItsKeptOutcome() throws {
        // Its outcome is kept as JSON: each `Data` in it reaches the page as a base64 string.
        struct Kept: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.async("thumbnail") { (name: String) async in Data(name.utf8) }
                methods.async("plain") { (name: String) async in Data(name.utf8) }
                methods.durable("thumbnail")
            }
        }
        let keystone = Keystone()
        try keystone.register(Kept(), namespace: "kept")
        #expect(keystone.interfaceSchema.methods.map(\.isDurable) == [false, true])
        let text = keystone.typeScriptDeclarations
        #expect(text.contains(#"    "kept.thumbnail": { kind: 'async'; input: string; output: KeptOutcome<Uint8Array> };"#))
        #expect(text.contains(#"    "kept.plain": { kind: 'async'; input: string; output: Uint8Array };"#))
    }

    @Test func descriptionsAreCarriedAsDocComments() throws {
        let keystone = Keystone()
        try keystone.register(Shop(), namespace: "shop")
        #expect(keystone.interfaceSchema.methods.first { $0.name == "shop.add" }?.description == "Adds a and b.")
        #expect(!keystone.interfaceSchema.methods.contains { $0.name == "shop.missing" })
        let text = keystone.typeScriptDeclarations
        #expect(text.contains("    /** Adds a and b. */\n    \"shop.add\": "))
        #expect(text.contains("      /** Adds a and b. */\n      add: KeystoneClientMethod"))
        #expect(text.contains("    /**\n     * Counts up.\n     * Each tick, a list. Never *\\/ ends early.\n     */\n    \"shop.ticks\": "))
    }

    @Test(arguments: [
        (TypeSchema.array(.optional(.string)), "(string | null)[]"), (.literals([.string("a"), .number(3)]), #""a" | 3"#),
        (.dictionary(.array(.boolean)), "{ [key: string]: boolean[] }"), (.named("Page<Item>"), "Page_Item_"), (.json, "KeystoneJSON"),
    ])
    func schemasAreWrittenAsTypeScript(schema: TypeSchema, text: String) {
        #expect(TypeScriptDeclarations.typeText(schema, direction: .both) == text)
    }

    @Test func dataAnywhereIsBytesTypedAsThePageSendsOrReceivesIt() throws {
        struct Upload: Codable, Sendable {
            var name: String
            var bytes: Data
        }
        struct Gallery: Codable, Sendable {
            var covers: [Data]
            var thumbnail: Data?
        }
        struct Note: Codable, Sendable {
            var attachment: Data
        }
        struct Files: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.async("upload") { (upload: Upload) in upload.bytes.count }
                methods.async("gallery") { () in Gallery(covers: [], thumbnail: nil) }
                methods.async("echo") { (note: Note) in note }
            }
        }
        let keystone = Keystone()
        try keystone.register(Files(), namespace: "files")
        let types = Dictionary(uniqueKeysWithValues: keystone.interfaceSchema.types.map { ($0.name, $0.fields.map(\.type)) })
        #expect(types["Upload"] == [.string, .bytes])
        #expect(types["Gallery"] == [.array(.bytes), .bytes])
        let text = keystone.typeScriptDeclarations
        #expect(text.contains("export interface Upload {\n  name: string;\n  bytes: Bytes;\n}"), "what the page sends: any bytes")
        #expect(text.contains("export interface Gallery {\n  covers: Uint8Array[];\n  thumbnail?: Uint8Array | null;\n}"), "what it receives")
        #expect(text.contains("export interface Note {\n  attachment: Bytes;\n}"), "both ways: any bytes, a Uint8Array among them")
    }

    @Test func aMethodMadeOutsideMethodListHasUnknownTypes() throws {
        struct Raw: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.add("raw", BridgeMethod(invoker: .sync { _, _, _ in Data("1".utf8) }))
            }
        }
        let keystone = Keystone()
        try keystone.register(Raw(), namespace: "")
        #expect(keystone.interfaceSchema.methods == [InterfaceSchema.Method(name: "raw", kind: .sync, input: .unknown, output: .unknown)])
    }

    @Test func thePagesSideIsTypedFromWhatSwiftCallsAndEmits() throws {
        struct Draft: Codable, Sendable {
            var title: String
            var cover: Data?
        }
        struct Progress: Codable, Sendable {
            var done: Int
            var of: Int
        }
        var page = PageDeclarations()
        page.handler("drafts.save", arguments: Draft.self, Bool.self, answer: Bool.self)
        page.handler("photos.check", arguments: Data.self, answer: Data.self)
        page.event("sync.progress", value: Progress.self)
        let keystone = Keystone()
        let text = keystone.typeScriptDeclarations(page: page)
        #expect(text == keystone.typeScriptDeclarations(page: page))  // the same on every run
        #expect(text.contains("  interface KeystonePageHandlers {\n    \"drafts.save\": { input: [Draft, boolean]; output: boolean };\n"))
        // What Swift hands the page is a Uint8Array; what the page answers with, any bytes.
        #expect(text.contains("    \"photos.check\": { input: [Uint8Array]; output: Bytes };\n  }"))
        #expect(text.contains("  interface KeystoneEvents {\n    \"sync.progress\": Progress;\n  }"))
        #expect(text.contains("export interface Draft {\n  title: string;\n  cover?: Uint8Array | null;\n}"))
        #expect(text.contains("export interface Progress {\n  done: number;\n  of: number;\n}"))
        // Without the page's side, the declarations are the interfaces' alone.
        #expect(keystone.typeScriptDeclarations(page: PageDeclarations()) == keystone.typeScriptDeclarations)
    }
}
