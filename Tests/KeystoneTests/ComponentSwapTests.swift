// ComponentSwapTests.swift — swapping components.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// A serializer that encodes dates as their ISO 8601 text and counts what it does.
struct CountingISOSerializer: JSONSerializer {
    let counts = Locked((decodes: 0, encodes: 0))
    let base: FoundationJSONSerializer = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return FoundationJSONSerializer(decoder: decoder, encoder: encoder)
    }()

    func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        counts.withLock { $0.decodes += 1 }
        return try base.decode(type, from: json)
    }

    func encode<Value: Encodable>(_ value: Value) throws -> Data {
        counts.withLock { $0.encodes += 1 }
        return try base.encode(value)
    }
}

/// A resolver that also accepts `ns/method`.
struct SlashResolver: MethodResolver {
    func resolve(_ method: String) throws(BridgeError) -> MethodName {
        try DefaultMethodResolver().resolve(method.replacingOccurrences(of: "/", with: "."))
    }
}

/// A registry of its own, not built on the default: namespaces and method names are matched
/// without regard to case, and every lookup is recorded.
final class CaseInsensitiveRegistry: InterfaceRegistry {
    let byNamespace = Locked<[String: [String: BridgeMethod]]>([:])
    let lookups = Locked<[String]>([])

    func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try methods.checkRegistration(namespace: namespace)
        let byName = Dictionary(methods.methods.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        byNamespace.withLock { $0[namespace.lowercased()] = byName }
    }
    func removeInterface(namespace: String) -> Bool {
        byNamespace.withLock { $0.removeValue(forKey: namespace.lowercased()) != nil }
    }
    var interfaces: [String: [String: BridgeMethod]] { byNamespace.withLock { $0 } }
    func lookup(_ name: MethodName) -> MethodLookup {
        lookups.withLock { $0.append(name.description) }
        return byNamespace.withLock { interfaces in
            guard let methods = interfaces[name.namespace.lowercased()] else { return .noInterface }
            return methods[name.name.lowercased()].map { .found($0) } ?? .noMethod
        }
    }
}

/// An evaluator that records every message and delivers each one at once.
final class RecordingEvaluator: JavaScriptEvaluator {
    let sent = Locked<[PageMessage]>([])
    let target = Locked<InMemoryPage?>(nil)

    func attach(to target: any EvaluationTarget) { self.target.withLock { $0 = target as? InMemoryPage } }
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?) {
        sent.withLock { $0.append(contentsOf: messages) }
        target.withLock { $0 }?.evaluate(ScriptBatch(messages: messages, runtime: runtime, pageLoad: pageLoad, frame: frame))
    }
    func discardQueued() {}
}

/// A dispatcher of its own: answers every synchronous call with the method's name, without running
/// anything, and returns every asynchronous call's work as one that answers the same.
struct NameDispatcher: InvocationDispatcher {
    func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome {
        let name = Data(JSONText(quoting: call.name.description).bytes)
        guard call.isAsynchronous else { return .answered(name) }
        return .work(.single { name })
    }
}

/// A dispatcher that answers every call at once, however the page called it.
struct AtOnceDispatcher: InvocationDispatcher {
    func dispatch(_ call: InboundCall, over registry: any InterfaceRegistry, in environment: DispatchEnvironment) throws -> DispatchOutcome {
        .answered(Data(JSONText(quoting: call.name.description).bytes))
    }
}

/// A hub that forwards to a Keystone and counts prompts: a host takes any hub.
final class CountingHub: BridgeHub {
    let inner: Keystone
    let prompts = Locked(0)

    init(_ inner: Keystone) { self.inner = inner }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        prompts.withLock { $0 += 1 }
        return inner.handlePrompt(text, defaultText: defaultText, frame: frame)
    }
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        prompts.withLock { $0 += 1 }
        return inner.handleMessage(method, arguments: arguments, frame: frame)
    }
    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }
}

struct Clock: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("pageLoad") { Date(timeIntervalSince1970: 0) }
        methods.sync("echoDate") { (date: Date) in date }
    }
}

