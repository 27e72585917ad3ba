// WKWebViewHost.swift — attaches a Keystone to a WKWebView on Apple systems.
import Foundation
import Keystone

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Attaches a `BridgeHub` to a `WKWebView`: injects `window._dswk = true` and the page runtime at
/// document start, answers bridge prompts through the UI delegate's text-input panel, takes
/// asynchronous calls through a script message handler with a reply, evaluates the evaluator's
/// batches, and reports new documents as page loads. It reports who called (`WKFrameInfo`'s frame
/// and origin) and decides nothing: the hub's policy does.
///
/// The host becomes the web view's `uiDelegate` and `navigationDelegate` and keeps the app's: it
/// passes every `WKNavigationDelegate` method, and `WKUIDelegate`'s new-window, close, `alert`,
/// `confirm`, `prompt`, media-capture and (macOS) open-panel methods, to ``appUIDelegate`` and
/// ``appNavigationDelegate`` when they implement them (asked at each call), and otherwise answers
/// as WebKit does without a delegate. `WKUIDelegate`'s context-menu and edit-menu methods are not
/// passed on: answering them at all would replace WebKit's own menus for every app.
/// A delegate the app sets on the web view later becomes the app's delegate, and the web view's
/// delegate stays the host.
///
/// The app keeps the host (WebKit holds it only weakly); ``detach()`` gives the web view back. The
/// host refuses a web view whose `WKUserContentController` another host already uses (copies of a
/// `WKWebViewConfiguration` share one), and answers only its own web view's messages: a
/// `window.open` popup made from the same configuration is refused.
///
/// New documents are learned from the host's script in an isolated content world, which page
/// scripts cannot reach: each main document names itself there (and again when the engine restores
/// it from its back/forward cache), and the host guards every batch with the name of the document
/// it was made for. The end of the web content process is a page change too.
@MainActor
public final class WKWebViewHost: NSObject, WKUIDelegate, WKNavigationDelegate, EvaluationTarget {
    /// How the host serves pages: the options every host takes.
    public typealias Options = HostOptions

    /// The hub that answers the page.
    public let hub: any BridgeHub
    /// How the host serves pages, as it was created.
    public let options: Options
    /// The web view the host is attached to, until it goes away or ``detach()`` is called.
    public private(set) weak var webView: WKWebView?
    /// The app's own UI delegate, which keeps receiving everything the host does not answer. Setting
    /// the web view's `uiDelegate` sets this instead.
    public weak var appUIDelegate: (any WKUIDelegate)?
    /// The app's own navigation delegate, which keeps receiving every navigation event. Setting the
    /// web view's `navigationDelegate` sets this instead.
    public weak var appNavigationDelegate: (any WKNavigationDelegate)?
    /// Told when the page's web content process ends, after the hub has settled everything bound
    /// for the page and before the host reloads it (backing off, and stopping, as
    /// `HostCore/TerminationLimit` says).
    public var terminationHandler: (@MainActor (WebProcessTermination) -> Void)?
    /// WebViewJavascriptBridge's wire, when the page speaks it.
    let wvjb: WVJBWire?
    /// What the host decides as every host does: documents, origins, terminations.
    private var core: HostCore
    /// The clock terminations are counted on, from when the host was made.
    private let started = ContinuousClock.now
    /// The web view's content controller, and the scripts the host added to it.
    private weak var controller: WKUserContentController?
    private var scripts: [WKUserScript] = []
    /// Watches the web view's delegates, which stay the host while it is attached.
    private var delegateObservations: [NSKeyValueObservation] = []
    private static let handlerName = "keystone"
    private static let documentHandlerName = "keystoneDocument"
    /// The isolated content world of the host's own script: page scripts cannot reach it.
    private static let world = WKContentWorld.world(name: "keystone-host")
    /// The content controllers hosts are attached to: WebKit refuses a second handler of one name.
    private static var controllersInUse: [WeakController] = []

