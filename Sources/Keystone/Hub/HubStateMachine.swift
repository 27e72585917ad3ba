// HubStateMachine.swift — the rooms' state as one pure value, and the events that cross them.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Everything a Keystone shares between threads, without locks, tasks or side effects: one value
/// per room — the page load and its subframe documents (Page), Swift's calls (Outbound), the page's
/// running calls (Inbound), the byte channel (Bytes), Swift's durable calls (Durable) — kept together so
/// that what crosses them happens in one step. Only that lives here: the messages waiting for the
/// page and how one goes out, a call's end, a document's end and the page's. An event of one room
/// alone is its value's own. Every event returns its ``HubEffects``, which ``HubStorage`` acts on
/// outside its lock.
///
/// Messages wait until the page initializes, then go out in order, written for its runtime; a
/// message for an earlier page load is dropped. A subframe document's go to it at once, Swift's
/// calls once it has registered its handlers. An unload fails Swift's calls (durable ones wait for
/// the next document of their origin), cancels the page's running calls and takes every ticket; a
/// subframe document's end does as much for what was its.
///
/// One machine is one page (one web view's): a Keystone with several has one each. The page's own
/// durable calls, which every page of the Keystone shares, are the durable room's (``DurableRoom``).
struct HubStateMachine<Pending: Sendable, Work: Sendable>: Sendable {
    typealias Output = HubOutput
    typealias Effects = HubEffects<Pending, Work>

    typealias Outgoing = OutgoingMessage

    var page: PageLoadState<PageWaiter>
    var subframes: Subframes<Outgoing>
    var swiftCalls: SwiftCalls<Pending>
    var running: RunningCalls<Work>
    var bytes: ByteChannelState
    var durableSwiftCalls = DurableSwiftCalls()
    /// Messages waiting for the page to initialize, each with the parts of its value.
    private(set) var waiting: [Outgoing] = []
    /// Whether the page has gone for good (its host closed): nothing is sent to it again.
    private(set) var isClosed = false

    /// A page whose first page load is `first`.
    init(limits: BridgeLimits, first: PageLoad = .first) {
        page = PageLoadState(declarationLimit: limits.declaredMethods, first: first)
        subframes = Subframes(limit: limits.subframeDocuments)
        swiftCalls = SwiftCalls(limit: limits.pendingCalls)
        running = RunningCalls(limit: limits.runningCalls)
        bytes = ByteChannelState(limit: limits.openTransfers, byteLimit: limits.pageLoadBytes)
    }

    var pageLoad: PageLoad { page.pageLoad }

    // MARK: Messages

    /// Sends `message` to the page load `pageLoad` (the current one when `nil`) and its subframe
    /// document `frame` (`nil`: the main frame), with the parts of its value, a result of `call`'s;
    /// `nil` when that page load or document has gone and the message was dropped.
    mutating func send(
        _ message: PageMessage, parts: ByteParts? = nil, of call: CallParts? = nil, to pageLoad: PageLoad?, frame: FrameDocument? = nil
    ) -> [Output]? {
        guard !isClosed, pageLoad == nil || pageLoad == self.pageLoad else { return nil }
        let outgoing = Outgoing(message: message, parts: parts, call: call)
        if let frame {
            guard let runtime = subframes.runtime(of: frame) else { return nil }
            if message.swiftCallId != nil, !subframes.isReady(frame) { return subframes.wait(outgoing, for: frame) ? [] : nil }
            return [deliver(outgoing, runtime: runtime, frame: frame)]
        }
        guard page.isPageReady else {
            waiting.append(outgoing)
            return []
        }
        return [deliver(outgoing, runtime: page.runtime, frame: nil)]
    }

    private mutating func deliver(_ outgoing: Outgoing, runtime: PageRuntime, frame: FrameDocument?) -> Output {
        .deliver(bytes.prepare(outgoing.message, parts: outgoing.parts, of: outgoing.call, runtime: runtime, pageLoad: pageLoad, frame: frame), runtime, pageLoad, frame)
    }

    /// Whether the parts of a Swift call or event fit beside what the page load holds, the messages
    /// still waiting to go out included.
    private func fits(_ parts: ByteParts?) -> Bool {
        guard parts != nil else { return true }
        return bytes.fits(parts, besides: waiting.reduce(0) { $0 + ($1.parts?.byteCount ?? 0) })
    }

    // MARK: Swift → page

