// DurableCallTests.swift — durable calls through a page: a call in flight when its page goes runs
// once, the next document of its origin recovers its outcome once, and its key does not run again.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Counts per key, each increment waiting until the test lets it through.
final class DurableCounter: BridgeInterface, Sendable {
    let counts = Locked<[String: Int]>([:])
    let (started, startedContinuation) = AsyncStream<String>.makeStream()
    let (gate, gateContinuation) = AsyncStream<Void>.makeStream()

    func exposeMethods(to methods: inout MethodList) {
        methods.async("increment", countOnce)
        // Durable by default: the page sends no key.
        methods.async("save", countOnce)
        methods.durable("save")
        methods.sync("count") { [self] (key: String) in counts.withLock { $0[key] ?? 0 } }
        methods.async("fail") { (_: String) async throws -> Int in throw BridgeError(code: .init(rawValue: 1000), message: "declined") }
        methods.multiResponse("many") { (_: String, writer: ResponseWriter<Int>) in try await writer.write(1) }
    }

    /// Adds one to the count under `key` once the test lets it through, and returns the count.
    @Sendable func countOnce(_ key: String) async -> Int {
        startedContinuation.yield(key)
        for await _ in gate { break }
        return counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    /// Returns once an increment has started.
    func untilStarted() async {
        for await _ in started { return }
    }
}

/// An app's store of durable calls' outcomes, in memory: what it keeps, and what it heard.
final class RecordingStore: DurableCallStore {
    let records = Locked<[String: DurableCallRecord]>([:])
    let heard = Locked<[String]>([])

    func load() -> [DurableCallRecord] { records.withLock { $0.values.sorted { $0.key < $1.key } } }

    func save(_ record: DurableCallRecord) {
        records.withLock { $0[record.origin + " " + record.key] = record }
        heard.withLock { $0.append("save \(record.key)\(record.isAcknowledged ? " acknowledged" : "")") }
    }

    func remove(origin: String, key: String) {
        _ = records.withLock { $0.removeValue(forKey: origin + " " + key) }
        heard.withLock { $0.append("remove \(key)") }
    }
}

@Suite("Durable calls through a page", .timeLimit(.minutes(1)))
struct DurableCallTests {
    let keystone: Keystone
    let counter = DurableCounter()
    let shop = CallerFrame(isMainFrame: true, origin: "https://shop.example")

    init() throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.durableCalls = 4
        keystone = Keystone(components: components)
        try keystone.register(counter, namespace: "durable")
    }

