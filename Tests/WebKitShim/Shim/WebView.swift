// WebView.swift — WKWebView and WKWebViewConfiguration over a WebKitGTK web view: loading,
// evaluation, dialogs, navigation events and policy, the end of the web content process. Each
// declaration names the header it follows (Source/WebKit/UIProcess/API/Cocoa/ in WebKit's tree);
// each behaviour that differs from WebKitGTK's own follows WebKit's Cocoa code, as README.md says.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: WKWebViewConfiguration.h

/// WKWebViewConfiguration.h: `WK_SWIFT_UI_ACTOR @interface WKWebViewConfiguration : NSObject <NSSecureCoding, NSCopying>`.
@MainActor open class WKWebViewConfiguration: NSObject {
    /// `@property (nonatomic, strong) WKUserContentController *userContentController;`
    open var userContentController = WKUserContentController()
    private(set) var schemeHandlers: [String: any WKURLSchemeHandler] = [:]

    /// NSObject's `- (instancetype)init;`
    public override init() {}

    /// What `-[WKWebView configuration]` returns: a copy, with the same controller and handlers.
    func copied() -> WKWebViewConfiguration {
        let copy = WKWebViewConfiguration()
        copy.userContentController = userContentController
        copy.schemeHandlers = schemeHandlers
        return copy
    }

    /// `- (void)setURLSchemeHandler:(nullable id <WKURLSchemeHandler>)urlSchemeHandler forURLScheme:(NSString *)urlScheme;`
    ///. Raises NSInvalidArgumentException for a scheme WebKit handles itself
    /// and for one that already has a handler (WKWebViewConfiguration.mm).
    open func setURLSchemeHandler(_ urlSchemeHandler: (any WKURLSchemeHandler)?, forURLScheme urlScheme: String) {
        let scheme = urlScheme.lowercased()
        if WKWebView.handlesURLScheme(scheme) {
            return ShimFaults.raise("NSInvalidArgumentException: '\(urlScheme)' is a URL scheme that WKWebView handles natively")
        }
        if schemeHandlers[scheme] != nil {
            return ShimFaults.raise("NSInvalidArgumentException: URL scheme '\(urlScheme)' already has a registered URL scheme handler")
        }
        schemeHandlers[scheme] = urlSchemeHandler
    }

    /// `- (nullable id <WKURLSchemeHandler>)urlSchemeHandlerForURLScheme:(NSString *)urlScheme;`
    open func urlSchemeHandler(forURLScheme urlScheme: String) -> (any WKURLSchemeHandler)? {
        schemeHandlers[urlScheme.lowercased()]
    }
}

// MARK: WKWebView.h

/// WKWebView.h: `WK_SWIFT_UI_ACTOR @interface WKWebView : UIView` (NSView on macOS), over a
/// WebKitGTK web view in the default web context.
@MainActor open class WKWebView: ShimPlatformView {
    /// Not SDK API: the `GtkWidget *` of the WebKitGTK web view, for a window to show (``ShimWindow``).
    public let widget: OpaquePointer
    var view: OpaquePointer { ks_web_view(widget) }
    private let ownConfiguration: WKWebViewConfiguration
    /// Whether a window shows the web view: WebKit reloads a crashed page only when visible.
    var isShown: Bool {
        get { shownIn != nil }
        set {
            shownIn = newValue ? Self.shownWindow() : nil
            reloadIfOwed()
        }
    }

    /// A window as the shim shows a web view in: in the app's one scene on UIKit's platforms.
    private static func shownWindow() -> ShimPlatformWindow {
        let window = ShimPlatformWindow()
        #if !os(macOS)
        window.windowScene = UIScene.shimMain
        #endif
        return window
    }

    /// Whether WebKit counts the web view visible: in a window, of a scene in the foreground.
    var isVisible: Bool {
        #if os(macOS)
        return shownIn?.isVisible == true
        #else
        return shownIn.map { $0.windowScene?.activationState != .background } ?? false
        #endif
    }

    /// The reload WebKit owes a page whose web content process ended while it was not visible.
    private func reloadIfOwed() {
        guard reloadsWhenShown, isVisible else { return }
        reloadsWhenShown = false
        reload()
    }

    private var reloadsWhenShown = false
    /// The navigation the app started with `load`/`reload`, whose action no frame started.
    private var appNavigation: (uri: String, navigation: WKNavigation)?
    /// The main frame's navigation under way, and whether it failed.
    private var navigation: WKNavigation?
    private var navigationFailed = false
    /// The origin of the committed main document.
    private(set) var mainOrigin = OriginParts.opaque
    private var observers: [Observer] = []
    /// The tasks of this web view's scheme handlers, started and not finished.
    var runningTasks: [ShimSchemeTask] = []

    /// A page aborted its fetch of `address`: WebKit stops the scheme task that serves it.
    func pageAborted(_ address: String) {
        runningTasks.first { $0.request.url?.absoluteString == address }?.stop()
    }

    private static var views: [OpaquePointer: WeakView] = [:]
    private struct WeakView { weak var view: WKWebView? }

    /// The web view of a WebKitGTK view.
    static func of(_ view: OpaquePointer) -> WKWebView? { views[view]?.view }

