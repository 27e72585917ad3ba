// WVJBCallbacks.swift — what a WebViewJavascriptBridge wire remembers of its page, as a pure value.
/// The state of one WVJB page's wire, without locks or side effects: whether the page's bridge has
/// announced itself, whether it runs Keystone's WVJB script, the main frame its queues came from,
/// and, for each of the page's calls still open, the page's callback id under the hub's callback
/// name for it. `WVJBWire` holds it behind its lock; a page change starts it afresh.
struct WVJBCallbacks: Sendable {
    /// Whether a queue has arrived, which says the page's bridge is in.
    private(set) var isReady = false
    /// Whether the page runs Keystone's WVJB page script, which answers `_hasJavascriptMethod`.
    private(set) var speaksKeystone = false
    /// The main frame the page's queues came from.
    private(set) var frame: CallerFrame?
    private var callbackIds: [String: String] = [:]
    private var lastName = 0

    /// The calls still open.
    var openCount: Int { callbackIds.count }

    /// A queue arrived from `frame`; `speaksKeystone` when its first message says so. Returns
    /// whether it is the first, after which what waited for the page goes out.
    mutating func queueArrived(from frame: CallerFrame, speaksKeystone: Bool) -> Bool {
        self.frame = frame
        if speaksKeystone { self.speaksKeystone = true }
        defer { isReady = true }
        return !isReady
    }

    /// Opens a call the page made with `callbackId`: the hub's callback name for it, of the form
    /// the hub accepts (`dscb` and digits).
    mutating func open(_ callbackId: String) -> String {
        lastName += 1
        let name = "dscb\(lastName)"
        callbackIds[name] = callbackId
        return name
    }

    /// The page's callback id behind the hub's `name`; the call is forgotten when `closing`.
    mutating func callbackId(for name: String, closing: Bool) -> String? {
        closing ? callbackIds.removeValue(forKey: name) : callbackIds[name]
    }
}
