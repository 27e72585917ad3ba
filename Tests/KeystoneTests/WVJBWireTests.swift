// WVJBWireTests.swift — WebViewJavascriptBridge's own wire, translated to and from the hub.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Stands where a web view would: writes each batch with the wire and keeps the WVJB messages the
/// page would receive, decoded from the scripts.
final class WVJBPageRecorder: EvaluationTarget {
    let wire: WVJBWire
    let received = Watched<[JSONValue]>([])

    init(wire: WVJBWire) { self.wire = wire }

    func evaluate(_ batch: ScriptBatch) { record(wire.script(for: batch)) }

    func record(_ script: String?) {
        received.withLock { $0.append(contentsOf: Self.messages(in: script ?? "")) }
    }

    /// The JSON messages passed to `_handleMessageFromObjC("…")` in `script`.
    static func messages(in script: String) -> [JSONValue] {
        script.components(separatedBy: "WebViewJavascriptBridge._handleMessageFromObjC(").dropFirst().compactMap { part in
            guard let end = part.range(of: ")}catch(e){}") else { return nil }
            let literal = Data(part[..<end.lowerBound].utf8)
            guard let text = try? JSONDecoder().decode(String.self, from: literal) else { return nil }
            return try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(text.utf8))
        }
    }
}

@Suite("WebViewJavascriptBridge's wire", .timeLimit(.minutes(1)))
struct WVJBWireTests {
    let keystone: Keystone
    let wire: WVJBWire
    let page: WVJBPageRecorder
    let frame = CallerFrame(isMainFrame: true, origin: "https://app.example")

    init() throws {
        keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        wire = WVJBWire(hub: keystone)
        page = WVJBPageRecorder(wire: wire)
        keystone.attach(to: page)
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(Counter(), namespace: "counter")
        try keystone.register(namespace: "") { $0.async("testObjcCallback") { (_: JSONValue?) async in "Response from testObjcCallback" } }
    }

    func queue(_ messages: JSONValue) -> String? {
        let text = String(decoding: try! DefaultJSONSerializer().encode(messages), as: UTF8.self)
        let immediate = Self.allSlices(wire, wire.receive(queue: text, from: frame))
        page.record(immediate)
        return immediate
    }

    /// The scripts of `first` and every slice after it, as a host evaluates them; `nil` for none.
    static func allSlices(_ wire: WVJBWire, _ first: WVJBWire.QueueSlice) -> String? {
        var slice = first
        var scripts = [slice.script].compactMap { $0 }
        while slice.next == .answerNextSlice {
            slice = wire.answerNextSlice()
            scripts += [slice.script].compactMap { $0 }
        }
        return scripts.isEmpty ? nil : scripts.joined()
    }

    func waitFor(_ count: Int) async -> [JSONValue] {
        await page.received.until { $0.count >= count }
    }

    @Test func hasJavaScriptMethodFailsAtOnceWithWVJBsOwnScriptWhichCannotAnswerIt() async throws {
        _ = queue([])  // WVJB's own script: its first queue has no marker
        let error = await #expect(throws: BridgeError.self) { try await keystone.hasJavaScriptMethod("testJavascriptHandler") }
        #expect(error?.code == .notFound)
        #expect(page.received.withLock { $0 }.isEmpty)  // nothing was sent that would never be answered
    }

    @Test func hasJavaScriptMethodIsAskedOfKeystonesOwnWVJBScriptAndSettlesWithItsAnswer() async throws {
        _ = queue([["keystone": "wvjb"]])
        let asked = Task { try await keystone.hasJavaScriptMethod("testJavascriptHandler") }
        let sent = await waitFor(1)
        #expect(sent == [["handlerName": "_hasJavascriptMethod", "data": "testJavascriptHandler", "callbackId": "objc_cb_1"]])
        _ = queue([["handlerName": "_hasJavascriptMethod", "responseId": "objc_cb_1", "responseData": true]])
        #expect(try await asked.value)
    }