    /// Attaches `hub` to `webView`: adds the host's scripts and handlers, and becomes the web view's
    /// UI and navigation delegate, keeping the app's delegates to pass on what it does not answer.
    /// - Throws: `BridgeError` (`invalidRegistration`) when another host uses the web view's
    ///   content controller, or an allowed origin is not written as the engine writes origins;
    ///   the error of reading the page runtime from the package's resources.
    public init(webView: WKWebView, hub: any BridgeHub, options: Options = Options()) throws {
        let controller = webView.configuration.userContentController
        guard !Self.isInUse(controller) else {
            throw BridgeError(
                code: .invalidRegistration,
                message: "another WKWebViewHost uses this web view's WKUserContentController: give each web view a configuration of its own, or detach() the other host")
        }
        self.hub = hub
        self.options = options
        self.core = try HostCore(allowedOrigins: hub.runtimeOrigins, reloadsAfterTermination: options.reloadsAfterTermination)
        self.webView = webView
        self.controller = controller
        self.appUIDelegate = webView.uiDelegate
        self.appNavigationDelegate = webView.navigationDelegate
        self.wvjb = options.wire == .webViewJavascriptBridge ? WVJBWire(hub: hub) : nil
        super.init()
        let source = try HostScripts.pageWorld(injectsPageRuntime: options.injectsPageRuntime)
        let reporting = HostScripts.documentReporting(post: "window.webkit.messageHandlers.\(Self.documentHandlerName).postMessage(report)")
        scripts = [
            WKUserScript(
                source: core.scriptsOnlyForAllowedOrigins(source), injectionTime: .atDocumentStart, forMainFrameOnly: !options.injectsIntoSubframes, in: .page),
            WKUserScript(source: core.scriptsOnlyForAllowedOrigins(reporting), injectionTime: .atDocumentStart, forMainFrameOnly: true, in: Self.world),
        ]
        scripts.forEach(controller.addUserScript)
        // WebKit holds its message handlers strongly: a handler that holds the host weakly lets the
        // host, the hub and its interfaces go when the app lets them go.
        let handler = WeakScriptMessageHandler(host: self)
        controller.addScriptMessageHandler(handler, contentWorld: .page, name: Self.handlerName)
        controller.addScriptMessageHandler(handler, contentWorld: Self.world, name: Self.documentHandlerName)
        Self.controllersInUse.append(WeakController(controller: controller))
        webView.uiDelegate = self
        webView.navigationDelegate = self
        observeDelegates(of: webView)
        hub.attach(to: self)
        if let transfers = webView.configuration.urlSchemeHandler(forURLScheme: TransferSchemeHandler.scheme) as? TransferSchemeHandler {
            transfers.attach(self, to: webView)
            hub.serveTransfers(at: TransferSchemeHandler.base)
        }
    }

    /// Serves the byte channel in web views made from `configuration` from now on: with it, a
    /// `Data` argument or result of a call from Keystone's page runtime moves as raw bytes (the
    /// custom scheme `keystone:`), and without it as base64 in JSON. WebKit takes a scheme handler
    /// only before a web view is made, so call it on the configuration first:
    ///
    /// ```swift
    /// let configuration = WKWebViewConfiguration()
    /// WKWebViewHost.serveTransfers(in: configuration)
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// let host = try WKWebViewHost(webView: webView, hub: keystone)
    /// ```
    ///
    /// Calling it again on the same configuration changes nothing.
    public static func serveTransfers(in configuration: WKWebViewConfiguration) {
        guard configuration.urlSchemeHandler(forURLScheme: TransferSchemeHandler.scheme) == nil else { return }
        configuration.setURLSchemeHandler(TransferSchemeHandler(), forURLScheme: TransferSchemeHandler.scheme)
    }

