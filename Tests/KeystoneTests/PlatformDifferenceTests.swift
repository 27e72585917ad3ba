// PlatformDifferenceTests.swift — what pages written for another DSBridge platform rely on: calls
// without a callback, callbacks a page cannot lose silently, and what a method of no result answers.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Methods whose work the test can watch: each records what it was given and when it ran.
final class Tracker: BridgeInterface, Sendable {
    let seen = Locked<[String]>([])
    let (ran, ranContinuation) = AsyncStream<String>.makeStream()

    func exposeMethods(to methods: inout MethodList) {
        methods.async("track") { (event: String) async -> String in
            self.record(event)
            return "tracked \(event)"
        }
        methods.async("fail") { (event: String) async throws -> String in
            self.record(event)
            throw BridgeError(code: 1001, message: "no tracking today")
        }
        methods.multiResponse("feed") { (count: Int, writer: ResponseWriter<Int>) in
            for index in 0..<count { try await writer.write(index) }
            self.record("feed \(count)")
        }
        methods.async("never") { (_: JSONValue?) async throws -> Int in
            try await Task.sleep(for: .seconds(3600))  // cancelled by the test, never waited out
            return 0
        }
        methods.sync("reset") { () in self.record("reset") }
        methods.async("save") { (value: Int) async in self.record("save \(value)") }
    }

    private func record(_ event: String) {
        seen.withLock { $0.append(event) }
        ranContinuation.yield(event)
    }
}

/// Waits until `keystone` runs none of the page's calls: a call's task ends after its last message
/// was sent (or dropped), so nothing of it can come later. Yields, never sleeps.
func untilNoCallRuns(_ keystone: Keystone) async {
    while keystone.runningCallCount > 0 { await Task.yield() }
}

@Suite("Calls without a callback, as DSBridge-Android runs them", .timeLimit(.minutes(1)))
struct CallWithoutCallbackTests {
    @Test func anAsyncMethodRunsAndItsResultGoesNowhere() async throws {
        let (keystone, page) = makeBridge()
        let tracker = Tracker()
        try keystone.register(tracker, namespace: "log")
        page.initialize()
        try page.post("log.track", "opened")
        var ran = tracker.ran.makeAsyncIterator()
        #expect(await ran.next() == "opened")
        await untilNoCallRuns(keystone)
        #expect(page.receivedMessages.isEmpty)
        #expect(page.liveCallbacks.isEmpty)
        // A dsbridge.js page reads "" from the call's answer, as from DSBridge's.
        #expect(try page.call("log.track", "closed", as: String.self) == "")
        #expect(await ran.next() == "closed")
    }

    @Test func aFailureIsLoggedNeverSentAndAMultiResponseMethodRunsToItsEnd() async throws {
        let warnings = Locked<[String]>([])
        let (keystone, page) = makeBridge(KeystoneComponents(logging: .warnings { record in warnings.withLock { $0.append(record.message) } }))
        let tracker = Tracker()
        try keystone.register(tracker, namespace: "log")
        page.initialize()
        try page.post("log.fail", "opened")
        try page.post("log.feed", 3)
        await untilNoCallRuns(keystone)
        #expect(Set(tracker.seen.withLock { $0 }) == ["opened", "feed 3"])
        #expect(page.receivedMessages.isEmpty)
        #expect(warnings.withLock { $0 } == [#""log.fail", called without a callback, failed: BridgeError(1001 code 1001): no tracking today"#])
    }

    @Test func aBadArgumentOrAnUnknownMethodIsStillRefusedWhileThePageWaits() throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Tracker(), namespace: "log")
        page.initialize()
        let refused = #expect(throws: BridgeError.self) { try page.post("log.track", 7) }
        #expect(refused?.code == .invalidArgument)
        #expect(throws: BridgeError.self) { try page.post("log.missing") }
        #expect(keystone.runningCallCount == 0)
    }

    @Test func theyCountTowardTheRunningLimitAndEndWithThePage() async throws {
        var limits = BridgeLimits()
        limits.runningCalls = 1
        let (keystone, page) = makeBridge(KeystoneComponents(limits: limits))
        try keystone.register(Tracker(), namespace: "log")
        page.initialize()
        try page.post("log.never")
        #expect(keystone.runningCallCount == 1)
        #expect(throws: BridgeError.self) { try page.post("log.never") }
        page.navigate()  // the page load ends: its calls are cancelled
        await untilNoCallRuns(keystone)
        #expect(keystone.runningCallCount == 0)
    }

    @Test func aWVJBPageCallingWithoutAResponseCallbackRunsTheMethodToo() async throws {
        let warnings = Locked<[String]>([])
        let components = KeystoneComponents(
            evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero), logging: .warnings { record in warnings.withLock { $0.append(record.message) } }
        )
        let keystone = Keystone(components: components)
        let tracker = Tracker()
        try keystone.register(tracker, namespace: "log")
        let page = InMemoryWVJBPage(hub: keystone)
        page.load()
        try page.post("log.track", "opened")
        try page.post("log.fail", "closed")
        await untilNoCallRuns(keystone)
        #expect(Set(tracker.seen.withLock { $0 }) == ["opened", "closed"])
        #expect(page.receivedMessages.isEmpty)  // no response, no error: WVJB's page has no callback to call
        #expect(warnings.withLock { $0 }.contains { $0.hasPrefix(#""log.fail", called without a callback, failed"#) })
    }
}