    @Test(arguments: [2_000, 20_000])
    func wvjbsOwnScriptHandingItsWholeQueueHasEveryCallAnsweredASliceAtATime(_ count: Int) throws {
        // WVJB's own `_fetchQueue()` hands everything, past the limit of calls a post may carry.
        let calls = JSONValue.array((0..<count).map { ["handlerName": "math.add", "data": [.number(Double($0)), 1], "callbackId": .string("cb_\($0)")] })
        let text = String(decoding: try DefaultJSONSerializer().encode(calls), as: UTF8.self)
        var slice = wire.receive(queue: text, from: frame)
        var answers = WVJBPageRecorder.messages(in: slice.script ?? "")
        var slices = 1
        while slice.next == .answerNextSlice {
            #expect(answers.count == slices * WVJBWire.sliceSize)  // the main loop runs between slices
            slice = wire.answerNextSlice()
            answers += WVJBPageRecorder.messages(in: slice.script ?? "")
            slices += 1
        }
        #expect(slice.next == .done)
        #expect(slices == (count + WVJBWire.sliceSize - 1) / WVJBWire.sliceSize)
        #expect(answers.count == count)
        #expect(answers.last == ["responseId": .string("cb_\(count - 1)"), "responseData": .number(Double(count))])
        #expect(!answers.contains { $0.objectValue?["error"] != nil })
    }

    @Test func aSignalWhileAQueueIsAnsweredIsFetchedAfterItsLastSliceAndNeverTwiceAtOnce() throws {
        let call: JSONValue = ["handlerName": "math.add", "data": [1, 2], "callbackId": "cb"]
        let text = String(decoding: try DefaultJSONSerializer().encode(JSONValue.array(Array(repeating: call, count: WVJBWire.sliceSize + 1))), as: UTF8.self)
        let signal = "https://__wvjb_queue_message__/"
        guard case .fetchQueue = wire.answer(toNavigation: signal, from: frame) else { Issue.record("the first signal fetches"); return }
        #expect(wire.answer(toNavigation: signal, from: frame) == .cancel)  // the fetch is under way
        #expect(wire.receive(queue: text, from: frame).next == .answerNextSlice)
        #expect(wire.answer(toNavigation: signal, from: frame) == .cancel)  // held for the end
        #expect(wire.answerNextSlice().next == .fetchQueue)
        #expect(wire.receive(queue: "", from: frame).next == .done)  // a failed fetch ends it too
        guard case .fetchQueue = wire.answer(toNavigation: signal, from: frame) else { Issue.record("the next signal fetches"); return }
    }

    @Test func aPageChangeMidQueueLeavesNothingOfItToAnswer() throws {
        let call: JSONValue = ["handlerName": "math.add", "data": [1, 2], "callbackId": "cb"]
        let text = String(decoding: try DefaultJSONSerializer().encode(JSONValue.array(Array(repeating: call, count: 3 * WVJBWire.sliceSize))), as: UTF8.self)
        #expect(wire.receive(queue: text, from: frame).next == .answerNextSlice)
        wire.pageDidUnload()
        let late = wire.answerNextSlice()
        #expect(late.script == nil)
        #expect(late.next == .done)
    }

    @Test func swiftCallsWaitForTheBridgeThenReachItsHandlersAndItsAnswersSettleThem() async throws {
        let call = keystone.start("testJavascriptHandler", ["foo": "bar"], as: JSONValue.self)
        #expect(page.received.withLock { $0 }.isEmpty)  // no bridge yet
        _ = queue([])  // the page script signals as it loads
        let sent = await waitFor(1)
        #expect(sent == [["handlerName": "testJavascriptHandler", "data": ["foo": "bar"], "callbackId": "objc_cb_1"]])
        _ = queue([["handlerName": "testJavascriptHandler", "responseId": "objc_cb_1", "responseData": ["got": "it"]]])
        #expect(try await call.value == ["got": "it"])
    }

    @Test func pageCallsReachSwiftByTheirDottedNamesAndAreAnsweredOnce() async throws {
        _ = queue([
            ["handlerName": "math.slowAdd", "data": ["a": 2, "b": 3], "callbackId": "cb_1_1"],
            ["handlerName": "testObjcCallback", "data": ["foo": "bar"], "callbackId": "cb_2_1"],
        ])
        let answers = await waitFor(2)
        let expected: Set<JSONValue> = [
            ["responseId": "cb_1_1", "responseData": 5],
            ["responseId": "cb_2_1", "responseData": "Response from testObjcCallback"],
        ]
        #expect(Set(answers) == expected)
    }

