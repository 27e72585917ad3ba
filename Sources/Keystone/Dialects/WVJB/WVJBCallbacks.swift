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
    /// Fetched messages not yet handed to the hub, oldest first, each with the frame whose queue
    /// held it: a long queue is answered a slice at a time.
    private var waiting: [(message: WVJBWire.QueuedMessage, frame: CallerFrame)] = []
    private var nextWaiting = 0
    /// Whether a queue is being fetched, or a slice of ``waiting`` answered or due.
    private var isAnswering = false
    /// Whether the page signalled a new queue meanwhile: it is fetched once the last slice is
    /// answered, so one fetch at a time is made and one fetched queue at most is held.
    private var signalledWhileAnswering = false

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

    /// The page signalled that its queue has messages. Returns whether to fetch it now; while a
    /// fetched queue is being answered, it is fetched after the last slice instead.
    mutating func queueSignalled() -> Bool {
        if isAnswering { signalledWhileAnswering = true }
        defer { isAnswering = true }
        return !isAnswering
    }

    /// The messages of a fetched queue from `frame` (none when the fetch failed), to be answered
    /// a slice at a time.
    mutating func enqueue(_ messages: [WVJBWire.QueuedMessage], from frame: CallerFrame) {
        waiting += messages.map { ($0, frame) }
        isAnswering = true
    }

    /// Takes up to `count` waiting messages, oldest first, and what comes after them: another
    /// slice, a fetch of the queue the page signalled meanwhile, or nothing.
    mutating func takeSlice(_ count: Int) -> (messages: ArraySlice<(message: WVJBWire.QueuedMessage, frame: CallerFrame)>, next: WVJBWire.QueueStep) {
        let end = min(waiting.count, nextWaiting + max(1, count))
        let slice = waiting[nextWaiting..<end]
        nextWaiting = end
        guard nextWaiting == waiting.count else { return (slice, .answerNextSlice) }
        waiting = []
        nextWaiting = 0
        // A signal that came meanwhile is fetched now, and that fetch is answered like this one.
        isAnswering = signalledWhileAnswering
        defer { signalledWhileAnswering = false }
        return (slice, signalledWhileAnswering ? .fetchQueue : .done)
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
