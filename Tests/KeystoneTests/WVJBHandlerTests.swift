// WVJBHandlerTests.swift — handlers in WebViewJavascriptBridge's style.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Handlers in WebViewJavascriptBridge's style", .timeLimit(.minutes(1)))
struct WVJBHandlerTests {
    /// A handler that answers at once, later, never, or fails, as its data says.
    static func register(on keystone: Keystone, kept: Watched<[ResponseCallback<String>]>) throws {
        try keystone.register(namespace: "share") { methods in
            methods.handler("item") { (how: String, respond: ResponseCallback<String>?) in
                switch how {
                case "now": respond?("shared")
                case "later": if let respond { kept.withLock { $0.append(respond) } }
                case "fail": respond?.fail(BridgeError(code: 1002, message: "cancelled by the user"))
                default: break  // declines: the callback is let go
                }
            }
        }
    }

    @Test func itAnswersOnceNowOrLaterOrFails() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        let kept = Watched<[ResponseCallback<String>]>([])
        try Self.register(on: keystone, kept: kept)
        page.initialize()
        #expect(try await page.callAsync("share.item", "now", as: String.self) == "shared")
        async let later = page.callAsync("share.item", "later", as: String.self)
        await kept.until { !$0.isEmpty }  // the handler kept its callback
        let respond = try #require(kept.withLock { $0.first })
        respond("shared later")
        respond("ignored")  // only the first answer counts
        #expect(try await later == "shared later")
        let error = await #expect(throws: BridgeError.self) { try await page.callAsync("share.item", "fail", as: String.self) }
        #expect(error?.code.rawValue == 1002)
        #expect(keystone.interfaceSchema.methods.first?.kind == .multiResponse)
    }

    @Test func aHandlerThatDeclinesCompletesTheCallWithNoValue() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        try Self.register(on: keystone, kept: Watched([]))
        page.initialize()
        // Keystone's `invoke` resolves undefined; a dsbridge.js or WVJB callback never runs.
        #expect(try await page.invoke("share.item", "decline", as: String?.self) == nil)
        #expect(page.receivedMessages.last.map { if case .completion = $0 { true } else { false } } == true)
        #expect(page.liveCallbacks.isEmpty)
        await untilNoCallRuns(keystone)
    }

    @Test func withoutACallbackTheHandlerGetsNone() async throws {
        let (keystone, page) = makeBridge()
        let calls = Locked<[Bool]>([])
        try keystone.register(namespace: "") { methods in
            methods.handler("track") { (_: JSONValue?, respond: ResponseCallback<Bool>?) in
                calls.withLock { $0.append(respond != nil) }
                respond?(true)
            }
        }
        page.initialize()
        try page.post("track")
        #expect(try await page.callAsync("track", as: Bool.self))
        await untilNoCallRuns(keystone)
        #expect(calls.withLock { $0 } == [false, true])
    }

    @Test func aCallbackKeptOpenEndsWithThePage() async throws {
        let (keystone, page) = makeBridge()
        let kept = Watched<[ResponseCallback<String>]>([])
        try Self.register(on: keystone, kept: kept)
        page.initialize()
        let stream = page.stream("share.item", "later", of: String.self)
        await kept.until { !$0.isEmpty }  // the handler kept its callback
        #expect(keystone.runningCallCount == 1)
        page.navigate()
        await untilNoCallRuns(keystone)
        kept.withLock { $0.first?("too late") }  // after the page went: goes nowhere
        _ = stream
    }
}