    /// `- (instancetype)initWithFrame:(CGRect)frame configuration:(WKWebViewConfiguration *)configuration NS_DESIGNATED_INITIALIZER;`
    /// The web view keeps a copy of `configuration` (`@property (nonatomic, readonly, copy)`).
    public init(frame: CGRect, configuration: WKWebViewConfiguration) {
        gtk_init(nil, nil)
        ownConfiguration = configuration.copied()
        let controller = configuration.userContentController
        widget = OpaquePointer(g_object_ref_sink(UnsafeMutableRawPointer(ks_web_view_new_in_context(ShimFrames.context, controller.manager))))
        super.init()
        Self.views[view] = WeakView(view: self)
        controller.webViews.removeAll { $0.webView == nil }
        controller.webViews.append(.init(webView: self, view: view))
        for scheme in ownConfiguration.schemeHandlers.keys { ShimSchemeTask.serve(scheme, in: webkit_web_view_get_context(view)) }
        connectSignals()
        #if !os(macOS)
        // A page whose web content process ended in the background reloads when its scene is back.
        activation = NotificationCenter.default.addObserver(forName: UIScene.didActivateNotification, object: nil, queue: nil) { [weak self] _ in
            MainActor.assumeIsolated { self?.reloadIfOwed() }
        }
        #endif
    }

