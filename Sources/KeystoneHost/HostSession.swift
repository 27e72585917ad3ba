// HostSession.swift — a host's decisions carried out: engine events in, engine calls out through
// the host's HostEngine, the same for every host.
import Foundation
import Keystone

/// The engine calls a host makes for its ``HostSession``, and nothing else. Every call is made on
/// the engine's thread (the GLib main loop's, the main thread), which ``runLater(after:_:dropped:)``
/// hops to.
public protocol HostEngine: AnyObject, Sendable {
    /// Evaluates `script` in the page's main frame now and hands `completion` the JSON text of its
    /// completion value (`nil` for `undefined`), or the error it threw. With a `valueLimit`, a
    /// value over that many bytes is refused before it is converted; with none, the value is not
    /// read at all (`completion` gets `nil`).
    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void)
    /// Evaluates `script` in the subframe document `frame` (`CallerFrame.document` of a call the
    /// host reported) now, or drops it when that document has gone; calls `done` once either way.
    /// An engine that names no subframe documents is handed none; the default drops the script.
    func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void)
    /// Runs `work` on the engine's thread after `delay` (zero: after what already waits there, in
    /// order), or `dropped` when it never will (the engine's loop went away).
    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void)
    /// Reloads the page, where the engine would show it again (a web view in no window stays).
    func reload()
    /// Tells the app the web process ended.
    func report(_ termination: WebProcessTermination)
}

extension HostEngine {
    public func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void) {
        done()
    }
}

/// What a host decides, carried out the same way for every host: a host turns each engine event
/// into one call of its session, and the session answers with engine calls through the host's
/// ``HostEngine``. Used on the engine's thread only, except ``evaluate(_:done:)``, which hops there.
///
/// - **Batches.** A batch goes to the page in its dialect (DSBridge's scripts, or
///   WebViewJavascriptBridge's messages), through the engine's thread in the order the evaluator
///   handed it over, only while its page load is the hub's current one, and guarded to run only in
///   that page load's document (``HostCore/guarded(_:)``); a batch for a subframe document runs
///   in that document, which the engine checks is still there.
/// - **Documents and terminations**, as ``HostCore`` decides: a page load that ends reaches the hub
///   and the dialect; a reload is scheduled on the engine's thread, backing off.
/// - **Signals.** A navigation the dialect uses as a signal is cancelled, and answered as the dialect
///   says: a queue fetched and answered a slice at a time, with the engine's other events between.
/// - **The byte channel** is served to a document that can reach it (``serveBytes(over:isSecure:)``).
public final class HostSession: @unchecked Sendable {
    /// The hub the session speaks for.
    public let hub: any BridgeHub
    /// What the session decides as every host does: documents, origins, terminations.
    public private(set) var core: HostCore
    /// The host's engine, held weakly: the host keeps its session.
    public weak var engine: (any HostEngine)?
    private let dialect: any PageDialect
    /// The clock terminations are counted on, from when the session was made.
    private let started = ContinuousClock.now
    /// The byte channel's transport while the host serves one, and whether a secure context may
    /// fetch it.
    private var bytes: (transport: any ByteTransport, isSecure: Bool)?
    /// Whether the host has closed its page.
    private var isClosed = false

    /// Creates the session for a page of `hub` that gets no scripts of the host's (an in-memory
    /// page): its allowed origins are not read.
    package init(everyOriginOf hub: any BridgeHub, options: HostOptions) {
        self.hub = hub
        core = HostCore(reloadsAfterTermination: options.reloadsAfterTermination)
        dialect = options.wire.dialect(hub: hub)
    }

    /// Creates the session for `hub`, serving pages as `options` say; the hub hears first of the
    /// app's origin the host serves, if any.
    /// - Throws: `BridgeError` `invalidRegistration` for an allowed origin of the hub's not written
    ///   as the engine writes origins (``HostCore/init(allowedOrigins:reloadsAfterTermination:terminationLimit:)``),
    ///   or an app origin whose scheme or host cannot be served (``AppOrigin/check()``).
    public init(hub: any BridgeHub, options: HostOptions) throws(BridgeError) {
        self.hub = hub
        if let app = options.appOrigin {
            try app.check()
            hub.servesAppOrigin(app.origin)
        }
        core = try HostCore(allowedOrigins: hub.runtimeOrigins, reloadsAfterTermination: options.reloadsAfterTermination)
        dialect = options.wire.dialect(hub: hub)
        engine = nil
        if let warning = Self.subframesWithoutRuntime(hub: hub, options: options) {
            (hub as? Keystone)?.components.logging.log(.warning, warning)
        }
    }

