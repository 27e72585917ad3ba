// WVJBStyleTests.swift — webViewJavascriptBridge style.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("WebViewJavascriptBridge style", .timeLimit(.minutes(1)))
struct WVJBStyleTests {
    @Test func handlersRegisterWithoutATypeOfTheirOwnAndAnswerCallHandler() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)  // the runtime with WVJB's page API
        try keystone.register(namespace: "") { handlers in
            handlers.async("testObjcCallback") { (_: JSONValue?) async in "Response from testObjcCallback" }
            handlers.sync("add") { (pair: [Int]) in pair.reduce(0, +) }
        }
        page.initialize()
        #expect(try await page.callHandler("testObjcCallback", ["foo": "bar"], as: String.self) == "Response from testObjcCallback")
        let before = page.receivedMessages.count
        #expect(try await page.callHandler("add", [2, 3], as: Int.self) == 5)  // synchronous methods answer too
        #expect(page.receivedMessages.count == before)  // in the call's own answer: no refusal, no second call
        let error = await #expect(throws: BridgeError.self) { try await page.callHandler("missing", as: Int.self) }
        #expect(error?.code == .notFound)
        #expect(throws: BridgeError.self) { try keystone.register(namespace: "a..b") { _ in } }
    }

    @Test func swiftCallsAWVJBHandlerWithOneDataValue() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.registerHandler("testJavascriptHandler") { data, respond in respond(["got": data]) }
        page.initialize()
        #expect(try await keystone.call("testJavascriptHandler", ["foo": "bar"], as: JSONValue.self) == ["got": ["foo": "bar"]])
        #expect(try await keystone.call("testJavascriptHandler", as: JSONValue.self) == ["got": .null])
        #expect(try await keystone.hasJavaScriptMethod("testJavascriptHandler"))
    }
}
