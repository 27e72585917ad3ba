// CallPolicyTests.swift — which frames may call is decided once, in the hub, for every host.
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

@Suite("The app's policy", .timeLimit(.minutes(1)))
struct AppPolicyTests {
    let shop = CallerFrame(isMainFrame: true, origin: "https://shop.example")
    let pay = CallerFrame(isMainFrame: true, origin: "https://pay.example.com")
    let other = CallerFrame(isMainFrame: true, origin: "https://evil.example")

    func keystone(_ policy: DefaultCallPolicy) throws -> Keystone {
        let keystone = Keystone(components: KeystoneComponents(policy: policy, evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        for namespace in ["app", "payments", "payments.cards", "profile"] { try keystone.register(Powers(), namespace: namespace) }
        return keystone
    }

    func code(_ page: InMemoryPage, _ method: String) -> Int? {
        do {
            _ = try page.call(method, as: String.self)
            return 0
        } catch {
            return BridgeError(error).code.rawValue
        }
    }

    @Test func onlyAllowedOriginsGetTheBridgeAndHostsAreToldWhereToInjectIt() throws {
        let policy = DefaultCallPolicy(allowedOrigins: ["https://shop.example", "https://pay.example.com"])
        let keystone = try keystone(policy)
        #expect(code(InMemoryPage(hub: keystone, frame: shop), "profile.use") == 0)
        #expect(code(InMemoryPage(hub: keystone, frame: other), "profile.use") == 11)
        #expect(code(InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: nil)), "profile.use") == 11)
        #expect(code(InMemoryPage(hub: keystone, frame: other), "_dsb.hasNativeMethod") == 11)  // nothing at all
        #expect(keystone.components.policy.runtimeOrigins == ["https://shop.example", "https://pay.example.com"])
    }

    @Test func aNamespaceRuleLimitsItsOriginsAndFramesAndCoversTheNamespacesBelow() throws {
        var policy = DefaultCallPolicy(allowsSubframes: true)
        policy.namespaceRules["payments"] = NamespaceRule(origins: ["https://pay.example.com"])
        let keystone = try keystone(policy)
        #expect(code(InMemoryPage(hub: keystone, frame: pay), "payments.use") == 0)
        #expect(code(InMemoryPage(hub: keystone, frame: pay), "payments.cards.use") == 0)
        #expect(code(InMemoryPage(hub: keystone, frame: shop), "payments.use") == 11)
        #expect(code(InMemoryPage(hub: keystone, frame: shop), "payments.cards.use") == 11)
        #expect(code(InMemoryPage(hub: keystone, frame: shop), "profile.use") == 0)
        let paySubframe = CallerFrame(isMainFrame: false, origin: "https://pay.example.com")
        #expect(code(InMemoryPage(hub: keystone, frame: paySubframe), "payments.use") == 11)  // never for subframes
        #expect(code(InMemoryPage(hub: keystone, frame: paySubframe), "profile.use") == 0)
    }

    @Test func onlyPublicNamespacesAnswerUntilThePageIsAuthorisedForThatPageLoad() async throws {
        let policy = DefaultCallPolicy(
            namespaceRules: ["app": NamespaceRule(isPublic: true)],
            authorizer: { credentials, frame in credentials == ["signature": "valid"] && frame.origin == "https://shop.example" }
        )
        let keystone = try keystone(policy)
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        page.initialize()
        #expect(code(page, "app.use") == 0)
        #expect(code(page, "profile.use") == 11)
        #expect(try await page.callAsync("_dsb.authorize", ["signature": "forged"], as: Bool.self) == false)
        #expect(code(page, "profile.use") == 11)
        #expect(try await page.callAsync("_dsb.authorize", ["signature": "valid"], as: Bool.self) == true)
        #expect(code(page, "profile.use") == 0)
        #expect(try await page.callAsync("profile.later", as: String.self) == "later")
        keystone.pageDidUnload()  // the grant lasts for that page load only
        let next = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        next.initialize()
        #expect(code(next, "profile.use") == 11)
    }

    @Test func aStrictPolicyAnswersOnlyWhatThePageDeclaredAndTellsItWhatIsMissing() throws {
        let keystone = try keystone(DefaultCallPolicy(requiresDeclaration: true))
        let page = InMemoryPage(hub: keystone, frame: shop)
        #expect(code(page, "profile.use") == 11)
        let missing = try page.call("_dsb.declare", ["methods": ["profile.use", " app.use ", "camera.snap", "a..b"]], as: [String].self)
        #expect(missing == ["camera.snap", "a..b"])
        #expect(code(page, "profile.use") == 0)
        #expect(code(page, "app.use") == 0)
        #expect(code(page, "payments.use") == 11)
        // Declarations are bounded.
        let limited = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(requiresDeclaration: true), limits: BridgeLimits(declaredMethods: 2)))
        let greedy = InMemoryPage(hub: limited, frame: shop)
        #expect(throws: BridgeError.self) { try greedy.call("_dsb.declare", ["methods": ["a.b", "c.d", "e.f"]], as: [String].self) }
    }

    @Test func withoutAnAuthorizerThePageCannotAuthoriseItself() async throws {
        let keystone = try keystone(DefaultCallPolicy())
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        page.initialize()
        let error = await #expect(throws: BridgeError.self) { try await page.callAsync("_dsb.authorize", ["any": 1], as: Bool.self) }
        #expect(error?.code == .notAllowed)
    }
}