    func makePage(_ frame: CallerFrame? = nil) -> InMemoryPage {
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: frame ?? shop)
        page.initialize()
        return page
    }

    /// Makes a durable call as Keystone's runtime sends it, without waiting for its outcome.
    func send(_ page: InMemoryPage, key: String, callback: String = "dscb1") -> String {
        keystone.handleMessage("durable.increment", arguments: #"{"data":"\#(key)","_dscbstub":"\#(callback)","_dsdurable":"\#(key)"}"#, frame: page.frame)
    }

    @Test(arguments: ["navigate", "terminate"])
    func aCallInFlightWhenThePageGoesRunsOnceAndTheNextDocumentRecoversItOnce(_ how: String) async throws {
        let page = makePage()
        #expect(send(page, key: "pay-1") == #"{"code":0,"data":""}"#)
        await counter.untilStarted()
        if how == "navigate" { page.navigate() } else { page.terminateWebProcess(at: .zero) }
        #expect(keystone.runningCallCount == 0)  // not one of the page load's calls: nothing cancelled it
        page.initialize()
        async let recovered = page.recovered()  // waits for the call still running
        counter.gateContinuation.yield()
        #expect(try await recovered == [["key": "pay-1", "method": "durable.increment", "value": 1]])
        #expect(try page.call("durable.count", "pay-1", as: Int.self) == 1)
        // Handed once: acknowledged, it is not recovered again; its key still answers, without running.
        #expect(try await page.recovered() == [])
        #expect(try await page.invoke("durable.increment", "pay-1", durable: "pay-1", as: Int.self) == 1)
        #expect(try page.call("durable.count", "pay-1", as: Int.self) == 1)
    }

    @Test func theSameKeySentWhileItRunsJoinsTheCallAndBothHearItsOutcome() async throws {
        let page = makePage()
        async let first = page.invoke("durable.increment", "k", durable: "k", as: Int.self)
        await counter.untilStarted()
        async let second = page.invoke("durable.increment", "k", durable: "k", as: Int.self)
        await Task.yield()
        counter.gateContinuation.yield()
        #expect(try await (first, second) == (1, 1))
        #expect(try page.call("durable.count", "k", as: Int.self) == 1)
    }

    @Test func aDocumentThatGoesBeforeAcknowledgingLeavesTheOutcomeForTheNext() async throws {
        let page = makePage()
        _ = send(page, key: "save")
        await counter.untilStarted()
        counter.gateContinuation.yield()
        // The outcome reached the first document's callback, but it never acknowledged it.
        await page.untilReceived { $0.contains { if case .result = $0 { true } else { false } } }
        page.navigate()
        page.initialize()
        #expect(try await page.recovered().count == 1)
    }

    @Test func anotherOriginNeverSeesTheOutcomesAndTheSameKeyIsItsOwn() async throws {
        let page = makePage()
        _ = send(page, key: "k")
        await counter.untilStarted()
        page.navigate()
        counter.gateContinuation.yield()
        let other = makePage(CallerFrame(isMainFrame: true, origin: "https://other.example"))
        #expect(try await other.recovered() == [])
        async let theirs = other.invoke("durable.increment", "k", durable: "k", as: Int.self)
        await counter.untilStarted()
        counter.gateContinuation.yield()
        #expect(try await theirs == 2)  // ran: another origin's key of the same name
    }

    @Test func failuresAreOutcomesTooAndDurableCallsHaveOneResult() async throws {
        let page = makePage()
        let failed = await #expect(throws: BridgeError.self) { try await page.invoke("durable.fail", "f", durable: "f", as: Int.self) }
        #expect(failed?.code.rawValue == 1000)
        page.navigate()
        page.initialize()
        let again = await #expect(throws: BridgeError.self) { try await page.invoke("durable.fail", "f", durable: "f", as: Int.self) }
        #expect(again?.message == "declined")
        let many = await #expect(throws: BridgeError.self) { try await page.invoke("durable.many", "m", durable: "m", as: Int.self) }
        #expect(many?.code == .unsupportedCallKind)
    }

    @Test func anAppsStoreKeepsOutcomesAcrossTheAppsOwnRestart() async throws {
        let store = RecordingStore()
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.durableStore = store
        let before = Keystone(components: components)
        try before.register(counter, namespace: "durable")
        let page = InMemoryPage(hub: before, runtime: .keystone, frame: shop)
        page.initialize()
        _ = before.handleMessage("durable.increment", arguments: #"{"data":"order","_dscbstub":"dscb1","_dsdurable":"order"}"#, frame: shop)
        await counter.untilStarted()
        counter.gateContinuation.yield()
        await page.untilReceived { $0.contains { if case .result = $0 { true } else { false } } }
        #expect(store.heard.withLock { $0 } == ["save order"])
        // The app ends before the page took the outcome; the next Keystone reads the store.
        let after = Keystone(components: components)
        try after.register(counter, namespace: "durable")
        let next = InMemoryPage(hub: after, runtime: .keystone, frame: shop)
        next.initialize()
        #expect(try await next.recovered() == [["key": "order", "method": "durable.increment", "value": 1]])
        #expect(store.heard.withLock { $0 } == ["save order", "save order acknowledged"])
        #expect(try await next.invoke("durable.increment", "order", durable: "order", as: Int.self) == 1)
        #expect(try next.call("durable.count", "order", as: Int.self) == 1)
    }

    // MARK: Methods durable by default

    @Test func aMethodDurableByDefaultRunsToItsEndPastItsPageAndItsOutcomeIsRecoveredUnderADrawnKey() async throws {
        let page = InMemoryPage(hub: keystone, runtime: .dsbridge, frame: shop)  // dsbridge.js: it knows nothing of keys
        page.initialize()
        _ = keystone.handleMessage("durable.save", arguments: #"{"data":"draft","_dscbstub":"dscb1"}"#, frame: shop)
        await counter.untilStarted()
        page.navigate()
        #expect(keystone.runningCallCount == 0)  // not one of the page load's calls: nothing cancelled it
        let next = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        next.initialize()
        async let recovered = next.recovered()
        counter.gateContinuation.yield()
        let handed = try await recovered
        guard handed.count == 1, case .object(let call) = handed[0], case .string(let key)? = call["key"] else {
            Issue.record("not one outcome with a drawn key: \(handed)")
            return
        }
        #expect(call["method"] == "durable.save" && call["value"] == 1)
        #expect(key.count == 32)
        #expect(try next.call("durable.count", "draft", as: Int.self) == 1)
    }

    @Test func aMethodDurableByDefaultAnswersTheDocumentThatIsStillThereAndLeavesNothingToRecover() async throws {
        let page = makePage()
        async let saved = page.invoke("durable.save", "note", as: Int.self)
        await counter.untilStarted()
        counter.gateContinuation.yield()
        #expect(try await saved == 1)
        page.navigate()
        page.initialize()
        #expect(try await page.recovered() == [])  // the document that made it had its outcome
        // Sent again without a key, it runs again: only the page's own key makes a call run once.
        async let again = page.invoke("durable.save", "note", as: Int.self)
        await counter.untilStarted()
        counter.gateContinuation.yield()
        #expect(try await again == 2)
    }

    // MARK: Suspension

    @Test(arguments: [false, true])
    func aCallInFlightWhenTheAppIsSuspendedRunsOnceWhetherOrNotTheSystemEndsThePage(_ ended: Bool) async throws {
        let page = makePage()
        _ = send(page, key: "upload")
        await counter.untilStarted()
        page.suspend()
        counter.gateContinuation.yield()  // the call ends while the page is suspended
        if !ended {
            // The engine held the outcome for the suspended page, and hands it over on resume.
            #expect(page.receivedMessages.isEmpty)
            page.resume()
            await page.untilReceived { $0.contains { if case .result = $0 { true } else { false } } }
            #expect(page.receivedMessages.contains { $0 == .result(callback: "dscb1", value: try! JSONText(validating: Data("1".utf8)), complete: true) })
        } else {
            #expect(page.resume(afterWebProcessEndedAt: .seconds(60))?.reason == .unknown)
            page.initialize()
            #expect(try await page.recovered() == [["key": "upload", "method": "durable.increment", "value": 1]])
        }
        #expect(try page.call("durable.count", "upload", as: Int.self) == 1)
    }

    // MARK: Durable Swift → page calls

    /// A page handler that records the durable id of each call and answers as `answer` says
    /// (`nil`: never).
    func registerSave(on page: InMemoryPage, seen: Locked<[String?]>, answer: JSONValue?) {
        page.registerAsync("drafts.save") { _, reply in
            seen.withLock { $0.append(reply.durable) }
            if let answer { reply(answer) }
        }
    }

    @Test(arguments: ["navigate", "terminate", "suspend"])
    func aDurableSwiftCallGoesOnceToTheNextDocumentWithItsIdAndTakesItsAnswer(_ how: String) async throws {
        let page = makePage()
        let (first, second) = (Locked<[String?]>([]), Locked<[String?]>([]))
        registerSave(on: page, seen: first, answer: nil)
        async let saved = keystone.call("drafts.save", "draft", as: String.self, durable: true)
        await page.untilReceived { $0.contains { if case .durable = $0 { true } else { false } } }
        switch how {
        case "navigate": page.navigate()
        case "terminate": page.terminateWebProcess(at: .zero)
        default:
            page.suspend()
            page.resume(afterWebProcessEndedAt: .zero)
        }
        #expect(keystone.pendingCallCount == 1)  // not failed with the page: it waits for the next document
        registerSave(on: page, seen: second, answer: "saved in the next document")
        page.initialize()
        #expect(try await saved == "saved in the next document")
        let id = try #require(first.withLock { $0 }.first ?? nil)
        #expect(id.count == 32)
        #expect(second.withLock { $0 } == [id])  // once, with the same id
        #expect(keystone.pendingCallCount == 0)
    }

    /// The page's handler, in every document: it tells Swift what it was handed (whether bytes, how
    /// many, their sum, the durable id's length), unless the document holds its answer back.
    static let photoHandler = """
        dsBridge.registerAsyn('photo.check', function (bytes, respond) {
          window.heard = (window.heard || 0) + 1;
          if (window.holds) return;
          var sum = 0;
          for (var i = 0; i < bytes.length; i++) sum += bytes[i];
          respond([bytes instanceof Uint8Array, bytes.length, sum, respond.durable.length]);
        });
        """

    @Test(arguments: ["navigate", "terminate"])
    func aDurableSwiftCallsDataReachesEachDocumentAsBytes(_ how: String) async throws {
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop, scripts: [Self.photoHandler])
        page.initialize()
        _ = try await page.evaluate("window.holds = true")
        let photo = bytePattern(70_000)
        async let checked = keystone.call("photo.check", photo, as: [JSONValue].self, durable: true)
        await page.page.until("window.heard === 1")
        if how == "navigate" { page.navigate() } else { page.terminateWebProcess(at: .zero) }
        #expect(keystone.pendingCallCount == 1)
        page.initialize()
        let sum = photo.reduce(0) { $0 + Int($1) }
        #expect(try await checked == [true, 70_000, .number(Double(sum)), 32])
        #expect(try await page.evaluate("window.heard") == 1)  // once in each document
        #expect(keystone.pendingCallCount == 0)
        #expect(keystone.openTransferCount == 0)
    }

    /// The first document leaves (`location.reload()`) the moment the runtime starts fetching a
    /// call's bytes, as a page may while a call is on its way: the engine stops the fetch there.
    static let leavesWhileFetching = """
        if (!sessionStorage.getItem('left')) {
          var fetchBytes = window.fetch;
          window.fetch = function (address, init) {
            sessionStorage.setItem('left', 'yes');
            location.reload();
            return fetchBytes(address, init);
          };
        }
        dsBridge.registerAsyn('photo.check', function (bytes, respond) {
          sessionStorage.setItem('heard', String(Number(sessionStorage.getItem('heard') || 0) + 1));
          respond([bytes.length, respond.durable.length]);
        });
        dsBridge.registerAsyn('photo.plain', function (bytes, respond) { respond(bytes.length); });
        """

    @Test func aDurableSwiftCallWhoseBytesALeavingDocumentCouldNotFetchGoesToTheNextDocument() async throws {
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop, scripts: [Self.leavesWhileFetching])
        page.initialize()
        // The handler never saw the call in the first document: the next one answers it, once.
        #expect(try await keystone.call("photo.check", bytePattern(70_000), as: [Int].self, durable: true) == [70_000, 32])
        #expect(try await page.evaluate("sessionStorage.getItem('left') + ' ' + sessionStorage.getItem('heard')") == "yes 1")
        #expect(keystone.openTransferCount == 0)
        // An ordinary call the leaving document could not take fails, with what the engine said.
        _ = try await page.evaluate("sessionStorage.removeItem('left'); location.reload()")
        await page.page.until("sessionStorage.getItem('left') === null && window.fetch.toString().indexOf('left') !== -1")
        let refused = await #expect(throws: BridgeError.self) { try await keystone.call("photo.plain", bytePattern(10), as: Int.self) }
        #expect(refused?.code == .failed)
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func aDurableSwiftCallGoesOnlyToDocumentsOfTheOriginItFirstWentTo() async throws {
        let page = makePage()
        let seen = Locked<[String?]>([])
        registerSave(on: page, seen: seen, answer: nil)
        let call = keystone.start("drafts.save", "draft", as: String.self)
        async let saved = keystone.call("drafts.save", "draft", as: String.self, durable: true)
        await page.untilReceived { $0.contains { if case .durable = $0 { true } else { false } } }
        page.navigate()
        await #expect(throws: BridgeError.self) { try await call.value }  // an ordinary call fails with its page
        // A document of another origin gets nothing of it; its own calls go as ever.
        let other = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://other.example"))
        let theirs = Locked<[String?]>([])
        registerSave(on: other, seen: theirs, answer: "wrong origin")
        other.initialize()
        #expect(try await keystone.call("drafts.save", "theirs", as: String.self) == "wrong origin")
        #expect(theirs.withLock { $0 } == [nil])
        #expect(!other.receivedMessages.contains { if case .durable = $0 { true } else { false } })
        // The next document of its own origin gets it.
        let back = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        registerSave(on: back, seen: seen, answer: "saved")
        back.initialize()
        #expect(try await saved == "saved")
        // The ordinary call's, then the durable call's in both of its origin's documents, with one id.
        let ids = seen.withLock { $0 }
        #expect(ids.count == 3 && ids[0] == nil && ids[1] != nil && ids[1] == ids[2])
    }

    @Test func aDurableSwiftCallEndsWhenItsTaskIsCancelledAndIsAnOrdinaryOneOnAPageWithoutAnOrigin() async throws {
        let page = makePage()
        registerSave(on: page, seen: Locked([]), answer: nil)
        let waiting = Task { try await keystone.call("drafts.save", "draft", as: String.self, durable: true) }
        await page.untilReceived { $0.contains { if case .durable = $0 { true } else { false } } }
        page.navigate()
        waiting.cancel()
        let cancelled = await #expect(throws: BridgeError.self) { try await waiting.value }
        #expect(cancelled?.code == .cancelled)
        #expect(keystone.pendingCallCount == 0)
        page.initialize()
        #expect(page.receivedMessages.count { if case .durable = $0 { true } else { false } } == 1)  // not again
        // A page without an origin: the call is ordinary, and fails with its page.
        let opaque = makePage(CallerFrame(isMainFrame: true, origin: nil))
        registerSave(on: opaque, seen: Locked([]), answer: nil)
        let unbound = Task { try await keystone.call("drafts.save", "draft", as: String.self, durable: true) }
        await opaque.untilReceived { $0.contains { if case .durable = $0 { true } else { false } } }
        opaque.navigate()
        let gone = await #expect(throws: BridgeError.self) { try await unbound.value }
        #expect(gone?.code == .pageGone)
    }

    @Test func theLimitsRefuseCoded() async throws {
        let page = makePage()
        let long = String(repeating: "k", count: 129)
        let tooLong = await #expect(throws: BridgeError.self) { try await page.invoke("durable.increment", long, durable: long, as: Int.self) }
        #expect(tooLong?.code == .limitExceeded)
        for index in 1...4 { _ = send(page, key: "k\(index)", callback: "dscb\(index)") }
        let full = await #expect(throws: BridgeError.self) { try await page.invoke("durable.increment", "k5", durable: "k5", as: Int.self) }
        #expect(full?.code == .limitExceeded)
        let opaque = makePage(CallerFrame(isMainFrame: true, origin: nil))
        let noOrigin = await #expect(throws: BridgeError.self) { try await opaque.invoke("durable.increment", "x", durable: "x", as: Int.self) }
        #expect(noOrigin?.code == .notAllowed)
        for _ in 1...4 { counter.gateContinuation.yield() }
    }
}
