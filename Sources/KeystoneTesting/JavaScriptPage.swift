// JavaScriptPage.swift — a page without a browser that runs the JavaScript that ships: Keystone's
// page runtime, and the page's own scripts, in JavaScriptCore, with the host kit's session as its
// host.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// A page that runs Keystone's shipped page runtime (`keystone-bridge.js`) and any script a test
/// gives it in JavaScriptCore (Apple's framework; Debian's `libjavascriptcoregtk-4.1` on Linux),
/// attached to a hub through the same `HostSession` a real host uses. Nothing of what the page
/// does is re-implemented in Swift: a test of it tests the runtime an app ships.
///
/// The page's window has what the runtime and ordinary page code reach for (events, `location`,
/// `navigator`, `crypto`, `btoa`/`atob`, `AbortController`, `ReadableStream`, `TextEncoder`, timers,
/// `prompt`, WebKit's script message handler, and a `fetch` of the byte channel its host serves), no
/// DOM. Its timers run on the clock the page is given (a ``ManualClock`` in a deterministic test; a
/// timer of no delay runs right after the script that set it), and its random numbers are the same
/// in every run. Everything the page runs, it runs on one queue of its own, in order.
///
/// ```swift
/// let page = try JavaScriptPage(hub: keystone)
/// try await page.evaluate("dsBridge.register('greet', function (name) { return 'hi ' + name; })")
/// #expect(try await page.invoke("math.add", [1, 2]) == 3)
/// ```
public final class JavaScriptPage: EvaluationTarget, @unchecked Sendable {
    /// The hub the page is attached to.
    public let hub: any BridgeHub
    /// The page's origin, as its frame reports it.
    public let origin: String
    /// What the page wrote with `console.log` (and its other levels), and what its event listeners
    /// threw, in order.
    public var consoleLines: [String] { onQueue { lines } }

    let queue: DispatchQueue
    /// Held while the page runs anything: one thing at a time, on the thread that asks for it (a
    /// synchronous call runs on its caller's, as a host's does), or on `queue` for what is later.
    let lock: PageLock
    let setup: Setup
    /// The host's session: the page's own, or its main frame's for a subframe.
    let session: HostSession
    let engine: ScriptEngine
    let sleep: @Sendable (Duration) async throws -> Void
    /// The main frame's page, for a subframe.
    weak var parent: JavaScriptPage?

    // Read and written on `queue` only.
    /// The document the page shows now.
    var document: PageDocument
    /// Earlier documents the engine keeps for going back (``restoreFromBackForwardCache()``).
    var history: [PageDocument] = []
    var lines: [String] = []
    var lastCall = 0
    var conditions: [(String, CheckedContinuation<Void, Never>)] = []
    var isChecking = false
    /// What runs once a suspended page resumes; `nil` while it runs.
    var held: [@Sendable () -> Void]?
    /// The subframes of this page, by their current documents.
    var subframes: [FrameDocument: JavaScriptPage] = [:]
    var lastFrameDocument: UInt64 = 0
    /// The frame the page's calls report.
    var currentFrame: CallerFrame
    /// Swift's handlers and listeners of the page's code, by number, and the scripts that register
    /// them in each document.
    var handlers: [Int: PageHandler] = [:]
    var lastHandler = 0
    var registrations: [String] = []
    /// The page's session and local storage, by kind and origin.
    var storage: [String: [String: String]] = [:]
    /// The address of the page's current document.
    var address: String
    /// Timers of no delay waiting to fire, in order.
    var readyTimers: [(Int, WeakDocument)] = []

    /// How a page is made: who it is, what it runs, and what its host serves it.
    struct Setup: Sendable {
        var frame: CallerFrame
        var address: String
        /// The page's runtime: Keystone's, or the dsbridge.js stand-in.
        var runtime: PageRuntime = .keystone
        /// The page's own scripts, run after its runtime.
        var scripts: [String] = []
        /// Whether a new document stays `loading` until ``finishLoading()``.
        var loads = false
        /// Whether the host serves the page Keystone's byte channel.
        var servesBytes = false
    }

    /// A page of `origin` at `address` (the origin's root by default), attached to `hub`, with
    /// Keystone's runtime loaded and its document reported; its timers run on `clock`. The page's
    /// `scripts` run after the runtime in every document of the page (a script that reloads the
    /// page, `location.reload()`, runs again in the next one, as in a browser; `sessionStorage` and
    /// `localStorage` outlive the document).
    /// - Throws: `BridgeError` when the runtime cannot be read from the package's resources, or a
    ///   script of its own fails to run.
    public convenience init<C: Clock<Duration> & Sendable>(
        hub: any BridgeHub, origin: String = "https://app.example", address: String? = nil, scripts: [String] = [], clock: C
    ) throws(BridgeError) {
        let setup = Setup(frame: CallerFrame(isMainFrame: true, origin: origin), address: address ?? origin + "/", scripts: scripts)
        try self.init(hub: hub, setup: setup, clock: clock, attaches: true)
    }

