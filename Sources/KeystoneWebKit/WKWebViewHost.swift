// WKWebViewHost.swift — attaches a Keystone to a WKWebView on Apple systems.
import Foundation
import Keystone

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_STANDIN
/// Attaches a `BridgeHub` to a `WKWebView`: injects `window._dswk = true` and the page runtime at
/// document start, answers bridge prompts through the UI delegate's text-input panel, takes
/// asynchronous calls through a script message handler with a reply, evaluates the evaluator's
/// batches, and reports new documents as page loads. It reports who called (`WKFrameInfo`'s frame
/// and origin) and decides nothing: the hub's policy does.
///
/// The host becomes the web view's `uiDelegate` and `navigationDelegate` but keeps the app's: the
/// page's own `alert`, `confirm` and `prompt` (every prompt that is not a bridge call), and every
/// other delegate method, still reach ``appUIDelegate`` and ``appNavigationDelegate``. It holds
/// the web view and the app's delegates weakly; WebKit's content controller holds the host until
/// ``detach()``.
///
/// New documents are learned from the host's script in an isolated content world, which page
/// scripts cannot reach: each main document names itself there, and the host guards every batch
/// with the name of the document it was made for. The end of the web content process is a page
/// change too.
@MainActor
public final class WKWebViewHost: NSObject, WKUIDelegate, WKNavigationDelegate, WKScriptMessageHandlerWithReply, EvaluationTarget {
    /// How the host serves pages: the options every host takes.
    public typealias Options = HostOptions

    /// The hub that answers the page.
    public let hub: any BridgeHub
    /// How the host serves pages, as it was created.
    public let options: Options
    /// The web view the host is attached to, until it goes away or ``detach()`` is called.
    public private(set) weak var webView: WKWebView?
    /// The app's own UI delegate, which keeps receiving everything the host does not answer.
    public weak var appUIDelegate: (any WKUIDelegate)?
    /// The app's own navigation delegate, which keeps receiving every navigation event.
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
    private static let handlerName = "keystone"
    private static let documentHandlerName = "keystoneDocument"
    /// The isolated content world of the host's own script: page scripts cannot reach it.
    private static let world = WKContentWorld.world(name: "keystone-host")

    /// Attaches `hub` to `webView`: adds the host's scripts and handlers, and becomes the web view's
    /// UI and navigation delegate, keeping the app's delegates to pass on what it does not answer.
    /// Throws if the page runtime cannot be read from the package's resources, or (`invalidRegistration`)
    /// when an allowed origin is not written as the engine writes origins.
    public init(webView: WKWebView, hub: any BridgeHub, options: Options = Options()) throws {
        self.hub = hub
        self.options = options
        self.core = try HostCore(allowedOrigins: hub.runtimeOrigins, reloadsAfterTermination: options.reloadsAfterTermination)
        self.webView = webView
        self.appUIDelegate = webView.uiDelegate
        self.appNavigationDelegate = webView.navigationDelegate
        self.wvjb = options.wire == .webViewJavascriptBridge ? WVJBWire(hub: hub) : nil
        super.init()
        let source = try HostScripts.pageWorld(injectsPageRuntime: options.injectsPageRuntime)
        let reporting = HostScripts.documentReporting(post: "window.webkit.messageHandlers.\(Self.documentHandlerName).postMessage(report)")
        let mainFrameOnly = !options.injectsIntoSubframes
        let controller = webView.configuration.userContentController
        controller.addUserScript(WKUserScript(source: core.scriptsOnlyForAllowedOrigins(source), injectionTime: .atDocumentStart, forMainFrameOnly: mainFrameOnly))
        controller.addUserScript(
            WKUserScript(source: core.scriptsOnlyForAllowedOrigins(reporting), injectionTime: .atDocumentStart, forMainFrameOnly: true, in: Self.world)
        )
        controller.addScriptMessageHandler(self, contentWorld: .page, name: Self.handlerName)
        controller.addScriptMessageHandler(self, contentWorld: Self.world, name: Self.documentHandlerName)
        webView.uiDelegate = self
        webView.navigationDelegate = self
        hub.attach(to: self)
    }

