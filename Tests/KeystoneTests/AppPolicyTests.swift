// AppPolicyTests.swift — a call policy of the app's own, and what it decides.
import Foundation
import Keystone
import KeystoneTesting
import Testing

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
        let long = String(repeating: "a", count: 257) + ".b"
        let tooLong = #expect(throws: BridgeError.self) { try greedy.call("_dsb.declare", ["methods": [long]], as: [String].self) }
        #expect(tooLong == BridgeError(code: .limitExceeded, message: "a declared name is longer than BridgeLimits.methodNameBytes (256 bytes)"))
    }

    @Test func withoutAnAuthorizerThePageCannotAuthoriseItself() async throws {
        let keystone = try keystone(DefaultCallPolicy())
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        page.initialize()
        let error = await #expect(throws: BridgeError.self) { try await page.callAsync("_dsb.authorize", ["any": 1], as: Bool.self) }
        #expect(error?.code == .notAllowed)
    }
}
