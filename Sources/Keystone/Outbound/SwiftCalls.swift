// SwiftCalls.swift — Swift's calls of the page's handlers that have not settled, as a pure value.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Swift's calls of the page's handlers (`Keystone.call`, `start`, `stream`) that have not settled,
/// by id, without locks or side effects. `Pending` is a call's way to settle.
///
/// A call settles once. A `call` takes the page's first answer; when that answer says more will
/// follow, the call stays open (and counts toward the limit) so later answers are reported rather
/// than dropped unnoticed, until one is marked complete or the page unloads. A stream takes every
/// answer until the complete one. A call kept for the page's next document is one of these too,
/// which the page's end leaves open.
struct SwiftCalls<Pending: Sendable>: Sendable {
    /// What the page's answer to a call does.
    enum Answer {
        /// Hand the answer to the call; `complete` says whether the page marked it final.
        case deliver(Pending, complete: Bool)
        /// A `call` (not a stream) that already settled was answered again.
        case repeated(method: String)
        /// A call its document never handed to the handler, which may go to the next document (one
        /// kept for it): it waits for that.
        case goesOn
        case unknown
    }

    /// One call the page has not finished answering.
    struct OpenCall {
        var method: String
        var isMultiResponse: Bool
        /// `nil` once a `call` has its answer and the page said more would follow.
        var pending: Pending?
        /// Whether its arguments have parts, which may have a ticket open.
        var hasParts = false
        /// The subframe document it went to; `nil`: the main frame. Only that document answers it.
        var frame: FrameDocument?
    }

    /// The most calls open at once.
    let limit: Int
    private var lastId = 0
    private var calls: [Int: OpenCall] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// How many calls have not settled.
    var pendingCount: Int { calls.values.count { $0.pending != nil } }

    /// The next call's id, for a call whose answer nobody waits for.
    mutating func nextId() -> Int {
        lastId += 1
        return lastId
    }

    /// Opens a call of `method` to the subframe document `frame` (`nil`: the main frame), settled
    /// through `pending`: its id, or the refusal past ``limit``.
    mutating func open(method: String, isMultiResponse: Bool, pending: Pending, hasParts: Bool, frame: FrameDocument? = nil) -> Result<Int, BridgeError> {
        guard calls.count < limit else {
            return .failure(BridgeError(code: .limitExceeded, message: "BridgeLimits.pendingCalls (\(limit)) calls already wait for the page"))
        }
        let id = nextId()
        calls[id] = OpenCall(method: method, isMultiResponse: isMultiResponse, pending: pending, hasParts: hasParts, frame: frame)
        return .success(id)
    }

    /// Whether call `id`, made to the document `frame` (`nil`: the main frame), still waits for an
    /// answer.
    func isWaiting(_ id: Int, from frame: FrameDocument? = nil) -> Bool {
        guard let call = calls[id] else { return false }
        return call.frame == frame && call.pending != nil
    }

    /// The document `frame` (`nil`: the main frame) answered call `id` (`_dsb.returnValue`),
    /// `complete` when it said no more follows; and the call, when the answer closed it. A call
    /// made to another document is not this one's to answer: unknown.
    mutating func answer(id: Int, complete: Bool, from frame: FrameDocument? = nil) -> (Answer, closed: OpenCall?) {
        guard let call = calls[id], call.frame == frame else { return (.unknown, nil) }
        if complete { calls[id] = nil }
        guard let pending = call.pending else { return (.repeated(method: call.method), complete ? call : nil) }
        if !call.isMultiResponse, !complete { calls[id]?.pending = nil }
        return (.deliver(pending, complete: complete || !call.isMultiResponse), complete ? call : nil)
    }

    /// Swift stopped waiting for call `id`: the call, if it was open.
    mutating func cancel(id: Int) -> OpenCall? {
        calls.removeValue(forKey: id)
    }

    /// The subframe document `frame` went: the ids of its open calls, and those to fail.
    mutating func removeAll(in frame: FrameDocument) -> [(id: Int, call: OpenCall)] {
        let ids = calls.filter { $0.value.frame == frame }.keys.sorted()
        return ids.compactMap { id in calls.removeValue(forKey: id).map { (id, $0) } }
    }

    /// The page went: the open calls to fail; those in `keeping` (calls kept for the next
    /// document) stay open.
    mutating func removeAll(keeping: Set<Int> = []) -> [Pending] {
        var failed: [Pending] = []
        for (id, call) in calls.sorted(by: { $0.key < $1.key }) where !keeping.contains(id) {
            calls[id] = nil
            if let pending = call.pending { failed.append(pending) }
        }
        return failed
    }
}