    private var activation: (any NSObjectProtocol)?

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            for task in runningTasks { task.stop() }
            // WebKit calls an evaluation's handler, with an error, when its web view goes first.
            for evaluation in evaluations { evaluation.box?.fail(NSError(domain: "WKErrorDomain", code: 3, userInfo: [NSLocalizedDescriptionKey: "The WKWebView was invalidated"])) }
            activation.map(NotificationCenter.default.removeObserver)
            ks_disconnect_all(UnsafeMutableRawPointer(view), Unmanaged.passUnretained(self).toOpaque())
            Self.views[view] = nil
            g_object_unref(UnsafeMutableRawPointer(widget))
        }
    }

    /// `+ (BOOL)handlesURLScheme:(NSString *)urlScheme;`: the schemes WebKit
    /// loads itself (WKWebView.mm, `WebKit::URLSchemeHandler`'s built-ins).
    public static func handlesURLScheme(_ urlScheme: String) -> Bool {
        ["http", "https", "file", "about", "applewebdata", "data", "blob", "ftp", "ws", "wss", "javascript", "webkit-fake-url"].contains(urlScheme.lowercased())
    }

    /// `@property (nonatomic, readonly, copy) WKWebViewConfiguration *configuration;`: a copy each time,
    /// sharing the controller and scheme handlers.
    open var configuration: WKWebViewConfiguration { ownConfiguration.copied() }
    /// `@property (nullable, nonatomic, weak) id <WKUIDelegate> UIDelegate;`
    open weak var uiDelegate: (any WKUIDelegate)? {
        didSet { notify(\WKWebView.uiDelegate) }
    }
    /// `@property (nullable, nonatomic, weak) id <WKNavigationDelegate> navigationDelegate;`
    open weak var navigationDelegate: (any WKNavigationDelegate)? {
        didSet { notify(\WKWebView.navigationDelegate) }
    }
    /// `@property (nullable, nonatomic, readonly, copy) NSURL *URL;`
    open var url: URL? { webkit_web_view_get_uri(view).flatMap { URL(string: String(cString: $0)) } }

    /// `- (nullable WKNavigation *)loadRequest:(NSURLRequest *)request;` (its address only).
    @discardableResult open func load(_ request: URLRequest) -> WKNavigation? {
        guard let url = request.url else { return nil }
        let navigation = WKNavigation()
        appNavigation = (url.absoluteString, navigation)
        webkit_web_view_load_uri(view, url.absoluteString)
        return navigation
    }

    /// `- (nullable WKNavigation *)loadHTMLString:(NSString *)string baseURL:(nullable NSURL *)baseURL;`
    @discardableResult open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? {
        let navigation = WKNavigation()
        appNavigation = (baseURL?.absoluteString ?? "about:blank", navigation)
        webkit_web_view_load_html(view, string, baseURL?.absoluteString)
        return navigation
    }

    /// Not SDK API: how many times `reload()` was called, for the shim's checks.
    public private(set) var reloads = 0

    /// `- (nullable WKNavigation *)reload;`
    @discardableResult open func reload() -> WKNavigation? {
        reloads += 1
        let navigation = WKNavigation()
        appNavigation = (url?.absoluteString ?? "", navigation)
        webkit_web_view_reload(view)
        return navigation
    }

    /// Not SDK API: trusts the PEM certificate in `file` for `host` (what a device does for a
    /// certificate its configuration profile installs). Returns whether the file held one.
    @discardableResult public func trustCertificate(file: String, host: String) -> Bool {
        guard let certificate = g_tls_certificate_new_from_file(file, nil) else { return false }
        webkit_web_context_allow_tls_certificate_for_host(webkit_web_view_get_context(view), certificate, host)
        g_object_unref(UnsafeMutableRawPointer(certificate))
        return true
    }

    /// Not SDK API: ends the web content process, as a crash would (WebKit's private
    /// `_killWebContentProcess`).
    public func killWebContentProcess() {
        webkit_web_view_terminate_web_process(view)
    }

    /// `- (void)evaluateJavaScript:(NSString *)javaScriptString completionHandler:(void (^ _Nullable)(_Nullable id, NSError * _Nullable error))completionHandler;`
    /// Runs in the main frame's page world; the value arrives as a property list (``JSValues``),
    /// `undefined` as `nil`.
    open func evaluateJavaScript(
        _ javaScriptString: String,
        completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {
        evaluate(javaScriptString, frame: nil, world: nil, EvaluationBox(completionHandler))
    }

    /// WebKitSwiftOverlay.swift's `evaluateJavaScript(_:in:in:completionHandler:)`, over
    /// `evaluateJavaScript:inFrame:inContentWorld:completionHandler:`. In the main frame (`nil`, or
    /// a main frame's info) WebKitGTK runs it in the world of that name; in a subframe the shim's
    /// web-process extension runs it in the frame's document of the moment, as WebKit does (a frame
    /// info names a frame, not a document). A frame that has gone fails with
    /// `WKErrorJavaScriptInvalidFrameTarget` (12). A nil value arrives as `.success` of an empty
    /// optional, as the overlay boxes it.
    @preconcurrency
    public func evaluateJavaScript(
        _ javaScript: String,
        in frame: WKFrameInfo? = nil,
        in contentWorld: WKContentWorld,
        completionHandler: (@MainActor (Result<Any, any Error>) -> Void)? = nil
    ) {
        let box = EvaluationBox { value, error in completionHandler?(error.map { .failure($0) } ?? .success(value as Any)) }
        evaluate(javaScript, frame: frame, world: contentWorld.worldName, box)
    }

    private func evaluate(_ script: String, frame: WKFrameInfo?, world: String?, _ evaluation: EvaluationBox) {
        guard ShimAppBoundDomains.admits(url) else {
            // Answered later, as WebKit answers every evaluation.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    evaluation.fail(
                        NSError(domain: "WKErrorDomain", code: 14, userInfo: [NSLocalizedDescriptionKey: "JavaScript execution targeted a frame that is not in an app-bound domain"]))
                }
            }
            return
        }
        evaluations.removeAll { $0.box == nil }
        evaluations.append(WeakEvaluation(box: evaluation))
        if let frame, !frame.isMainFrame {
            let view = view
            return ShimFrames.identifier(of: frame) { identifier in
                guard let identifier else {
                    return DispatchQueue.main.async { MainActor.assumeIsolated { evaluation.finish(.frameGone) } }
                }
                ShimFrames.evaluate(script, inFrame: identifier, world: world, of: view) { evaluation.finish($0) }
            }
        }
        let box = Unmanaged.passRetained(evaluation).toOpaque()
        let utf8 = Array(script.utf8)
        utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                webkit_web_view_evaluate_javascript(
                    view, text.baseAddress, gssize(text.count), world, nil, nil,
                    { source, result, data in
                        guard let source, let result, let data else { return }
                        MainActor.assumeIsolated {
                            Unmanaged<EvaluationBox>.fromOpaque(data).takeRetainedValue().finish(ks_web_view_of(source), result)
                        }
                    }, box)
            }
        }
    }

    /// The evaluations that have not finished, to fail if the web view goes first.
    private var evaluations: [WeakEvaluation] = []
    private struct WeakEvaluation {
        weak var box: EvaluationBox?
    }

    // MARK: Key-value observing (the Swift overlay's NSObject.observe)

    private struct Observer {
        weak var observation: NSKeyValueObservation?
        let keyPath: AnyKeyPath
        let handler: @Sendable (WKWebView, NSKeyValueObservedChange<Any>) -> Void
    }

    /// The overlay's `_KeyValueCodingAndObserving.observe(_:options:changeHandler:)`, for the
    /// properties the shim reports: `uiDelegate` and `navigationDelegate`. Observing stops at
    /// `invalidate()` or when the observation goes.
    public nonisolated func observe<Value>(
        _ keyPath: KeyPath<WKWebView, Value>,
        options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (WKWebView, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        // Key paths to the web view's own properties hold no state of their own.
        nonisolated(unsafe) let keyPath = keyPath as AnyKeyPath
        return MainActor.assumeIsolated {
            let observation = NSKeyValueObservation()
            observers.append(Observer(observation: observation, keyPath: keyPath) { webView, _ in changeHandler(webView, NSKeyValueObservedChange()) })
            return observation
        }
    }

    private func notify(_ keyPath: AnyKeyPath) {
        observers.removeAll { $0.observation == nil || $0.observation?.isValid == false }
        for observer in observers where observer.keyPath == keyPath { observer.handler(self, NSKeyValueObservedChange()) }
    }

    // MARK: Signals

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ks_on_script_dialog(
            view,
            { _, dialog, data in
                guard let dialog, let data else { return 0 }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().runDialog(dialog) }
                return 1
            }, me)
        _ = ks_on_decide_policy(
            view,
            { _, decision, type, data in
                guard let decision, let data else { return 0 }
                return MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().decide(decision, type: type) ? 1 : 0 }
            }, me)
        _ = ks_on_load_changed(
            view,
            { _, event, data in
                guard let data else { return }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().loadChanged(event) }
            }, me)
        _ = ks_on_load_failed(
            view,
            { _, event, uri, error, data in
                guard let data else { return 0 }
                let address = uri.map { String(cString: $0) }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().loadFailed(event, address: address, error: error) }
                return 1  // no error page: WebKit's Cocoa API shows none
            }, me)
        _ = ks_on_web_process_terminated(
            view,
            { _, _, data in
                guard let data else { return }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().processTerminated() }
            }, me)
        _ = ks_on_close(
            view,
            { _, data in
                guard let data else { return }
                MainActor.assumeIsolated {
                    let webView = Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue()
                    _ = webView.uiDelegate.map { delegate in OptionalRequirement.implemented("webViewDidClose:", by: delegate) { delegate.webViewDidClose(webView) } }
                }
            }, me)
        _ = ks_on_create(
            view,
            { _, _, data in
                guard let data else { return nil }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().createWindow() }
                return nil
            }, me)
        _ = ks_on_authenticate(
            view,
            { _, request, data in
                guard let request, let data else { return 0 }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().authenticate(request) }
                return 1
            }, me)
        _ = ks_on_run_file_chooser(
            view,
            { _, request, data in
                guard let request, let data else { return 0 }
                MainActor.assumeIsolated { Unmanaged<WKWebView>.fromOpaque(data).takeUnretainedValue().runOpenPanel(request) }
                return 1
            }, me)
    }

    /// NavigationState.mm: a navigation delegate with the challenge method answers a load's
    /// authentication challenge; without one WebKit rejects the protection space, and the load goes
    /// on without a credential.
    private func authenticate(_ request: OpaquePointer) {
        let pending = PendingRequest(request) { PendingRequest.authenticate($0, .rejectProtectionSpace, nil) }
        let method =
            switch webkit_authentication_request_get_scheme(request) {
            case KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC: NSURLAuthenticationMethodHTTPBasic
            case KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_DIGEST: NSURLAuthenticationMethodHTTPDigest
            default: NSURLAuthenticationMethodDefault
            }
        let space = URLProtectionSpace(
            host: String(cString: webkit_authentication_request_get_host(request)), port: Int(webkit_authentication_request_get_port(request)),
            protocol: url?.scheme ?? "http", realm: webkit_authentication_request_get_realm(request).map { String(cString: $0) }, authenticationMethod: method)
        let challenge = URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: webkit_authentication_request_is_retry(request) != 0 ? 1 : 0,
            failureResponse: nil, error: nil, sender: ShimChallengeSender())
        let checker = CheckedCompletion("webView:didReceiveAuthenticationChallenge:completionHandler:")
        let implemented = navigationDelegate.map { delegate in
            OptionalRequirement.implemented(checker.selector, by: delegate) {
                delegate.webView(self, didReceive: challenge) { disposition, credential in
                    if checker.call() { pending.answer { PendingRequest.authenticate($0, disposition, credential) } }
                }
            }
        }
        if implemented != true {
            checker.disarm()
            pending.answer { PendingRequest.authenticate($0, .rejectProtectionSpace, nil) }
        }
    }

    /// WKUIDelegate.h: a UI delegate with the open panel answers a file input (its files, or `nil`
    /// for Cancel); without one WebKit shows its own picker on iOS and visionOS (``ShimFilePicker``)
    /// and chooses nothing on macOS.
    private func runOpenPanel(_ request: OpaquePointer) {
        let pending = PendingRequest(request) { PendingRequest.choose($0, nil) }
        let checker = CheckedCompletion("webView:runOpenPanelWithParameters:initiatedByFrame:completionHandler:")
        let parameters = WKOpenPanelParameters(shimAllowsMultipleSelection: webkit_file_chooser_request_get_select_multiple(request) != 0)
        let implemented = uiDelegate.map { delegate in
            OptionalRequirement.implemented(checker.selector, by: delegate) {
                delegate.webView(self, runOpenPanelWith: parameters, initiatedByFrame: mainFrame) { files in
                    if checker.call() { pending.answer { PendingRequest.choose($0, files) } }
                }
            }
        }
        if implemented != true {
            checker.disarm()
            let chosen = ShimFilePicker.chosen
            pending.answer { PendingRequest.choose($0, chosen) }
        }
    }

    /// A frame the shim knows only as the main frame, with the committed document's origin.
    private var mainFrame: WKFrameInfo { WKFrameInfo(isMainFrame: true, origin: mainOrigin, address: url, webView: self) }

    // MARK: Dialogs (WKUIDelegate.h; without a delegate method, WebKit behaves as if the user cancelled)

    private func runDialog(_ dialog: OpaquePointer) {
        let text = String(cString: webkit_script_dialog_get_message(dialog))
        let tagged = FrameScript.untag(text: text)
        let frame =
            tagged.map { $0.frameInfo(of: self) }
            ?? WKFrameInfo(isMainFrame: false, origin: .opaque, address: nil, webView: self)
        let message = tagged.flatMap { FrameScript.decoded($0.text) } ?? text
        let pending = PendingDialog(dialog)
        defer { pending.signalReturns() }
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case KS_WEBKIT_SCRIPT_DIALOG_ALERT:
            let checker = CheckedCompletion("webView:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:")
            let implemented = uiDelegate.map { delegate in
                OptionalRequirement.implemented(checker.selector, by: delegate) {
                    delegate.webView(self, runJavaScriptAlertPanelWithMessage: message, initiatedByFrame: frame) { if checker.call() { pending.close() } }
                }
            }
            if implemented != true { checker.disarm(); pending.close() }
        case KS_WEBKIT_SCRIPT_DIALOG_CONFIRM:
            let checker = CheckedCompletion("webView:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:completionHandler:")
            let implemented = uiDelegate.map { delegate in
                OptionalRequirement.implemented(checker.selector, by: delegate) {
                    delegate.webView(self, runJavaScriptConfirmPanelWithMessage: message, initiatedByFrame: frame) { confirmed in
                        if checker.call() { pending.confirm(confirmed) }
                    }
                }
            }
            if implemented != true { checker.disarm(); pending.confirm(false) }
        case KS_WEBKIT_SCRIPT_DIALOG_PROMPT:
            let rawDefault = webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) }
            let defaultText = tagged == nil ? rawDefault : rawDefault.flatMap(FrameScript.decoded)
            let checker = CheckedCompletion("webView:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:")
            let implemented = uiDelegate.map { delegate in
                OptionalRequirement.implemented(checker.selector, by: delegate) {
                    delegate.webView(self, runJavaScriptTextInputPanelWithPrompt: message, defaultText: defaultText, initiatedByFrame: frame) { answer in
                        if checker.call() { pending.answer(answer) }
                    }
                }
            }
            if implemented != true { checker.disarm(); pending.answer(nil) }
        default:
            pending.close()
        }
    }

    // MARK: Navigation (WKNavigationDelegate.h, and NavigationState.mm for what WebKit does without a delegate method)

    private func decide(_ decision: OpaquePointer, type: UInt32) -> Bool {
        let pending = PendingDecision(decision)
        if type == KS_WEBKIT_POLICY_DECISION_TYPE_RESPONSE {
            decideResponse(ks_response_decision(decision), pending)
            return true
        }
        let gtkAction = ks_navigation_action(decision)!
        let request = webkit_navigation_action_get_request(gtkAction)!
        let uri = webkit_uri_request_get_uri(request).map { String(cString: $0) } ?? ""
        var urlRequest = URLRequest(url: URL(string: uri) ?? URL(string: "about:blank")!)
        urlRequest.httpMethod = webkit_uri_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
        // A navigation the app started has no source frame; the shim cannot tell a page's frames
        // apart here, and names the main frame (README.md: frames), which navigates itself: one
        // frame object is both, as WebKit hands it (NavigationState.mm).
        let target: WKFrameInfo? = type == KS_WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? nil : mainFrame
        var source: WKFrameInfo? = target ?? mainFrame
        if let reported = ownConfiguration.userContentController.takeNavigationSource(uri) {
            source = reported.frameInfo(of: self)
        } else if let started = appNavigation, started.uri == uri || type == KS_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && started.uri.isEmpty {
            source = nil
        }
        // WebKitGTK's types 0 to 4 are WebKit's; its OTHER (5) is WebKit's `.other` (-1).
        let navigationType = WKNavigationType(rawValue: Int(webkit_navigation_action_get_navigation_type(gtkAction))) ?? .other
        let action = WKNavigationAction(
            request: urlRequest, sourceFrame: source, targetFrame: target,
            navigationType: navigationType)
        let apply: @MainActor (WKNavigationActionPolicy) -> Void = { policy in
            switch policy {
            case .allow: pending.use()
            case .cancel: pending.ignore()
            case .download: pending.download()
            }
        }
        guard let delegate = navigationDelegate else {
            apply(Self.defaultPolicy(for: urlRequest, in: self))
            return true
        }
        let preferences = WKWebpagePreferences()
        let withPreferences = CheckedCompletion("webView:decidePolicyForNavigationAction:preferences:decisionHandler:")
        if OptionalRequirement.implemented(
            withPreferences.selector, by: delegate,
            {
                delegate.webView(self, decidePolicyFor: action, preferences: preferences) { policy, _ in if withPreferences.call() { apply(policy) } }
            })
        {
            return true
        }
        withPreferences.disarm()
        let plain = CheckedCompletion("webView:decidePolicyForNavigationAction:decisionHandler:")
        if OptionalRequirement.implemented(plain.selector, by: delegate, { delegate.webView(self, decidePolicyFor: action) { policy in if plain.call() { apply(policy) } } }) {
            return true
        }
        plain.disarm()
        apply(Self.defaultPolicy(for: urlRequest, in: self))
        return true
    }

    /// NavigationState.mm, `decidePolicyForNavigationAction` without a delegate method: allowed when
    /// WebKit can load the request (its own schemes, or one with a scheme handler), otherwise
    /// ignored (macOS then opens it with NSWorkspace, which the shim does not).
    private static func defaultPolicy(for request: URLRequest, in webView: WKWebView) -> WKNavigationActionPolicy {
        let scheme = request.url?.scheme?.lowercased() ?? ""
        return handlesURLScheme(scheme) || webView.ownConfiguration.schemeHandlers[scheme] != nil ? .allow : .cancel
    }

    private func decideResponse(_ decision: OpaquePointer, _ pending: PendingDecision) {
        let gtkResponse = webkit_response_policy_decision_get_response(decision)!
        let uri = webkit_uri_response_get_uri(gtkResponse).map { String(cString: $0) } ?? "about:blank"
        let url = URL(string: uri) ?? URL(string: "about:blank")!
        let status = Int(webkit_uri_response_get_status_code(gtkResponse))
        let mime = webkit_uri_response_get_mime_type(gtkResponse).map { String(cString: $0) }
        let plain = URLResponse(url: url, mimeType: mime, expectedContentLength: -1, textEncodingName: nil)
        let response: URLResponse =
            url.scheme?.hasPrefix("http") == true
            ? HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: mime.map { ["Content-Type": $0] }) ?? plain : plain
        let navigationResponse = WKNavigationResponse(
            isForMainFrame: webkit_response_policy_decision_is_main_frame_main_resource(decision) != 0,
            canShowMIMEType: webkit_response_policy_decision_is_mime_type_supported(decision) != 0, response: response)
        let apply: @MainActor (WKNavigationResponsePolicy) -> Void = { policy in
            switch policy {
            case .allow: pending.use()
            case .cancel: pending.ignore()
            case .download: pending.download()
            }
        }
        let checker = CheckedCompletion("webView:decidePolicyForNavigationResponse:decisionHandler:")
        if let delegate = navigationDelegate,
            OptionalRequirement.implemented(checker.selector, by: delegate, { delegate.webView(self, decidePolicyFor: navigationResponse) { policy in if checker.call() { apply(policy) } } })
        {
            return
        }
        checker.disarm()
        apply(navigationResponse.canShowMIMEType ? .allow : .cancel)
    }

    private func loadChanged(_ event: UInt32) {
        switch event {
        case KS_WEBKIT_LOAD_STARTED:
            navigation = appNavigation?.navigation ?? WKNavigation()
            appNavigation = nil
            navigationFailed = false
            callNavigationDelegate("webView:didStartProvisionalNavigation:") { $0.webView(self, didStartProvisionalNavigation: self.navigation) }
        case KS_WEBKIT_LOAD_REDIRECTED:
            callNavigationDelegate("webView:didReceiveServerRedirectForProvisionalNavigation:") { $0.webView(self, didReceiveServerRedirectForProvisionalNavigation: self.navigation) }
        case KS_WEBKIT_LOAD_COMMITTED:
            // The old document's loads end with it: WebKit stops its scheme tasks.
            for task in runningTasks { task.stop() }
            mainOrigin = Self.origin(of: url)
            callNavigationDelegate("webView:didCommitNavigation:") { $0.webView(self, didCommit: self.navigation) }
        case KS_WEBKIT_LOAD_FINISHED:
            clearRecentCrashesSoon()
            if !navigationFailed { callNavigationDelegate("webView:didFinishNavigation:") { $0.webView(self, didFinish: self.navigation) } }
            navigation = nil
        default:
            break
        }
    }

    private func loadFailed(_ event: UInt32, address: String?, error: OpaquePointer?) {
        navigationFailed = true
        let failure = Self.loadError(address: address, error: error)
        if event == KS_WEBKIT_LOAD_STARTED || event == KS_WEBKIT_LOAD_REDIRECTED {
            callNavigationDelegate("webView:didFailProvisionalNavigation:withError:") { $0.webView(self, didFailProvisionalNavigation: self.navigation, withError: failure) }
        } else {
            callNavigationDelegate("webView:didFailNavigation:withError:") { $0.webView(self, didFail: self.navigation, withError: failure) }
        }
    }

    /// WebPageProxy::dispatchProcessDidTerminate: a navigation delegate with the method is told
    /// and WebKit does nothing more; without one WebKit reloads the page, once it is visible, and
    /// only once (`maximumWebProcessRelaunchAttempts`) until 30 seconds after a load finishes
    /// (`resetRecentCrashCountDelay`): a page that takes its process down again stays blank.
    private func processTerminated() {
        for task in runningTasks { task.stop() }
        if let delegate = navigationDelegate, OptionalRequirement.implemented("webViewWebContentProcessDidTerminate:", by: delegate, { delegate.webViewWebContentProcessDidTerminate(self) }) {
            return
        }
        guard recentCrashes < 1 else { return }
        recentCrashes += 1
        reloadsWhenShown = true
        reloadIfOwed()
    }

    /// Automatic reloads since the count was last cleared.
    private var recentCrashes = 0
    /// Which finished load's clearing of the count is the latest.
    private var loadsFinished = 0

    /// WebKit clears the count 30 seconds after a load finishes.
    private func clearRecentCrashesSoon() {
        loadsFinished += 1
        let finished = loadsFinished
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.loadsFinished == finished else { return }
                self.recentCrashes = 0
            }
        }
    }

    private func callNavigationDelegate(_ selector: String, _ call: (any WKNavigationDelegate) -> Void) {
        guard let delegate = navigationDelegate else { return }
        _ = OptionalRequirement.implemented(selector, by: delegate) { call(delegate) }
    }

    /// A failed load's error as WebKit's Cocoa API reports it: an address of a scheme WebKit
    /// cannot load is `NSURLErrorUnsupportedURL`, a cancelled load `NSURLErrorCancelled`, and
    /// WebKit's policy errors keep their codes in `WebKitErrorDomain` (WebKitGTK's are the same
    /// numbers: 100 a type it cannot show, 101 an address, 102 a load a decision interrupted).
    private static func loadError(address: String?, error: OpaquePointer?) -> NSError {
        let message = error.map { String(cString: ks_error_message($0)) } ?? "the load failed"
        let code = error.map { Int(ks_error_code($0)) } ?? 0
        let scheme = address.flatMap { URL(string: $0)?.scheme?.lowercased() } ?? ""
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let failing = address.flatMap(URL.init(string:)) { info[NSURLErrorFailingURLErrorKey] = failing }
        let loadable = handlesURLScheme(scheme) || ShimSchemeTask.isServed(scheme)
        switch code {
        case _ where (code == 301 || code == 101) && !loadable:
            return NSError(domain: NSURLErrorDomain, code: NSURLErrorUnsupportedURL, userInfo: info)
        case 302:
            return NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: info)
        case 100, 101, 102:
            return NSError(domain: "WebKitErrorDomain", code: code, userInfo: info)
        default:
            return NSError(domain: NSURLErrorDomain, code: NSURLErrorUnknown, userInfo: info)
        }
    }

    /// WKUIDelegate's `createWebViewWithConfiguration:…`: the shim makes no related web views.
    private func createWindow() {
        guard let delegate = uiDelegate else { return }
        let action = WKNavigationAction(request: URLRequest(url: URL(string: "about:blank")!), sourceFrame: mainFrame, targetFrame: nil, navigationType: .other)
        var created: WKWebView?
        _ = OptionalRequirement.implemented("webView:createWebViewWithConfiguration:forNavigationAction:windowFeatures:", by: delegate) {
            created = delegate.webView(self, createWebViewWith: configuration, for: action, windowFeatures: WKWindowFeatures())
        }
        if created != nil { ShimFaults.raise("the shim cannot show a web view made for window.open") }
    }

    /// The serialised origin of the committed document's address, as its frame script reports it.
    static func origin(of url: URL?) -> OriginParts {
        guard let url, let scheme = url.scheme?.lowercased() else { return .opaque }
        switch scheme {
        case "http", "https":
            let defaultPort = scheme == "http" ? 80 : 443
            return OriginParts(scheme: scheme, host: url.host ?? "", port: url.port.map { $0 == defaultPort ? 0 : $0 } ?? 0)
        case "file":
            return OriginParts(scheme: "file", host: "", port: 0)
        default:
            return .opaque
        }
    }
}

