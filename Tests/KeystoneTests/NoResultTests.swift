// NoResultTests.swift — what a method that returns nothing answers.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
