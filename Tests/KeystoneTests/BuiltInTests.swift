// BuiltInTests.swift — the `_dsb` methods dsbridge.js calls on its own.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
        #expect(page.prompt("_dsb.dsinit", argumentText: announcement) == #"{"code":0,"data":"keystone"}"#)
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
}