@Suite("Callback names a page reuses", .timeLimit(.minutes(1)))
struct ReusedCallbackTests {
    @Test func aCallbackNameStillOpenIsLoggedNamingBothMethods() async throws {
        let warnings = Locked<[String]>([])
        let (keystone, page) = makeBridge(KeystoneComponents(logging: .warnings { record in warnings.withLock { $0.append(record.message) } }))
        let tracker = Tracker()
        try keystone.register(tracker, namespace: "log")
        page.initialize()
        // A page whose script resets `window.dscb`: two calls under one name, the first still running.
        _ = page.prompt("log.never", argumentText: #"{"data":null,"_dscbstub":"dscb0"}"#)
        _ = page.prompt("log.track", argumentText: #"{"data":"second","_dscbstub":"dscb0"}"#)
        #expect(
            warnings.withLock { $0 } == [
                #"the page named its call of "log.track" with the callback of a call of "log.never" still running: the earlier call's results will reach the later call's callback (the page's script resets or shares window.dscb)"#
            ])
        await untilNoCallRunsBut(1, keystone)
        // The call still running under the name is the one `_dsb.cancel` reaches.
        #expect(page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb0"}}"#) == #"{"code":0,"data":true}"#)
        await untilNoCallRuns(keystone)
        // A name used again after its call ended is no mistake.
        _ = page.prompt("log.track", argumentText: #"{"data":"third","_dscbstub":"dscb0"}"#)
        await untilNoCallRuns(keystone)
        #expect(warnings.withLock { $0 }.count == 1)
    }

    @Test func inMemoryPagesNameEachCallAfresh() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Tracker(), namespace: "log")
        page.initialize()
        async let first = page.callAsync("log.track", "one", as: String.self)
        async let second = page.callAsync("log.track", "two", as: String.self)
        #expect(try await [first, second] == ["tracked one", "tracked two"])
    }
}

/// Waits until `keystone` runs no more than `count` of the page's calls.
func untilNoCallRunsBut(_ count: Int, _ keystone: Keystone) async {
    while keystone.runningCallCount > count { await Task.yield() }
}

@Suite("What a method that returns nothing answers", .timeLimit(.minutes(1)))
struct NoResultTests {
    @Test(arguments: [PageRuntime.dsbridge, .keystone])
    func dsbridgePagesReadTheEmptyStringAndInvokeReadsUndefined(_ runtime: PageRuntime) async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: runtime)
        try keystone.register(Tracker(), namespace: "log")
        page.initialize()
        // dsbridge.js's API: "" for both kinds, as DSBridge answers.
        #expect(try page.call("log.reset", as: String.self) == "")
        #expect(try await page.callAsync("log.save", 1, as: String.self) == "")
        // Keystone's `invoke`: undefined, read as nil, for both kinds.
        #expect(try await page.invoke("log.reset", as: String?.self) == nil)
        #expect(try await page.invoke("log.save", 2, as: String?.self) == nil)
        #expect(try await page.invoke("log.track", "x", as: String?.self) == "tracked x")
        // WVJB's API on Keystone's runtime: "".
        #expect(try await page.callHandler("log.save", 3, as: String.self) == "")
        #expect(try await page.callHandler("log.reset", as: String.self) == "")
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func theMessagesCarryTheMarkAndRenderForEachRuntime() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Tracker(), namespace: "log")
        page.initialize()
        _ = try await page.callAsync("log.save", 1, as: String.self)
        #expect(page.receivedMessages == [.noResult(callback: "dscb0")])
        #expect(ScriptRenderer.render(page.receivedMessages) == #"try{window["dscb0"]("")}catch(e){}delete window["dscb0"];"#)
        #expect(
            ScriptRenderer.render(page.receivedMessages, for: .keystone)
                == #"try{window._keystone.deliver([{"callback":"dscb0","value":"","void":true,"complete":true}])}catch(e){}"#)
    }

    @Test func aWVJBPageOnItsOwnWireReadsTheEmptyString() async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try keystone.register(Tracker(), namespace: "log")
        let page = InMemoryWVJBPage(hub: keystone)
        page.load()
        #expect(try await page.callHandler("log.save", 1, as: String.self) == "")
        #expect(try await page.callHandler("log.reset", as: String.self) == "")
    }
}