/// What waits for an evaluation's value.
@MainActor
private final class EvaluationBox {
    private var completion: (@MainActor (Any?, (any Error)?) -> Void)?

    init(_ completion: (@MainActor (Any?, (any Error)?) -> Void)?) {
        self.completion = completion
    }

    /// What the shim's extension answered for a subframe.
    func finish(_ outcome: ShimFrames.Outcome) {
        switch outcome {
        case .walked(let json):
            switch JSValues.propertyList(walked: json) {
            case .value(let converted): complete(converted, nil)
            case .unsupported: complete(nil, Self.unsupported)
            }
        case .unsupported:
            complete(nil, Self.unsupported)
        case .frameGone:
            complete(nil, NSError(domain: "WKErrorDomain", code: 12, userInfo: [NSLocalizedDescriptionKey: "JavaScript execution targeted an invalid frame"]))
        case .exception(let line, let column, let source, let message):
            var info: [String: Any] = [
                NSLocalizedDescriptionKey: "A JavaScript exception occurred", "WKJavaScriptExceptionMessage": message,
                "WKJavaScriptExceptionLineNumber": NSNumber(value: line), "WKJavaScriptExceptionColumnNumber": NSNumber(value: column),
            ]
            if !source.isEmpty, let address = URL(string: source) { info["WKJavaScriptExceptionSourceURL"] = address }
            complete(nil, NSError(domain: "WKErrorDomain", code: 4, userInfo: info))
        }
    }

