// JavaScriptPage+Documents.swift — what an engine does with a JavaScriptPage's documents: loading,
// navigating, the back/forward cache, the web process's end, suspension, subframes; and its
// timers, its byte channel, and the handlers Swift gives its page code.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// Swift's side of a page's handler or listener (`__keystoneTesting.register`, `on`): what it is
/// handed is JSON with each bytes value a marker and a part beside it.
enum PageHandler: Sendable {
    /// Answers with `{"value": …}` or `{"error": {code, message}}`.
    case sync(@Sendable (String, [Data]) -> String)
    /// Answers later through the reply, maybe many times; with the durable id of a durable call.
    case async(@Sendable (String, [Data], PageReply, String?) -> Void)
    case listener(@Sendable (String, [Data]) -> Void)
}

struct WeakDocument: @unchecked Sendable {
    weak var document: PageDocument?
}

/// How Swift answers one call of an asynchronous page handler, in the document it came from.
struct PageReply: Sendable {
    weak var page: JavaScriptPage?
    weak var document: PageDocument?
    let number: Int

    /// `respond(value, complete)`, the value's JSON with its parts beside it under `marker`.
    func send(_ json: String, parts: [Data], marker: String, complete: Bool) {
        guard let page else { return }
        let script = "__keystoneTesting.reply(\(number), \(JSONText(quoting: json).string), \(JSONText(quoting: marker).string), globalThis.__keystoneParts || [], \(complete))"
        let document = document
        page.soon { _ = document?.run(script, parts: parts) }
    }

    /// Whether the responder's signal has aborted: Swift withdrew the call.
    var isWithdrawn: Bool {
        guard let page, let document else { return false }
        return page.onQueue { if case .success(.bool(true)) = document.run("__keystoneTesting.withdrawn(\(number))") { true } else { false } }
    }
}

extension JavaScriptPage {
    /// The frame the page's calls report: a subframe's names its current document.
    var frame: CallerFrame { onQueue { currentFrame } }

    /// Runs `work` on the page's queue: now when on it already, otherwise after what waits there.
    func soon(_ work: @escaping @Sendable () -> Void) {
        if lock.isHeld { return work() }
        later(after: .zero, work)
    }

    // MARK: Handlers

    /// Adds Swift's handler, and the script that registers it in a document: run in the current
    /// document now and in every later one, as a page's scripts run again in each document.
    func add(_ handler: PageHandler, registeredBy script: @escaping @Sendable (Int) -> String) {
        onQueue {
            lastHandler += 1
            handlers[lastHandler] = handler
            registrations.append(script(lastHandler))
            _ = run(script(lastHandler))
        }
    }

    // MARK: Timers and the byte channel

    /// Timer `id` of `document`, `milliseconds` from now: fired while the document is the page's.
    /// A timer of no delay runs right after what runs now, or at once when the page runs its ready
    /// timers (``runReadyTimers()``).
    func schedule(timer id: Int, after milliseconds: Double, in document: PageDocument) {
        guard milliseconds <= 0 else {
            return later(after: .milliseconds(milliseconds)) { [weak self, weak document] in self?.fire(id, in: document) }
        }
        readyTimers.append((id, WeakDocument(document: document)))
        later(after: .zero) { [weak self] in self?.runReadyTimers() }
    }

    /// Fires the timers of no delay that wait, and those they set in turn.
    func runReadyTimers() {
        while !readyTimers.isEmpty {
            let (id, document) = readyTimers.removeFirst()
            fire(id, in: document.document)
        }
    }

    private func fire(_ id: Int, in document: PageDocument?) {
        guard let document, document === self.document else { return }
        document.callNative("fire", with: [document.number(Double(id))])
    }

    /// The page's `fetch`: of the byte channel when its host serves one, a failed load otherwise;
    /// `done(status, bytes, type)` is called on the page's queue.
    func fetch(method: String, url: String, body: Data, done: JSObjectRef, in document: PageDocument) {
        guard document.context != nil else { return }
        let load = document.startLoad(done)
        let target = WeakDocument(document: document)
        let answer: @Sendable (Int, Data, String) -> Void = { [weak self] status, bytes, type in
            self?.later(after: .zero) { target.document?.finishLoad(load, status: status, bytes: bytes, type: type) }
        }
        let transport = URLSchemeTransport.keystone
        guard servesBytes, url.hasPrefix(transport.base) else { return answer(0, Data(), "") }
        transport.serve(
            method: method, url: url, origin: currentFrame.origin, hub: hub, readBody: { limit in body.count <= limit ? body : nil },
            respond: { response in answer(response.status, response.body, response.contentType) })
    }

    /// Whether the page's host serves it the byte channel.
    var servesBytes: Bool { parent?.setup.servesBytes ?? setup.servesBytes }

