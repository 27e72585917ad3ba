// SwiftCalls.swift — Swift's calls of the page's handlers that have not settled, as a pure value.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Swift's calls of the page's handlers (`Keystone.call`, `start`, `stream`) that have not settled,
/// by id, without locks or side effects. `Pending` is a call's way to settle.
///
/// A call settles once. A `call` takes the page's first answer; when that answer says more will
/// follow, the call stays open (and counts toward the limit) so later answers are reported rather
/// than dropped unnoticed, until one is marked complete or the page unloads. A stream takes every
/// answer until the complete one.
///
/// A durable call outlives its page load: it is bound to the origin of the first document it goes
/// to, and when the page goes before answering it, it goes again to each next document of that
/// origin, with the same id, until one answers or Swift stops waiting. A durable call that first
/// goes to a document without an origin is an ordinary one.
struct SwiftCalls<Pending: Sendable>: Sendable {
    /// What the page's answer to a call does.
    enum Answer {
        /// Hand the answer to the call; `complete` says whether the page marked it final.
        case deliver(Pending, complete: Bool)
        /// A `call` (not a stream) that already settled was answered again.
        case repeated(method: String)
        /// A durable call its document never handed to the handler: it waits for the next document.
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
        /// A durable call's message and origin; `nil` for any other call.
        var durable: Durable?
    }

    /// What a durable call keeps to go again to the next document.
    struct Durable {
        /// Its message, as each document gets it.
        var message: PageMessage
        /// The parts of its arguments, which each document it goes to fetches anew.
        var parts: ByteParts?
        /// The origin of the first document it went to; `nil` until it has gone to one.
        var origin: String?
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

    /// Call `id` is durable: it keeps `message` and its arguments' `parts` to go again to each next
    /// document of its origin.
    mutating func keepDurable(id: Int, message: PageMessage, parts: ByteParts?) {
        calls[id]?.durable = Durable(message: message, parts: parts)
    }

    /// Whether call `id` may go to a document of `origin`: any call but a durable one bound to
    /// another origin.
    func mayGo(id: Int, to origin: String?) -> Bool {
        guard let bound = calls[id]?.durable?.origin else { return true }
        return bound == origin
    }

    /// Call `id` went to a document of `origin`: a durable call is bound to it, or is an ordinary
    /// call from now on when the document has no origin.
    mutating func went(id: Int, to origin: String?) {
        guard calls[id]?.durable != nil else { return }
        if let origin {
            calls[id]?.durable?.origin = origin
        } else {
            calls[id]?.durable = nil
        }
    }

    /// The document `frame` (`nil`: the main frame) answered call `id` (`_dsb.returnValue`),
    /// `complete` when it said no more follows; and the call, when the answer closed it. A call
    /// made to another document is not this one's to answer: unknown. An answer that says the
    /// handler never saw the call (`undelivered`: the document could not fetch its bytes, as when
    /// it is going) is not a durable call's outcome: the call stays open for the next document.
    mutating func answer(id: Int, complete: Bool, undelivered: Bool = false, from frame: FrameDocument? = nil) -> (Answer, closed: OpenCall?) {
        guard let call = calls[id], call.frame == frame else { return (.unknown, nil) }
        if undelivered, call.durable != nil, call.pending != nil { return (.goesOn, nil) }
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

    /// The page went: the open calls to fail, and the durable calls still waiting for an answer
    /// (each message with its arguments' parts), in the order they were made, for the next
    /// document; those stay open.
    mutating func removeAll() -> (failed: [Pending], durable: [Durable]) {
        var failed: [Pending] = []
        var durable: [(id: Int, kept: Durable)] = []
        for (id, call) in calls {
            if let kept = call.durable, call.pending != nil {
                durable.append((id, kept))
            } else {
                calls[id] = nil
                if let pending = call.pending { failed.append(pending) }
            }
        }
        return (failed, durable.sorted { $0.id < $1.id }.map(\.kept))
    }
}

extension PageMessage {
    /// The callback of the page's call this message answers, when it answers one.
    var resultCallback: String? {
        switch self {
        case .result(let callback, _, _), .failure(let callback, _), .noResult(let callback), .completion(let callback), .release(let callback): callback
        case .withParts(let message, _): message.resultCallback
        default: nil
        }
    }

    /// The id of Swift's call this message makes, when it makes one.
    var swiftCallId: Int? {
        switch self {
        case .call(_, let id, _): id
        case .durable(let message, _), .withParts(let message, _): message.swiftCallId
        default: nil
        }
    }
}
