// WKWebViewHost.swift — attaches a Keystone to a WKWebView on Apple systems.
import Foundation
import Keystone
import KeystoneHost

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Attaches a `BridgeHub` to a `WKWebView`: injects `window._dswk = true` and the page runtime at
/// document start, answers bridge prompts (synchronous and asynchronous calls alike, as DSBridge's
/// own `dsbridge.js` makes them) through the UI delegate's text-input panel, evaluates the
/// evaluator's batches, and reports new documents as page loads. It reports who called
/// (`WKFrameInfo`'s frame and origin) and decides nothing: the hub's policy does.
///
/// The page's calls come as text only: the host adds no script message handler to the page's
/// world, where any page script could post a value the engine would rebuild, however large, in
/// the app (a sparse array of a hundred million elements, say).
///
/// The web view's `uiDelegate` and `navigationDelegate` become an object of the host's, which keeps
/// the app's delegates: it passes every `WKNavigationDelegate` method, and `WKUIDelegate`'s
/// new-window, close, `alert`, `confirm`, `prompt`, media-capture, open-panel (and on iOS and
/// visionOS orientation-permission and Lockdown Mode) methods, to ``appUIDelegate`` and
/// ``appNavigationDelegate``. WebKit reads which optional methods a delegate has: the host's
/// delegates say they have a method they only pass on exactly when the app's delegate has it, so
/// where the app's has not, WebKit's own behaviour stands as without Keystone (an iOS file
/// input's picker, an authentication challenge's answer).
/// `WKUIDelegate`'s context-menu and edit-menu methods are not passed on: answering them at all
/// would replace WebKit's own menus for every app. A delegate the app sets on the web view later
/// becomes the app's delegate. That object lives as long as the web view's content controller:
/// an app that lets the host go without ``detach()`` keeps its delegates, and may attach a new host.
///
/// The app keeps the host; ``detach()`` gives the web view back. The host refuses a web view whose
/// `WKUserContentController` another live host uses (copies of a `WKWebViewConfiguration` share
/// one), and answers only its own web view: a `window.open` popup made from the same
/// configuration is refused.
///
/// New documents are learned from the engine (a committed main-frame navigation ends the page
/// load) and from the host's script in an isolated content world, which page scripts cannot reach:
/// each main document names itself there (and again when the engine restores it from its
/// back/forward cache), and the host guards every batch with the name of the document it was made
/// for. The end of the web content process is a page change too.
///
/// With `injectsIntoSubframes`, a subframe's document names itself the same way, with the frame
/// WebKit says posted it (`WKScriptMessage.frameInfo`, its origin the engine's), and its bridge
/// prompts name that document: its asynchronous calls, streams and byte transfers are answered in
/// it, and Swift can call its handlers. The host evaluates in the frame WebKit named
/// (`evaluateJavaScript(_:in:in:completionHandler:)`), guarded by the document's name, since a
/// `WKFrameInfo` names a frame and not its document; a document that ended, or a frame that has
/// gone (`WKErrorJavaScriptInvalidFrameTarget`), ends the document's calls.
@MainActor
public final class WKWebViewHost: NSObject, EvaluationTarget {
    /// How the host serves pages: the options every host takes.
    public typealias Options = HostOptions