    // MARK: Documents

    /// The page's scripts have all run: the document has loaded (DOMContentLoaded), and the timers
    /// they set run; Keystone's runtime announces itself then.
    public func finishLoading() {
        onQueue { document.finishLoading() }
    }

    /// The page navigates to a new document of the same address (a reload or a link). The engine
    /// stops the loads of the document it leaves (its fetches in flight fail there), and keeps it
    /// for ``restoreFromBackForwardCache()``; what Swift waits on in it settles `pageGone`.
    public func navigate() throws(BridgeError) {
        try onQueue { () throws(BridgeError) in
            let old = document
            old.stopLoads()
            old.endCalls()
            if let parent, let gone = currentFrame.document {
                let next = parent.nextFrameDocument()
                parent.subframes[gone] = nil
                parent.subframes[next] = self
                currentFrame.document = next
                hub.frameDidUnload(gone)
                old.end()
            } else {
                history = [old]
            }
            try startDocument()
        }
    }

    /// The web view goes (its window closed, or its host gave it back), as its host reports it: the
    /// document's calls end, and the session closes its page of the hub.
    func closeWebView() {
        onQueue {
            document.stopLoads()
            document.endCalls()
            session.closed()
        }
    }

    /// A script of the page's navigates to `address` (`location.reload()`, `location.href = …`):
    /// once the script has run, a new document of that address, when it is of the page's origin,
    /// which loads as a browser loads it: its scripts run, then it finishes loading. An address
    /// elsewhere is a page this one is not, and goes nowhere.
    func navigateLater(to address: String) {
        guard address.hasPrefix(origin + "/") || address == origin else { return }
        later(after: .zero) { [weak self] in
            guard let self else { return }
            self.address = address
            guard (try? self.navigate()) != nil else { return }
            self.document.finishLoading()
            self.runReadyTimers()
        }
    }

    /// The engine brings back the document before this one from its back/forward cache (after
    /// ``navigate()``): a page load of its own, whose runtime announces itself again; this one ends.
    public func restoreFromBackForwardCache() {
        onQueue {
            guard parent == nil, let previous = history.popLast(), let token = previous.token else { return }
            document.end()
            document = previous
            session.documentCommitted()
            session.documentReported("restore " + token, from: currentFrame)
            previous.callNative("show", with: [JSValueMakeBoolean(previous.context, true)])
            checkConditions()
        }
    }

    /// The page's web process ends at `time` (on any clock, the same each time) for `reason`, as a
    /// host reports it: every document ends, and the page is loaded again in a new one.
    @discardableResult
    public func terminateWebProcess(at time: Duration, reason: WebProcessTermination.Reason = .terminatedByApp) throws(BridgeError) -> WebProcessTermination? {
        try onQueue { () throws(BridgeError) in
            held = nil
            session.webProcessTerminated(reason, at: time)
            for each in history + [document] { each.end() }
            history = []
            for (_, subframe) in subframes { subframe.document.end() }
            subframes = [:]
            try startDocument()
        }
        return engine.lastReport.withLock { $0 }
    }

    /// The system suspends the page's web process: it runs nothing (no batch, no timer) until it
    /// resumes.
    public func suspend() {
        onQueue { held = held ?? [] }
    }

    /// The page runs again: what waited meanwhile runs, in order.
    public func resume() {
        let waiting = onQueue {
            defer { held = nil }
            return held ?? []
        }
        for work in waiting { soon(work) }
    }

    // MARK: Subframes

    /// Adds a subframe of `origin` (`nil`: an opaque origin) running `runtime`, whose document the
    /// host delivers to, as the WebKitGTK host does through Keystone's web-process extension. Its
    /// calls report a subframe of `origin` with its document.
    func addSubframe(origin: String?, runtime: PageRuntime, scripts: [String]) throws(BridgeError) -> JavaScriptPage {
        try onQueue { () throws(BridgeError) in
            let document = nextFrameDocument()
            var child = setup
            child.frame = CallerFrame(isMainFrame: false, origin: origin, document: document)
            child.runtime = runtime
            child.scripts = scripts
            let subframe = try JavaScriptPage(subframeOf: self, setup: child)
            subframes[document] = subframe
            return subframe
        }
    }

    /// Removes this subframe from its page: its document goes, as its host reports.
    func remove() {
        onQueue {
            guard let parent, let gone = currentFrame.document else { return }
            parent.subframes[gone] = nil
            document.end()
            hub.frameDidUnload(gone)
        }
    }

    func nextFrameDocument() -> FrameDocument {
        lastFrameDocument += 1
        return FrameDocument(rawValue: lastFrameDocument)
    }
}
