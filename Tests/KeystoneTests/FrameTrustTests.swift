// FrameTrustTests.swift — no frame acts for another, and results only reach the runtime's callbacks.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Frame trust", .timeLimit(.minutes(1)))
struct FrameTrustTests {
    let subframe = CallerFrame(isMainFrame: false, origin: "https://ads.example")

    @Test(arguments: ["eval", "Function", "dsBridge", "alert", "dscb", "dscbx", "dscb1_", "dscb1_ABC", "dscb1_a-b", "dscb1__a", "__proto__", "dscb1 "])
    func aCallbackNotNamedAsTheRuntimeNamesItsOwnIsRefusedAndNothingIsEvaluated(_ name: String) throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        let arguments = #"{"data":{"a":1,"b":2},"_dscbstub":\#(JSONText(quoting: name))}"#
        let answer = try #require(page.prompt("math.slowAdd", argumentText: arguments))
        #expect(answer.contains(#""code":11"#))
        #expect(keystone.handleMessage("_dsb.closePage", arguments: arguments).contains(#""code":11"#))
        #expect(page.receivedMessages.isEmpty)  // not even a release: `delete window[name]` is never written
    }

    @Test(arguments: ["dscb0", "dscb12", "dscb3_k9z0", "dscb41_abc123xyz"])
    func theRuntimesOwnCallbackNamesAreAccepted(_ name: String) async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        #expect(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"\#(name)"}"#) == #"{"code":0,"data":""}"#)
        await page.untilReceived { !$0.isEmpty }
        #expect(page.receivedMessages == [.result(callback: name, value: try JSONText(validating: Data("3".utf8)), complete: true)])
    }

    @Test func aSubframeCannotAnswerCancelCloseOrReannounceForTheMainFrame() async throws {
        let closed = Locked(0)
        let (keystone, page) = makeBridge(
            KeystoneComponents(
                policy: DefaultCallPolicy(allowsSubframes: true),
                closePage: { closed.withLock { $0 += 1 } }
            ))
        try keystone.register(Endless(events: AsyncStream<String>.makeStream().1), namespace: "endless")
        page.registerAsync("never") { _, _ in }
        page.initialize()
        let call = keystone.start("never", as: Int.self)
        #expect(page.prompt("endless.forever", argumentText: #"{"data":null,"_dscbstub":"dscb7"}"#) == #"{"code":0,"data":""}"#)
        let child = InMemoryPage(hub: keystone, runtime: .keystone, frame: subframe)
        keystone.attach(to: page)  // scripts go to the main frame, as a web view evaluates them

        for (method, data) in [
            ("_dsb.returnValue", #"{"id":1,"data":42}"#), ("_dsb.cancel", #"{"callback":"dscb7"}"#),
            ("_dsb.closePage", "null"), ("_dsb.dsinit", #"{"runtime":"keystone"}"#),
        ] {
            let answer = try #require(child.prompt(method, argumentText: #"{"data":\#(data)}"#))
            #expect(answer.contains(#""code":11"#), "\(method)")
        }
        #expect(keystone.pendingCallCount == 1)  // Swift's call still waits for the main frame
        #expect(keystone.runningCallCount == 1)  // the main frame's call still runs
        #expect(closed.withLock { $0 } == 0)
        page.register("ping") { _ in "pong" }
        #expect(try await keystone.call("ping", as: String.self) == "pong")
        #expect(page.receivedBatches.allSatisfy { $0.runtime == .dsbridge })  // still a plain page
        // A subframe may still ask what exists.
        #expect(try child.hasNativeMethod("endless.forever"))
        call.cancel()
    }

    @Test func callsTheEngineCannotAttributeAreRefusedUnlessThePolicyAllowsThem() async throws {
        let strict = Keystone()
        try strict.register(Calculator(), namespace: "math")
        let unattested = InMemoryPage(hub: strict, frame: .unattested)
        let refused = #expect(throws: BridgeError.self) { try unattested.call("math.add", [1, 2], as: Double.self) }
        #expect(refused?.code == .notAllowed)

        let lenient = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowsSubframes: true, allowsUnattested: true)))
        try lenient.register(Calculator(), namespace: "math")
        let page = InMemoryPage(hub: lenient, frame: .unattested)
        #expect(try page.call("math.add", [1, 2], as: Double.self) == 3)
        #expect(page.prompt("_dsb.dsinit", argumentText: #"{"data":null}"#)?.contains(#""code":11"#) == true)
        page.initialize()
        // Treated as an unknown frame: it cannot make asynchronous calls or act for the main frame.
        let async = await #expect(throws: BridgeError.self) { try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) }
        #expect(async?.code == .notAllowed)
    }
}
