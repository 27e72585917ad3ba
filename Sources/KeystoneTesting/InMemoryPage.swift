// InMemoryPage.swift — a page without a browser: the page runtime that ships, run in JavaScriptCore,
// with a typed Swift API for what a page's code does.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A stand-in for a web page, for testing interfaces without a browser.
///
/// The page is a ``JavaScriptPage``: it runs a page runtime in JavaScriptCore, attached to the hub
/// through the host kit's session, as a web view host does. Its methods do what a page's code does
/// with that runtime's API (`dsBridge.call`, `invoke`, `stream`, `register`, `on`…), so every text
/// on the wire is the runtime's own.
///
/// As `PageRuntime/keystone` it runs Keystone's shipped runtime (`keystone-bridge.js`), and its
/// host serves it the byte channel. As `PageRuntime/dsbridge` (the default) it runs a stand-in for
/// dsbridge.js 3.1.4 written from its protocol (same globals, same wire texts); a test that has
/// the real dsbridge.js, or a page's own scripts, gives them in `scripts`.
///
/// The document loads until ``initialize()``, as a page's scripts register their handlers before
/// its runtime announces itself: results wait for the announcement, so an asynchronous call made
/// before it fails at once with `pageGone` rather than waiting for ever.
///
/// ```swift
/// let keystone = Keystone()
/// try keystone.register(Math(), namespace: "math")
/// let page = InMemoryPage(hub: keystone)
/// let sum: Double = try page.call("math.add", [1, 2])
/// ```
///
/// A page is the page of the hub it is given: a Keystone's first page for the Keystone itself. For
/// several web views on one Keystone, give each further page one the Keystone adds:
/// `InMemoryPage(hub: keystone.addPage())`.
public final class InMemoryPage: EvaluationTarget, @unchecked Sendable {
    /// A page handler's way to answer an asynchronous Swift call, once or many times.
    public struct Reply: Sendable {
        let send: @Sendable (JSONValue, Bool) -> Void
        let cancelled: @Sendable () -> Bool
        /// The durable id of a durable Swift call (`Keystone.call(_:arguments:as:durable:)`), the
        /// same in every document the call goes to, as Keystone's runtime gives it to the handler's
        /// responder; `nil` for any other call, and on a dsbridge.js page.
        public let durable: String?

        /// Sends a result; `complete: false` keeps the call open for more (dsbridge.js semantics).
        /// After Swift withdrew the call, Keystone's runtime drops it.
        public func callAsFunction(_ value: JSONValue, complete: Bool = true) {
            send(value, complete)
        }

        /// Whether Swift withdrew the call (cancelled, timed out, or a stream left early), as the
        /// `signal` of Keystone's runtime's responder says; a dsbridge.js page never hears it.
        public var isCancelled: Bool { cancelled() }
    }

    /// The hub this page talks to.
    public let hub: any BridgeHub
    /// The page-side script this page runs.
    public let runtime: PageRuntime
    /// The page, in JavaScriptCore.
    public let page: JavaScriptPage
    let serializer: any JSONSerializer
    private let state = Locked(State())
    /// The page a subframe belongs to; `nil` for a page of its own.
    private let parent: InMemoryPage?

