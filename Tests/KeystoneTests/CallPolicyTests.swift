// CallPolicyTests.swift — the default call policy: frames, origins and namespaces.
import Foundation
import Keystone
import KeystoneTesting
import Testing

/// Admits only callers from one origin.
struct OnlyOrigin: CallPolicy {
    let origin: String

    func admit(_ name: MethodName, from frame: CallerFrame, access: PageAccess) throws(BridgeError) {
        guard frame.origin == origin else { throw BridgeError(code: .notAllowed, message: "this origin may not call") }
    }
}

@Suite("Call policy", .timeLimit(.minutes(1)))
struct CallPolicyTests {
    let subframe = CallerFrame(isMainFrame: false, origin: "https://ads.example")

    @Test func subframesAreRefusedByDefaultTheProtocolsOwnCallsIncluded() throws {
        let keystone = Keystone()
        try keystone.register(Calculator(), namespace: "math")
        let page = InMemoryPage(hub: keystone, frame: subframe)
        let refused = #expect(throws: BridgeError.self) { try page.call("math.add", [1, 2], as: Double.self) }
        #expect(refused?.code == .notAllowed)
        #expect(throws: BridgeError.self) { try page.hasNativeMethod("math.add") }
    }

    @Test func allowedSubframesMakeSynchronousCallsButNotAsynchronousOnes() async throws {
        let (keystone, mainPage) = makeBridge(KeystoneComponents(policy: DefaultCallPolicy(allowsSubframes: true)))
        try keystone.register(Calculator(), namespace: "math")
        mainPage.initialize()
        let page = InMemoryPage(hub: keystone, frame: subframe)
        page.initialize()  // the subframe's runtime announces itself too; the hub heeds only the main frame's
        keystone.attach(to: mainPage)  // scripts go to the main frame, as a web view evaluates them
        #expect(try page.call("math.add", [1, 2], as: Double.self) == 3)
        let refused = await #expect(throws: BridgeError.self) { try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) }
        #expect(refused?.code == .notAllowed)
        // Nothing is released in the main frame, whose own callback may have the subframe's name.
        #expect(mainPage.receivedMessages.isEmpty)
    }

    @Test func aPolicyOfItsOwnDecidesForEveryCall() throws {
        let keystone = Keystone(components: KeystoneComponents(policy: OnlyOrigin(origin: "https://shop.example")))
        try keystone.register(Calculator(), namespace: "math")
        let shop = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://shop.example"))
        let other = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://other.example"))
        #expect(try shop.call("math.add", [1, 2], as: Double.self) == 3)
        #expect(throws: BridgeError.self) { try other.call("math.add", [1, 2], as: Double.self) }
    }
}

/// Namespaces for the policy tests: an app namespace that is public, and protected ones.
struct Powers: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("use") { "used" }
        methods.async("later") { () async in "later" }
    }
}
