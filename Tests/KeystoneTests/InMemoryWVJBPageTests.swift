// InMemoryWVJBPageTests.swift — a WebViewJavascriptBridge page on its own wire, in memory.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("A WebViewJavascriptBridge page on its own wire, in memory", .timeLimit(.minutes(1)))
struct InMemoryWVJBPageTests {
    @Test func callsGoBothWaysOnWVJBsWire() async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try keystone.register(namespace: "") { handlers in
            handlers.async("testObjcCallback") { (_: JSONValue?) async in "Response from testObjcCallback" }
            handlers.sync("add") { (pair: [Int]) in pair.reduce(0, +) }
        }
        let page = InMemoryWVJBPage(hub: keystone)
        page.registerHandler("testJavascriptHandler") { data, respond in respond(["got": data]) }
        let early = keystone.start("testJavascriptHandler", "before load", as: JSONValue.self)
        page.load()
        #expect(try await early.value == ["got": "before load"])
        #expect(try await page.callHandler("testObjcCallback", ["foo": "bar"], as: String.self) == "Response from testObjcCallback")
        #expect(try await page.callHandler("add", [2, 3], as: Int.self) == 5)
        let error = await #expect(throws: BridgeError.self) { try await page.callHandler("missing", as: Int.self) }
        #expect(error?.code == .notFound)
        #expect(page.receivedMessages.first == ["handlerName": "testJavascriptHandler", "data": "before load", "callbackId": "objc_cb_1"])
    }

    @Test func aDurableCallReachesAWVJBPageAsWVJBSendsACall() async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        let page = InMemoryWVJBPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        page.registerHandler("save") { data, respond in respond(["saved": data]) }
        page.load()
        #expect(try await keystone.call("save", "draft", as: JSONValue.self, durable: true) == ["saved": "draft"])
        // WVJB's script knows no durable id: it gets the call as WVJB's native side sends one.
        #expect(page.receivedMessages == [["handlerName": "save", "data": "draft", "callbackId": "objc_cb_1"]])
    }
}
