// DataValueFixtureTests.swift — values whose JavaScript source and JSON.parse readings differ,
// rendered for both page runtimes; node evaluates them (Tests/JavaScript/data-values.test.js).
import Foundation
import Testing

@testable import KeystoneEvaluator

/// One JSON value, and the scripts that deliver it to a callback, a page handler and a listener.
struct DataValueCase: Codable, Equatable {
    var name: String
    /// The value's JSON text, which the page must receive exactly as `JSON.parse(json)` gives it.
    var json: String
    var script: String
    var keystoneScript: String
}

@Suite("Data value fixture")
struct DataValueFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JavaScript/fixtures/data-values.json")

    static let values: [(String, String)] = [
        ("__proto__ key", #"{"__proto__":{"x":1}}"#),
        ("escaped __proto__ key", #"{"\u005f_proto__":{"polluted":true},"a":1}"#),
        ("__proto__ twice", #"{"__proto__":1,"__proto__":[2]}"#),
        ("__proto__ deep inside", #"[{"k":{"__proto__":null,"v":"__proto__"}},{"__proto__":"s"}]"#),
        ("__proto__ as a value only", #"{"key":"__proto__","__proto":1,"__proto__x":2}"#),
        ("constructor and prototype keys", #"{"constructor":{"prototype":{"x":1}},"prototype":2}"#),
    ]

    static func cases() throws -> [DataValueCase] {
        try values.map { name, json in
            let value = try JSONText(validating: Data(json.utf8))
            let messages: [PageMessage] = [
                .result(callback: "got", value: value, complete: false),
                .call(method: "page.got", callbackId: 1, arguments: try JSONText(validating: Data("[\(json)]".utf8))),
                .event(name: "got", value: value),
            ]
            return DataValueCase(
                name: name,
                json: json,
                script: ScriptRenderer.render(messages, for: .dsbridge),
                keystoneScript: ScriptRenderer.render(messages, for: .keystone)
            )
        }
    }

    @Test func aProtoKeyIsWrittenAsAComputedKeyAndNothingElseChanges() throws {
        let text = try JSONText(validating: Data(#"{"a":{"\u005f_proto__":1},"__proto__":"__proto__"}"#.utf8))
        var out: [UInt8] = []
        JSONText.appendScriptLiteral(text, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"a":{["__proto__"]:1},["__proto__"]:"__proto__"}"#)
    }

    @Test func theCommittedFixtureMatchesWhatTheRendererProduces() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            try encoder.encode(try Self.cases()).write(to: Self.fixture)
        }
        let committed = try JSONDecoder().decode([DataValueCase].self, from: Data(contentsOf: Self.fixture))
        #expect(committed == (try Self.cases()), "run with KEYSTONE_WRITE_FIXTURES=1 after changing the renderer, then review the diff")
    }
}