    /// The hub that answers the page: the page the hub the host was made with gives it
    /// (`BridgeHub/openPage()`), a Keystone's first page or, while another host serves that, a page
    /// of its own.
    public let hub: any BridgeHub
    /// How the host serves pages, as it was created.
    public let options: Options
    /// The web view the host is attached to, until it goes away or ``detach()`` is called.
    public private(set) weak var webView: WKWebView?
    /// The app's own UI delegate, which keeps receiving everything the host does not answer. Setting
    /// the web view's `uiDelegate` sets this instead.
    public var appUIDelegate: (any WKUIDelegate)? {
        get { delegates.appUIDelegate }
        set { delegates.appUIDelegate = newValue }
    }
    /// The app's own navigation delegate, which keeps receiving every navigation event. Setting the
    /// web view's `navigationDelegate` sets this instead.
    public var appNavigationDelegate: (any WKNavigationDelegate)? {
        get { delegates.appNavigationDelegate }
        set { delegates.appNavigationDelegate = newValue }
    }
    /// Told when the page's web content process ends, after the hub has settled everything bound
    /// for the page and before the host reloads it (backing off, and stopping, as
    /// `HostCore/TerminationLimit` says). The host reloads only a page the app's own navigation
    /// delegate does not: when it implements `webViewWebContentProcessDidTerminate(_:)`, the
    /// reload is the app's, as it is without Keystone.
    public var terminationHandler: (@MainActor (WebProcessTermination) -> Void)?
    /// Told, with the document's address, when WebKit will run no script of the app's in a
    /// document the web view committed: the app declares App-Bound Domains (`WKAppBoundDomains` in
    /// its Info.plist) and the document's domain is not one of them. WebKit then injects neither
    /// the page runtime nor the host's scripts there and refuses every evaluation
    /// (`WKErrorJavaScriptAppBoundDomain`), so the bridge is off in that document; the host cannot
    /// turn it on, and says so here instead of failing silently.
    public var appBoundDomainHandler: (@MainActor (URL?) -> Void)?
    /// The web view's delegates and the host's script message handler, kept by the content controller.
    let delegates: HostDelegates
    /// What the host decides as every host does: batches, documents, origins, terminations and
    /// the page's dialect. Used on the main thread only (batches hop there).
    let session: HostSession
    /// The engine calls the session makes: this web view's.
    private var engine: WebViewEngine?
    /// Whether the page's web content process ended while the web view was not visible, and the
    /// host reloads it once it is (``webViewDidAppear()``).
    var reloadOwed = false
    /// Watches for a scene, or the app, becoming active while a reload is owed.
    private var activation: Observation?
    /// The frame each named subframe document reported from, where its scripts are evaluated.
    private var subframes: [FrameDocument: WKFrameInfo] = [:]
    static let documentHandlerName = "keystoneDocument"
    /// The isolated content world of the host's own script: page scripts cannot reach it.
    static let world = WKContentWorld.world(name: "keystone-host")

    /// Attaches `hub` to `webView`: adds the host's scripts and handler, and puts its delegates in
    /// front of the app's, which it keeps to pass on what it does not answer.
    /// - Throws: `BridgeError` (`invalidRegistration`) when another host uses the web view's
    ///   content controller, or an allowed origin is not written as the engine writes origins;
    ///   the error of reading the page runtime from the package's resources.
    public init(webView: WKWebView, hub: any BridgeHub, options: Options = Options()) throws {
        let controller = webView.configuration.userContentController
        let previous = HostDelegates.attached(to: controller)
        guard previous?.host == nil else {
            throw BridgeError(
                code: .invalidRegistration,
                message: "another WKWebViewHost uses this web view's WKUserContentController: give each web view a configuration of its own, or detach() the other host")
        }
        if let app = options.appOrigin, (webView.configuration.urlSchemeHandler(forURLScheme: app.scheme) as? AppSchemeHandler)?.app != app {
            throw BridgeError(
                code: .invalidRegistration,
                message: "the web view's configuration does not serve the app origin the options name: call WKWebViewHost.serveApp(_:in:) on it before making the web view")
        }
        // The page this host serves: from here on, `hub` is it.
        let hub = hub.openPage()
        self.hub = hub
        self.options = options
        self.session = try HostSession(opening: hub, options: options)
        self.webView = webView
        let source = try HostScripts.pageWorld(relay: options.injectsIntoSubframes ? HostScripts.subframePrompts : "", injectsPageRuntime: options.injectsPageRuntime)
        // A host let go without detach() left its delegates in front of the app's: the app's are
        // taken over from them, and their scripts and handler give way.
        let appUI = previous?.appUIDelegate ?? webView.uiDelegate
        let appNavigation = previous?.appNavigationDelegate ?? webView.navigationDelegate
        previous?.release()
        delegates = HostDelegates(webView: webView, controller: controller, appUIDelegate: appUI, appNavigationDelegate: appNavigation)
        super.init()
        let reporting = HostScripts.documentReporting(
            post: "window.webkit.messageHandlers.\(Self.documentHandlerName).postMessage(report)", subframes: options.injectsIntoSubframes)
        delegates.attach(
            self,
            scripts: [
                WKUserScript(
                    source: session.core.scriptsOnlyForAllowedOrigins(source), injectionTime: .atDocumentStart, forMainFrameOnly: !options.injectsIntoSubframes, in: .page),
                WKUserScript(
                    source: session.core.scriptsOnlyForAllowedOrigins(reporting), injectionTime: .atDocumentStart, forMainFrameOnly: !options.injectsIntoSubframes, in: Self.world),
            ])
        engine = WebViewEngine(host: self)
        session.engine = engine
        activation = watchActivation()
        hub.attach(to: self)
        if options.servesBytes, let transfers = webView.configuration.urlSchemeHandler(forURLScheme: URLSchemeTransport.scheme) as? TransferSchemeHandler {
            transfers.attach(self, to: webView)
            // WebKit's Cocoa API registers no scheme with a handler as secure: an https document
            // cannot fetch it (`HostCore/documentReachesByteChannel(origin:channelIsSecure:)`).
            session.serveBytes(over: TransferSchemeHandler.transport, isSecure: false)
        }
    }