    /// Creates the session for `page`, a page a host has just opened (`BridgeHub/openPage()`), which
    /// it closes when the session cannot be made.
    public convenience init(opening page: any BridgeHub, options: HostOptions) throws(BridgeError) {
        do {
            try self.init(hub: page, options: options)
        } catch {
            page.closePage()
            throw error
        }
    }

    /// The warning for a host that injects Keystone's runtime into the main frame only while the
    /// hub's policy admits subframes: their documents could call, but get no runtime to call with.
    /// `nil` when the two agree (or the app brings its own runtime). The policy is asked about a
    /// subframe of the first origin the hub allows (any origin when it allows every one).
    package static func subframesWithoutRuntime(hub: any BridgeHub, options: HostOptions) -> String? {
        guard options.injectsPageRuntime, !options.injectsIntoSubframes else { return nil }
        let origin = hub.runtimeOrigins?.sorted().first ?? "https://subframe.example"
        guard hub.refusal(of: CallerFrame(isMainFrame: false, origin: origin, document: FrameDocument(rawValue: 1))) == nil else { return nil }
        return "the call policy admits subframes (of \(origin), for one), but the host injects Keystone's runtime into the main frame only: "
            + "a subframe's document gets no runtime to call with. Make the host with HostOptions(injectsIntoSubframes: true) "
            + "(Security, \"Giving the bridge to an iframe\")"
    }

    /// The current page load's main document, as its isolated world reported it.
    public var mainDocument: CallerFrame { core.mainDocument }

    /// The addresses of the page dialect's signals as a JavaScript regular expression's source
    /// (case-insensitive), for a host that watches for them in the page's own document; `nil` when
    /// the dialect makes none.
    public var signalPattern: String? { dialect.signalPattern }

    // MARK: Batches

