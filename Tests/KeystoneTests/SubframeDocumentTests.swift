// SubframeDocumentTests.swift — the whole bridge in a subframe whose document the host delivers to:
// its results, streams, bytes and Swift's calls reach it and no other document, and go with it.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// What a frame's page calls: a slow echo, a stream, bytes, a call back into the calling frame, and
/// a call that never ends until cancelled.
struct FrameInterface: BridgeInterface {
    let cancelled: Locked<Int>

    func exposeMethods(to methods: inout MethodList) {
        methods.async("echo") { (text: String) async in text }
        methods.multiResponse("count") { (to: Int, writer: ResponseWriter<Int>) in
            for n in 1...to { try await writer.write(n) }
        }
        methods.async("bytes") { (count: Int) async in bytePattern(count) }
        // As the demo's `native.callJS`: calls the handler `ask` of whichever frame called.
        methods.async("callBack") { (question: String, context: CallContext) async throws in
            try await context.page.call("ask", question, as: String.self)
        }
        methods.async("forever") { () async -> Int in
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}  // ends when the task is cancelled
            if Task.isCancelled { cancelled.withLock { $0 += 1 } }
            return 0
        }
    }
}

@Suite("Subframe documents", .timeLimit(.minutes(1)))
struct SubframeDocumentTests {
    let keystone: Keystone
    let page: InMemoryPage
    let cancelled = Locked(0)

    init() throws {
        var components = KeystoneComponents(policy: DefaultCallPolicy(allowsSubframes: true))
        components.evaluator = BatchingEvaluator(clock: ManualClock(), window: .zero)
        components.limits.subframeDocuments = 2
        keystone = Keystone(components: components)
        try keystone.register(FrameInterface(cancelled: cancelled), namespace: "frame")
        page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
    }

    func subframe(_ origin: String = "https://embed.example") -> InMemoryPage {
        let frame = page.addSubframe(origin: origin)
        frame.initialize()
        return frame
    }

    @Test func aSubframesAsynchronousCallsStreamsAndBytesReachItAndNoOtherDocument() async throws {
        let frame = subframe()
        // Both documents' runtimes name their first callback alike; each gets its own result.
        async let fromFrame = frame.invoke("frame.echo", "frame", as: String.self)
        async let fromPage = page.invoke("frame.echo", "page", as: String.self)
        #expect(try await (fromFrame, fromPage) == ("frame", "page"))
        var counted: [Int] = []
        for try await n in frame.stream("frame.count", 3, of: Int.self) { counted.append(n) }
        #expect(counted == [1, 2, 3])
        #expect(try await frame.invoke("frame.bytes", 70_000, as: Data.self) == bytePattern(70_000))
        #expect(keystone.openTransferCount == 0)
        #expect(frame.receivedBatches.allSatisfy { $0.frame == frame.frame.document && $0.runtime == .keystone })
        #expect(page.receivedBatches.allSatisfy { $0.frame == nil })
        #expect(!page.receivedMessages.contains { if case .result(_, let value, _) = $0 { value.string == #""frame""# } else { false } })
    }