    /// Serves the byte channel in web views made from `configuration` from now on: with it, a
    /// `Data` argument or result of a call from Keystone's page runtime moves as raw bytes (the
    /// custom scheme `keystone:`), and without it as base64 in JSON. WebKit takes a scheme handler
    /// only before a web view is made, so call it on the configuration first:
    ///
    /// ```swift
    /// let configuration = WKWebViewConfiguration()
    /// WKWebViewHost.serveBytes(in: configuration)
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// let host = try WKWebViewHost(webView: webView, hub: keystone)
    /// ```
    ///
    /// Calling it again on the same configuration changes nothing.
    public static func serveBytes(in configuration: WKWebViewConfiguration) {
        guard configuration.urlSchemeHandler(forURLScheme: URLSchemeTransport.scheme) == nil else { return }
        configuration.setURLSchemeHandler(TransferSchemeHandler(), forURLScheme: URLSchemeTransport.scheme)
    }

    /// Serves the app's own web files, `app`, in web views made from `configuration` from now on:
    /// the app loads `app.url()` (its `index.html`) as an ordinary page of the origin `app.origin`,
    /// and makes its host with the same app origin in its options, so the hub answers the app's
    /// pages (and, unless its policy lists origins, no others). WebKit takes a scheme handler only
    /// before a web view is made:
    ///
    /// ```swift
    /// let app = AppOrigin(folder: Bundle.main.url(forResource: "www", withExtension: nil)!)
    /// let configuration = WKWebViewConfiguration()
    /// try WKWebViewHost.serveApp(app, in: configuration)
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// let host = try WKWebViewHost(webView: webView, hub: keystone, options: .init(appOrigin: app))
    /// webView.load(URLRequest(url: app.url()))
    /// ```
    ///
    /// Such a page is a secure context; an https page cannot fetch, import or frame its files
    /// (WebKit treats the scheme as mixed content there), and service workers are not available on
    /// it (WebKit registers them for http and https only).
    /// - Throws: `invalidRegistration` when the scheme or host cannot be served
    ///   (`AppOrigin.check()`), WebKit loads the scheme itself, or the configuration serves the
    ///   scheme already.
    public static func serveApp(_ app: AppOrigin, in configuration: WKWebViewConfiguration) throws(BridgeError) {
        try app.check()
        // WebKit raises an exception for a scheme it loads itself.
        guard !WKWebView.handlesURLScheme(app.scheme) else {
            throw BridgeError(code: .invalidRegistration, message: "WebKit loads the scheme \"\(app.scheme)\" itself")
        }
        guard configuration.urlSchemeHandler(forURLScheme: app.scheme) == nil else {
            throw BridgeError(code: .invalidRegistration, message: "the configuration serves the scheme \"\(app.scheme)\" already")
        }
        configuration.setURLSchemeHandler(AppSchemeHandler(app: app), forURLScheme: app.scheme)
    }

