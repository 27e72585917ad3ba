// DurableState.swift — durable calls in both directions, as one pure value the hub keeps.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Everything durable calls keep, without locks or side effects: the page's calls by origin and key
/// (``DurableCalls``), Swift's calls that go again to the next document (``DurableSwiftCalls``), and
/// the methods the app made durable by default (`MethodList.durable(_:)`). `Waiter` is a
/// `recovered()` call's way to be told.
struct DurableState<Waiter: Sendable>: Sendable {
    var calls: DurableCalls<Waiter>
    var swiftCalls = DurableSwiftCalls()
    /// The methods durable by default, as the app registered them.
    private var methods: Set<MethodName> = []

    init(limit: Int, byteLimit: Int, lifetime: Duration) {
        calls = DurableCalls(limit: limit, byteLimit: byteLimit, lifetime: lifetime)
    }

    /// The interface registered under `namespace` makes the methods `names` durable by default
    /// (none: it makes none, or it was removed).
    mutating func noteMethods(_ names: [String], namespace: String) {
        methods = methods.filter { $0.namespace != namespace }
        methods.formUnion(names.map { MethodName(namespace: namespace, name: $0) })
    }

    /// Whether a call of `name` the page makes without a key runs as a durable call.
    func isDurableByDefault(_ name: MethodName) -> Bool {
        // Every asynchronous call asks: an app that makes no method durable pays one test.
        !methods.isEmpty && methods.contains(name)
    }
}
