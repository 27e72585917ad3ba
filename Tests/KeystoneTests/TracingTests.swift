// TracingTests.swift — a Keystone's trace: a record for each call in and message out, page loads
// and durable calls' steps, values only when asked and cut at their limit, the app's redaction, and
// the JSON Lines file.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Tracing", .timeLimit(.minutes(1)))
struct TracingTests {
    static let shop = CallerFrame(isMainFrame: true, origin: "https://shop.example")

    func keystone(_ tracing: Tracing?) throws -> Keystone {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.tracing = tracing
        let keystone = Keystone(components: components)
        try keystone.register(namespace: "shop") { methods in
            methods.sync("price") { (item: String) in item.count * 100 }
            methods.async("order") { (item: String) async in "ordered " + item }
            methods.async("echo") { (bytes: Data) async in bytes }
            methods.multiResponse("ticks") { (count: Int, writer: ResponseWriter<String>) in
                for tick in 0..<count { try await writer.write("tick \(tick) " + String(repeating: "x", count: 20)) }
            }
        }
        return keystone
    }

    @Test func everyCallMessageAndPageLoadIsARecordWithoutItsValues() async throws {
        let trace = TraceCollector()
        let keystone = try keystone(Tracing(to: trace))
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.register("title") { _ in "Shop" }
        page.initialize()
        #expect(try page.call("shop.price", "hat", as: Int.self) == 300)
        #expect(try await page.invoke("shop.order", "hat", as: String.self) == "ordered hat")
        var ticks: [String] = []
        for try await tick in page.stream("shop.ticks", 2, of: String.self) { ticks.append(tick) }
        #expect(ticks.count == 2)
        #expect(try await keystone.call("title", as: String.self) == "Shop")
        page.navigate()
        let records = trace.records
        let calls = records.filter { $0.kind == .call && $0.name?.hasPrefix("shop.") == true }
        #expect(calls.map(\.name) == ["shop.price", "shop.order", "shop.ticks"])
        // The async call's result was ready as its answer was written: it went in the answer.
        #expect(calls.map(\.outcome) == ["ok", "ok", "accepted"])
        #expect(calls.allSatisfy { $0.page == 1 && $0.origin == "https://shop.example" && $0.pageLoad == 0 && $0.bytes ?? 0 > 0 })
        #expect(calls.map(\.answerBytes) == [3, 13, nil])
        #expect(calls.last?.callback?.hasPrefix("dscb") == true)
        let messages = records.filter { $0.kind == .message }
        let results = messages.filter { $0.callback == calls.last?.callback }
        #expect(results.map(\.step) == ["result", "result", "completion"])
        #expect(results.last?.outcome == "ok")
        #expect(messages.contains { $0.step == "call" && $0.name == "title" && $0.callID != nil })
        #expect(records.filter { $0.kind == .pageLoad }.map { "\($0.step ?? "") \($0.pageLoad ?? -1)" } == ["began 0", "initialized 0", "ended 0", "began 1"])
        #expect(records.allSatisfy { $0.value == nil })
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func valuesAreKeptWhenAskedCutAtTheLimitAndTheAppRedacts() async throws {
        let trace = TraceCollector()
        let tracing = Tracing(to: trace, includesValues: true, valueLimit: 16) { record in
            guard record.name != "shop.price" else { return nil }
            var record = record
            if record.origin != nil { record.origin = "redacted" }
            return record
        }
        let keystone = try keystone(tracing)
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        _ = try page.call("shop.price", "hat", as: Int.self)
        _ = try await page.invoke("shop.order", String(repeating: "x", count: 40), as: String.self)
        for try await _ in page.stream("shop.ticks", 1, of: String.self) {}
        let records = trace.records
        #expect(!records.contains { $0.name == "shop.price" })
        let order = try #require(records.first { $0.name == "shop.order" })
        #expect(order.value == String(#"{"data":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#.prefix(16)) || order.value?.utf8.count == 16)
        #expect(order.isValueCut == true && order.origin == "redacted")
        // Its result was ready as its answer was written: the answer holds it, cut too.
        #expect(order.answer == #""ordered xxxxxxx"# && order.isAnswerCut == true)
        let result = try #require(records.first { $0.kind == .message && $0.step == "result" })
        #expect(result.value == #""tick 0 xxxxxxxx"# && result.isValueCut == true)
    }

    @Test func aDurableCallsStepsAreTraced() async throws {
        let trace = TraceCollector()
        let keystone = try keystone(Tracing(to: trace))
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        #expect(try await page.invoke("shop.order", "hat", durable: "k1", as: String.self) == "ordered hat")
        #expect(try await page.invoke("shop.order", "hat", durable: "k1", as: String.self) == "ordered hat")
        let steps = trace.records.filter { $0.kind == .durable }.map { "\($0.step ?? "") \($0.outcome ?? "")" }
        #expect(steps.prefix(2) == ["begun ", "ended ok"])
        #expect(Set(steps.dropFirst(2)) == ["answered ", "acknowledged "])
    }

    @Test func eachByteTransferIsARecordWithItsSizeAndTime() async throws {
        let trace = TraceCollector()
        let keystone = try keystone(Tracing(to: trace))
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        #expect(page.hasByteChannel)
        let bytes = Data((0..<10_000).map { UInt8($0 % 251) })
        #expect(try await page.invoke("shop.echo", bytes, as: Data.self) == bytes)
        let transfers = trace.records.filter { $0.kind == .transfer }
        #expect(transfers.map(\.step) == ["piece", "fetch"])
        #expect(transfers.allSatisfy { $0.bytes == 10_000 && $0.outcome == "ok" && ($0.duration ?? -1) >= 0 && $0.pageLoad == 0 })
    }

    @Test func tracingAnEightMegabyteTransferWritesAtMostOnePercentOfItsBytes() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-trace-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.tracing = Tracing(to: try TraceFileWriter(url: url))
        components.limits.messageBytes = 32 << 20
        let keystone = Keystone(components: components)
        try keystone.register(namespace: "shop") { methods in methods.async("echo") { (bytes: Data) async in bytes } }
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        let bytes = Data(count: 8 << 20)
        #expect(try await page.invoke("shop.echo", bytes, as: Data.self).count == bytes.count)
        let traced = try Data(contentsOf: url).count
        // Both ways: 16 MB moved.
        #expect(traced > 0 && Double(traced) <= 0.01 * Double(2 * bytes.count))
        // Each transfer says what carried it: the in-memory page's custom scheme.
        let transfers = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(TraceRecord.self, from: Data($0.utf8)) }
            .filter { $0.kind == .transfer }
        #expect(!transfers.isEmpty && transfers.allSatisfy { $0.transport == "scheme" })
    }

    @Test func aRecordsLineIsTheJSONOfItsFieldsKeysSorted() throws {
        var record = TraceRecord(kind: .message, time: 1234.000125, page: 3)
        (record.pageLoad, record.document, record.origin, record.step, record.name) = (7, 1 << 52, "https://a.example", "result", "m\u{2028}\"x")
        (record.callID, record.callback, record.bytes, record.answerBytes, record.outcome) = (12, "dscb4_t", 90, 3, "error")
        (record.code, record.value, record.isValueCut, record.duration) = (-1, "[\"\\n\"]", false, 0.5)
        (record.answer, record.isAnswerCut) = ("{}", true)
        let line = record.jsonLine
        #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
        #expect(try JSONDecoder().decode(TraceRecord.self, from: line) == record)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let keys = { (data: Data) throws -> [String] in
            try (JSONSerialization.jsonObject(with: data) as? [String: Any]).map { $0.keys.sorted() } ?? []
        }
        #expect(try keys(line) == keys(encoder.encode(record)))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix(#"{"answer":"{}","answerBytes":3,"bytes":90,"callID":12,"callback":"dscb4_t","code":-1,"#))
    }

    /// A Keystone whose `shop.price` answers `price(item)`, tracing as `tracing` says.
    func shop(pricing price: @escaping @Sendable (String) -> Int, tracing: Tracing? = nil) throws -> Keystone {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero), tracing: tracing))
        try keystone.register(namespace: "shop") { methods in
            methods.sync("price") { (item: String) in price(item) }
            methods.async("order") { (item: String) async in "ordered " + item }
            methods.async("refuse") { (_: String) async throws -> Int in throw BridgeError(code: .init(rawValue: 1001), message: "sold out") }
            methods.sync("note") { (_: String) in }
        }
        return keystone
    }

    @Test func aRecordedTraceReplaysAgainstTheAppsKeystoneAndAChangedAnswerFailsIt() async throws {
        let trace = TraceCollector()
        let recording = try shop(pricing: { $0.count * 100 }, tracing: Tracing(to: trace, includesValues: true))
        let page = InMemoryPage(hub: recording, runtime: .keystone, frame: Self.shop)
        page.initialize()
        #expect(try page.call("shop.price", "hat", as: Int.self) == 300)
        #expect(try await page.invoke("shop.order", "scarf", as: String.self) == "ordered scarf")
        await #expect(throws: BridgeError.self) { try await page.invoke("shop.refuse", "gloves", as: Int.self) }
        _ = try page.call("shop.note", "seen", as: JSONValue.self)
        #expect(try page.call("shop.price", "coat", as: Int.self) == 400)
        let replay = TraceReplay(records: trace.records)
        #expect(await replay.replay(against: try shop(pricing: { $0.count * 100 })).isEmpty)
        let changed = await replay.replay(against: try shop(pricing: { $0 == "coat" ? 450 : $0.count * 100 }))
        #expect(changed.map(\.description) == [changed.first.map { "shop.price (record \($0.record)): recorded value 400, replayed value 450" } ?? ""])
        // Against a Keystone without the interface, every call the page made differs: each was compared.
        let missing = await replay.replay(against: Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))))
        #expect(missing.map(\.method) == ["shop.price", "shop.order", "shop.refuse", "shop.note", "shop.price"])
        #expect(missing.map(\.recorded) == ["value 300", "value \"ordered scarf\"", "error 1001", "nothing", "value 400"])
    }

    @Test func aFileWriterWritesOneLineOfJSONPerRecord() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-trace-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try TraceFileWriter(url: url)
        var record = TraceRecord(kind: .call, time: 1.5, page: 2)
        record.name = "shop.price"
        writer.write(record)
        writer.write(TraceRecord(kind: .pageLoad, time: 2, page: 2))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try JSONDecoder().decode(TraceRecord.self, from: Data(lines[0].utf8)) == record)
        #expect(lines[0] == #"{"kind":"call","name":"shop.price","page":2,"time":1.5}"#)
    }

    @Test func aTraceStreamsToAPipeAsItIsWritten() async throws {
        let pipe = Pipe()
        let keystone = try keystone(Tracing(to: TraceFileWriter(handle: pipe.fileHandleForWriting)))
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        _ = try page.call("shop.price", "hat", as: Int.self)
        // Read while the Keystone runs: the call's line is there already, whole.
        var read = Data()
        while !String(decoding: read, as: UTF8.self).contains(#""name":"shop.price""#) { read.append(pipe.fileHandleForReading.availableData) }
        let line = try #require(read.split(separator: UInt8(ascii: "\n")).first { String(decoding: $0, as: UTF8.self).contains("shop.price") })
        #expect(try JSONDecoder().decode(TraceRecord.self, from: Data(line)).outcome == "ok")
    }

    @Test func thePageMarksItsOwnSpansOnlyWhereTheKeystoneTracesAndAHostileMarkIsRefused() async throws {
        let trace = TraceCollector()
        let keystone = try keystone(Tracing(to: trace))
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: Self.shop)
        page.initialize()
        try await page.evaluate("var span = dsBridge.mark('render'); dsBridge.mark('clicked'); span.end(); span.end(); true")
        _ = try page.call("shop.price", "hat", as: Int.self)
        let marks = trace.records.filter { $0.kind == .mark }
        #expect(marks.map { "\($0.step ?? "") \($0.name ?? "") \($0.span ?? 0)" } == ["begin render 1", "begin clicked 2", "end render 1"])
        #expect(marks.allSatisfy { $0.page == 1 && $0.pageLoad == 0 && $0.origin == "https://shop.example" })
        // In the order they came, on the bridge's clock: before the call that followed them.
        let call = try #require(trace.records.last { $0.name == "shop.price" })
        #expect(marks.allSatisfy { $0.time <= call.time })

        // What a page sends as a mark is held to its limits, refused coded, never echoed.
        func mark(_ json: String) -> String { page.prompt("_dsb.mark", argumentText: #"{"data":"# + json + "}") ?? "" }
        let long = mark(#"{"step":"begin","name":""# + String(repeating: "secret", count: 50) + #"","span":3}"#)
        #expect(long.contains(#""code":12"#) && !long.contains("secret"))
        #expect(mark(#"{"step":"middle","name":"x","span":3}"#).contains(#""code":2"#))
        #expect(mark(#"{"step":"end","name":"x"}"#).contains(#""code":2"#))
        // A page that says it held a mark for ages moves it back a minute at most.
        #expect(mark(#"{"step":"begin","name":"old","span":4,"ago":1e300}"#).contains(#""code":0"#))
        let old = try #require(trace.records.last { $0.kind == .mark })
        #expect(old.name == "old" && old.time >= call.time - 60_000 && old.time <= call.time - 59_000)
        #expect(trace.records.filter { $0.kind == .mark }.count == 4)

        // A Keystone that does not trace keeps no marks: its runtime hears so, and the built-in is not there.
        let untraced = InMemoryPage(hub: try self.keystone(nil), runtime: .keystone, frame: Self.shop)
        let announced = untraced.prompt("_dsb.dsinit", argumentText: #"{"data":{"runtime":"keystone","version":1}}"#) ?? ""
        #expect(announced.contains("keystone") && !announced.contains("marks"))
        #expect(page.prompt("_dsb.dsinit", argumentText: #"{"data":{"runtime":"keystone","version":1}}"#)?.contains(#""marks":true"#) == true)
        #expect(untraced.prompt("_dsb.mark", argumentText: #"{"data":{"step":"begin","name":"x","span":1}}"#)?.contains(#""code":1"#) == true)
    }
}