    @Test func synchronousMethodsAndRefusalsAreAnsweredAtOnce() throws {
        let immediate = try #require(
            queue([
                ["handlerName": "math.add", "data": [4, 5], "callbackId": "cb_1_1"],
                ["handlerName": "nowhere.method", "data": 1, "callbackId": "cb_2_1"],
                ["handlerName": "math.add", "data": [1, 1]],  // no callback: nothing to answer
            ]))
        let answers = WVJBPageRecorder.messages(in: immediate)
        #expect(answers.first == ["responseId": "cb_1_1", "responseData": 9])
        guard answers.count == 2, case .object(let refusal) = answers[1] else {
            Issue.record("expected two answers, got \(answers)")
            return
        }
        #expect(refusal["responseId"] == "cb_2_1")
        #expect(refusal["responseData"] == .null)
        #expect(refusal["error"]?.objectValue?["code"] == 1)
    }

    @Test func aMultiResponseMethodAnswersEachResultUnderTheSameId() async throws {
        _ = queue([["handlerName": "counter.countdown", "data": 2, "callbackId": "cb_9_1"]])
        let answers = await waitFor(3)
        #expect(answers == [2, 1, 0].map { JSONValue.object(["responseId": "cb_9_1", "responseData": .number($0)]) })
    }

    @Test func valuesCrossByteExactBothWays() async throws {
        let values = AdversarialStrings.table.map(\.value) + [String(repeating: "ab\u{2028}😀\"\\</script>", count: 50_000)]
        page.received.withLock { $0.removeAll() }
        _ = queue(
            .array(
                values.enumerated().map { index, value in
                    ["handlerName": "echoBack", "data": .string(value), "callbackId": .string("cb_\(index)_1")]
                }))
        try keystone.register(namespace: "") { $0.async("echoBack") { (value: String) async in value } }
        _ = queue(
            .array(
                values.enumerated().map { index, value in
                    ["handlerName": "echoBack", "data": .string(value), "callbackId": .string("cb_\(index)_2")]
                }))
        let answers = await waitFor(values.count * 2)
        let echoed = answers.compactMap { answer -> String? in
            guard case .object(let object) = answer, case .string(let value) = object["responseData"] else { return nil }
            return value
        }
        #expect(Set(echoed) == Set(values))
    }

    @Test func aMessageWhoseValueNoSwiftStringCanHoldIsRefusedAloneAndTheRestGoOn() throws {
        // JSON.stringify writes a lone surrogate as \ud800.
        let text = #"[{"handlerName":"math.add","data":"a\ud800b","callbackId":"cb_1_1"},{"handlerName":"math.add","data":[1,2],"callbackId":"cb_2_1"}]"#
        let answers = wire.answers(toQueue: text, from: frame).compactMap { try? DefaultJSONSerializer().decode(JSONValue.self, from: Data($0.utf8)) }
        #expect(answers.count == 2)
        #expect(answers.first?.objectValue?["error"]?.objectValue?["code"] == 2)
        #expect(answers.last == ["responseId": "cb_2_1", "responseData": 3])
    }

    @Test func aQueueThatIsNotWVJBsIsIgnoredAndAPageChangeForgetsItsCalls() async throws {
        #expect(wire.receive(queue: "not json", from: frame) == WVJBWire.QueueSlice(script: nil, next: .done))
        #expect(WVJBWire(hub: keystone, maximumQueueBytes: 4).receive(queue: "[{}, {}]", from: frame) == WVJBWire.QueueSlice(script: nil, next: .done))
        _ = queue([["handlerName": "counter.countdown", "data": 1, "callbackId": "cb_1_1"]])
        keystone.pageDidUnload()
        wire.pageDidUnload()
        // A result for the old page's call, had one got past the hub, finds no callback to answer.
        let late = ScriptBatch(messages: [.result(callback: "dscb1", value: JSONText(quoting: "late"), complete: true)], runtime: .dsbridge, pageLoad: keystone.pageLoad)
        #expect(wire.messages(for: late).isEmpty)
        #expect(wire.script(for: late).isEmpty)
    }

    @Test func theWireHandsTheHubSplitCallsAndNeverText() async throws {
        let hub = SplitCallRecordingHub(keystone)
        let wire = WVJBWire(hub: hub)
        let page = WVJBPageRecorder(wire: wire)
        keystone.attach(to: page)
        let asked = keystone.start("testJavascriptHandler", 1, as: Int.self)
        let queued: JSONValue = [
            ["handlerName": "math.add", "data": [4, 5], "callbackId": "cb_1"],
            ["handlerName": "math.slowAdd", "data": ["a": 2, "b": 3], "callbackId": "cb_2"],
        ]
        page.record(Self.allSlices(wire, wire.receive(queue: try Self.text(queued), from: frame)))
        await page.received.until { $0.count >= 3 }  // the Swift call and the asynchronous result
        _ = wire.receive(queue: try Self.text([["responseId": "objc_cb_1", "responseData": 7]]), from: frame)
        #expect(try await asked.value == 7)
        #expect(hub.texts.withLock { $0 } == 0)
        #expect(hub.calls.withLock { $0 } == ["_dsb.dsinit", "math.add", "math.slowAdd", "_dsb.returnValue"])
        let received = page.received.withLock { Set($0) }
        #expect(received.isSuperset(of: [["responseId": "cb_1", "responseData": 9], ["responseId": "cb_2", "responseData": 5]]))
    }

    @Test func aHubThatAnswersOnlyTextStillServesAWVJBPage() async throws {
        let hub = CountingHub(keystone)  // implements the text entries only
        let wire = WVJBWire(hub: hub)
        let page = WVJBPageRecorder(wire: wire)
        keystone.attach(to: page)
        let queued: JSONValue = [
            ["handlerName": "math.add", "data": [4, 5], "callbackId": "cb_1"],
            ["handlerName": "math.nothing", "callbackId": "cb_2"],
            ["handlerName": "nowhere.method", "data": 1, "callbackId": "cb_3"],
            ["handlerName": "math.slowAdd", "data": ["a": 2, "b": 3], "callbackId": "cb_4"],
        ]
        let immediate = try #require(Self.allSlices(wire, wire.receive(queue: try Self.text(queued), from: frame)))
        let answers = WVJBPageRecorder.messages(in: immediate)
        #expect(answers.count == 3)
        #expect(answers.first == ["responseId": "cb_1", "responseData": 9])
        #expect(answers.dropFirst().first == ["responseId": "cb_2", "responseData": ""])
        #expect(answers.last?.objectValue?["error"]?.objectValue?["code"] == 1)
        await page.received.until { !$0.isEmpty }  // the asynchronous result
        #expect(page.received.withLock { $0 } == [["responseId": "cb_4", "responseData": 5]])
        #expect(hub.prompts.withLock { $0 } == 5)  // the page's bridge announced, then four calls
    }

    static func text(_ value: JSONValue) throws -> String {
        String(decoding: try DefaultJSONSerializer().encode(value), as: UTF8.self)
    }
}

/// A hub that forwards to a Keystone and records the split calls it is handed, and how many texts.
final class SplitCallRecordingHub: BridgeHub {
    let inner: Keystone
    let calls = Locked<[String]>([])
    let texts = Locked(0)

    init(_ inner: Keystone) { self.inner = inner }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        texts.withLock { $0 += 1 }
        return inner.handlePrompt(text, defaultText: defaultText, frame: frame)
    }
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        texts.withLock { $0 += 1 }
        return inner.handleMessage(method, arguments: arguments, frame: frame)
    }
    func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        calls.withLock { $0.append(method) }
        return inner.handleCall(method, data: data, callback: callback, acceptsInlineAnswer: acceptsInlineAnswer, frame: frame)
    }
    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }
}

extension JSONValue {
    var objectValue: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }
}