    /// Gives the web view back: removes the host's scripts and message handler, restores the app's
    /// delegates, stops serving the byte channel, and ends the page load: Swift's calls waiting for
    /// the page settle with `pageGone`.
    public func detach() {
        activation = nil
        session.closed()
        if let webView, let transfers = webView.configuration.urlSchemeHandler(forURLScheme: URLSchemeTransport.scheme) as? TransferSchemeHandler {
            transfers.detach(webView)
        }
        delegates.release()
        subframes.removeAll()
        webView = nil
    }

    /// A host let go without ``detach()`` ends its page load as `detach()` does (Swift's calls
    /// waiting for the page settle with `pageGone`), stops serving the byte channel, and takes its
    /// scripts out of the controller; its delegates stay in front of the app's until a new host
    /// takes their place, cancelling any bridge prompt the document on screen still makes.
    deinit {
        let session = session
        let delegates = delegates
        let went: @MainActor @Sendable () -> Void = {
            session.closed()
            delegates.hostWent()
        }
        if Thread.isMainThread { MainActor.assumeIsolated(went) } else { DispatchQueue.main.async(execute: went) }
    }

    // MARK: EvaluationTarget

    public nonisolated func evaluate(_ batch: ScriptBatch) {
        evaluate(batch) {}
    }

