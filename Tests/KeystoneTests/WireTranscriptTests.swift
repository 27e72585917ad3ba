// WireTranscriptTests.swift — the wire as the Swift hub speaks it, recorded: what the in-memory page
// sends, what the hub answers and what it has the page evaluate, written into the transcript the
// node suites replay against Keystone's page runtime (Tests/JavaScript/wire-transcript.test.js).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// What crossed the wire while the page did one thing.
struct WireStep: Codable, Equatable {
    /// What the page did, which the replay does on the page runtime: `initialize`, `call` (a sync
    /// call), `hasNativeMethod`, `invoke` (an async call), `handler` (Swift calls a page handler,
    /// `method`, that answers its first argument) or `event` (Swift emits one, `method`, which the
    /// page hears).
    var action: String
    var method: String?
    var argument: JSONValue?
    /// What the action gave the page (a call's result, what a handler or listener was given).
    var result: JSONValue?
    /// The texts, in order.
    var texts: [WireText]
}

/// One text on the wire: one the page sent (`prompt` or `message`, with the hub's answer), or a
/// script the hub had the page evaluate (`evaluate`).
struct WireText: Codable, Equatable {
    var kind: String
    var method: String?
    var argument: String?
    var answer: String?
    var script: String?
}

/// Stands where a host would: hands the page's texts to the Keystone and records them with their
/// answers, and records each batch's script before the page takes it.
final class WireRecorder: BridgeHub, EvaluationTarget, @unchecked Sendable {
    let inner: Keystone
    let texts = Locked<[WireText]>([])
    private let page = Locked<(any EvaluationTarget)?>(nil)

    init(_ inner: Keystone) { self.inner = inner }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        let answer = inner.handlePrompt(text, defaultText: defaultText, frame: frame)
        let method = String(text.dropFirst(BridgePrompt.prefix.count))
        texts.withLock { $0.append(WireText(kind: "prompt", method: method, argument: defaultText, answer: answer)) }
        return answer
    }

    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        let answer = inner.handleMessage(method, arguments: arguments, frame: frame)
        texts.withLock { $0.append(WireText(kind: "message", method: method, argument: arguments, answer: answer)) }
        return answer
    }

    func attach(to target: any EvaluationTarget) {
        page.withLock { $0 = target }
        inner.attach(to: self)
    }

    func evaluate(_ batch: ScriptBatch) {
        texts.withLock { $0.append(WireText(kind: "evaluate", script: batch.script)) }
        page.withLock { $0 }?.evaluate(batch)
    }

    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }

    /// The texts recorded since the last take.
    func take() -> [WireText] {
        texts.withLock { texts in
            defer { texts.removeAll() }
            return texts
        }
    }
}

@Suite("The wire transcript", .timeLimit(.minutes(1)))
struct WireTranscriptTests {
    static let transcript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JavaScript/fixtures/wire-transcript.json")

    /// The wire of one scripted session between Keystone's page runtime (as the in-memory page
    /// speaks it) and a Keystone.
    static func recorded() async throws -> [WireStep] {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try keystone.register(Calculator(), namespace: "math")
        let wire = WireRecorder(keystone)
        let page = InMemoryPage(hub: wire, runtime: .keystone, servesBytes: false)
        let heard = Watched<[JSONValue]>([])
        page.register("page.echo") { arguments in arguments.first ?? .null }
        page.on("tick") { value in heard.withLock { $0.append(value) } }
        var steps: [WireStep] = []

        page.initialize()
        steps.append(WireStep(action: "initialize", texts: wire.take()))

        let sum = try page.call("math.add", [1.0, 2.0], as: Double.self)
        steps.append(WireStep(action: "call", method: "math.add", argument: [1, 2], result: .number(sum), texts: wire.take()))

        // A refusal answers the prompt with its coded error; dsbridge.js's `call` then gives `""`.
        _ = try? page.call("math.missing", "no", as: Int.self)
        steps.append(WireStep(action: "call", method: "math.missing", argument: "no", texts: wire.take()))

        let found = try page.hasNativeMethod("math.add")
        steps.append(WireStep(action: "hasNativeMethod", method: "math.add", result: .bool(found), texts: wire.take()))

        let later = try await page.invoke("math.slowAdd", Pair(a: 2, b: 3), as: Double.self)
        await untilNoCallRuns(keystone)
        steps.append(WireStep(action: "invoke", method: "math.slowAdd", argument: ["a": 2, "b": 3], result: .number(later), texts: wire.take()))

        let echoed = try await keystone.call("page.echo", "hello", as: String.self)
        steps.append(WireStep(action: "handler", method: "page.echo", argument: "hello", result: .string(echoed), texts: wire.take()))

        try keystone.emit("tick", 7)
        let ticks = await heard.until { !$0.isEmpty }
        steps.append(WireStep(action: "event", method: "tick", argument: 7, result: ticks.first, texts: wire.take()))
        return steps
    }

    @Test func theCommittedTranscriptIsTheWireTheHubSpeaks() async throws {
        let recorded = try await Self.recorded()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            try encoder.encode(recorded).write(to: Self.transcript)
        }
        let committed = try JSONDecoder().decode([WireStep].self, from: Data(contentsOf: Self.transcript))
        #expect(committed == recorded, "run with KEYSTONE_WRITE_FIXTURES=1 to write Tests/JavaScript/fixtures/wire-transcript.json")
    }
}