    /// Makes a call of the page's handler, in the subframe document `frame` (`nil`: the main
    /// frame): gives it the next id, records it and sends its message; the id, or no id and the call
    /// failed. A durable call (`durable`: its id for the page) is the main frame's, and goes again
    /// to each next document of its origin until one answers it.
    mutating func makeCall(
        _ pending: Pending, method: String, arguments: JSONText, parts: ByteParts? = nil, isMultiResponse: Bool, to pageLoad: PageLoad?,
        frame: FrameDocument? = nil, durable durableID: String? = nil
    ) -> (id: Int?, effects: Effects) {
        var effects = Effects()
        let opened =
            refusal(to: pageLoad, frame: frame, parts: parts).map { .failure($0) }
            ?? swiftCalls.open(method: method, isMultiResponse: isMultiResponse, pending: pending, hasParts: parts != nil, frame: frame)
        guard case .success(let id) = opened else {
            if case .failure(let error) = opened { effects.fail([pending], error) }
            return (nil, effects)
        }
        var message = PageMessage.call(method: method, callbackId: id, arguments: arguments)
        if let durableID {
            message = .durable(message, id: durableID)
            durableSwiftCalls.keep(id: id, message: message, parts: parts)
            if page.isPageReady { durableSwiftCalls.went(id: id, to: page.origin) }
        }
        effects.outputs = send(message, parts: parts, to: nil, frame: frame) ?? []
        return (id, effects)
    }

    /// Why a Swift call for `pageLoad` and `frame`, its arguments' `parts` beside it, cannot be made.
    private func refusal(to pageLoad: PageLoad?, frame: FrameDocument?, parts: ByteParts?) -> BridgeError? {
        if isClosed || (pageLoad != nil && pageLoad != self.pageLoad) { return BridgeError(code: .pageGone, message: "the page that made the call has gone") }
        if let frame, subframes.runtime(of: frame) == nil { return BridgeError(code: .pageGone, message: "the frame's document has gone") }
        return fits(parts) ? nil : bytes.tooManyBytesHeld
    }

    /// Sends an event, or a call whose answer nobody waits for, its value's `parts` beside it; `nil`
    /// when its page load or document has gone or the parts do not fit.
    mutating func emit(_ event: PageMessage, parts: ByteParts?, to pageLoad: PageLoad?, frame: FrameDocument? = nil) -> [Output]? {
        guard fits(parts) else { return nil }
        return send(event, parts: parts, to: pageLoad, frame: frame)
    }

    /// The document `frame` (`nil`: the main frame) answered call `id`; `undelivered`: the handler
    /// never saw it, and a durable call goes to the next document. Unfetched parts go with the call.
    mutating func receiveAnswer(id: Int, complete: Bool, undelivered: Bool = false, from frame: FrameDocument? = nil) -> SwiftCalls<Pending>.Answer {
        if undelivered, durableSwiftCalls.contains(id), swiftCalls.isWaiting(id, from: frame) {
            bytes.withdraw(swiftCall: id, in: pageLoad)
            return .goesOn
        }
        let (answer, closed) = swiftCalls.answer(id: id, complete: complete, from: frame)
        if closed != nil { durableSwiftCalls.remove(id) }
        if closed?.hasParts == true { bytes.withdraw(swiftCall: id, in: pageLoad) }
        return answer
    }

    /// Swift stopped waiting for call `id`: it fails if it had not settled, is taken back if it has
    /// not gone out, and Keystone's runtime is told of one it has, so its handler can stop.
    mutating func cancelCall(id: Int) -> Effects {
        guard let call = swiftCalls.cancel(id: id) else { return Effects() }
        durableSwiftCalls.remove(id)
        if call.hasParts { bytes.withdraw(swiftCall: id, in: pageLoad) }
        var effects = Effects()
        effects.fail(call.pending.map { [$0] } ?? [], BridgeError(code: .cancelled, message: "the call was cancelled"))
        let isCall: (Outgoing) -> Bool = { $0.message.swiftCallId == id }
        if let frame = call.frame {
            guard !subframes.withdraw(from: frame, where: isCall), subframes.runtime(of: frame) == .keystone else { return effects }
            effects.outputs = [.deliver(.cancel(callbackId: id), .keystone, pageLoad, frame)]
        } else if let index = waiting.firstIndex(where: isCall) {
            waiting.remove(at: index)
        } else if page.isPageReady, page.runtime == .keystone {
            effects.outputs = [.deliver(.cancel(callbackId: id), .keystone, pageLoad, nil)]
        }
        return effects
    }

    // MARK: Page → Swift

