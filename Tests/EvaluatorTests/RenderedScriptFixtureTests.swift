// RenderedScriptFixtureTests.swift — renders the adversarial table into the fixture `node` evaluates.
import Foundation
import KeystoneEvaluator
import KeystoneInterfaces
import KeystoneTesting
import Testing

/// One rendered script and what a page must receive from it, for `Tests/JavaScript`.
struct RenderedScriptCase: Codable, Equatable {
    var name: String
    /// The string's UTF-16 code units: what JavaScript must hold, independent of any JSON.
    var codeUnits: [UInt16]
    /// The batch for a dsbridge.js page.
    var script: String
    /// The same batch for Keystone's page runtime.
    var keystoneScript: String
}

@Suite("Rendered script fixture")
struct RenderedScriptFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JavaScript/fixtures/rendered-scripts.json")

    /// Every message kind carrying `value`, in one batch, as the evaluator would send it.
    static func batch(carrying value: String, for runtime: PageRuntime) throws -> ScriptBatch {
        let encoder = JSONEncoder()
        let nested = try JSONText(validating: encoder.encode(["nested": [value]]))
        let arguments = try JSONText(validating: encoder.encode([JSONValue.string(value), ["k": .string(value)]]))
        return ScriptBatch(
            messages: [
                .result(callback: "first", value: JSONText(quoting: value), complete: false),
                .result(callback: "second", value: nested, complete: true),
                .failure(callback: "third", error: BridgeError(code: .init(rawValue: 1000), message: value)),
                .call(method: value, callbackId: 1, arguments: arguments),
                .result(callback: "named " + value, value: try JSONText(validating: Data("1".utf8)), complete: true),
                .event(name: value, value: JSONText(quoting: value)),
            ], runtime: runtime)
    }

    static func cases() throws -> [RenderedScriptCase] {
        try AdversarialStrings.table.map { name, value in
            RenderedScriptCase(
                name: name,
                codeUnits: Array(value.utf16),
                script: try batch(carrying: value, for: .dsbridge).script,
                keystoneScript: try batch(carrying: value, for: .keystone).script
            )
        }
    }

    @Test func theCommittedFixtureMatchesWhatTheRendererProduces() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rendered = try encoder.encode(try Self.cases())
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixture.deletingLastPathComponent(), withIntermediateDirectories: true)
            try rendered.write(to: Self.fixture)
        }
        let committed = try JSONDecoder().decode([RenderedScriptCase].self, from: Data(contentsOf: Self.fixture))
        #expect(committed == (try Self.cases()), "run with KEYSTONE_WRITE_FIXTURES=1 after changing the renderer, then review the diff")
    }
}