    /// A page whose timers run on the continuous clock.
    public convenience init(hub: any BridgeHub, origin: String = "https://app.example", address: String? = nil, scripts: [String] = []) throws(BridgeError) {
        try self.init(hub: hub, origin: origin, address: address, scripts: scripts, clock: ContinuousClock())
    }

    /// A main frame's page made as `setup` says; the hub delivers to it when it `attaches`.
    init<C: Clock<Duration> & Sendable>(hub: any BridgeHub, setup: Setup, clock: C, attaches: Bool) throws(BridgeError) {
        self.hub = hub
        self.setup = setup
        origin = setup.frame.origin ?? "null"
        queue = DispatchQueue(label: "KeystoneTesting.JavaScriptPage")
        lock = PageLock()
        sleep = { duration in try await clock.sleep(for: duration) }
        session = HostSession(everyOriginOf: hub, options: HostOptions())
        engine = ScriptEngine()
        document = PageDocument()
        currentFrame = setup.frame
        address = setup.address
        engine.page = self
        session.engine = engine
        if setup.servesBytes { session.serveBytes(over: URLSchemeTransport.keystone, isSecure: true) }
        try onQueue { () throws(BridgeError) in try startDocument() }
        if attaches { hub.attach(to: self) }
    }

    /// A subframe of `parent`, whose document the host delivers to.
    init(subframeOf parent: JavaScriptPage, setup: Setup) throws(BridgeError) {
        hub = parent.hub
        self.setup = setup
        origin = setup.frame.origin ?? "null"
        queue = parent.queue
        lock = parent.lock
        sleep = parent.sleep
        session = parent.session
        engine = parent.engine
        document = PageDocument()
        currentFrame = setup.frame
        address = setup.address
        self.parent = parent
        try onQueue { () throws(BridgeError) in try startDocument() }
    }

    deinit {
        for document in history + [document] { document.end() }
    }

    // MARK: Running scripts

    /// Runs `script` in the page, after everything already waiting there, and returns its
    /// completion value as JSON (`undefined` is `null`).
    /// - Throws: `BridgeError` (`failed`) with the exception's text when the script throws, or
    ///   when its value has no JSON form.
    @discardableResult
    public func evaluate(_ script: String) async throws(BridgeError) -> JSONValue {
        let result: Result<JSONValue, BridgeError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.onQueue { self.run(script) }) }
        }
        return try result.get()
    }

    /// Calls `method` as a page does (`dsBridge.invoke(method, argument)`) and returns what its
    /// promise resolves to, as JSON.
    /// - Throws: `BridgeError` with the code and message the promise was rejected with.
    public func invoke(_ method: String, _ argument: JSONValue = .null) async throws(BridgeError) -> JSONValue {
        let json = String(decoding: (try? DefaultJSONSerializer().encode(argument)) ?? Data("null".utf8), as: UTF8.self)
        let settled = await settle { id in
            "__keystoneTesting.invoke(\(id), \(JSONText(quoting: method).string), \(json), undefined, '')"
        }
        let (text, _) = try settled.get()
        return (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
    }

    /// Evaluates `expression` in the page, after what waits there, and returns what it resolves to
    /// (a promise's value, or the value itself) as JSON, each bytes value in it as base64.
    /// - Throws: `BridgeError` with the code and message the promise was rejected with.
    public func awaited(_ expression: String) async throws(BridgeError) -> JSONValue {
        let settled = await settle { id in "__keystoneTesting.settle(\(id), (\(expression)), \(JSONText(quoting: Self.partMarker).string))" }
        let (text, parts) = try settled.get()
        return (try? Self.value(text, parts, DefaultJSONSerializer())) ?? .null
    }

    /// Returns once `expression` is true in the page: checked now, and again after each script,
    /// batch or timer the page runs, so a test waits for what Swift's work delivers without
    /// polling or sleeping.
    public func until(_ expression: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.onQueue {
                    self.conditions.append((expression, continuation))
                    self.checkConditions()
                }
            }
        }
    }

    /// Returns once the page has nothing left to run now: every script, batch and timer of no
    /// delay queued so far, and those they queued in turn.
    public func settle() async {
        for _ in 0..<10_000 {
            let idle: Bool = await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.onQueue { self.engine.waiting == 0 }) }
            }
            if idle { return }
        }
    }

    /// Resumes the waiters whose expression is now true. The queue's only.
    func checkConditions() {
        guard !isChecking, !conditions.isEmpty else { return }
        isChecking = true
        defer { isChecking = false }
        let waiting = conditions
        conditions = []
        for (expression, continuation) in waiting {
            if case .success(.bool(true)) = run("!!(" + expression + ")") {
                continuation.resume()
            } else {
                conditions.append((expression, continuation))
            }
        }
    }

    /// Opens call `id` of the current document, runs the script `start(id)` makes, and returns how
    /// the call settled: its value's JSON and parts, or its error. A call whose document goes first
    /// settles `pageGone`.
    func settle(_ start: @escaping @Sendable (Int) -> String, parts: [Data] = []) async -> Result<(String, [Data]), BridgeError> {
        await withCheckedContinuation { continuation in
            self.soon {
                self.lastCall += 1
                let id = self.lastCall
                self.document.calls[id] = .settle { continuation.resume(returning: $0) }
                if case .failure(let error) = self.run(start(id), parts: parts) {
                    self.document.calls.removeValue(forKey: id)?.end(.failure(error))
                }
            }
        }
    }

    // MARK: On the page's queue

    /// Runs `work` in the page, on the current thread, once nothing else runs there, and returns
    /// what it returns: at once when the thread runs the page already (a handler of the page's
    /// calling the page).
    func onQueue<T, Failure: Error>(_ work: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        let owner = lock.owner
        lock.owner = ObjectIdentifier(Thread.current)
        defer {
            lock.owner = owner
            lock.unlock()
        }
        return try work()
    }

    /// Runs `script` now (on the queue) in the current document and returns its completion value
    /// as JSON; `parts` are the page's `__keystoneParts` while it runs.
    func run(_ script: String, parts: [Data] = []) -> Result<JSONValue, BridgeError> {
        defer { checkConditions() }
        return document.run(script, parts: parts)
    }

    // MARK: EvaluationTarget

    /// Runs `batch` in the page as its host's session does: after what waits, only while its page
    /// load is the current one, guarded to its document.
    public func evaluate(_ batch: ScriptBatch) {
        session.evaluate(batch) {}
    }

    // MARK: The document

    /// A new document in a context of its own, with the window, the natives, the host's page-world
    /// scripts and the page's runtime; the host hears of it as of a real one, then the page's own
    /// scripts run.
    func startDocument() throws(BridgeError) {
        document = try PageDocument(page: self)
        // The host hears of the document at its start, as an engine's isolated world reports it:
        // before any of the page's own scripts runs.
        if setup.frame.isMainFrame {
            session.documentCommitted()
            if case .success(.string(let token)) = run("window.__keystoneDocument") {
                document.token = token
                session.documentReported("start " + token, from: setup.frame)
            }
        }
        for script in registrations + setup.scripts { _ = try run(script).get() }
    }
}

