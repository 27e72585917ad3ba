// NativeFormsFixtureTests.swift — the forms of what Keystone says to a page, written by Keystone
// itself: each answer to a call and each message rendered for each runtime, with holes the node
// suites' native side fills in (Tests/JavaScript/support/page.js), so that side speaks the wire as
// Keystone writes it rather than as someone remembers it.
import Foundation
import Keystone
import KeystoneEvaluator
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import Testing

@Suite("The native forms fixture")
struct NativeFormsFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JavaScript/fixtures/native-forms.json")

    /// The holes each form has, as they appear in it.
    static let holes: [String: String] = [
        "callback": "dscb0_FORM", "value": #""__VALUE__""#, "code": "77777", "message": "__MESSAGE__", "method": "__METHOD__",
        "callbackId": "424242", "args": #""__ARGS__""#, "durable": "__DURABLE__", "event": "__EVENT__", "marker": "__MARKER__",
        "sizes": "[31337]", "ticket": "keystone://transfer/__TICKET__", "base64": "X19CQVNFNjRfXw==",
    ]

    /// Every form: the answers to a call, and each message rendered for each runtime.
    static func forms() throws -> [String: [String: String]] {
        let value = try JSONText(validating: Data(#""__VALUE__""#.utf8))
        let error = BridgeError(code: BridgeError.Code(rawValue: 77777), message: "__MESSAGE__")
        let callback = "dscb0_FORM"
        let call = PageMessage.call(method: "__METHOD__", callbackId: 424242, arguments: try JSONText(validating: Data(#""__ARGS__""#.utf8)))
        let messages: [String: PageMessage] = [
            "result": .result(callback: callback, value: value, complete: false),
            "resultComplete": .result(callback: callback, value: value, complete: true),
            "failure": .failure(callback: callback, error: error),
            "noResult": .noResult(callback: callback),
            "completion": .completion(callback: callback),
            "release": .release(callback: callback),
            "call": call,
            "durableCall": .durable(call, id: "__DURABLE__"),
            "cancel": .cancel(callbackId: 424242),
            "event": .event(name: "__EVENT__", value: value),
            "partsTicket": .withParts(
                .result(callback: callback, value: value, complete: false),
                MessageParts(marker: "__MARKER__", sizes: [31337], source: .ticket("keystone://transfer/__TICKET__"))),
            "partsTicketComplete": .withParts(
                .result(callback: callback, value: value, complete: true),
                MessageParts(marker: "__MARKER__", sizes: [31337], source: .ticket("keystone://transfer/__TICKET__"))),
            "partsBase64Complete": .withParts(
                .result(callback: callback, value: value, complete: true),
                MessageParts(marker: "__MARKER__", sizes: [31337], source: .inline([Data("__BASE64__".utf8)]))),
            "partsBase64": .withParts(
                .result(callback: callback, value: value, complete: false),
                MessageParts(marker: "__MARKER__", sizes: [31337], source: .inline([Data("__BASE64__".utf8)]))),
        ]
        var forms: [String: [String: String]] = [:]
        for runtime in [PageRuntime.keystone, .dsbridge] {
            forms["\(runtime)"] = messages.mapValues { ScriptRenderer.render([$0], for: runtime) }
        }
        // Results of one callback sent together: a run of values, as the renderer writes a flood.
        for runtime in [PageRuntime.keystone, .dsbridge] {
            forms["\(runtime)"]?["values"] = ScriptRenderer.render(
                [.result(callback: callback, value: value, complete: false), .result(callback: callback, value: value, complete: false)], for: runtime)
            forms["\(runtime)"]?["valuesComplete"] = ScriptRenderer.render(
                [.result(callback: callback, value: value, complete: false), .result(callback: callback, value: value, complete: true)], for: runtime)
        }
        forms["answers"] = [
            "result": CallAnswer.result(Data(#""__VALUE__""#.utf8), inline: false).text,
            "inline": CallAnswer.result(Data(#""__VALUE__""#.utf8), inline: true).text,
            "nothing": CallAnswer.result(Data(), inline: false).text,
            "inlineNothing": CallAnswer.result(Data(), inline: true).text,
            "accepted": CallAnswer.accepted.text,
            "failure": CallAnswer.failure(error).text,
            "ticket": CallAnswer.ticket("keystone://transfer/__TICKET__").text,
        ]
        // The byte channel's answers to a piece or a fetch: their bodies, and a refusal's status
        // for each code.
        let response = { (answer: ByteResponse) in String(decoding: URLSchemeTransport.Response(answer).body, as: UTF8.self) }
        forms["channel"] = ["more": response(.more), "done": response(.done), "refusal": response(.refused(error))]
        forms["channelStatus"] = Dictionary(
            uniqueKeysWithValues: (1...13).map { code in
                ("\(code)", "\(URLSchemeTransport.Response(.refused(BridgeError(code: BridgeError.Code(rawValue: code), message: ""))).status)")
            })
        // How Keystone's runtime renders several messages at once: the first's form and the
        // second's joined, for the keystone runtime inside one `deliver`.
        forms["batch"] = [
            "keystone": ScriptRenderer.render([.completion(callback: callback), .completion(callback: callback)], for: .keystone),
            "dsbridge": ScriptRenderer.render([.completion(callback: callback), .completion(callback: callback)], for: .dsbridge),
        ]
        return forms
    }

    /// The fixture: the forms, and the holes in them.
    struct Fixture: Codable, Equatable {
        var holes: [String: String]
        var forms: [String: [String: String]]
    }

    @Test func theCommittedFormsAreTheOnesKeystoneWrites() throws {
        let written = Fixture(holes: Self.holes, forms: try Self.forms())
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(written).write(to: Self.fixture)
        }
        let committed = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: Self.fixture))
        #expect(committed == written, "run with KEYSTONE_WRITE_FIXTURES=1 to write Tests/JavaScript/fixtures/native-forms.json")
    }
}
