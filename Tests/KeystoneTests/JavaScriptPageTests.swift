// JavaScriptPageTests.swift — the page runtime that ships, run in JavaScriptCore against a hub:
// calls of every kind, Swift's calls of the page's handlers, and the runtime's own timers on the
// test's clock.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// What the runtime's page calls.
struct ScriptedInterface: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("add") { (pair: [Int]) in pair.reduce(0, +) }
        methods.async("echo") { (text: String) async in text }
        methods.multiResponse("count") { (to: Int, writer: ResponseWriter<Int>) in
            for n in 1...to { try await writer.write(n) }
        }
        methods.async("fail") { () async throws -> Int in throw BridgeError(code: .invalidArgument, message: "no") }
        methods.async("measure") { (report: Report) async in report.photo.bytes.map(Int.init) }
    }
}

/// A report with a photo's bytes inside it.
struct Report: Codable, Sendable {
    struct Photo: Codable, Sendable {
        var bytes: Data
        var caption: String
    }
    var photo: Photo
}

@Suite("The shipped runtime in JavaScriptCore", .timeLimit(.minutes(1)))
struct JavaScriptPageTests {
    let keystone: Keystone
    let page: JavaScriptPage

    init() throws {
        keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try keystone.register(ScriptedInterface(), namespace: "s")
        page = try JavaScriptPage(hub: keystone, clock: ManualClock())
    }

    @Test func theRuntimeAnnouncesItselfAndASynchronousCallIsAnswered() async throws {
        await page.settle()
        #expect(try await page.evaluate("typeof dsBridge + ' ' + (window._keystone && window._keystone.version)") == .string("object 1"))
        #expect(try await page.evaluate("dsBridge.call('s.add', [2, 3])") == .number(5))
    }

    @Test func asynchronousCallsStreamsAndRefusalsGoThroughTheRuntimesPromises() async throws {
        await page.settle()
        #expect(try await page.invoke("s.echo", .string("hi")) == .string("hi"))
        let refused = await #expect(throws: BridgeError.self) { try await page.invoke("s.fail") }
        #expect(refused?.code == .invalidArgument)
        try await page.evaluate(
            """
            window.counted = [];
            (async function () { for await (var n of dsBridge.stream('s.count', 3)) counted.push(n); window.streamDone = true; })();
            """)
        await page.until("window.streamDone === true")
        #expect(try await page.evaluate("counted") == .array([.number(1), .number(2), .number(3)]))
    }

    @Test func swiftCallsAHandlerThePageRegistered() async throws {
        try await page.evaluate("dsBridge.register('greet', function (name) { return 'hello ' + name; })")
        await page.settle()
        #expect(try await keystone.call("greet", "Ada", as: String.self) == "hello Ada")
    }

    @Test func bytesInsideADurableCallsValueArriveByteExact() async throws {
        await page.settle()
        let value: JSONValue = try await page.evaluate(
            """
            window.sent = dsBridge.invoke('s.measure', { photo: { bytes: new Uint8Array([0, 1, 254, 255]), caption: 'c' } }, { durable: 'report-1' });
            window.sent.then(function (value) { window.outcome = value; }, function (error) { window.outcome = 'code ' + error.code + ': ' + error.message; });
            0
            """)
        #expect(value == .number(0))
        await page.until("window.outcome !== undefined")
        #expect(try await page.evaluate("window.outcome") == .array([.number(0), .number(1), .number(254), .number(255)]))
    }

    @Test func aPageThatReloadsItselfRecoversItsDurableCallWithItsBytesInTheNextDocument() async throws {
        let reloading = """
            if (!sessionStorage.getItem('sent')) {
              sessionStorage.setItem('sent', location.href);
              var photo = new Uint8Array(5000);
              for (var i = 0; i < photo.length; i++) photo[i] = i % 251;
              dsBridge.invoke('gated.measure', { photo: { bytes: new Blob([photo]), caption: 'c' } }, { durable: 'report-1' });
              location.hash = '#sent';
              location.reload();
            } else {
              dsBridge.recovered().then(function (calls) {
                window.recovered = calls.map(function (call) { return [call.key, call.method, call.value.length, call.value[4999]]; });
              });
            }
            """
        // The work answers once the test opens its gate: after the page has reloaded.
        let (gate, open) = AsyncStream<Void>.makeStream()
        try keystone.register(namespace: "gated") { methods in
            methods.async("measure") { (report: Report) async -> [Int] in
                var opened = gate.makeAsyncIterator()
                _ = await opened.next()
                return report.photo.bytes.map(Int.init)
            }
        }
        let before = keystone.pageLoad
        let reloader = try JavaScriptPage(hub: keystone, scripts: [reloading])
        await reloader.until("location.hash === '#sent'")
        open.yield()
        await reloader.until("window.recovered !== undefined")
        let recovered = try await reloader.evaluate("window.recovered")
        #expect(recovered == [["report-1", "gated.measure", 5000, .number(Double(4999 % 251))]])
        #expect(try await reloader.evaluate("[sessionStorage.getItem('sent'), location.href]") == ["https://app.example/", "https://app.example/#sent"])
        #expect(keystone.pageLoad != before)
    }

    @Test func aDurableCallRefusedBeforeItRanLeavesItsKeyToTheCorrectedCall() async throws {
        await page.settle()
        try await page.evaluate("window.first = dsBridge.invoke('s.measure', { photo: { bytes: 12, caption: 'c' } }, { durable: 'fixed' }); 0")
        let refused = try await Self.outcome(of: "window.first", in: page)
        #expect(refused?.code == .invalidArgument)
        try await page.evaluate("window.second = dsBridge.invoke('s.measure', { photo: { bytes: new Uint8Array([5, 6]), caption: 'c' } }, { durable: 'fixed' }); 0")
        #expect(try await Self.outcome(of: "window.second", in: page) == nil)
        #expect(try await page.evaluate("window.__outcome.value") == .array([.number(5), .number(6)]))
    }

    /// The error the promise at `expression` was rejected with (`window.__outcome` holds it, or the
    /// value it was fulfilled with); `nil` when it was fulfilled.
    static func outcome(of expression: String, in page: JavaScriptPage) async throws -> BridgeError? {
        try await page.evaluate(
            "window.__outcome = undefined; \(expression).then(function (v) { window.__outcome = { value: v }; }, function (e) { window.__outcome = { code: e.code }; }); 0")
        await page.until("window.__outcome !== undefined")
        guard case .number(let code) = try await page.evaluate("window.__outcome.code === undefined ? null : window.__outcome.code") else { return nil }
        return BridgeError(code: BridgeError.Code(rawValue: Int(code)), message: "")
    }
}