@Suite("Swapping components", .timeLimit(.minutes(1)))
struct ComponentSwapTests {
    @Test func aCustomSerializerIsUsedBothWays() throws {
        let serializer = CountingISOSerializer()
        let (keystone, page) = makeBridge(KeystoneComponents(serializer: serializer))
        try keystone.register(Clock(), namespace: "clock")
        #expect(page.prompt("clock.pageLoad", argumentText: #"{"data":null}"#) == #"{"code":0,"data":"1970-01-01T00:00:00Z"}"#)
        #expect(page.prompt("clock.echoDate", argumentText: #"{"data":"2001-02-03T04:05:06Z"}"#) == #"{"code":0,"data":"2001-02-03T04:05:06Z"}"#)
        #expect(serializer.counts.withLock { $0.decodes } == 1)  // a method without input decodes nothing
        #expect(serializer.counts.withLock { $0.encodes } == 2)
    }

    @Test func aCustomResolverIsUsed() throws {
        let (keystone, page) = makeBridge(KeystoneComponents(resolver: SlashResolver()))
        try keystone.register(Named(name: "deep"), namespace: "a.b")
        #expect(try page.call("a/b/who", as: String.self) == "deep")
    }

    @Test func aRegistryOfItsOwnDecidesWhatACallReaches() throws {
        let registry = CaseInsensitiveRegistry()
        let (keystone, page) = makeBridge(KeystoneComponents(registry: registry))
        try keystone.register(Named(name: "x"), namespace: "n")
        #expect(try page.call("N.WHO", as: String.self) == "x")  // the default would answer notFound
        let missing = #expect(throws: BridgeError.self) { try page.call("n.missing", as: String.self) }
        #expect(missing?.code == .notFound)
        #expect(registry.lookups.withLock { $0 } == ["N.WHO", "n.missing"])
        #expect(keystone.removeInterface(namespace: "N"))
        #expect(throws: BridgeError.self) { try page.call("n.who", as: String.self) }
        // Validation lives in the registry: register reaches it, and so does the registry used alone.
        #expect(throws: BridgeError.self) { try keystone.register(Named(name: "x"), namespace: "a..b") }
        #expect(throws: BridgeError.self) { try registry.register(MethodList(), namespace: "_dsb") }
    }

    @Test func aDispatcherOfItsOwnRunsEveryCall() async throws {
        let (keystone, page) = makeBridge(KeystoneComponents(dispatcher: NameDispatcher()))
        page.initialize()
        #expect(try page.call("any.thing", as: String.self) == "any.thing")
        #expect(try await page.callAsync("later.on", as: String.self) == "later.on")
        #expect(keystone.runningCallCount == 0)
    }

    @Test func anAsynchronousCallADispatcherAnswersAtOnceGetsItsResultThroughTheCallback() async throws {
        let (keystone, page) = makeBridge(KeystoneComponents(dispatcher: AtOnceDispatcher()))
        page.initialize()
        #expect(page.prompt("any.thing", argumentText: #"{"data":null,"_dscbstub":"dscb9"}"#) == #"{"code":0,"data":""}"#)
        #expect(page.receivedMessages == [.result(callback: "dscb9", value: JSONText(quoting: "any.thing"), complete: true)])
        // Asked for inline, the same result is the answer itself, and nothing comes through the callback.
        #expect(page.prompt("any.thing", argumentText: #"{"data":null,"_dscbstub":"dscb10","_dsinline":true}"#) == #"{"code":0,"data":"any.thing","inline":true}"#)
        #expect(page.receivedMessages.count == 1)
        #expect(keystone.runningCallCount == 0)
    }

    @Test func aRecordingEvaluatorReceivesEverythingBoundForThePage() async throws {
        let evaluator = RecordingEvaluator()
        let (keystone, page) = makeBridge(KeystoneComponents(evaluator: evaluator))
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        #expect(try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) == 3)
        #expect(evaluator.sent.withLock { $0.count } == 1)
        #expect(page.receivedMessages == evaluator.sent.withLock { $0 })
    }

    @Test func aHostTakesAnyHub() throws {
        let (keystone, _) = makeBridge()
        try keystone.register(Named(name: "hub"), namespace: "")
        let hub = CountingHub(keystone)
        let page = InMemoryPage(hub: hub)
        #expect(try page.call("who", as: String.self) == "hub")
        #expect(hub.prompts.withLock { $0 } == 1)
    }
}
