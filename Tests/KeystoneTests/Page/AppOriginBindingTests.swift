// AppOriginBindingTests.swift — a hub whose host serves the app's own pages answers those pages
// and, unless its policy lists origins, no others; and what each origin may call, as a file.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("The bridge bound to the app's pages", .timeLimit(.minutes(1)))
struct AppOriginBindingTests {
    let app = CallerFrame(isMainFrame: true, origin: "app://localhost")
    let web = CallerFrame(isMainFrame: true, origin: "http://127.0.0.1:8000")

    func keystone(_ policy: DefaultCallPolicy = DefaultCallPolicy(), logging: KeystoneLogging = .silent) throws -> Keystone {
        let keystone = Keystone(
            components: KeystoneComponents(policy: policy, evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero), logging: logging))
        try keystone.register(Powers(), namespace: "profile")
        return keystone
    }

    func code(_ keystone: Keystone, _ frame: CallerFrame) -> Int? {
        do {
            _ = try InMemoryPage(hub: keystone, frame: frame).call("profile.use", as: String.self)
            return 0
        } catch {
            return BridgeError(error).code.rawValue
        }
    }

    @Test func aHostServingTheAppsPagesBindsTheBridgeToThemAlone() throws {
        let keystone = try keystone()
        #expect(code(keystone, web) == 0)
        #expect(keystone.runtimeOrigins == nil)
        _ = try HostSession(hub: keystone, options: HostOptions(appOrigin: AppOrigin(folder: URL(fileURLWithPath: "/"))))
        #expect(keystone.runtimeOrigins == ["app://localhost"])
        #expect(code(keystone, app) == 0)
        #expect(code(keystone, web) == 11)
        #expect(code(keystone, CallerFrame(isMainFrame: true, origin: nil)) == 11)
        #expect(keystone.refusal(of: web) != nil)
        #expect(keystone.refusal(of: app) == nil)
    }

    @Test func originsTheAppListsAreTheListAndTheAppIsWarnedWhenItsOwnIsLeftOut() throws {
        let records = Locked<[KeystoneLogging.Record]>([])
        let logging = KeystoneLogging.warnings { record in records.withLock { $0.append(record) } }
        let listed = try keystone(DefaultCallPolicy(allowedOrigins: ["app://localhost", "http://127.0.0.1:8000"]), logging: logging)
        listed.servesAppOrigin("app://localhost")
        #expect(code(listed, web) == 0)
        #expect(code(listed, app) == 0)
        #expect(records.withLock { $0 }.isEmpty)
        let forgot = try keystone(DefaultCallPolicy(allowedOrigins: ["http://127.0.0.1:8000"]), logging: logging)
        forgot.servesAppOrigin("app://localhost")
        #expect(code(forgot, app) == 11)
        let messages = records.withLock { $0 }.map { $0.message }
        #expect(messages.contains { $0.contains("app://localhost") && $0.contains("no bridge") })
    }

    @Test func aHostsAppOriginIsCheckedBeforeTheHubHearsOfIt() throws {
        let keystone = try keystone()
        #expect(throws: BridgeError.self) {
            try HostSession(hub: keystone, options: HostOptions(appOrigin: AppOrigin(folder: URL(fileURLWithPath: "/"), scheme: "https")))
        }
        #expect(keystone.runtimeOrigins == nil)
    }

    @Test func whatEachOriginMayCallIsDescribedFromTheInterfacesAndThePolicy() throws {
        var policy = DefaultCallPolicy(allowsSubframes: true, allowedOrigins: ["app://localhost", "https://partner.example"])
        policy.namespaceRules["profile"] = NamespaceRule(origins: ["app://localhost"], allowsSubframes: true, isPublic: true)
        policy.authorizer = { _, _ in true }
        let keystone = try keystone(policy)
        try keystone.register(namespace: "shop") { methods in
            methods.async("pay") { (amount: Int) async in amount }
            methods.durable("pay")
            methods.multiResponse("watch") { (_: JSONValue?, writer: ResponseWriter<Int>) async throws in try await writer.finish(with: 1) }
        }
        let text = keystone.accessDescription()
        #expect(
            text.contains(
                "\napp://localhost, main frame:\n  profile.later: async, any time\n  profile.use: sync, any time\n  shop.pay: async, durable, once authorised\n  shop.watch: multiResponse, once authorised\n"
            ))
        #expect(text.contains("\napp://localhost, subframes:\n  profile.later: async, any time\n  profile.use: sync, any time\n  shop.pay: async, durable, once authorised\n"))
        #expect(text.contains("\nhttps://partner.example, main frame:\n  shop.pay: async, durable, once authorised\n  shop.watch: multiResponse, once authorised\n"))
        #expect(!text.contains("any other origin"))
        #expect(!text.contains("_dsb."))

        let open = try self.keystone()
        #expect(open.accessDescription().contains("\nany other origin, main frame:\n  profile.later: async, any time\n  profile.use: sync, any time\n\nany other origin, subframes:\n  nothing\n"))
        open.servesAppOrigin("app://localhost")
        #expect(open.accessDescription().contains("\napp://localhost, main frame:\n  profile.later: async, any time\n  profile.use: sync, any time\n"))
        #expect(!open.accessDescription().contains("any other origin"))
    }
}