    /// Gives the web view back: removes the message handlers and restores the app's delegates. The
    /// page load ends: Swift's calls waiting for the page settle with `pageGone`.
    public func detach() {
        perform(core.closed())
        webView?.configuration.userContentController.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: .page)
        webView?.configuration.userContentController.removeScriptMessageHandler(forName: Self.documentHandlerName, contentWorld: Self.world)
        webView?.uiDelegate = appUIDelegate
        webView?.navigationDelegate = appNavigationDelegate
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
    /// - Throws: `BridgeError` (`failed`) when the script throws or its value is not JSON.
    public func evaluate(javascript: String) async throws(BridgeError) -> JSONValue {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data?, BridgeError>, Never>) in
            // Through the main queue, as batches go, so it runs after them.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let webView = self.webView else {
                        return continuation.resume(returning: .failure(BridgeError(code: .pageGone, message: "the web view has gone")))
                    }
                    let limit = self.hub.limits.evaluationResultBytes
                    webView.evaluateJavaScript(javascript) { value, error in
                        continuation.resume(returning: Self.json(value, error, limit: limit))
                    }
                }
            }
        }
        guard let json = try outcome.get() else { return .null }
        do {
            return try DefaultJSONSerializer().decode(JSONValue.self, from: json)
        } catch {
            throw BridgeError(code: .failed, message: "the script's value is not JSON")
        }
    }

    /// The JSON of an evaluation's value (`nil` for none), or its error. `JSONSerialization` raises
    /// an Objective-C exception, not a Swift error, for a value it cannot write (`NaN`, a date), so
    /// the value is checked first.
    private nonisolated static func json(_ value: Any?, _ error: (any Error)?, limit: Int) -> Result<Data?, BridgeError> {
        if let error { return .failure(BridgeError(code: .failed, message: "the script failed: \(error.localizedDescription)")) }
        guard let value, !(value is NSNull) else { return .success(nil) }
        guard JSONSerialization.isValidJSONObject([value]), let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return .failure(BridgeError(code: .failed, message: "the script's value is not JSON"))
        }
        guard data.count <= limit else {
            return .failure(BridgeError(code: .limitExceeded, message: "the script's value is larger than the limit of \(limit) bytes"))
        }
        return .success(data)
    }

    // MARK: WKUIDelegate

    /// A page's `prompt`: a bridge prompt is answered by the hub, synchronously; any other goes to
    /// the app's UI delegate, or gets WebKit's default answer when it has none.
    public func webView(
        _ webView: WKWebView,
        runJavaScriptTextInputPanelWithPrompt prompt: String,
        defaultText: String?,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        guard Keystone.isBridgePrompt(prompt) else {
            // Not a bridge call: the app's dialog, or WebKit's default answer when it has none.
            #if canImport(ObjectiveC)
            guard let app = appUIDelegate,
                app.responds(to: #selector(WKUIDelegate.webView(_:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:)))
            else { return completionHandler(nil) }
            app.webView?(webView, runJavaScriptTextInputPanelWithPrompt: prompt, defaultText: defaultText, initiatedByFrame: frame, completionHandler: completionHandler)
            #else
            completionHandler(nil)
            #endif
            return
        }
        completionHandler(hub.handlePrompt(prompt, defaultText: defaultText, frame: Self.callerFrame(frame)))
    }

    // MARK: WKScriptMessageHandlerWithReply

    /// A script message with a reply: the page's asynchronous call, answered through the reply, or
    /// the isolated world's report of a new main document; who called comes from the message's
    /// `WKFrameInfo`.
    public func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
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

    /// `script`, made for the current page load, wrapped to run only in its document.
    func guarded(_ script: String) -> String {
        core.guarded(script)
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

    // MARK: WKNavigationDelegate

    /// The web content process ended: the page is gone, the app hears of it, and the page reloads.
    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        let actions = core.webProcessTerminated(.unknown, at: started.duration(to: .now))
        #if canImport(ObjectiveC)
        appNavigationDelegate?.webViewWebContentProcessDidTerminate?(webView)
        #endif
        perform(actions)
    }

    // MARK: Everything else reaches the app's delegates

    #if canImport(ObjectiveC)
    public override func responds(to selector: Selector!) -> Bool {
        super.responds(to: selector) || (appUIDelegate?.responds(to: selector) ?? false)
            || (appNavigationDelegate?.responds(to: selector) ?? false)
    }

    public override func forwardingTarget(for selector: Selector!) -> Any? {
        if let app = appUIDelegate, app.responds(to: selector) { return app }
        if let app = appNavigationDelegate, app.responds(to: selector) { return app }
        return super.forwardingTarget(for: selector)
    }
    #endif

    // MARK: Frames

    /// The frame as WebKit reports it; an opaque security origin (empty protocol) is no origin.
    static func callerFrame(_ frame: WKFrameInfo) -> CallerFrame {
        let origin = frame.securityOrigin
        return CallerFrame(isMainFrame: frame.isMainFrame, origin: SecurityOrigin(scheme: origin.protocol, host: origin.host, port: origin.port)?.description)
    }
}
#endif
