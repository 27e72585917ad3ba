// PayloadFreeErrorTests.swift — error messages say what failed and where, never what a value held.
import Foundation
import Keystone
import KeystoneTesting
import Testing

/// A value whose encoding fails, with the secret it holds in the encoder's own description.
struct SecretRefusingValue: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue("SECRET-VALUE", .init(codingPath: encoder.codingPath, debugDescription: "cannot encode SECRET-VALUE"))
    }
}

enum Shade: String, Codable, Sendable {
    case light, dark
}

struct Secrets: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("shade") { (shade: Shade) in shade }
        methods.sync("shades") { (shades: [String: Shade]) in shades.count }
        methods.sync("leak") { () -> SecretRefusingValue in SecretRefusingValue() }
        methods.async("leakLater") { () async -> SecretRefusingValue in SecretRefusingValue() }
        methods.sync("rethrow") { () throws -> Int in
            _ = try JSONDecoder().decode(Shade.self, from: Data(#""SECRET-VALUE""#.utf8))
            return 0
        }
    }
}

@Suite("Errors never quote a payload", .timeLimit(.minutes(1)))
struct PayloadFreeErrorTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Secrets(), namespace: "s")
        page.initialize()
    }

    func error(_ answer: String?) throws -> BridgeError {
        struct Answer: Decodable { var error: BridgeError? }
        let text = try #require(answer)
        return try #require(try JSONDecoder().decode(Answer.self, from: Data(text.utf8)).error)
    }

    @Test func anEnumInputThatDoesNotDecodeSaysWhereNotWhat() throws {
        let refused = try error(page.prompt("s.shade", argumentText: #"{"data":"SECRET-VALUE"}"#))
        #expect(refused.code == .invalidArgument)
        #expect(refused.message == #"invalid argument for "s.shade": the value at data is not one its type accepts"#)
    }

    @Test func aPagesOwnLongKeyIsCutInThePath() throws {
        let key = "SECRET" + String(repeating: "k", count: 5000)
        let refused = try error(page.prompt("s.shades", argumentText: #"{"data":{"\#(key)":"no"}}"#))
        #expect(refused.code == .invalidArgument)
        #expect(refused.message.count < 200)
        #expect(!refused.message.contains(String(repeating: "k", count: 40)))
    }

    @Test func aResultThatDoesNotEncodeNamesItsTypeNotItsValue() async throws {
        let sync = try error(page.prompt("s.leak", argumentText: #"{"data":null}"#))
        #expect(sync.code == .unencodableValue)
        #expect(sync.message == "a String at the result cannot be encoded as JSON")
        let later = await #expect(throws: BridgeError.self) { try await page.callAsync("s.leakLater", as: Int.self) }
        #expect(later?.message == "a String at the result cannot be encoded as JSON")
    }

    @Test func aDecodingErrorThrownInsideAMethodIsDescribedWithoutItsValue() throws {
        let failed = try error(page.prompt("s.rethrow", argumentText: #"{"data":null}"#))
        #expect(failed.code == .failed)
        #expect(!failed.message.contains("SECRET"))
    }

    @Test func anArgumentOrEventThatDoesNotEncodeNamesItsTypeNotItsValue() async throws {
        let argument = await #expect(throws: BridgeError.self) { try await keystone.call("page.x", SecretRefusingValue(), as: Int.self) }
        #expect(argument?.code == .unencodableValue)
        #expect(argument?.message == "a String at an argument cannot be encoded as JSON")
        let event = #expect(throws: BridgeError.self) { try keystone.emit("news", SecretRefusingValue()) }
        #expect(event?.code == .unencodableValue)
        #expect(event?.message == "a String at the event's value cannot be encoded as JSON")
    }

    @Test func aMalformedCallIsNotQuoted() throws {
        let refused = try error(page.prompt("s.shade", argumentText: #"["SECRET-VALUE"]"#))
        #expect(refused.code == .malformedMessage)
        #expect(!refused.message.contains("SECRET"))
    }
}
