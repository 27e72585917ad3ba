// WireTranscriptTests.swift — the wire as the Swift hub speaks it, recorded: what the in-memory page
// sends, what the hub answers and what it has the page evaluate, written into the transcript the
// node suites replay against Keystone's page runtime (Tests/JavaScript/wire-transcript.test.js).
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// What crossed the wire while the page did one thing.
struct WireStep: Codable, Equatable {
    /// What the page did, which the replay does on the page runtime: `initialize`, `call` (a sync
    /// call), `hasNativeMethod`, `invoke` (an async call), `stream` (every result of a
    /// multi-response call), `durable` (an `invoke` under the key `key`, its outcome acknowledged),
    /// `callHandler` (WebViewJavascriptBridge's call of Swift's method), `handler` (Swift calls a
    /// page handler, `method`, that answers its first argument), `event` (Swift emits one,
    /// `method`, which the page hears), `bytes` (an `invoke` whose argument is the bytes 0 to
    /// `argument - 1`, over the byte channel; its result, bytes too, as their count and sum),
    /// `durableBytes` (the same, durable under `key`), `subframe` (a subframe document of the
    /// page's origin initializes and invokes), `abort` (an `invoke` whose signal aborts it while
    /// Swift's method runs), `upload` (an `invoke` of a stream of bytes, ``WireTranscriptTests/upload``)
    /// `timeout` (Swift calls the page's handler `page.never`, which never answers, and
    /// withdraws the call at its timeout), `durableHandler` (Swift's durable call of the page's
    /// handler `page.kept` with the bytes 0 to `argument - 1`, which answers their count and
    /// whether the call was durable) or `navigate` (the same call, held by the document until it
    /// goes; the next document answers it).
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
    /// Whether a subframe document sent the text, or evaluates the script.
    var frame: Bool?
    /// A request of the byte channel's (`kind` `bytes`, `method` `GET` or `POST`, `argument` its
    /// address): its body as base64, the status it was answered with, and the answer's body as
    /// `answer` (base64 for bytes).
    var body: String?
    var status: Int?
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
        let index = record(WireText(kind: "prompt", method: method, argument: defaultText, frame: frame.isMainFrame ? nil : true))
        let answer = inner.handlePrompt(text, defaultText: defaultText, frame: frame)
        texts.withLock { $0[index].answer = answer }
        return answer
    }

    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        let index = record(WireText(kind: "message", method: method, argument: arguments, frame: frame.isMainFrame ? nil : true))
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
        texts.withLock { $0.append(WireText(kind: "evaluate", script: batch.script, frame: batch.frame == nil ? nil : true)) }
        page.withLock { $0 }?.evaluate(batch)
    }

    /// A request of the byte channel, recorded as the page's `fetch` saw it: its address, body and
    /// answer.
    func receiveBytes(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void) {
        let query: String
        switch request.kind {
        case .fetch: query = ""
        case .piece(let number): query = "?piece=\(number)"
        case .end(let count): query = "?end=\(count)"
        }
        let address = URLSchemeTransport.keystone.address(ofTicket: request.ticket) + query
        let index = record(WireText(kind: "bytes", method: request.kind == .fetch ? "GET" : "POST", argument: address))
        inner.receiveBytes(
            request,
            readBody: { limit in
                let body = readBody(limit)
                texts.withLock { $0[index].body = body?.base64EncodedString() }
                return body
            },
            respond: { [texts] response in
                let answer = URLSchemeTransport.Response(response)
                texts.withLock { texts in
                    texts[index].status = answer.status
                    texts[index].answer = answer.contentType == "application/octet-stream" ? answer.body.base64EncodedString() : String(decoding: answer.body, as: UTF8.self)
                }
                respond(response)
            })
    }

    func serveBytes(over transport: any ByteTransport) { inner.serveBytes(over: transport) }
    func stopServingBytes() { inner.stopServingBytes() }
    func admitSender(_ frame: CallerFrame) throws(BridgeError) { try inner.admitSender(frame) }
    func frameDidUnload(_ document: FrameDocument) { inner.frameDidUnload(document) }
    var runtimeOrigins: Set<String>? { inner.runtimeOrigins }
    var limits: BridgeLimits { inner.limits }
    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }

    /// The names drawn at random (tickets, part markers), each given the next of a fixed form the
    /// first time it is seen: the same session records the same texts.
    private var drawn: [String: String] = [:]

    /// The texts recorded since the last take, every drawn name in its fixed form.
    func take() -> [WireText] {
        let taken = texts.withLock { texts in
            defer { texts.removeAll() }
            return texts
        }
        return taken.map { text in
            var text = text
            text.argument = text.argument.map(fixed)
            text.answer = text.answer.map(fixed)
            text.script = text.script.map(fixed)
            return text
        }
    }

    /// `text` with each ticket and part marker in its fixed form.
    private func fixed(_ text: String) -> String {
        var out = text
        for (prefix, form) in [("keystone://transfer/", "ticket"), ("keystone-part:", "marker"), (#""durable":""#, "durable")] {
            var searched = out.startIndex
            while let found = out.range(of: prefix, range: searched..<out.endIndex) {
                let end = out[found.upperBound...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } ?? out.endIndex
                let name = String(out[found.upperBound..<end])
                let replacement = drawn[name] ?? "\(form)\(drawn.count + 1)"
                drawn[name] = replacement
                out.replaceSubrange(found.upperBound..<end, with: replacement)
                searched = out.index(found.upperBound, offsetBy: replacement.count)
            }
        }
        return out
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
        let keystone = Keystone(
            components: KeystoneComponents(
                policy: DefaultCallPolicy(allowsSubframes: true, allowedOrigins: ["https://app.example"]),
                evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
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
        try keystone.register(namespace: "bytes") { methods in
            methods.async("total") { (stream: ByteStream) async throws -> Int in
                var total = 0
                for try await chunk in stream { total += chunk.reduce(0) { $0 + Int($1) } }
                return total
            }
            methods.async("reverse") { (bytes: Data) async -> Data in
                var opened = gate.makeAsyncIterator()
                _ = await opened.next()
                return Data(bytes.reversed())
            }
        }
        let wire = WireRecorder(keystone)
        let page = InMemoryPage(hub: wire, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        let heard = Watched<[JSONValue]>([])
        page.register("page.echo") { arguments in arguments.first ?? .null }
        page.registerAsync("page.never") { _, _ in }
        // Answers how many bytes it was handed and whether the call was durable, unless the
        // document holds its answer back.
        let holds = Locked(false)
        let keptHeard = Watched(0)
        page.registerAsync("page.kept") { arguments, reply in
            keptHeard.withLock { $0 += 1 }
            guard !holds.withLock({ $0 }) else { return }
            let count: Int
            if case .string(let base64)? = arguments.first { count = Data(base64Encoded: base64)?.count ?? -1 } else { count = -1 }
            reply([.number(Double(count)), .string(reply.durable == nil ? "plain" : "durable")])
        }
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

        /// Makes `call`, opens the gate once its message (or its bytes, when it sends some) is
        /// answered, and returns its result.
        func gated<Result: Sendable>(sendsBytes: Bool = false, _ call: @escaping @Sendable () async throws -> Result) async throws -> Result {
            let made = Task { try await call() }
            _ = await wire.texts.until { $0.contains { $0.kind == (sendsBytes ? "bytes" : "message") && ($0.answer != nil) } }
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

        // Bytes both ways over the byte channel: posted under the call's ticket, fetched with the
        // result's.
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let reversed = try await gated(sendsBytes: true) { try await page.invoke("bytes.reverse", bytes, as: Data.self) }
        await page.page.settle()
        steps.append(WireStep(action: "bytes", method: "bytes.reverse", argument: 300, result: Self.summary(reversed), texts: wire.take()))

        // A durable call's bytes go the same way; its outcome's come as base64 in its JSON.
        let kept64 = try await gated(sendsBytes: true) { try await page.invoke("bytes.reverse", bytes, durable: "bytes-1", as: Data.self) }
        await page.page.settle()
        steps.append(
            WireStep(action: "durableBytes", method: "bytes.reverse", argument: 300, key: "bytes-1", result: Self.summary(kept64), texts: wire.take()))

        // A subframe document: its calls and what is evaluated for it are its own.
        let frame = page.addSubframe(origin: "https://app.example")
        frame.initialize()
        let inFrame = try await gated { try await frame.invoke("gated.add", Pair(a: 3, b: 4), as: Double.self) }
        steps.append(WireStep(action: "subframe", method: "gated.add", argument: ["a": 3, "b": 4], result: .number(inFrame), texts: wire.take()))

        // The page aborts a call while Swift's method runs: native is told, and the call fails.
        let aborted = Task { try await page.invoke("gated.add", Pair(a: 7, b: 8), as: Double.self) }
        _ = await wire.texts.until { $0.contains { $0.kind == "message" && $0.answer != nil } }
        aborted.cancel()
        var code: BridgeError.Code?
        if case .failure(let error as BridgeError) = await aborted.result { code = error.code }
        _ = await wire.texts.until { $0.contains { $0.method == "_dsb.cancel" && $0.answer != nil } }
        await untilNoCallRuns(keystone)
        await page.page.settle()
        steps.append(
            WireStep(action: "abort", method: "gated.add", argument: ["a": 7, "b": 8], result: code.map { .number(Double($0.rawValue)) }, texts: wire.take()))
        // A stream of the page's bytes: announced as a stream, its chunks posted, then its end.
        let total = try await page.page.awaited("dsBridge.invoke('bytes.total', \(Self.upload))")
        await untilNoCallRuns(keystone)
        await page.page.settle()
        steps.append(WireStep(action: "upload", method: "bytes.total", result: total, texts: wire.take()))

        // Swift's call of a handler that never answers, withdrawn at its timeout: the page is told.
        let clock = ManualClock()
        let timed = Task { try await keystone.call("page.never", arguments: [], as: String.self, timeout: .seconds(1), clock: clock) }
        await clock.sleepers()
        _ = await wire.texts.until { $0.contains { $0.kind == "evaluate" } }
        clock.advance(by: .seconds(1))
        var timedOut: BridgeError.Code?
        if case .failure(let error as BridgeError) = await timed.result { timedOut = error.code }
        await page.page.settle()
        steps.append(WireStep(action: "timeout", method: "page.never", result: timedOut.map { .number(Double($0.rawValue)) }, texts: wire.take()))

        // Swift's durable call of a page handler with bytes: the page fetches them and answers.
        let keptAnswer = try await keystone.call("page.kept", bytes, as: JSONValue.self, durable: true)
        await page.page.settle()
        steps.append(WireStep(action: "durableHandler", method: "page.kept", argument: 300, result: keptAnswer, texts: wire.take()))

        // The page goes while that call waits for it: the next document gets it again, with the
        // same id, and answers.
        holds.withLock { $0 = true }
        let moved = Task { try await keystone.call("page.kept", bytes, as: JSONValue.self, durable: true) }
        _ = await keptHeard.until { $0 == 2 }
        await page.page.settle()
        page.navigate()
        holds.withLock { $0 = false }
        page.initialize()
        let answered = try await moved.value
        await page.page.settle()
        steps.append(WireStep(action: "navigate", method: "page.kept", argument: 300, result: answered, texts: wire.take()))
        return steps
    }

    /// The stream the `upload` step sends, as the page writes it.
    static let upload = "new ReadableStream({ start: function (c) { c.enqueue(new Uint8Array([1, 2, 3, 250])); c.enqueue(new Uint8Array([4])); c.close(); } })"

    /// Bytes as the replay compares them: their count and sum.
    static func summary(_ bytes: Data) -> JSONValue {
        ["count": .number(Double(bytes.count)), "sum": .number(Double(bytes.reduce(0) { $0 + Int($1) }))]
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