    /// Gives the web view back: removes the host's scripts and message handlers, restores the app's
    /// delegates, and ends the page load: Swift's calls waiting for the page settle with `pageGone`.
    public func detach() {
        delegateObservations.forEach { $0.invalidate() }
        delegateObservations = []
        perform(core.closed())
        if let webView, let transfers = webView.configuration.urlSchemeHandler(forURLScheme: TransferSchemeHandler.scheme) as? TransferSchemeHandler {
            transfers.detach(webView)
        }
        if let controller {
            controller.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: .page)
            controller.removeScriptMessageHandler(forName: Self.documentHandlerName, contentWorld: Self.world)
            // WebKit removes user scripts only all at once: the app's own are added back.
            let others = controller.userScripts.filter { script in !scripts.contains { $0 === script } }
            controller.removeAllUserScripts()
            others.forEach(controller.addUserScript)
            Self.controllersInUse.removeAll { $0.controller === controller || $0.controller == nil }
        }
        scripts = []
        controller = nil
        if let webView {
            webView.uiDelegate = appUIDelegate
            webView.navigationDelegate = appNavigationDelegate
        }
        webView = nil
    }

    /// Whether a host is attached to `controller`.
    private static func isInUse(_ controller: WKUserContentController) -> Bool {
        controllersInUse.removeAll { $0.controller == nil }
        return controllersInUse.contains { $0.controller === controller }
    }

    /// Keeps the web view's delegates pointing at the host: a delegate the app sets on the web view
    /// becomes the app's delegate (WebKit reads which methods a delegate has when it is set, so the
    /// host answers every method it forwards and asks the app's delegate at each call).
    private func observeDelegates(of webView: WKWebView) {
        delegateObservations = [
            webView.observe(\.uiDelegate) { [weak self] _, _ in MainActor.assumeIsolated { self?.reclaimDelegates() } },
            webView.observe(\.navigationDelegate) { [weak self] _, _ in MainActor.assumeIsolated { self?.reclaimDelegates() } },
        ]
    }

    private func reclaimDelegates() {
        guard let webView else { return }
        if webView.uiDelegate !== self {
            appUIDelegate = webView.uiDelegate
            webView.uiDelegate = self
        }
        if webView.navigationDelegate !== self {
            appNavigationDelegate = webView.navigationDelegate
            webView.navigationDelegate = self
        }
    }

    // MARK: EvaluationTarget

    public nonisolated func evaluate(_ batch: ScriptBatch) {
        evaluate(batch) {}
    }

    /// Evaluates `batch` on the main queue and calls `done` when WebKit has run it, or when it was
    /// dropped (made for a page that has gone).
    public nonisolated func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        let script = wvjb?.script(for: batch) ?? batch.script
        guard !script.isEmpty else { return done() }
        let pageLoad = batch.pageLoad
        // The main queue keeps batches in the order the evaluator hands them over. Page changes
        // reach the hub on the main thread too: a batch for a page that has gone is dropped here,
        // and one the engine would run in a document it has not reported yet runs nowhere.
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                guard pageLoad == self.hub.pageLoad, let webView = self.webView else { return done() }
                webView.evaluateJavaScript(self.core.guarded(script)) { _, _ in done() }
            }
        }
    }

    /// Evaluates `javascript` in the page's main frame, after every batch already handed to the
    /// host, and returns its completion value as JSON (`undefined` is `null`).
    ///
    /// The value is measured in the page (`HostCore/measuredScript(_:limit:)`): one past the limit
    /// never crosses to the app. Where the page's Content Security Policy forbids `eval`, the
    /// script runs as it is and its value is measured as it arrives.
    /// - Throws: `BridgeError` (`failed`) when the script throws or its value is not JSON;
    ///   `limitExceeded` when its value is larger than the hub's `BridgeLimits/evaluationResultBytes`;
    ///   `pageGone` when the web view has gone.
    public func evaluate(javascript: String) async throws(BridgeError) -> JSONValue {
        let limit = hub.limits.evaluationResultBytes
        let measured = try await evaluateLater(HostCore.measuredScript(javascript, limit: limit)) { value, error in
            error.map { .failure(BridgeError(code: .failed, message: "the script failed: \($0.localizedDescription)")) } ?? .success(value as? String)
        }.get()
        guard case .value(let value) = try HostCore.measuredValue(measured, limit: limit) else {
            let json = try await evaluateLater(javascript, read: Self.json).get()
            return try HostCore.scriptValue(json: json, limit: limit)
        }
        return value
    }

    /// Evaluates `script` in the main frame after every batch already handed to the host, and
    /// reads its completion value with `read` on the main actor.
    private func evaluateLater<Value: Sendable>(
        _ script: String, read: @escaping @MainActor (Any?, (any Error)?) -> Result<Value, BridgeError>
    ) async -> Result<Value, BridgeError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, BridgeError>, Never>) in
            // Through the main queue, as batches go, so it runs after them.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let webView = self.webView else {
                        return continuation.resume(returning: .failure(BridgeError(code: .pageGone, message: "the web view has gone")))
                    }
                    webView.evaluateJavaScript(script) { value, error in
                        continuation.resume(returning: read(value, error))
                    }
                }
            }
        }
    }

    /// The JSON of an evaluation's value (`nil` for none), or its error. `JSONSerialization` raises
    /// an Objective-C exception, not a Swift error, for a value it cannot write (`NaN`, a date), so
    /// the value is checked first.
    private nonisolated static func json(_ value: Any?, _ error: (any Error)?) -> Result<Data?, BridgeError> {
        if let error { return .failure(BridgeError(code: .failed, message: "the script failed: \(error.localizedDescription)")) }
        guard let value, !(value is NSNull) else { return .success(nil) }
        guard JSONSerialization.isValidJSONObject([value]), let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return .failure(HostCore.scriptValueNotJSON)
        }
        return .success(data)
    }

    // MARK: Script messages

    /// A script message with a reply, from the web view's content controller: the page's
    /// asynchronous call, answered through the reply, or the isolated world's report of a new main
    /// document. Who called comes from the message's `WKFrameInfo`; a message from another web view
    /// sharing the controller (a popup made from the same configuration) is refused.
    func receive(_ message: WKScriptMessage, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void) {
        guard let webView, message.webView === webView else {
            return replyHandler(BridgeError(code: .notAllowed, message: "this web view has no bridge").promptAnswer, nil)
        }
        let caller = Self.callerFrame(message.frameInfo)
        if message.name == Self.documentHandlerName {
            // Only the host's isolated world can post here: once per main document, at its start,
            // and each time the engine restores it from its back/forward cache.
            if caller.isMainFrame, let text = message.body as? String, let report = HostScripts.documentReport(text) {
                perform(core.documentReported(token: report.token, restored: report.restored, origin: caller.origin))
            }
            return replyHandler(nil, nil)
        }
        // Who is sending is decided before anything it sent is read.
        if let refusal = hub.refusal(of: caller) { return replyHandler(refusal, nil) }
        guard let body = message.body as? [String: Any] else { return replyHandler(nil, "not a Keystone message") }
        guard let method = body["method"] as? String, let arguments = body["arguments"] as? String else {
            return replyHandler(BridgeError(code: .malformedMessage, message: "the message names no method").promptAnswer, nil)
        }
        replyHandler(hub.handleMessage(method, arguments: arguments, frame: caller), nil)
    }

    /// A bridge prompt from the host's web view, answered by the hub synchronously.
    func answerPrompt(_ prompt: String, defaultText: String?, frame: WKFrameInfo) -> String? {
        hub.handlePrompt(prompt, defaultText: defaultText, frame: Self.callerFrame(frame))
    }

    /// `script`, made for the current page load, wrapped to run only in its document.
    func guarded(_ script: String) -> String {
        core.guarded(script)
    }

    /// The web content process of the host's web view ended: the page is gone, the app hears of
    /// it, and the page reloads.
    func webContentProcessDidTerminate() {
        perform(core.webProcessTerminated(.unknown, at: started.duration(to: .now)))
    }

    /// Carries out what the host core decided; a reload waits on the main queue.
    private func perform(_ actions: [HostCore.Action]) {
        HostCore.perform(
            actions, hub: hub, wire: wvjb, report: { terminationHandler?($0) },
            reload: { delay in
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
                    MainActor.assumeIsolated { _ = self?.webView?.reload() }
                }
            })
    }

    // MARK: Frames

    /// The frame as WebKit reports it; an opaque security origin (empty protocol) is no origin.
    static func callerFrame(_ frame: WKFrameInfo) -> CallerFrame {
        let origin = frame.securityOrigin
        return CallerFrame(isMainFrame: frame.isMainFrame, origin: SecurityOrigin(scheme: origin.protocol, host: origin.host, port: origin.port)?.description)
    }
}

/// A content controller a host is attached to, held weakly.
private struct WeakController {
    weak var controller: WKUserContentController?
}

/// The host's script message handler: WebKit holds it strongly, and it holds the host weakly, so
/// a host the app lets go (without ``WKWebViewHost/detach()``) goes, and its messages are refused.
@MainActor
final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandlerWithReply {
    private weak var host: WKWebViewHost?

    init(host: WKWebViewHost) {
        self.host = host
    }

    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        guard let host else { return replyHandler(BridgeError(code: .pageGone, message: "the bridge has gone").promptAnswer, nil) }
        host.receive(message, replyHandler: replyHandler)
    }
}
#endif