    /// Calls the handler once.
    private func complete(_ value: Any?, _ error: (any Error)?) {
        let handler = completion
        completion = nil
        handler?(value, error)
    }

    /// The evaluation ends without a value.
    func fail(_ error: any Error) {
        complete(nil, error)
    }

    /// WKWebView.mm: an exception is `WKErrorJavaScriptExceptionOccurred` (4), its message, line,
    /// column and source address in the error's user info; a value with no property-list form is
    /// `WKErrorJavaScriptResultTypeIsUnsupported` (5), as is one WebKitGTK could not hand over
    /// (`WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT`: a DOM node, say).
    func finish(_ view: OpaquePointer, _ result: OpaquePointer) {
        var error: OpaquePointer?
        let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
        defer { value.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        guard completion != nil else {
            error.map(g_error_free)
            return
        }
        if let error {
            let code = ks_error_code(error)
            let message = String(cString: ks_error_message(error))
            g_error_free(error)
            if code == 601 { return complete(nil, Self.unsupported) }
            return complete(nil, Self.exception(message))
        }
        guard let value else { return complete(nil, nil) }
        switch JSValues.propertyList(value) {
        case .value(let converted): complete(converted, nil)
        case .unsupported: complete(nil, Self.unsupported)
        }
    }

    private static var unsupported: NSError {
        NSError(domain: "WKErrorDomain", code: 5, userInfo: [NSLocalizedDescriptionKey: "JavaScript execution returned a result of an unsupported type"])
    }

    /// WebKitGTK writes an exception as `SOURCE:LINE:COLUMN: MESSAGE`; WebKit hands the parts over
    /// in the error's user info.
    private static func exception(_ text: String) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "A JavaScript exception occurred", "WKJavaScriptExceptionMessage": text]
        if let match = text.firstMatch(of: /^(.*):([0-9]+):([0-9]+): (.*)$/.dotMatchesNewlines()) {
            info["WKJavaScriptExceptionMessage"] = String(match.4)
            info["WKJavaScriptExceptionLineNumber"] = NSNumber(value: Int(match.2) ?? 0)
            info["WKJavaScriptExceptionColumnNumber"] = NSNumber(value: Int(match.3) ?? 0)
            if let source = URL(string: String(match.1)), !match.1.isEmpty { info["WKJavaScriptExceptionSourceURL"] = source }
        }
        return NSError(domain: "WKErrorDomain", code: 4, userInfo: info)
    }
}