    @Test func aCallMadeBeforeTheSubframesRuntimeAnnouncesItselfIsAnsweredToKeystonesRuntime() async throws {
        // The runtime announces itself a turn after the document's scripts ran; a page that calls
        // first, streaming, still gets its stream's end.
        // (The in-memory page will not call before it has announced itself: its runtime's call, as
        // the wire has it.)
        let frame = page.addSubframe(origin: "https://embed.example")
        _ = frame.prompt("frame.count", argumentText: #"{"data":2,"_dscbstub":"dscb1_f","_dsinline":true}"#)
        await untilNoCallRuns(keystone)
        #expect(frame.receivedBatches.count >= 1)
        #expect(frame.receivedBatches.allSatisfy { $0.frame == frame.frame.document && $0.runtime == .keystone })
        // A plain page's call, the same way, is answered as a plain page's.
        let plain = page.addSubframe(origin: "https://embed.example", runtime: .dsbridge)
        _ = plain.prompt("frame.count", argumentText: #"{"data":2,"_dscbstub":"dscb1_f"}"#)
        await untilNoCallRuns(keystone)
        #expect(plain.receivedBatches.count >= 1)
        #expect(plain.receivedBatches.allSatisfy { $0.runtime == .dsbridge })
    }

    @Test(arguments: ["navigate", "terminate", "subframe"])
    func aDocumentsAwaitedCallSettlesPageGoneWhenTheDocumentGoes(how: String) async throws {
        let caller = how == "subframe" ? subframe() : page
        let outcome = Task { () -> BridgeError? in
            do {
                _ = try await caller.invoke("frame.forever", as: Int.self)
                return nil
            } catch {
                return BridgeError(error)
            }
        }
        for _ in 0..<100_000 where keystone.runningCallCount < 1 { await Task.yield() }
        #expect(keystone.runningCallCount == 1)
        switch how {
        case "navigate", "subframe": caller.navigate()
        default: _ = caller.terminateWebProcess(at: .zero)
        }
        #expect(await outcome.value?.code == .pageGone)
        await untilNoCallRuns(keystone)
        #expect(cancelled.withLock { $0 } == 1)
    }

    @Test func swiftsCallOfASubframeThatHasNotRegisteredItsHandlersWaitsForThemAsTheMainFramesDoes() async throws {
        // The frame calls as it loads; the method calls back into it before its runtime announced
        // itself: the call waits, and goes once the frame has registered its handlers.
        let frame = page.addSubframe(origin: "https://embed.example")
        _ = frame.prompt("frame.callBack", argumentText: #"{"data":"early","_dscbstub":"dscb1_w"}"#)
        for _ in 0..<100_000 where keystone.pendingCallCount < 1 { await Task.yield() }
        #expect(keystone.pendingCallCount == 1)
        #expect(frame.receivedMessages.isEmpty)
        frame.register("ask") { arguments in .string("answered \(arguments.first?.stringValue ?? "")") }
        frame.initialize()
        await untilNoCallRuns(keystone)
        #expect(frame.receivedMessages.contains { if case .result("dscb1_w", let value, _) = $0 { value.string == #""answered early""# } else { false } })
        // A frame that goes before registering them fails the call that waited, pageGone.
        let leaving = page.addSubframe(origin: "https://embed.example")
        _ = leaving.prompt("frame.callBack", argumentText: #"{"data":"late","_dscbstub":"dscb1_l"}"#)
        for _ in 0..<100_000 where keystone.pendingCallCount < 1 { await Task.yield() }
        #expect(keystone.pendingCallCount == 1)
        leaving.remove()
        await untilNoCallRuns(keystone)
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func swiftCallsASubframesHandlersThroughItsFrameAndAMethodsContextReachesTheCallingFrame() async throws {
        let frame = subframe()
        frame.register("ask") { arguments in .string("frame answers \(arguments.first?.stringValue ?? "")") }
        page.register("ask") { _ in .string("the main frame answers") }
        #expect(keystone.subframes == [frame.frame])
        #expect(try await keystone.page(frame.frame).call("ask", "x", as: String.self) == "frame answers x")
        #expect(try await frame.invoke("frame.callBack", "y", as: String.self) == "frame answers y")
        #expect(try await page.invoke("frame.callBack", "z", as: String.self) == "the main frame answers")
        #expect(try await keystone.call("ask", "w", as: String.self) == "the main frame answers")
    }

    @Test func aDocumentAnswersAndCancelsOnlyItsOwnCalls() async throws {
        let frame = subframe()
        frame.registerAsync("ask") { _, _ in }  // never answers by itself
        page.registerAsync("ask") { _, _ in }
        let toFrame = Task { try await keystone.page(frame.frame).call("ask", as: Int.self) }
        let frameCall = await Self.callId(in: frame)
        let toPage = keystone.start("ask", arguments: [], as: Int.self)
        let pageCall = await Self.callId(in: page)
        // Each answers the other's call: neither is settled.
        _ = page.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":\#(frameCall),"data":1,"complete":true}}"#)
        _ = frame.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":\#(pageCall),"data":2,"complete":true}}"#)
        #expect(keystone.pendingCallCount == 2)
        // Each document's callback of the same name is its own: the frame cancels only its call.
        #expect(page.prompt("frame.forever", argumentText: #"{"data":null,"_dscbstub":"dscb900"}"#) == #"{"code":0,"data":""}"#)
        #expect(frame.prompt("frame.forever", argumentText: #"{"data":null,"_dscbstub":"dscb900"}"#) == #"{"code":0,"data":""}"#)
        #expect(keystone.runningCallCount == 2)
        _ = frame.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb900"}}"#)
        #expect(keystone.runningCallCount == 1)
        _ = frame.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":\#(frameCall),"data":1,"complete":true}}"#)
        #expect(try await toFrame.value == 1)
        toPage.cancel()
        _ = page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb900"}}"#)
        #expect(keystone.runningCallCount == 0)
    }

    @Test func aFrameThatNavigatesAwayMidCallTakesItsCallsWithIt() async throws {
        let frame = subframe()
        frame.registerAsync("ask") { _, _ in }
        let old = try #require(frame.frame.document)
        let waiting = Task { try await keystone.page(frame.frame).call("ask", as: Int.self) }
        _ = await Self.callId(in: frame)
        #expect(frame.prompt("frame.forever", argumentText: #"{"data":null,"_dscbstub":"dscb1"}"#) == #"{"code":0,"data":""}"#)
        #expect(keystone.runningCallCount == 1)
        frame.navigate()
        #expect(frame.frame.document != old)
        let error = await #expect(throws: BridgeError.self) { try await waiting.value }
        #expect(error?.code == .pageGone)
        #expect(keystone.runningCallCount == 0)
        #expect(cancelled.withLock { $0 } == 1)
        #expect(keystone.subframes.isEmpty)  // the next document has not registered its handlers
        // Nothing reaches the old document any more, and Swift's calls of it fail at once.
        let stale = await #expect(throws: BridgeError.self) { try await keystone.page(CallerFrame(isMainFrame: false, origin: "https://embed.example", document: old)).call("ask", as: Int.self) }
        #expect(stale?.code == .pageGone)
        frame.initialize()
        #expect(try await frame.invoke("frame.echo", "again", as: String.self) == "again")
    }

    /// The id of the first Swift call `page` received, once it has.
    static func callId(in page: InMemoryPage) async -> Int {
        @Sendable func first(_ messages: [PageMessage]) -> Int? {
            messages.lazy.compactMap { if case .call(_, let id, _) = $0 { id } else { nil } }.first
        }
        await page.untilReceived { first($0) != nil }
        return first(page.receivedMessages) ?? -1
    }

    @Test func aRemovedFrameAndThePagesEndTakeTheFramesDocumentsWithThem() async throws {
        let frame = subframe()
        frame.registerAsync("ask") { _, _ in }
        let waiting = Task { try await keystone.page(frame.frame).call("ask", as: Int.self) }
        _ = await Self.callId(in: frame)
        frame.remove()
        #expect(await (try? waiting.value) == nil)
        #expect(keystone.subframes.isEmpty)
        let other = subframe("https://other.example")
        #expect(keystone.subframes.count == 1)
        page.navigate()
        #expect(keystone.subframes.isEmpty)
        let gone = await #expect(throws: BridgeError.self) { try await keystone.page(other.frame).call("ask", as: Int.self) }
        #expect(gone?.code == .pageGone)
    }

    @Test func aFrameOfAnotherOriginCannotFetchAnotherFramesBytes() async throws {
        let frame = subframe()
        let thief = subframe("https://thief.example")
        #expect(frame.prompt("frame.bytes", argumentText: #"{"data":10,"_dscbstub":"dscb5","_dsparts":[]}"#) == #"{"code":0,"data":""}"#)
        await frame.untilReceived { $0.contains { if case .withParts = $0 { true } else { false } } }
        #expect(keystone.openTransferCount == 1)
        let message = try #require(frame.receivedMessages.last)
        guard case .withParts(_, let parts) = message, case .ticket(let address) = parts.source else {
            Issue.record("no ticket")
            return
        }
        let request = try #require(try? URLSchemeTransport.keystone.request(method: "GET", url: address, origin: "https://thief.example").get())
        guard case .refused(let error) = try #require(keystone.receiveBytesNow(request, readBody: { _ in nil })) else {
            Issue.record("the thief got the bytes")
            return
        }
        #expect(error.code == .notAllowed)
        _ = thief
    }

    @Test func aPageLoadReachesAtMostItsLimitOfSubframeDocuments() async throws {
        let first = subframe("https://a.example")
        let second = subframe("https://b.example")
        let third = page.addSubframe(origin: "https://c.example")
        third.initialize()  // refused too: the page load does not reach its document
        let refused = await #expect(throws: BridgeError.self) { try await third.invoke("frame.echo", "c", as: String.self) }
        #expect(refused?.code == .limitExceeded)
        #expect(try await first.invoke("frame.echo", "a", as: String.self) == "a")
        second.remove()
        #expect(try await third.invoke("frame.echo", "c", as: String.self) == "c")
    }

    @Test func aSubframeDocumentStillCannotCloseAuthorizeOrDeclareForThePage() throws {
        let frame = subframe()
        for method in ["_dsb.closePage", "_dsb.authorize", "_dsb.declare"] {
            #expect(frame.prompt(method, argumentText: #"{"data":null}"#)?.contains(#""code":11"#) == true, "\(method)")
        }
    }

    @Test func aSubframeTheHostCannotDeliverToStillGetsSynchronousCallsOnly() async throws {
        let unreachable = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: false, origin: "https://embed.example"))
        keystone.attach(to: page)
        unreachable.initialize()  // refused: it cannot announce a runtime that nothing reaches
        let refused = await #expect(throws: BridgeError.self) { try await unreachable.callAsync("frame.echo", "x", as: String.self) }
        #expect(refused?.code == .notAllowed)
        let unreached = await #expect(throws: BridgeError.self) { try await keystone.page(unreachable.frame).call("ask", as: Int.self) }
        #expect(unreached?.code == .notAllowed)
    }
}
