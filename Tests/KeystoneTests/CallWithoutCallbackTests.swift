// CallWithoutCallbackTests.swift — calls without a callback, as DSBridge-Android runs them.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