/// A script dialog WebKitGTK waits on until the shim closes it. Answered while its signal runs,
/// WebKitGTK closes it itself when the signal returns (closing it there too would end it twice).
@MainActor
private final class PendingDialog {
    private let dialog: OpaquePointer
    private var open = true
    private var inSignal = true

    func signalReturns() {
        inSignal = false
    }

    init(_ dialog: OpaquePointer) {
        self.dialog = webkit_script_dialog_ref(dialog)
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            close()
            webkit_script_dialog_unref(dialog)
        }
    }

    func confirm(_ confirmed: Bool) {
        webkit_script_dialog_confirm_set_confirmed(dialog, confirmed ? 1 : 0)
        close()
    }

    /// A prompt's answer; `nil` answers `null`, as a cancelled prompt does.
    func answer(_ text: String?) {
        if let text { webkit_script_dialog_prompt_set_text(dialog, text) }
        close()
    }

    func close() {
        guard open else { return }
        open = false
        if !inSignal { webkit_script_dialog_close(dialog) }
    }
}

/// A request WebKitGTK waits on until the shim answers it (an authentication challenge, a file
/// input): answered once; one never answered gets `unanswered`.
@MainActor
private final class PendingRequest {
    private let request: OpaquePointer
    private var open = true
    private let unanswered: @MainActor (OpaquePointer) -> Void

