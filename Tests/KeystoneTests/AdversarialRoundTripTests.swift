// AdversarialRoundTripTests.swift — every adversarial string, both directions, arrives unchanged.
import Foundation
import Keystone
import KeystoneTesting
import Testing

struct Echo: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("echo") { (value: JSONValue) in value }
        methods.async("echoAsync") { (value: JSONValue) async in value }
        methods.multiResponse("echoTwice") { (value: String, writer: ResponseWriter<String>) in
            try await writer.write(value)
            try await writer.write(value)
        }
    }
}

@Suite("Adversarial values", .timeLimit(.minutes(1)))
struct AdversarialRoundTripTests {
    static let values = AdversarialStrings.table.map(\.value) + [String(repeating: "x\u{2028}😀\"\\", count: 50_000)]

    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Echo())
        page.register("echo") { args in args.first ?? nil }
        page.initialize()
    }

    @Test(arguments: values)
    func pageToSwiftAndBack(_ value: String) async throws {
        let object = JSONValue.object(["s": .string(value), "a": [.string(value)], value: 1])  // the value as a key too
        #expect(try page.call("echo", object, as: JSONValue.self) == object)
        #expect(try await page.callAsync("echoAsync", JSONValue.string(value), as: String.self) == value)
        var echoed: [String] = []
        for try await item in page.stream("echoTwice", value, of: String.self) { echoed.append(item) }
        #expect(echoed == [value, value])
    }

    @Test(arguments: values)
    func swiftToPageAndBack(_ value: String) async throws {
        #expect(try await keystone.call("echo", value, as: String.self) == value)
    }

    @Test func theRenderedScriptsForThoseValuesAreWhatTheWebViewWouldEvaluate() async throws {
        _ = try await page.callAsync("echoAsync", JSONValue.string("\u{2028}</script>"), as: String.self)
        let script = try #require(page.receivedBatches.last?.script)
        // U+2028 escaped, so the literal cannot end a line; `</script>` as it is, since a script
        // handed to the engine is never inside an HTML script element (JSON.stringify leaves it too).
        #expect(script == #"try{window["dscb0"]("\u2028</script>")}catch(e){}delete window["dscb0"];"#)
    }
}