    struct State {
        var batches: [ScriptBatch] = []
        /// Who waits for the page to have received something (``untilReceived(_:)``).
        var receiptWaiters: [(condition: @Sendable ([PageMessage]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        /// The subframes of this page, held weakly, as each holds its page.
        var subframes: [WeakPage] = []
    }

    struct WeakPage {
        weak var page: InMemoryPage?
    }

    /// The marker a bytes value crosses between Swift and the page under, before its index.
    static let marker = JavaScriptPage.partMarker

    /// Creates a page attached to `hub` whose calls come from `frame`, running `runtime` and then
    /// `scripts` (the page's own code, or a real dsbridge.js). As `PageRuntime/keystone`, its host
    /// serves it a byte channel unless `servesBytes` is `false`: then every `Data` travels as
    /// base64, as where a host has none. Call ``initialize()`` once the page's handlers are
    /// registered.
    public init(
        hub: any BridgeHub,
        runtime: PageRuntime = .dsbridge,
        frame: CallerFrame = .mainFrame,
        serializer: any JSONSerializer = DefaultJSONSerializer(),
        servesBytes: Bool = true,
        scripts: [String] = []
    ) {
        self.hub = hub
        self.runtime = runtime
        self.serializer = serializer
        parent = nil
        let setup = JavaScriptPage.Setup(
            frame: frame, address: (frame.origin ?? "https://page.invalid") + "/", runtime: runtime, scripts: scripts, loads: true,
            servesBytes: runtime == .keystone && servesBytes)
        do {
            page = try JavaScriptPage(hub: hub, setup: setup, clock: ContinuousClock(), attaches: false)
        } catch {
            preconditionFailure("the in-memory page cannot start: \(error.message)")
        }
        hub.attach(to: self)
    }

    private init(subframeOf parent: InMemoryPage, page: JavaScriptPage, runtime: PageRuntime) {
        hub = parent.hub
        self.runtime = runtime
        serializer = parent.serializer
        self.parent = parent
        self.page = page
    }

    /// The frame every call of this page reports, as a host would learn it from the engine. A
    /// subframe's (``addSubframe(origin:runtime:scripts:)``) names its current document.
    public var frame: CallerFrame { page.frame }

    /// Whether the hub told the page, when it announced itself, that it has a byte channel: the
    /// `Data` in this page's values then moves as raw bytes.
    public var hasByteChannel: Bool {
        guard runtime == .keystone, let answer = page.onQueue({ page.document.announcement }) else { return false }
        struct Announcement: Decodable { var data: Inner? }
        struct Inner: Decodable { var bytes: Bool? }
        return (try? serializer.decode(Announcement.self, from: Data(answer.utf8)))?.data?.bytes == true
    }

    // MARK: Subframes

    /// Adds a subframe of `origin` (`nil`: an opaque origin) to the page, whose document the host
    /// delivers to, as the WebKitGTK host does through Keystone's web-process extension: its
    /// asynchronous calls are answered in it, it answers Swift's calls made to it
    /// (`Keystone/page(_:)`), and its document goes when it navigates (``navigate()``) or is removed
    /// (``remove()``). Its calls report a subframe of `origin` with its document, which the call
    /// policy must admit (`DefaultCallPolicy/allowsSubframes`). Call ``initialize()`` on it as on
    /// a page.
    public func addSubframe(origin: String?, runtime: PageRuntime = .keystone, scripts: [String] = []) -> InMemoryPage {
        do {
            let subframe = InMemoryPage(subframeOf: self, page: try page.addSubframe(origin: origin, runtime: runtime, scripts: scripts), runtime: runtime)
            state.withLock { $0.subframes.append(WeakPage(page: subframe)) }
            return subframe
        } catch {
            preconditionFailure("the in-memory subframe cannot start: \(error.message)")
        }
    }

    /// Removes this subframe from its page: its document goes, as its host reports
    /// (`BridgeHub/frameDidUnload(_:)`), and nothing more reaches it. A page of its own stays.
    public func remove() {
        page.remove()
    }

    // MARK: What the page received

    /// Every batch evaluated in this page, in order.
    public var receivedBatches: [ScriptBatch] { state.withLock { $0.batches } }

    /// Every message evaluated in this page, in order.
    public var receivedMessages: [PageMessage] { receivedBatches.flatMap(\.messages) }

    /// Returns once the messages the page has received satisfy `condition`: at once when they do
    /// already, otherwise when a batch that makes them arrives. A test's way to wait for what another
    /// task sends, without polling.
    package func untilReceived(_ condition: @escaping @Sendable ([PageMessage]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isMet = state.withLock { state in
                guard !condition(state.batches.flatMap(\.messages)) else { return true }
                state.receiptWaiters.append((condition, continuation))
                return false
            }
            if isMet { continuation.resume() }
        }
    }

    /// The names of the callbacks the page's runtime still has open (a settled call leaves none).
    public var liveCallbacks: [String] {
        guard case .success(.array(let names)) = page.onQueue({ page.run("__keystoneTesting.callbacks()") }) else { return [] }
        return names.compactMap { if case .string(let name) = $0 { name } else { nil } }.sorted()
    }

    // MARK: EvaluationTarget

    /// Records `batch` where it is bound (this page, or one of its subframes), and hands it to the
    /// page's host session, which runs it in its document.
    public func evaluate(_ batch: ScriptBatch) {
        if batch.pageLoad == hub.pageLoad {
            let bound = batch.frame.flatMap { document in
                state.withLock { $0.subframes.lazy.compactMap(\.page).first { $0.frame.document == document } }
            }
            (bound ?? self).received(batch)
        }
        page.evaluate(batch)
    }

    private func received(_ batch: ScriptBatch) {
        let met = state.withLock { state in
            state.batches.append(batch)
            guard !state.receiptWaiters.isEmpty else { return [CheckedContinuation<Void, Never>]() }
            let messages = state.batches.flatMap(\.messages)
            let met = state.receiptWaiters.filter { $0.condition(messages) }
            state.receiptWaiters = state.receiptWaiters.filter { !$0.condition(messages) }
            return met.map(\.continuation)
        }
        for continuation in met { continuation.resume() }
    }

    // MARK: The page's documents

    /// The page's scripts have run: the document finishes loading, and its runtime announces itself
    /// (`_dsb.dsinit`), as it does once the page registers its handlers.
    public func initialize() {
        page.onQueue {
            page.document.finishLoading()
            page.runReadyTimers()
        }
    }

    /// Calls `window.close()`, which the runtime turns into `_dsb.closePage`.
    public func close() {
        _ = page.onQueue { page.run("window.close()") }
    }

    /// The raw protocol: `prompt("_dsbridge=" + method, argumentText)` and its answer, as a page's
    /// script can make it without its runtime. As a host does, the page's frame is admitted first
    /// (`BridgeHub/admitSender(_:)`): a refused frame gets the one refusal a host gives, and nothing
    /// it sent is read.
    public func prompt(_ method: String, argumentText: String?) -> String? {
        hub.refusal(of: frame) ?? hub.handlePrompt(BridgePrompt.prefix + method, defaultText: argumentText, frame: frame)
    }

    /// Runs `script` in the page (its completion value as JSON), after what already waits there:
    /// the page's own code, with its runtime's API, beside what the test does in Swift.
    @discardableResult
    public func evaluate(_ script: String) async throws(BridgeError) -> JSONValue {
        try await page.evaluate(script)
    }

    /// A new document replaces this page's (a navigation or a reload), as a host reports the
    /// engine's commit and the new document's start: Swift's calls waiting for the page fail with
    /// `pageGone`, the old document's calls settle `pageGone`, and Swift's calls from now on wait
    /// for the next ``initialize()``, which stands for the new document's.
    public func navigate() {
        do { try page.navigate() } catch { preconditionFailure("the in-memory page cannot navigate: \(error.message)") }
    }

    /// The web view goes (its window closed, or its host gave it back), as a host reports it: the
    /// page load ends, and the hub hears that its host closed the page. A page a Keystone added
    /// (`Keystone/addPage()`) is gone for good: Swift's calls of it fail with `pageGone`. A
    /// Keystone's first page waits for the next host, as across a reload.
    public func closeWebView() {
        page.closeWebView()
    }

    /// The engine brings back the document before the current one from its back/forward cache
    /// (after ``navigate()``): a page load of its own, whose runtime announces itself again (it runs
    /// no user script anew), so Swift's calls reach it; calls made while it was hidden have settled.
    public func restoreFromBackForwardCache() {
        page.restoreFromBackForwardCache()
        page.onQueue { page.runReadyTimers() }
    }

    /// The page's web process ends at `time` (on any clock, the same each time), as a host reports
    /// it: the page load ends, the page is loaded again in a new document (call ``initialize()``),
    /// and the report says whether a host would reload the page.
    @discardableResult
    public func terminateWebProcess(at time: Duration) -> WebProcessTermination? {
        return try? page.terminateWebProcess(at: time)
    }

    /// The app goes to the background and the system suspends the page's web process with it, as
    /// iOS does: the page runs nothing until it resumes. What Swift sends it meanwhile waits, as the
    /// engine keeps scripts for a suspended process; Swift's own work goes on (a durable call runs
    /// to its end). Make no call of the page's while it is suspended.
    public func suspend() {
        page.suspend()
    }

    /// The app comes back to its page as it left it: what Swift sent it meanwhile runs, in order.
    public func resume() {
        page.resume()
    }

    /// The app comes back to find that the system ended the page's web process while it was
    /// suspended, as iOS does under memory pressure: what Swift sent meanwhile is lost with it, and
    /// the host hears of the end as WKWebView reports it on return (its reason unknown), at `time`
    /// (on any clock, the same each time). The page load ends, as with ``terminateWebProcess(at:)``.
    @discardableResult
    public func resume(afterWebProcessEndedAt time: Duration) -> WebProcessTermination? {
        return try? page.terminateWebProcess(at: time, reason: .unknown)
    }

    /// Throws `pageGone` when the current document has not announced itself: a call's results
    /// would wait for it.
    func requireInitialized() throws(BridgeError) {
        guard page.onQueue({ page.document.hasLoaded }) else {
            throw BridgeError(
                code: .pageGone,
                message: "the in-memory page has not initialized: call initialize() first, as a page's runtime announces itself once its handlers are registered; results wait for it"
            )
        }
    }
}
