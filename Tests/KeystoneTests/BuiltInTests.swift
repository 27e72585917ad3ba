// BuiltInTests.swift — the `_dsb` methods dsbridge.js calls on its own.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@testable import Keystone

@Suite("Built-in _dsb methods")
struct BuiltInTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(Counter(), namespace: "a.b.c")
    }

    @Test(arguments: [
        ("math.add", "all", true), ("math.add", "syn", true), ("math.add", "asyn", false),
        ("math.slowAdd", "all", true), ("math.slowAdd", "syn", false), ("math.slowAdd", "asyn", true),
        ("a.b.c.countdown", "asyn", true), ("a.b.c.countdown", "syn", false),
        ("math.missing", "all", false), ("nowhere.add", "all", false), ("math.add", "other", false),
        ("_dsb.dsinit", "syn", true), ("_dsb.nothing", "all", false), ("a..b", "all", false),
        ("_dsb.authorize", "asyn", true), ("_dsb.authorize", "syn", false),
    ])
    func hasNativeMethodAnswersAgainstTheRealMethodKinds(_ name: String, _ type: String, _ expected: Bool) throws {
        let query = #"{"data":{"name":"\#(name)","type":"\#(type)"}}"#
        #expect(page.prompt("_dsb.hasNativeMethod", argumentText: query) == #"{"code":0,"data":\#(expected)}"#)
        if let kind = MethodKindFilter(rawValue: type) {
            #expect(try page.hasNativeMethod(name, kind: kind) == expected)
        }
    }

    @Test func hasNativeMethodWithoutATypeMeansAll() {
        #expect(page.prompt("_dsb.hasNativeMethod", argumentText: #"{"data":{"name":"math.add"}}"#) == #"{"code":0,"data":true}"#)
    }

    @Test func closePageRunsTheAppsDismissalHandler() {
        let closed = Locked(0)
        let (_, page) = makeBridge(KeystoneComponents(closePage: { closed.withLock { $0 += 1 } }))
        page.close()
        page.close()
        #expect(closed.withLock { $0 } == 2)
        self.page.close()  // a Keystone without the hook accepts the call and does nothing
        #expect(closed.withLock { $0 } == 2)
    }

    @Test func disableJavascriptDialogBlockIsAcceptedAndIgnored() {
        let answer = page.prompt("_dsb.disableJavascriptDialogBlock", argumentText: #"{"data":{"disable":true}}"#)
        #expect(answer == #"{"code":0,"data":""}"#)
    }

    @Test func dsinitIsAnswered() {
        #expect(page.prompt("_dsb.dsinit", argumentText: #"{"data":null}"#) == #"{"code":0,"data":""}"#)
    }

    /// Keystone's runtime hears that results will reach `_keystone.deliver`, and so opens no global
    /// function per callback; dsbridge.js, which announces nothing, is answered as before.
    @Test func dsinitFromKeystonesRuntimeIsAnsweredKeystone() {
        let announcement = #"{"data":{"runtime":"keystone","version":1}}"#
        #expect(page.prompt("_dsb.dsinit", argumentText: announcement) == #"{"code":0,"data":{"runtime":"keystone","bytes":false}}"#)
        // A dsbridge.js loaded beside it says nothing; Keystone's runtime has already spoken.
        #expect(page.prompt("_dsb.dsinit", argumentText: #"{"data":null}"#) == #"{"code":0,"data":""}"#)
    }

    @Test func builtInsAreSynchronousOnly() {
        let answer = page.prompt("_dsb.dsinit", argumentText: #"{"data":null,"_dscbstub":"dscb0"}"#)
        #expect(answer?.contains(#""code":3"#) == true)
    }

    @Test func aMalformedBuiltInCallIsACodedError() {
        let answer = page.prompt("_dsb.hasNativeMethod", argumentText: #"{"data":{"type":"all"}}"#)
        #expect(answer?.contains(#""code":2"#) == true)
        #expect(page.prompt("_dsb.returnValue", argumentText: "nope")?.contains(#""code":4"#) == true)
    }

    @Test func theBuiltInNamespaceCannotBeTaken() {
        #expect(throws: BridgeError.self) { try keystone.register(Calculator(), namespace: "_dsb") }
    }

    /// The protocol's methods are an interface in a registry of their own, which takes nothing
    /// else and lists exactly what dsbridge.js and Keystone's runtime call.
    @Test func theBuiltInsAreAFixedInterfaceOfTheirOwn() throws {
        let registry = keystone.inbound.builtIns
        let names = try #require(registry.interfaces["_dsb"]).keys.sorted()
        #expect(
            names == [
                "acknowledge", "authorize", "cancel", "closePage", "declare", "disableJavascriptDialogBlock", "dsinit", "hasNativeMethod", "recovered",
                "returnValue",
            ])
        #expect(BuiltInInterface.mainFrameOnly.isSubset(of: Set(names)))
        #expect(throws: BridgeError.self) { try registry.register(MethodList(), namespace: "_dsb") }
        #expect(!registry.removeInterface(namespace: "_dsb"))
        guard case .noInterface = registry.lookup(MethodName(namespace: "math", name: "add")) else {
            Issue.record("the built-ins' registry found an app's method")
            return
        }
        #expect(keystone.interfaceSchema.methods.allSatisfy { !$0.name.hasPrefix("_dsb.") })
    }

    /// An app's dispatcher and middleware never see the protocol's own calls: the protocol
    /// answers as the protocol says whatever an app replaces.
    @Test func anAppsDispatcherAndMiddlewareNeverSeeTheBuiltIns() throws {
        struct RefuseEverything: InvocationDispatcher, CallMiddleware {
            func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome {
                throw BridgeError(code: .notAllowed, message: "refused by the app's dispatcher")
            }
            func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
                throw BridgeError(code: .notAllowed, message: "refused by the app's middleware")
            }
        }
        let (_, page) = makeBridge(KeystoneComponents(dispatcher: RefuseEverything(), middleware: [RefuseEverything()]))
        #expect(page.prompt("_dsb.dsinit", argumentText: #"{"data":null}"#) == #"{"code":0,"data":""}"#)
        #expect(page.prompt("_dsb.hasNativeMethod", argumentText: #"{"data":{"name":"_dsb.cancel"}}"#) == #"{"code":0,"data":true}"#)
        #expect(page.prompt("math.add", argumentText: #"{"data":[1,2]}"#)?.contains(#""code":11"#) == true)
    }
}
