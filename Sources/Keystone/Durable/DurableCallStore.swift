// DurableCallStore.swift — where a Keystone keeps its durable calls' outcomes beyond its own life:
// a protocol an app implements, and the record it keeps.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Where a Keystone keeps the outcomes of the page's durable calls (`invoke`'s `durable`) so that
/// they outlive the app itself (``KeystoneComponents/durableStore``).
///
/// Without a store, a Keystone keeps them in the app's memory: a reload or the end of a web content
/// process loses nothing, the app's own end loses them. With one, the Keystone reads what it kept
/// once, when it is made, and tells it of each change as it happens, one at a time and in order:
/// an outcome kept or acknowledged (``save(_:)``), an outcome let go (``remove(origin:key:)``). A
/// call still running when the app ends is not kept: it has no outcome.
///
/// A store is called on whatever thread the change happens on, and should return quickly (write
/// in the background if it must). Outcomes read back start their `BridgeLimits/durableLifetime`
/// afresh.
public protocol DurableCallStore: Sendable {
    /// The records kept, read once, when the Keystone is made.
    func load() -> [DurableCallRecord]
    /// Keeps `record`, in place of any of the same origin and key.
    func save(_ record: DurableCallRecord)
    /// Lets go of the record of `origin` and `key`.
    func remove(origin: String, key: String)
}

/// One durable call's outcome, as a ``DurableCallStore`` keeps it.
public struct DurableCallRecord: Sendable, Hashable, Codable {
    /// The origin of the page that made the call.
    public var origin: String
    /// The page's key for it.
    public var key: String
    /// The method it called, as the page named it.
    public var method: String
    /// Its result as JSON text; `nil` when it returned nothing or failed.
    public var value: String?
    /// Its error, when it failed.
    public var error: BridgeError?
    /// Whether a document has taken the outcome: it is handed to none again, but still answers its
    /// key.
    public var isAcknowledged: Bool

    /// A record of the call of `method` under `origin` and `key`, with its value or error.
    public init(origin: String, key: String, method: String, value: String?, error: BridgeError?, isAcknowledged: Bool) {
        self.origin = origin
        self.key = key
        self.method = method
        self.value = value
        self.error = error
        self.isAcknowledged = isAcknowledged
    }
}
