// Keystone.swift — the hub: registered interfaces, and the pages of the app's web views that call
// them and that Swift calls.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Connects a page's JavaScript and Swift interfaces over the DSBridge v3 protocol.
///
/// Register interfaces under namespaces, attach the Keystone to a host (a web view, or an
/// `InMemoryPage` in tests), and it answers the page's calls and carries Swift's calls to the page.
///
/// ```swift
/// let keystone = Keystone()
/// try keystone.register(Math(), namespace: "math")
/// let sum = try await keystone.call("page.add", 1, 2, as: Double.self)
/// ```
///
/// A Keystone is its first page (`PageID/first`): the page of the first host attached to it, and
/// what its calls, events and page state (``KeystonePage``) reach. Each host attached while that
/// one is (another web view) gets a page of its own (``openPage()``), with its own page loads,
/// limits and calls; every page shares the registered interfaces, the policy and the durable calls.
/// ``pages`` lists them, and ``emit(_:_:to:)`` and ``call(_:arguments:as:on:)`` reach several.
///
/// Every method is safe to call from any thread or task.
public final class Keystone: KeystonePage, @unchecked Sendable {
    /// The pages after the first, by their ids, and whether a host serves the first.
    private struct Pages {
        var firstIsServed = false
        var others: [PageID: KeystonePage] = [:]
        var last = PageID.first
    }

    private let table = Locked(Pages())

    /// Creates a Keystone from `components`.
    public init(components: KeystoneComponents = KeystoneComponents()) {
        let durable = DurableRoom(limits: components.limits, clock: components.clock, store: components.durableStore)
        super.init(
            components: components, evaluator: components.evaluator, durable: durable, numbers: PageLoadNumbers(),
            tracer: Tracer(components.tracing, clock: components.clock), id: .first, closed: nil)
    }

    /// Registers `interface` under `namespace` (`""`, `"a"`, `"a.b.c"`), replacing any interface
    /// already there.
    /// - Throws: `BridgeError` with code `invalidRegistration` for an unusable namespace (an empty
    ///   part, white space around a part, or the reserved `_dsb`) or method name.
    public func register(_ interface: some BridgeInterface, namespace: String = "") throws(BridgeError) {
        var methods = MethodList()
        interface.exposeMethods(to: &methods)
        try register(methods, namespace: namespace)
    }

    /// Registers the methods `build` lists under `namespace`, without a type of their own: the
    /// closure-based way WebViewJavascriptBridge apps register handlers.
    ///
    /// ```swift
    /// try keystone.register(namespace: "") { handlers in
    ///     handlers.async("testObjcCallback") { (data: JSONValue?) in "Response from testObjcCallback" }
    /// }
    /// ```
    public func register(namespace: String = "", _ build: (inout MethodList) -> Void) throws(BridgeError) {
        var methods = MethodList()
        build(&methods)
        try register(methods, namespace: namespace)
    }

    /// Registers `methods` under `namespace` with the registry, and notes which are durable by
    /// default: the hub decides how a call runs before the dispatcher finds its method.
    private func register(_ methods: MethodList, namespace: String) throws(BridgeError) {
        try components.registry.register(methods, namespace: namespace)
        let durable = methods.methods.compactMap { $0.value.isDurable ? $0.key : nil }
        storage.durable.noteMethods(durable, namespace: namespace)
    }

    /// TypeScript declarations of the registered interfaces, from ``interfaceSchema``: an interface
    /// for each object type, and `KeystoneMethods`, which maps each method's name to its kind, input
    /// and output. Everything is sorted by name, so the same interfaces give the same text on every
    /// run, ready to be checked in beside the page runtime's own `keystone-bridge.d.ts`, whose
    /// `KeystoneMethods` it fills in: `dsBridge.invoke` and `dsBridge.stream` then take only the
    /// app's method names, with their argument types, and resolve their result types. Bytes the page
    /// sends are typed `Bytes` (or `ByteSource` as a method's whole input), and each `Data` it
    /// receives `Uint8Array`.
    public var typeScriptDeclarations: String {
        TypeScriptDeclarations.text(for: interfaceSchema)
    }

    /// ``typeScriptDeclarations`` with the page's side as Swift uses it (`page`): its
    /// `KeystonePageHandlers` type the page's `register` and `registerAsyn` by the handlers Swift
    /// calls (their arguments, and the answer Swift reads), and its `KeystoneEvents` type `on` by
    /// the events Swift emits.
    public func typeScriptDeclarations(page: PageDeclarations) -> String {
        let recorder = SchemaRecorder(serializer: components.serializer)
        let pageSchema = page.schema(recording: recorder)
        return TypeScriptDeclarations.text(for: interfaceSchema(recording: recorder), page: pageSchema)
    }

    /// The schema of the registered interfaces: each method's kind, input and output types, learnt
    /// from the Swift types its registration has, and the object types they name. A method made
    /// outside `MethodList` has unknown types. Each type is learnt now, by decoding it once from a
    /// decoder that records what it asks for.
    public var interfaceSchema: InterfaceSchema {
        interfaceSchema(recording: SchemaRecorder(serializer: components.serializer))
    }

