// NativeFormsFixtureTests.swift — the forms of what Keystone says to a page, written by Keystone
// itself: each answer to a call and each message rendered for each runtime, with holes the node
// suites' native side fills in (Tests/JavaScript/support/page.js), so that side speaks the wire as
// Keystone writes it rather than as someone remembers it.
import Foundation
import Keystone
import KeystoneEvaluator
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
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

    /// One decision of Keystone's, as the node suites' native side must make it: what a page's text
    /// (`method` with `argument`, after the page's runtime announced itself) is answered, and the
    /// scripts the hub has the page evaluate meanwhile.
    struct Case: Codable, Equatable {
        var name: String
        /// Whether the host serves a byte channel.
        var channel: Bool
        var method: String
        var argument: String
        var answer: String?
        var scripts: [String]
    }

    /// Keystone's decisions that the node suites' native side makes too, each on a Keystone with
    /// a synchronous method `pi` and an asynchronous `later` that ends only once the case is recorded.
    static func cases() throws -> [Case] {
        let texts: [(String, Bool, String, String)] = [
            ("the runtime announces itself", true, "_dsb.dsinit", #"{"data":{"runtime":"keystone","version":1}}"#),
            ("a synchronous call", true, "pi", #"{"data":null}"#),
            ("a synchronous method called with a callback, not inline", true, "pi", #"{"data":null,"_dscbstub":"dscb0_case"}"#),
            ("a synchronous method called inline", true, "pi", #"{"data":null,"_dscbstub":"dscb0_case","_dsinline":true}"#),
            ("an unknown method called with a callback", true, "nowhere", #"{"data":1,"_dscbstub":"dscb0_case"}"#),
            ("an asynchronous call", true, "later", #"{"data":1,"_dscbstub":"dscb0_case"}"#),
            ("bytes announced without a byte channel", false, "later", #"{"data":0,"_dscbstub":"dscb0_case","_dsparts":[3]}"#),
            ("whether native has a method", true, "_dsb.hasNativeMethod", #"{"data":{"name":"pi","type":"all"}}"#),
            ("whether native has an unknown method", true, "_dsb.hasNativeMethod", #"{"data":{"name":"nowhere","type":"all"}}"#),
            ("a page handler's value", true, "_dsb.returnValue", #"{"data":{"id":1,"data":"x","complete":true}}"#),
            ("a cancel of no call", true, "_dsb.cancel", #"{"data":{"callback":"dscb0_case"}}"#),
            ("an acknowledgement of durable outcomes", true, "_dsb.acknowledge", #"{"data":{"keys":["k"]}}"#),
        ]
        return try texts.map { name, channel, method, argument in
            let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
            // `later` waits for a gate opened once the case is recorded.
            let (gate, open) = AsyncStream<Void>.makeStream()
            defer { open.finish() }
            try keystone.register(namespace: "") { methods in
                methods.sync("pi") { 3.14 }
                methods.async("later") { (_: Int) async -> Int in
                    var opened = gate.makeAsyncIterator()
                    _ = await opened.next()
                    return 0
                }
            }
            let target = ScriptTarget()
            keystone.attach(to: target)
            if channel { keystone.serveBytes(over: URLSchemeTransport.keystone) }
            let frame = CallerFrame(isMainFrame: true, origin: "https://app.example")
            if method != "_dsb.dsinit" {
                _ = keystone.handlePrompt(BridgePrompt.prefix + "_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone","version":1}}"#, frame: frame)
            }
            target.scripts.withLock { $0.removeAll() }
            let answer = keystone.handlePrompt(BridgePrompt.prefix + method, defaultText: argument, frame: frame)
            return Case(name: name, channel: channel, method: method, argument: argument, answer: answer, scripts: target.scripts.withLock { $0 })
        }
    }

    /// The fixture: the forms, the holes in them, and the decisions.
    struct Fixture: Codable, Equatable {
        var holes: [String: String]
        var forms: [String: [String: String]]
        var cases: [Case]
    }

    @Test func theCommittedFormsAreTheOnesKeystoneWrites() throws {
        let written = Fixture(holes: Self.holes, forms: try Self.forms(), cases: try Self.cases())
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(written).write(to: Self.fixture)
        }
        let committed = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: Self.fixture))
        #expect(committed == written, "run with KEYSTONE_WRITE_FIXTURES=1 to write Tests/JavaScript/fixtures/native-forms.json")
    }
}

/// Keeps the script of every batch the hub has the page evaluate.
private final class ScriptTarget: EvaluationTarget {
    let scripts = Locked<[String]>([])

    func evaluate(_ batch: ScriptBatch) {
        scripts.withLock { $0.append(batch.script) }
    }
}