    /// Records a call of the page's, of `method`, about to run in a task for the page load
    /// `pageLoad` (``RunningCalls/start(callback:method:answeringThread:)``), or refuses it.
    mutating func startTask(callback: PageCallback?, method: MethodName, for pageLoad: PageLoad, answeringThread: UInt? = nil) -> Result<RunningCalls<Work>.Started, BridgeError> {
        guard pageLoad == self.pageLoad else { return .failure(BridgeError(code: .pageGone, message: "the page that made the call has gone")) }
        return running.start(callback: callback, method: method, answeringThread: answeringThread)
    }

    /// The page stopped waiting for the call behind `callback` (`_dsb.cancel`): its tickets go, a
    /// result's bytes with them, and its results waiting for the page to be ready give way to its
    /// callback's release. Whether there was such a call.
    mutating func cancelTask(callback: PageCallback) -> (found: Bool, effects: Effects) {
        let withdrawn = bytes.withdraw(pageCall: callback, in: pageLoad) > 0
        let isResult = { (outgoing: Outgoing) in outgoing.message.resultCallback == callback.name }
        let heldBack = callback.frame == nil && waiting.contains(where: isResult)
        if heldBack { waiting = waiting.filter { !isResult($0) } + [Outgoing(message: .release(callback: callback.name))] }
        var effects = Effects()
        guard let work = running.cancel(callback: callback) else { return (withdrawn || heldBack, effects) }
        effects.cancelled = work.map { [$0] } ?? []
        return (true, effects)
    }

    // MARK: The page's lifecycle

    /// The page, a document of `origin`, registered its handlers (`_dsb.dsinit`), announcing `runtime`:
    /// what waited goes out but durable calls bound to another origin, and its waiters are told.
    mutating func pageDidInitialize(runtime announced: PageRuntime, origin: String? = nil) -> Effects {
        var effects = Effects()
        effects.ready = page.initialize(runtime: announced, origin: origin)
        var held: [Outgoing] = []
        for outgoing in waiting {
            let id = outgoing.message.swiftCallId
            if let id, !durableSwiftCalls.mayGo(id: id, to: origin) {
                held.append(outgoing)
                continue
            }
            if let id { durableSwiftCalls.went(id: id, to: origin) }
            effects.outputs.append(deliver(outgoing, runtime: page.runtime, frame: nil))
        }
        waiting = held
        return effects
    }

    /// The subframe document `frame` registered its handlers, announcing `runtime`: Swift's calls
    /// that waited for it go, in order.
    mutating func frameDidInitialize(_ frame: FrameDocument, runtime: PageRuntime) -> Effects {
        let waited = subframes.initialize(frame, runtime: runtime)
        guard let runtime = subframes.runtime(of: frame) else { return Effects() }
        return Effects(outputs: waited.map { deliver($0, runtime: runtime, frame: frame) })
    }

    /// The subframe document `frame` has gone: Swift's calls of its handlers fail, its running calls
    /// are cancelled and its tickets go (its host drops what the evaluator holds for it).
    mutating func frameDidUnload(_ frame: FrameDocument) -> Effects {
        var effects = Effects()
        guard subframes.remove(frame) else { return effects }
        let calls = swiftCalls.removeAll(in: frame)
        bytes.withdraw(frame: frame, swiftCalls: Set(calls.map(\.id)))
        effects.fail(calls.compactMap(\.call.pending), BridgeError(code: .pageGone, message: "the frame's document has gone"))
        effects.cancelled = running.cancelAll(in: frame)
        return effects
    }

    /// The page has gone: a new page load begins, `next` (`nil`: the one numbered after it). Swift's
    /// durable calls still waiting for an answer wait for the next document, in the order they were
    /// made; `closing`: the page has gone for good, and they fail too.
    mutating func pageDidUnload(next: PageLoad? = nil, closing: Bool = false) -> Effects {
        page.unload(next: next)
        isClosed = isClosed || closing
        subframes.removeAll()
        bytes.pageDidUnload()
        var effects = Effects(outputs: [.discardQueued])
        let calls = swiftCalls
        let isClosed = isClosed
        let kept = durableSwiftCalls.pageDidUnload { !isClosed && calls.isWaiting($0) }
        effects.fail(swiftCalls.removeAll(keeping: Set(kept.map(\.id))), BridgeError(code: .pageGone, message: "the page was unloaded before it answered"))
        waiting = kept.map { Outgoing(message: $0.kept.message, parts: $0.kept.parts) }
        effects.cancelled = running.cancelAll()
        return effects
    }
}
