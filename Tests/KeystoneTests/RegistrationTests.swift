// RegistrationTests.swift — namespaces of any depth, replacement, removal, unusable names.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("Registration")
struct RegistrationTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() {
        (keystone, page) = makeBridge()
    }

    @Test(arguments: ["", "a", "a.b", "a.b.c", "a.b.c.d.e"])
    func aNamespaceOfAnyDepthIsReachedThroughItsLastDot(_ namespace: String) throws {
        try keystone.register(Named(name: namespace), namespace: namespace)
        let method = namespace.isEmpty ? "who" : "\(namespace).who"
        #expect(try page.call(method, as: String.self) == namespace)
    }

    @Test func namespacesThatShareAPrefixStayApart() throws {
        try keystone.register(Named(name: "a"), namespace: "a")
        try keystone.register(Named(name: "a.b"), namespace: "a.b")
        try keystone.register(Named(name: "a.b.c"), namespace: "a.b.c")
        #expect(try page.call("a.who", as: String.self) == "a")
        #expect(try page.call("a.b.who", as: String.self) == "a.b")
        #expect(try page.call("a.b.c.who", as: String.self) == "a.b.c")
    }

    @Test func registeringATakenNamespaceReplacesItsInterface() throws {
        try keystone.register(Named(name: "first"), namespace: "n")
        try keystone.register(Named(name: "second"), namespace: "n")
        #expect(try page.call("n.who", as: String.self) == "second")
    }

    @Test func removingANamespaceMakesItsMethodsUnknown() throws {
        try keystone.register(Named(name: "x"), namespace: "n")
        #expect(keystone.removeInterface(namespace: "n"))
        #expect(!keystone.removeInterface(namespace: "n"))
        let error = #expect(throws: BridgeError.self) { try page.call("n.who", as: String.self) }
        #expect(error?.code == .notFound)
    }

    @Test(arguments: ["_dsb", ".a", "a.", "a..b", " a", "a. b"])
    func unusableNamespacesAreRefused(_ namespace: String) {
        let error = #expect(throws: BridgeError.self) { try keystone.register(Named(name: "x"), namespace: namespace) }
        #expect(error?.code == .invalidRegistration)
    }

    @Test func unusableMethodNamesAreRefusedByName() {
        struct Bad: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.sync("fine") { 1 }
                methods.sync("has.dot") { 1 }
            }
        }
        let error = #expect(throws: BridgeError.self) { try keystone.register(Bad(), namespace: "bad") }
        #expect(error?.code == .invalidRegistration)
        #expect(error?.message.contains("\"has.dot\"") == true)
    }

    @Test func onlyAnAsynchronousMethodListedBeforeCanBeMadeDurable() throws {
        let error = #expect(throws: BridgeError.self) {
            try keystone.register(namespace: "shop") { methods in
                methods.durable("early")
                methods.async("early") { (_: Int) async in 1 }
                methods.sync("now") { (_: Int) in 1 }
                methods.durable("now")
                methods.multiResponse("many") { (_: Int, _: ResponseWriter<Int>) in }
                methods.durable("many")
                methods.async("pay") { (_: Int) async in 1 }
                methods.durable("pay")
                methods.describe("pay", "Pays.")
            }
        }
        #expect(error?.code == .invalidRegistration)
        #expect(error?.message.hasSuffix(#": "early", "now", "many""#) == true)
        var methods = MethodList()
        methods.async("pay") { (_: Int) async in 1 }
        methods.async("quote") { (_: Int) async in 1 }
        methods.durable("pay")
        methods.describe("pay", "Pays.")  // describing keeps it durable
        let registry = DefaultInterfaceRegistry()
        try registry.register(methods, namespace: "shop")
        #expect(registry.interfaces["shop"]?["pay"]?.isDurable == true)
        #expect(registry.interfaces["shop"]?["quote"]?.isDurable == false)
    }

    @Test func aMethodThatIsNotListedIsNotReachable() throws {
        struct Partial: BridgeInterface {
            func listed() -> Int { 1 }
            func hidden() -> Int { 2 }
            func exposeMethods(to methods: inout MethodList) { methods.sync("listed", listed) }
        }
        try keystone.register(Partial(), namespace: "p")
        #expect(try page.call("p.listed", as: Int.self) == 1)
        #expect(throws: BridgeError.self) { try page.call("p.hidden", as: Int.self) }
    }
}
