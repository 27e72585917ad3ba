// HostScriptFixtureTests.swift — the scripts the host core has hosts evaluate in the page, and the
// GTK relay's settings, written into the fixture `node` reads (Tests/JavaScript/host-scripts.test.js,
// support/gtk-worlds.js).
import Foundation
import Keystone
import KeystoneHost
import Testing

/// The host core's page scripts, rendered for fixed inputs.
struct HostScriptFixture: Codable, Equatable {
    /// The app's `evaluate(javascript:)` scripts, measured with a limit of 100, by name.
    var measured: [String: String]
    /// The limit the measured scripts were rendered with.
    var measuredLimit: Int
    /// The script that fetches WebViewJavascriptBridge's queue, with a queue limit of 1,000 bytes.
    var fetchQueue: String
    /// The GTK relay's settings (four messages a post, no console), as `gtk-relay.js` is given them.
    var relay: PageRelay.RelaySettings
}

@Suite("Host script fixture")
struct HostScriptFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JavaScript/fixtures/host-scripts.json")

    /// The web-process extension's wire, described once, in C: KeystoneGTK reads it through
    /// CWebKitGTK, the extension includes it, and this fixture reads its `#define`s.
    static let wireHeader = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/KeystoneGTK/WebProcessExtension/keystone-extension-wire.h")

    /// The string `#define`s of ``wireHeader``, by name.
    static func wireNames() throws -> [String: String] {
        var names: [String: String] = [:]
        for line in try String(contentsOf: wireHeader, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3, words[0] == "#define", words[2].hasPrefix("\""), words[2].hasSuffix("\"") else { continue }
            names[String(words[1])] = String(words[2].dropFirst().dropLast())
        }
        return names
    }

    /// The page worlds' names the extension reads, as the wire's description gives them.
    static var extensionNames: PageRelay.ExtensionNames {
        let names = (try? wireNames()) ?? [:]
        return PageRelay.ExtensionNames(
            relay: names["KEYSTONE_RELAY_GLOBAL", default: ""], target: names["KEYSTONE_RELAY_TARGET", default: ""],
            received: names["KEYSTONE_RELAY_RECEIVED", default: ""], outgoing: names["KEYSTONE_RELAY_OUTGOING", default: ""],
            documentGlobal: names["KEYSTONE_DOCUMENT_GLOBAL", default: ""])
    }

    static func rendered() -> HostScriptFixture {
        let scripts = [
            "expression": "1 + 2",
            "statements": "var a = 2; a * 21",
            "undefined": "undefined",
            "function": "(function () {})",
            "title": "document.title",
            "sparse": "window.sparse",
            "throws": "throw new Error('boom')",
            "breakout": "document.title\"); window.pwned = 1; (\"",
        ]
        let wire = WVJBWire(hub: Keystone(), maximumQueueBytes: 1_000)
        return HostScriptFixture(
            measured: scripts.mapValues { HostCore.measuredScript($0, limit: 100) }, measuredLimit: 100, fetchQueue: wire.fetchScript,
            relay: PageRelay.relaySettings(messagesPerPost: 4, relaysConsole: false, names: Self.extensionNames))
    }

    /// The page runtime finds the relay by the name the extension's wire gives it, and the
    /// description names every page-world name the extension reads.
    @Test func thePageRuntimeFindsTheRelayByTheNameTheExtensionsWireGives() throws {
        let names = Self.extensionNames
        for name in [names.relay, names.target, names.received, names.outgoing, names.documentGlobal] { #expect(!name.isEmpty) }
        let runtime = try Keystone.pageRuntimeScript()
        #expect(runtime.contains("window.\(names.relay) && typeof window.\(names.relay).send === 'function'"))
    }

    @Test func theCommittedFixtureMatchesWhatTheHostCoreRenders() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rendered = try encoder.encode(Self.rendered())
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            try rendered.write(to: Self.fixture)
        }
        let committed = try JSONDecoder().decode(HostScriptFixture.self, from: Data(contentsOf: Self.fixture))
        #expect(committed == Self.rendered(), "run with KEYSTONE_WRITE_FIXTURES=1 to write Tests/JavaScript/fixtures/host-scripts.json")
    }
}
