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
    /// call), `hasNativeMethod`, `invoke` (an async call), `stream` (every result of a
    /// multi-response call), `durable` (an `invoke` under the key `key`, its outcome acknowledged),
    /// `callHandler` (WebViewJavascriptBridge's call of Swift's method), `handler` (Swift calls a
    /// page handler, `method`, that answers its first argument) or `event` (Swift emits one,
    /// `method`, which the page hears).
    var action: String
    var method: String?
    var argument: JSONValue?
    /// A durable call's key.
    var key: String?
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
    let texts = Watched<[WireText]>([])
    private let page = Locked<(any EvaluationTarget)?>(nil)

    init(_ inner: Keystone) { self.inner = inner }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        let method = String(text.dropFirst(BridgePrompt.prefix.count))
        let index = record(WireText(kind: "prompt", method: method, argument: defaultText))
        let answer = inner.handlePrompt(text, defaultText: defaultText, frame: frame)
        texts.withLock { $0[index].answer = answer }
        return answer
    }

    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        let index = record(WireText(kind: "message", method: method, argument: arguments))
        let answer = inner.handleMessage(method, arguments: arguments, frame: frame)
        texts.withLock { $0[index].answer = answer }
        return answer
    }

    /// Records what the page sent before the hub takes it: what the hub has the page evaluate
    /// meanwhile (a stream's first result) comes after it, as the page would see it.
    private func record(_ text: WireText) -> Int {
        texts.withLock { texts in
            texts.append(text)
            return texts.count - 1
        }
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
        try keystone.register(namespace: "count") { methods in
            methods.multiResponse("upTo") { (count: Int, writer: ResponseWriter<Int>) in
                for number in 0..<count { try await writer.write(number) }
            }
        }
        // An asynchronous method that answers once the test opens its gate: after the page has had
        // the call's answer, so its result always goes to the callback, never into the answer.
        let (gate, open) = AsyncStream<Void>.makeStream()
        try keystone.register(namespace: "gated") { methods in
            methods.async("add") { (pair: Pair) async -> Double in
                var opened = gate.makeAsyncIterator()
                _ = await opened.next()
                return pair.a + pair.b
            }
        }
        let wire = WireRecorder(keystone)
        let page = InMemoryPage(hub: wire, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"), servesBytes: false)
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

        /// Makes `call`, opens the gate once its message is answered, and returns its result.
        func gated(_ call: @escaping @Sendable () async throws -> Double) async throws -> Double {
            let made = Task { try await call() }
            _ = await wire.texts.until { $0.contains { $0.kind == "message" && $0.answer != nil } }
            open.yield()
            let result = try await made.value
            await untilNoCallRuns(keystone)
            await page.page.settle()
            return result
        }

        let later = try await gated { try await page.invoke("gated.add", Pair(a: 2, b: 3), as: Double.self) }
        steps.append(WireStep(action: "invoke", method: "gated.add", argument: ["a": 2, "b": 3], result: .number(later), texts: wire.take()))

        var counted: [JSONValue] = []
        for try await number in page.stream("count.upTo", 3, of: Int.self) { counted.append(.number(Double(number))) }
        await untilNoCallRuns(keystone)
        steps.append(WireStep(action: "stream", method: "count.upTo", argument: 3, result: .array(counted), texts: wire.take()))

        let kept = try await gated { try await page.invoke("gated.add", Pair(a: 4, b: 5), durable: "draft-1", as: Double.self) }
        steps.append(WireStep(action: "durable", method: "gated.add", argument: ["a": 4, "b": 5], key: "draft-1", result: .number(kept), texts: wire.take()))

        let handled = try await gated { try await page.callHandler("gated.add", Pair(a: 1, b: 1), as: Double.self) }
        steps.append(WireStep(action: "callHandler", method: "gated.add", argument: ["a": 1, "b": 1], result: .number(handled), texts: wire.take()))

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