/// A page's lock, which knows the thread that holds it.
final class PageLock: @unchecked Sendable {
    private let recursive = NSRecursiveLock()
    private let holder = Locked<ObjectIdentifier?>(nil)

    func lock() { recursive.lock() }
    func unlock() { recursive.unlock() }

    /// The thread that holds the lock, while one does.
    var owner: ObjectIdentifier? {
        get { holder.withLock { $0 } }
        set { holder.withLock { $0 = newValue } }
    }

    /// Whether the current thread holds the lock.
    var isHeld: Bool { owner == ObjectIdentifier(Thread.current) }
}

/// The engine calls of a ``JavaScriptPage``'s session: its documents', on its queue.
final class ScriptEngine: HostEngine, @unchecked Sendable {
    weak var page: JavaScriptPage?
    /// What is queued to run on the page's queue and has not run yet. The queue's only.
    var waiting = 0
    /// Ends the calls a test waits on whose callbacks a script of native's closed.
    static let sweep = "globalThis.__keystoneTesting && __keystoneTesting.sweep()"

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        guard let page else { return completion(.failure(BridgeError(code: .pageGone, message: "the page has gone"))) }
        let result = page.run(script)
        _ = page.run(Self.sweep)
        switch result {
        case .success(let value):
            guard valueLimit != nil else { return completion(.success(nil)) }
            completion(.success(String(decoding: (try? DefaultJSONSerializer().encode(value)) ?? Data("null".utf8), as: UTF8.self)))
        case .failure(let error):
            completion(.failure(error))
        }
    }

    func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void) {
        defer { done() }
        guard let subframe = page?.subframes[frame] else { return }
        _ = subframe.run(script)
        _ = subframe.run(Self.sweep)
    }

    /// What is for now runs now, as an engine runs a script it is handed before the call returns:
    /// a batch reaches the page before the hub's evaluator hands over the next.
    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        guard let page else { return dropped() }
        guard delay == .zero else { return page.later(after: delay, work) }
        page.onQueue {
            if page.held != nil { return page.held!.append(work) }
            work()
            page.checkConditions()
        }
    }

    /// The page is reloaded by ``JavaScriptPage/terminateWebProcess(at:)`` itself, at once.
    func reload() {}

    let lastReport = Locked<WebProcessTermination?>(nil)

    func report(_ termination: WebProcessTermination) {
        lastReport.withLock { $0 = termination }
    }
}

extension JavaScriptPage {
    /// Runs `work` on the page's queue after `delay` (none: after what waits there), or once the
    /// page resumes when it is suspended then.
    func later(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let engine = engine
        let queue = queue
        onQueue { engine.waiting += 1 }
        let run: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            self.onQueue {
                engine.waiting -= 1
                if self.held != nil { return self.held!.append(work) }
                work()
                self.checkConditions()
            }
        }
        guard delay > .zero else { return queue.async(execute: run) }
        let sleep = sleep
        Task {
            try? await sleep(delay)
            queue.async(execute: run)
        }
    }
}
