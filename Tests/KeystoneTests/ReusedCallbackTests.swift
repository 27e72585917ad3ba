// ReusedCallbackTests.swift — callback names a page reuses.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
        // The later call ends; the earlier one never does.
        let tasks = keystone.runningTasks
        if tasks.count > 1 { await tasks.last?.value }
        #expect(keystone.runningCallCount == 1)
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
