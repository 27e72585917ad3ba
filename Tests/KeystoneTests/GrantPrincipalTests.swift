// GrantPrincipalTests.swift — what a page load establishes belongs to the origin that established it.
import Keystone
import KeystoneTesting
import Testing

@Suite("Grants belong to the verified principal", .timeLimit(.minutes(1)))
struct GrantPrincipalTests {
    let shop = CallerFrame(isMainFrame: true, origin: "https://shop.example")

    func keystone(_ policy: DefaultCallPolicy) throws -> Keystone {
        let keystone = Keystone(components: KeystoneComponents(policy: policy, evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try keystone.register(Powers(), namespace: "profile")
        try keystone.register(Powers(), namespace: "app")
        return keystone
    }

    func code(_ frame: CallerFrame, _ keystone: Keystone, _ method: String) -> Int {
        do {
            _ = try InMemoryPage(hub: keystone, frame: frame).call(method, as: String.self)
            return 0
        } catch {
            return BridgeError(error).code.rawValue
        }
    }

    @Test func theMainFramesAuthorisationReachesItsOwnOriginsSubframesAndNoOtherOrigins() async throws {
        let keystone = try keystone(
            DefaultCallPolicy(
                allowsSubframes: true,
                namespaceRules: ["app": NamespaceRule(allowsSubframes: true, isPublic: true), "profile": NamespaceRule(allowsSubframes: true)],
                authorizer: { credentials, _ in credentials == ["signature": "valid"] }
            )
        )
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: shop)
        page.initialize()
        #expect(try await page.callAsync("_dsb.authorize", ["signature": "valid"], as: Bool.self) == true)
        #expect(code(shop, keystone, "profile.use") == 0)
        #expect(code(CallerFrame(isMainFrame: false, origin: "https://shop.example"), keystone, "profile.use") == 0)
        #expect(code(CallerFrame(isMainFrame: false, origin: "https://ads.example"), keystone, "profile.use") == 11)
        #expect(code(CallerFrame(isMainFrame: false, origin: nil), keystone, "profile.use") == 11)
        #expect(code(CallerFrame(isMainFrame: false, origin: "https://ads.example"), keystone, "app.use") == 0)  // public stays public
    }

    @Test func theMainFramesDeclarationsDoNotOpenMethodsToAnotherOriginsSubframe() throws {
        let keystone = try keystone(
            DefaultCallPolicy(allowsSubframes: true, namespaceRules: ["profile": NamespaceRule(allowsSubframes: true)], requiresDeclaration: true)
        )
        _ = try InMemoryPage(hub: keystone, frame: shop).call("_dsb.declare", ["methods": ["profile.use"]], as: [String].self)
        #expect(code(shop, keystone, "profile.use") == 0)
        #expect(code(CallerFrame(isMainFrame: false, origin: "https://shop.example"), keystone, "profile.use") == 0)
        #expect(code(CallerFrame(isMainFrame: false, origin: "https://ads.example"), keystone, "profile.use") == 11)
    }

    @Test func aSenderThePolicyRefusesIsRefusedWholeWithOneShortAnswer() throws {
        let keystone = try keystone(DefaultCallPolicy(allowedOrigins: ["https://shop.example"]))
        #expect(keystone.refusal(of: shop) == nil)
        let refusals = [CallerFrame.unattested, CallerFrame(isMainFrame: true, origin: "https://evil.example"), CallerFrame(isMainFrame: false, origin: "https://shop.example")]
        for frame in refusals {
            let answer = try #require(keystone.refusal(of: frame))
            #expect(answer.contains(#""code":11"#))
            #expect(answer.utf8.count < 160)
        }
    }
}