    /// Evaluates `batch` on the engine's thread and calls `done` when the engine has run it, or when
    /// it was dropped (made for a page load that has gone, or the engine's loop went away first).
    /// May be called from any thread.
    public func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        let script = dialect.script(for: batch)
        guard !script.isEmpty, let engine else { return done() }
        let pageLoad = batch.pageLoad
        // Always through the engine's thread, even from it: the batches keep their order. There the
        // batch is dropped if its page load has gone (page changes reach the hub on that thread too,
        // so this is where the engine would run it).
        let frame = batch.frame
        engine.runLater(
            after: .zero,
            { [self] in
                guard pageLoad == hub.pageLoad, let engine = self.engine else { return done() }
                if let frame { return engine.evaluate(script, in: frame, done: done) }
                engine.evaluate(core.guarded(script), valueLimit: nil) { _ in done() }
            }, dropped: done)
    }

    // MARK: The app's JavaScript

    /// Evaluates `javascript` in the page's main frame, after every batch already handed to the
    /// engine, and returns its completion value as JSON (`undefined` is `null`). May be called from
    /// any task.
    ///
    /// The value is measured in the page (``HostCore/measuredScript(_:limit:)``): one past the hub's
    /// limit never crosses to the app. Where the page's Content Security Policy forbids `eval`, the
    /// script runs as it is and its value is measured as it arrives.
    /// - Throws: `BridgeError` (`failed`) when the script throws or its value is not JSON;
    ///   `limitExceeded` when its value is larger than the hub's `BridgeLimits/evaluationResultBytes`;
    ///   `pageGone` when the engine went away first.
    public func evaluate(javascript: String) async throws(BridgeError) -> JSONValue {
        let limit = hub.limits.evaluationResultBytes
        // The measured value is a string of at most `limit` UTF-16 code units, `=` before it.
        let measured = try await evaluateLater(HostCore.measuredScript(javascript, limit: limit), valueLimit: 3 * limit + 16).get()
        guard case .value(let value) = try HostCore.measuredValue(Self.string(.success(measured)), limit: limit) else {
            let json = try await evaluateLater(javascript, valueLimit: limit).get()
            return try HostCore.scriptValue(json: json.map { Data($0.utf8) }, limit: limit)
        }
        return value
    }

    /// Evaluates `script` on the engine's thread after what waits there (every batch already handed
    /// over): the JSON text of its value, at most `valueLimit` bytes, or the error it threw.
    private func evaluateLater(_ script: String, valueLimit: Int) async -> Result<String?, BridgeError> {
        let gone = BridgeError(code: .pageGone, message: "the web view went away first")
        guard let engine else { return .failure(gone) }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<String?, BridgeError>, Never>) in
            // A script dropped before it ran (the engine's loop went away) answers instead of leaving
            // its caller waiting.
            engine.runLater(
                after: .zero,
                { [weak engine] in
                    guard let engine else { return continuation.resume(returning: .failure(gone)) }
                    engine.evaluate(script, valueLimit: valueLimit) { continuation.resume(returning: $0) }
                }, dropped: { continuation.resume(returning: .failure(gone)) })
        }
    }

    // MARK: Documents

    /// The engine committed a new main document (a provisional load that fails commits nothing).
    public func documentCommitted() {
        perform(core.documentCommitted())
    }

    /// The host's isolated world reported `text` (`HostScripts` writes it) from `frame`: the main
    /// document's token at its start or on its restore from the back/forward cache. Anything else,
    /// or a report from a subframe, changes nothing.
    public func documentReported(_ text: String, from frame: CallerFrame) {
        guard frame.isMainFrame, let report = HostScripts.documentReport(text) else { return }
        perform(core.documentReported(token: report.token, restored: report.restored, origin: frame.origin))
        // Before any of the document's own scripts runs, so before its first call: the channel is
        // served only to a document that can reach it.
        guard let bytes else { return }
        if HostCore.documentReachesByteChannel(origin: frame.origin, channelIsSecure: bytes.isSecure) {
            hub.serveBytes(over: bytes.transport)
        } else {
            hub.stopServingBytes()
        }
    }

    // MARK: Subframe documents

    /// What a subframe's report changed (``subframeReported(_:from:)``).
    public enum SubframeReport: Sendable, Hashable {
        /// The document started (or was restored), numbered so: deliver to it in the frame the
        /// report came from.
        case started(FrameDocument)
        /// The document has ended; the hub has heard.
        case ended(FrameDocument)
    }

    /// The host's isolated world in a subframe reported `text` from `frame`, as the engine names
    /// it: its document's start, restore or end (`HostScripts/documentReporting(post:subframes:)`),
    /// for a host whose engine cannot tell a subframe's documents apart itself. `nil` when nothing
    /// changed (not a subframe's report, an origin not allowed, a document already ended).
    public func subframeReported(_ text: String, from frame: CallerFrame) -> SubframeReport? {
        guard !frame.isMainFrame, frame.isAttested, let report = HostScripts.subframeReport(text) else { return nil }
        guard report.ended else {
            return core.subframeStarted(token: report.token, origin: frame.origin, nestedIn: report.nestedIn).map(SubframeReport.started)
        }
        guard let document = core.subframeEnded(token: report.token) else { return nil }
        hub.frameDidUnload(document)
        return .ended(document)
    }

    /// The caller of a bridge prompt whose default text is `defaultText`, from `frame` as the
    /// engine names it, and the default text the hub reads: a subframe's prompt that names its
    /// document (`HostScripts/subframePrompts`) is that document's when the engine's frame is of the
    /// document's origin; the mark is taken off every prompt, from any frame.
    ///
    /// The page world's scripts may run before the isolated world's report of the document reaches
    /// the host (WebKit runs the worlds' document-start scripts in no set order, and a prompt does
    /// not wait for a message), so a prompt may name its document first: it is numbered then, of the
    /// origin the engine gives, and `named` says so (deliver to it in the prompt's frame until the
    /// report comes). A name a page script makes up names a document that is in no frame: the first
    /// script for it finds it gone.
    public func caller(ofPromptWith defaultText: String?, frame: CallerFrame) -> PromptCaller {
        guard let defaultText, defaultText.hasPrefix(HostScripts.documentMark) else { return PromptCaller(defaultText: defaultText, frame: frame) }
        let rest = defaultText.dropFirst(HostScripts.documentMark.count)
        guard let newline = rest.firstIndex(of: "\n") else { return PromptCaller(defaultText: defaultText, frame: frame) }
        let text = String(rest[rest.index(after: newline)...])
        let token = String(rest[..<newline])
        if let caller = core.subframeCaller(token: token, frame: frame) { return PromptCaller(defaultText: text, frame: caller) }
        guard !frame.isMainFrame, frame.isAttested, HostScripts.isDocumentToken(token), let document = core.subframeStarted(token: token, origin: frame.origin) else {
            return PromptCaller(defaultText: text, frame: frame)
        }
        // Named before its report: nested, until the report may say otherwise for its later calls.
        var caller = CallerFrame(isMainFrame: false, origin: frame.origin, document: document)
        caller.nestedIn = ""
        return PromptCaller(defaultText: text, frame: caller, named: document)
    }

    /// Who made a bridge prompt (``caller(ofPromptWith:frame:)``).
    public struct PromptCaller: Sendable, Hashable {
        /// The prompt's default text, without the document's mark.
        public var defaultText: String?
        /// The caller, with its subframe document where it named one.
        public var frame: CallerFrame
        /// The subframe document the prompt numbered, before its report came.
        public var named: FrameDocument?
    }

    /// The host found the subframe document `document` gone (its frame has gone, or holds another
    /// document): the hub hears, once.
    public func subframeGone(_ document: FrameDocument) {
        guard core.subframeEnded(document) else { return }
        hub.frameDidUnload(document)
    }

    /// A subframe document the engine numbered itself has gone (KeystoneGTK's web-process extension
    /// numbers them, and says so, as does the document's own isolated world when it is hidden): the
    /// hub hears, which lets go of a document once. One the core named goes as ``subframeGone(_:)``.
    public func numberedDocumentGone(_ document: FrameDocument) {
        guard !core.namesSubframe(document) else { return subframeGone(document) }
        hub.frameDidUnload(document)
    }

    /// The web process ended for `reason`: the page load ends, the app hears of it, and the page is
    /// reloaded as ``HostCore`` says, unless `reloads` is `false` (the app reloads it itself).
    public func webProcessTerminated(_ reason: WebProcessTermination.Reason, reloads: Bool = true) {
        webProcessTerminated(reason, at: started.duration(to: .now), reloads: reloads)
    }

    /// The web process ended for `reason` at `time`, on a clock of the caller's (the same each time).
    package func webProcessTerminated(_ reason: WebProcessTermination.Reason, at time: Duration, reloads: Bool = true) {
        perform(core.webProcessTerminated(reason, at: time), reloads: reloads)
    }

    /// The host is going, or gives the web view back: the page load ends, and the hub hears that
    /// the host has closed its page (`BridgeHub/closePage()`), once.
    public func closed() {
        perform(core.closed())
        if bytes != nil { hub.stopServingBytes() }
        bytes = nil
        guard !isClosed else { return }
        isClosed = true
        hub.closePage()
    }

    /// Carries out what the host core decided.
    private func perform(_ actions: [HostCore.Action], reloads: Bool = true) {
        for action in actions {
            switch action {
            case .unloadPage:
                hub.pageDidUnload()
                dialect.pageDidUnload()
            case .reportTermination(let termination):
                engine?.report(termination)
            case .reload(let delay):
                guard reloads, let engine else { continue }
                engine.runLater(after: delay, { [weak engine] in engine?.reload() }, dropped: {})
            }
        }
    }

    // MARK: The byte channel

    /// Serves the byte channel over `transport` from now on, to every document that can reach it:
    /// a secure context (an https document) only when the channel `isSecure` (WebKit blocks a fetch
    /// of a scheme that is not as mixed content).
    public func serveBytes(over transport: any ByteTransport, isSecure: Bool) {
        bytes = (transport, isSecure)
        hub.serveBytes(over: transport)
    }

    /// Serves no byte channel from now on: the hub stops, and documents that start get none.
    package func stopServingBytes() {
        bytes = nil
        hub.stopServingBytes()
    }

    // MARK: Signals

    /// Whether a navigation to `url` is a signal of the page's dialect: the host cancels it,
    /// whichever frame made it, and it is never a page change.
    public func isSignal(_ url: String) -> Bool {
        dialect.isSignal(url)
    }

    /// `frame` made the signal to `url` (as the engine, or the host's isolated world, says): answered
    /// as the page's dialect says.
    public func signalled(_ url: String, from frame: CallerFrame) {
        take(dialect.answer(signal: url, from: frame), for: frame)
    }

    /// Takes the dialect's steps for `frame`, in order.
    private func take(_ steps: [DialectStep], for frame: CallerFrame) {
        guard let engine else { return }
        for step in steps {
            switch step {
            case .answer(let script):
                engine.evaluate(core.guarded(script), valueLimit: nil) { _ in }
            case .inject(let script):
                engine.evaluate(script, valueLimit: nil) { _ in }
            case .fetch(let script, let limit):
                // A fetch that fails is handed on as no value, so the dialect answers the next signal.
                engine.evaluate(script, valueLimit: limit) { [self] result in
                    take(dialect.fetched(Self.string(result), from: frame), for: frame)
                }
            case .resumeLater:
                engine.runLater(after: .zero, { [self] in take(dialect.resume(from: frame), for: frame) }, dropped: {})
            }
        }
    }

    /// The string an evaluation's value is, read from its JSON text; `nil` for any other value.
    private static func string(_ result: Result<String?, BridgeError>) -> String? {
        guard case .success(let json?) = result else { return nil }
        return try? DefaultJSONSerializer().decode(String.self, from: Data(json.utf8))
    }
}