    /// Evaluates `batch` on the main queue and calls `done` when WebKit has run it, or when it was
    /// dropped (made for a page that has gone).
    public nonisolated func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        session.evaluate(batch, done: done)
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
        try await session.evaluate(javascript: javascript)
    }

    /// The JSON of an evaluation's value (`nil` for none), or its error. `JSONSerialization` raises
    /// an Objective-C exception, not a Swift error, for a value it cannot write (`NaN`, a date), so
    /// the value is checked first.
    nonisolated static func json(_ value: Any?, _ error: (any Error)?) -> Result<Data?, BridgeError> {
        if let error = error as? NSError, error.domain == "WKErrorDomain", error.code == appBoundDomainRefusal {
            return .failure(
                BridgeError(
                    code: .failed,
                    message: "WebKit runs no script of the app's in this document: its domain is not among the app's App-Bound Domains (WKAppBoundDomains)"))
        }
        if let error { return .failure(BridgeError(code: .failed, message: "the script failed: \(error.localizedDescription)")) }
        guard let value, !(value is NSNull) else { return .success(nil) }
        guard JSONSerialization.isValidJSONObject([value]), let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return .failure(HostCore.scriptValueNotJSON)
        }
        return .success(data)
    }

    // MARK: Page changes

    /// The isolated world's report of a new main document: once per main document, at its start,
    /// and each time the engine restores it from its back/forward cache; or of a subframe's
    /// document, its start and its end. Only the host's isolated world can post it; a report from
    /// another web view sharing the controller is ignored.
    func receiveDocumentReport(_ message: WKScriptMessage) {
        guard let webView, message.webView === webView, let text = message.body as? String else { return }
        let frame = message.frameInfo
        guard !frame.isMainFrame else { return session.documentReported(text, from: Self.callerFrame(frame)) }
        switch session.subframeReported(text, from: Self.callerFrame(frame)) {
        case .started(let document)?:
            // Documents of page loads that ended are no longer named.
            subframes = subframes.filter { session.core.namesSubframe($0.key) }
            subframes[document] = frame
        case .ended(let document)?:
            subframes.removeValue(forKey: document)
        case nil:
            break
        }
    }

    /// Evaluates `script` in the subframe document `document`, in the frame it reported from, and
    /// calls `done`; a document that is not its frame's any more, or a frame that has gone, ends.
    func evaluate(_ script: String, inSubframe document: FrameDocument, done: @escaping @Sendable () -> Void) {
        guard let webView, let frame = subframes[document], let guarded = session.core.guarded(script, inSubframe: document) else {
            subframes.removeValue(forKey: document)
            session.subframeGone(document)
            return done()
        }
        webView.evaluateJavaScript(guarded, in: frame, in: .page) { [weak self] result in
            switch result {
            case .success(let ran as String) where ran == HostCore.subframeScriptRan:
                break
            case .failure(let error as NSError) where error.domain == "WKErrorDomain" && error.code != Self.invalidFrameTarget:
                // The script itself threw: the document is still there.
                break
            default:
                self?.subframes.removeValue(forKey: document)
                self?.session.subframeGone(document)
            }
            done()
        }
    }

    /// `WKErrorJavaScriptInvalidFrameTarget` (WKError.h): the frame has gone.
    nonisolated static let invalidFrameTarget = 12

    /// The engine committed a new main document: the page load ends, whether or not the new
    /// document runs the host's scripts (an origin outside the allowed ones, a PDF).
    func documentCommitted() {
        session.documentCommitted()
        guard Self.declaresAppBoundDomains, let webView else { return }
        // WebKit alone knows whether the document's domain is app-bound: asked with an evaluation
        // it refuses in any other.
        let address = webView.url
        webView.evaluateJavaScript("0") { [weak self] _, error in
            guard let error = error as? NSError, error.domain == "WKErrorDomain", error.code == Self.appBoundDomainRefusal else { return }
            self?.appBoundDomainHandler?(address)
        }
    }

    /// `WKErrorJavaScriptAppBoundDomain` (WKError.h).
    nonisolated static let appBoundDomainRefusal = 14

    /// Whether the app declares App-Bound Domains (`WKAppBoundDomains` in its Info.plist).
    static var declaresAppBoundDomains: Bool {
        #if os(Linux)
        return ShimAppBoundDomains.domains != nil
        #else
        return Bundle.main.object(forInfoDictionaryKey: "WKAppBoundDomains") != nil
        #endif
    }

    /// A bridge prompt from the host's web view, answered by the hub synchronously.
    func answerPrompt(_ prompt: String, defaultText: String?, frame: WKFrameInfo) -> String? {
        let caller = session.caller(ofPromptWith: defaultText, frame: Self.callerFrame(frame))
        if let named = caller.named { subframes[named] = frame }
        return hub.handlePrompt(prompt, defaultText: caller.defaultText, frame: caller.frame)
    }

    /// The web content process of the host's web view ended: the page is gone and the app hears
    /// of it; the page reloads unless `appReloads` (the app's navigation delegate handles the end
    /// of the process, and so its reload).
    func webContentProcessDidTerminate(appReloads: Bool) {
        session.webProcessTerminated(.unknown, reloads: !appReloads)
    }

    /// Whether the navigation is a signal of the page's dialect (WebViewJavascriptBridge's: it never
    /// reaches the network and is never a page change), to cancel; answered for the frame WebKit
    /// says made it (`WKNavigationAction.sourceFrame`, never the web view's possibly provisional
    /// URL), in the host's own web view only.
    func decideSignal(_ navigationAction: WKNavigationAction, in webView: WKWebView) -> Bool {
        guard let url = navigationAction.request.url?.absoluteString, session.isSignal(url) else { return false }
        // `sourceFrame` is declared nonnull, yet WebKit hands nil for a navigation no frame started
        // (WKNavigationAction.mm checks for it itself): such a signal is no one's. Its bits are read
        // as an optional: a plain conversion to an optional is folded to "not nil" by the compiler,
        // which trusts the declaration.
        let source = unsafeBitCast(navigationAction.sourceFrame, to: WKFrameInfo?.self)
        guard webView === self.webView, let source else { return true }
        session.signalled(url, from: Self.callerFrame(source))
        return true
    }

    // MARK: Frames

    /// The frame as WebKit reports it; an opaque security origin (empty protocol) is no origin.
    static func callerFrame(_ frame: WKFrameInfo) -> CallerFrame {
        let origin = frame.securityOrigin
        return CallerFrame(isMainFrame: frame.isMainFrame, origin: SecurityOrigin(scheme: origin.protocol, host: origin.host, port: origin.port)?.description)
    }
}

#endif