    /// ``interfaceSchema``, its types learnt by `recorder` beside those it learnt already.
    private func interfaceSchema(recording recorder: SchemaRecorder) -> InterfaceSchema {
        var methods: [InterfaceSchema.Method] = []
        for (namespace, interface) in components.registry.interfaces {
            for (name, method) in interface {
                let fullName = namespace.isEmpty ? name : namespace + "." + name
                let input = method.signature?.input(recorder) ?? .unknown
                let output = method.signature?.output(recorder) ?? .unknown
                methods.append(
                    InterfaceSchema.Method(
                        name: fullName, kind: method.kind, input: input, output: output, description: method.signature?.description,
                        isDurable: method.isDurable))
            }
        }
        return InterfaceSchema(methods: methods.sorted { $0.name < $1.name }, types: recorder.types.values.sorted { $0.name < $1.name })
    }

    /// Removes the interface under `namespace`; returns whether there was one.
    @discardableResult
    public func removeInterface(namespace: String) -> Bool {
        storage.durable.noteMethods([], namespace: namespace)
        return components.registry.removeInterface(namespace: namespace)
    }

    /// What each origin may call, as a plain file to review and to commit: for each origin the policy
    /// names (its allowed origins, and its namespace rules' when it is a ``DefaultCallPolicy``), the
    /// app's own origins its hosts serve, `origins`, and any other origin when the policy admits
    /// every one, the methods its main frame and its subframes may call, of which kind, whether
    /// durable, and whether only once authorised. A test that compares it with the committed file
    /// fails when a change widens what an origin may call.
    public func accessDescription(origins: Set<String> = []) -> String {
        var named = origins.union(components.policy.runtimeOrigins ?? []).union(pages.flatMap { $0.storage.appOrigins ?? [] })
        if let rules = (components.policy as? DefaultCallPolicy)?.namespaceRules.values { named.formUnion(rules.flatMap { $0.origins ?? [] }) }
        let storages = pages.map(\.storage)
        return AccessDescription(
            policy: components.policy, interfaces: components.registry.interfaces, origins: named,
            admitsOrigin: { frame in storages.contains { $0.admitsOrigin(of: frame) } }
        ).text
    }

    // MARK: Pages

    /// Every page of the Keystone, the first (itself) first, then in the order their hosts opened
    /// them.
    public var pages: [KeystonePage] {
        [self] + table.withLock { $0.others.values.sorted { $0.id < $1.id } }
    }

    /// The page `id`, while it is open.
    public func page(_ id: PageID) -> KeystonePage? {
        id == .first ? self : table.withLock { $0.others[id] }
    }

    /// A new page of the Keystone, for a host to serve (a web view of its own): its own page loads,
    /// limits and calls, the Keystone's interfaces, policy and durable calls. A host attached to the
    /// Keystone opens one itself (``openPage()``); pass one to a host, or to an `InMemoryPage`, to
    /// choose. It stays one of ``pages`` until its host closes it.
    public func addPage() -> KeystonePage {
        let id = table.withLock { table in
            table.last = PageID(rawValue: table.last.rawValue + 1)
            return table.last
        }
        let page = KeystonePage(
            components: components, evaluator: components.pageEvaluator(), durable: storage.durable, numbers: storage.numbers, tracer: storage.tracer, id: id,
            closed: { [weak self] id in self?.table.withLock { _ = $0.others.removeValue(forKey: id) } })
        table.withLock { $0.others[id] = page }
        return page
    }

    /// The first page while no host serves it; otherwise a new page (``addPage()``): each host
    /// attached to the Keystone at once serves a page of its own.
    public override func openPage() -> any BridgeHub {
        let isFirst = table.withLock { table in
            defer { table.firstIsServed = true }
            return !table.firstIsServed
        }
        return isFirst ? self : addPage()
    }

    /// The host of the first page closed: the next host attached serves it. Swift's calls of it
    /// wait for that host's page, as across a reload.
    public override func closePage() {
        table.withLock { $0.firstIsServed = false }
    }

    /// Sends the named event to each page `pages` chooses (those open now), as ``KeystonePage/emit(_:_:)`` sends
    /// it to one: a page not yet initialized gets it when it does. Returns the pages it went to.
    /// - Throws: `BridgeError` with code `unencodableValue` when `value` does not encode to JSON.
    @discardableResult
    public func emit(_ name: String, _ value: some Encodable & Sendable, to pages: PageSelection) throws(BridgeError) -> [PageID] {
        let chosen = self.pages.filter { pages.contains($0) }
        for page in chosen { try page.emit(name, value) }
        return chosen.map(\.id)
    }

    /// Calls the page's handler `method` in each page `pages` chooses (those open now), at once, and
    /// waits for every answer: each page's outcome, by its id.
    public func call<Result: Decodable & Sendable>(
        _ method: String,
        arguments: [any Encodable & Sendable],
        as: Result.Type = Result.self,
        on pages: PageSelection
    ) async -> [PageID: Swift.Result<Result, BridgeError>] {
        let calls = self.pages.filter { pages.contains($0) }.map { ($0.id, $0.start(method, arguments: arguments, as: Result.self)) }
        var outcomes: [PageID: Swift.Result<Result, BridgeError>] = [:]
        for (id, call) in calls {
            do throws(BridgeError) {
                outcomes[id] = .success(try await call.value)
            } catch {
                outcomes[id] = .failure(error)
            }
        }
        return outcomes
    }
}