    init(_ request: OpaquePointer, unanswered: @escaping @MainActor (OpaquePointer) -> Void) {
        self.request = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(request)))
        self.unanswered = unanswered
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            answer(unanswered)
            g_object_unref(UnsafeMutableRawPointer(request))
        }
    }

    /// Answers the request with `body`, unless it was answered already.
    func answer(_ body: @MainActor (OpaquePointer) -> Void) {
        guard open else { return }
        open = false
        body(request)
    }

    /// An authentication challenge's answer: the delegate's credential, none (the load goes on
    /// without one, as when WebKit rejects the protection space), or Cancel.
    static func authenticate(_ request: OpaquePointer, _ disposition: URLSession.AuthChallengeDisposition, _ credential: URLCredential?) {
        if disposition == .cancelAuthenticationChallenge { return webkit_authentication_request_cancel(request) }
        guard disposition == .useCredential, let credential, let user = credential.user else {
            return webkit_authentication_request_authenticate(request, nil)
        }
        let made = webkit_credential_new(user, credential.password ?? "", 0)  // WEBKIT_CREDENTIAL_PERSISTENCE_NONE
        webkit_authentication_request_authenticate(request, made)
        webkit_credential_free(made)
    }

    /// A file input's answer: the files chosen, or none (Cancel).
    static func choose(_ request: OpaquePointer, _ files: [URL]?) {
        guard let files, !files.isEmpty else { return webkit_file_chooser_request_cancel(request) }
        let paths = files.map { strdup($0.path) } + [nil]
        defer { paths.forEach { free($0) } }
        paths.withUnsafeBufferPointer { list in
            webkit_file_chooser_request_select_files(request, UnsafePointer<UnsafePointer<CChar>?>(OpaquePointer(list.baseAddress)))
        }
    }
}

/// What a challenge names as its sender: the shim answers through the delegate's completion
/// handler, as WebKit does.
private final class ShimChallengeSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}

/// A policy decision WebKitGTK waits on until the shim makes it.
@MainActor
private final class PendingDecision {
    private let decision: OpaquePointer

    init(_ decision: OpaquePointer) {
        self.decision = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(decision)))
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            g_object_unref(UnsafeMutableRawPointer(decision))
        }
    }

    func use() { webkit_policy_decision_use(decision) }
    func ignore() { webkit_policy_decision_ignore(decision) }
    func download() { webkit_policy_decision_download(decision) }
}

// MARK: Key-value observing (Foundation: NSKeyValueObserving.h, and the Swift overlay's NSObject.swift)

/// NSKeyValueObserving.h: `typedef NS_OPTIONS(NSUInteger, NSKeyValueObservingOptions)`.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
}

/// The overlay's `public struct NSKeyValueObservedChange<Value>`.
public struct NSKeyValueObservedChange<Value> {}

/// The overlay's `public class NSKeyValueObservation : NSObject`; observing stops at `invalidate()`
/// or `deinit`.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    private(set) var isValid = true

    public func invalidate() {
        isValid = false
    }
}

// MARK: A window for a web view (what an app's view hierarchy does on a device)

/// Not SDK API: shows a web view in a top-level GTK window, as an app's window shows a `WKWebView`.
@MainActor
public final class ShimWindow {
    private let window: OpaquePointer
    private let webView: WKWebView

    public init(showing webView: WKWebView, title: String, width: Int = 800, height: Int = 600) {
        gtk_init(nil, nil)
        self.webView = webView
        window = gtk_window_new(KS_GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(ks_window(window), title)
        gtk_window_set_default_size(ks_window(window), Int32(width), Int32(height))
        gtk_container_add(ks_container(window), webView.widget)
        gtk_widget_show_all(window)
        webView.isShown = true
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            webView.isShown = false
            gtk_widget_destroy(window)
        }
    }
}
#endif
