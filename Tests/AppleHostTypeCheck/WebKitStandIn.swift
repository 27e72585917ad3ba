// WebKitStandIn.swift — declarations only: every WebKit (and Foundation KVO) symbol WKWebViewHost
// uses, with the Swift signature and actor isolation the SDK imports, so the host type-checks on
// Linux line by line. Each declaration names the header it was checked against, in WebKit's
// open-source tree (Source/WebKit/UIProcess/API/Cocoa/) unless it says otherwise. Nothing here
// runs: every body is `fatalError`.
//
// Optional protocol requirements: Linux has no `@objc optional`. The methods the host implements
// are plain requirements here, so the host's signatures are checked against the SDK's; the app's
// optional methods the host calls (`delegate.webView?(…)`) are reached through
// `WKUIDelegateOptionalMethods` / `WKNavigationDelegateOptionalMethods`, whose `callAsFunction`s carry
// the SDK's labels and types, so the same call syntax type-checks with the same arguments.
#if !canImport(WebKit)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: WKWebView.h, WKWebViewConfiguration.h

/// WKWebView.h: `WK_SWIFT_UI_ACTOR @interface WKWebView : UIView` (NSView on macOS).
@MainActor open class WKWebView: UIView {
    /// `- (instancetype)initWithFrame:(CGRect)frame configuration:(WKWebViewConfiguration *)configuration NS_DESIGNATED_INITIALIZER;`
    public init(frame: CGRect, configuration: WKWebViewConfiguration) {}
    /// `- (nullable WKNavigation *)loadRequest:(NSURLRequest *)request;`
    /// (Swift imports Objective-C methods as `@discardableResult`.)
    @discardableResult open func load(_ request: URLRequest) -> WKNavigation? { fatalError("declaration only") }
    /// `@property (nonatomic, readonly, copy) WKWebViewConfiguration *configuration;`
    open var configuration: WKWebViewConfiguration { fatalError("declaration only") }
    /// `@property (nullable, nonatomic, weak) id <WKUIDelegate> UIDelegate;`
    open weak var uiDelegate: (any WKUIDelegate)?
    /// `@property (nullable, nonatomic, weak) id <WKNavigationDelegate> navigationDelegate;`
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    /// `- (nullable WKNavigation *)reload;`
    @discardableResult open func reload() -> WKNavigation? { fatalError("declaration only") }
    /// `- (void)evaluateJavaScript:(NSString *)javaScriptString completionHandler:(void (^ _Nullable)(_Nullable id, NSError * _Nullable error))completionHandler;`
    /// (the SDK marks the handler `WK_SWIFT_UI_ACTOR` and `NS_SWIFT_SENDABLE`).
    open func evaluateJavaScript(
        _ javaScriptString: String,
        completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {}
}

/// WKWebViewConfiguration.h: `WK_SWIFT_UI_ACTOR @interface WKWebViewConfiguration : NSObject <NSSecureCoding, NSCopying>`.
@MainActor open class WKWebViewConfiguration: NSObject {
    /// NSObject's `- (instancetype)init;`
    public override init() {}
    /// `@property (nonatomic, strong) WKUserContentController *userContentController;`
    open var userContentController: WKUserContentController { fatalError("declaration only") }
    /// `- (void)setURLSchemeHandler:(nullable id <WKURLSchemeHandler>)urlSchemeHandler forURLScheme:(NSString *)urlScheme;`
    /// (iOS 11, macOS 10.13; raises for a scheme WebKit handles itself, or one already set).
    open func setURLSchemeHandler(_ urlSchemeHandler: (any WKURLSchemeHandler)?, forURLScheme urlScheme: String) {}
    /// `- (nullable id <WKURLSchemeHandler>)urlSchemeHandlerForURLScheme:(NSString *)urlScheme;` (iOS 11, macOS 10.13).
    open func urlSchemeHandler(forURLScheme urlScheme: String) -> (any WKURLSchemeHandler)? { fatalError("declaration only") }
}

// MARK: WKURLSchemeHandler.h, WKURLSchemeTask.h

/// WKURLSchemeHandler.h: `WK_SWIFT_UI_ACTOR @protocol WKURLSchemeHandler <NSObject>` (iOS 11, macOS
/// 10.13); both methods are required.
@MainActor public protocol WKURLSchemeHandler: NSObjectProtocol {
    /// `- (void)webView:(WKWebView *)webView startURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask)
    /// `- (void)webView:(WKWebView *)webView stopURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask)
}

/// WKURLSchemeTask.h: `@protocol WKURLSchemeTask <NSObject>` (iOS 11, macOS 10.13), with no actor
/// of its own: the host calls it on the main actor only, which type-checks either way.
public protocol WKURLSchemeTask: NSObjectProtocol {
    /// `@property (nonatomic, readonly, copy) NSURLRequest *request;`
    var request: URLRequest { get }
    /// `- (void)didReceiveResponse:(NSURLResponse *)response;`
    func didReceive(_ response: URLResponse)
    /// `- (void)didReceiveData:(NSData *)data;`
    func didReceive(_ data: Data)
    /// `- (void)didFinish;`
    func didFinish()
    /// `- (void)didFailWithError:(NSError *)error;`
    func didFailWithError(_ error: any Error)
}

/// WKNavigation.h: `WK_SWIFT_UI_ACTOR @interface WKNavigation : NSObject`.
@MainActor open class WKNavigation: NSObject {}

/// WKWindowFeatures.h: `WK_SWIFT_UI_ACTOR @interface WKWindowFeatures : NSObject`.
@MainActor open class WKWindowFeatures: NSObject {}

/// WKDownload.h: `WK_SWIFT_UI_ACTOR @interface WKDownload : NSObject<NSProgressReporting>` (iOS 14.5, macOS 11.3).
@MainActor open class WKDownload: NSObject {}

/// WKOpenPanelParameters.h: `WK_SWIFT_UI_ACTOR @interface WKOpenPanelParameters : NSObject` (macOS 10.12).
@MainActor open class WKOpenPanelParameters: NSObject {}

// MARK: WKUserContentController.h, WKUserScript.h, WKContentWorld.h, WKScriptMessage.h

/// WKUserContentController.h: `WK_SWIFT_UI_ACTOR @interface WKUserContentController : NSObject <NSSecureCoding>`.
@MainActor open class WKUserContentController: NSObject {
    /// `@property (nonatomic, readonly, copy) NSArray<WKUserScript *> *userScripts;`
    open var userScripts: [WKUserScript] { fatalError("declaration only") }
    /// `- (void)addUserScript:(WKUserScript *)userScript;`
    open func addUserScript(_ userScript: WKUserScript) {}
    /// `- (void)removeAllUserScripts;`
    open func removeAllUserScripts() {}
    /// `- (void)addScriptMessageHandlerWithReply:(id <WKScriptMessageHandlerWithReply>)scriptMessageHandlerWithReply contentWorld:(WKContentWorld *)contentWorld name:(NSString *)name;`
    /// (iOS 14, macOS 11; raises NSInvalidArgumentException when `name` is already taken in that world).
    open func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply,
        contentWorld world: WKContentWorld,
        name: String
    ) {}
    /// `- (void)removeScriptMessageHandlerForName:(NSString *)name contentWorld:(WKContentWorld *)contentWorld;` (iOS 14, macOS 11).
    open func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {}
}

/// WKUserScript.h: `typedef NS_ENUM(NSInteger, WKUserScriptInjectionTime)`.
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart
    case atDocumentEnd
}

/// WKUserScript.h: `WK_SWIFT_UI_ACTOR @interface WKUserScript : NSObject <NSCopying>`.
@MainActor open class WKUserScript: NSObject {
    /// `- (instancetype)initWithSource:(NSString *)source injectionTime:(WKUserScriptInjectionTime)injectionTime forMainFrameOnly:(BOOL)forMainFrameOnly inContentWorld:(WKContentWorld *)contentWorld;` (iOS 14, macOS 11).
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld) {}
}

/// WKContentWorld.h: `WK_SWIFT_UI_ACTOR @interface WKContentWorld : NSObject` (iOS 14, macOS 11).
@MainActor open class WKContentWorld: NSObject {
    /// `@property (class, nonatomic, readonly) WKContentWorld *pageWorld;` (`NS_SWIFT_NAME(page)`).
    open class var page: WKContentWorld { fatalError("declaration only") }
    /// `+ (WKContentWorld *)worldWithName:(NSString *)name;` (`NS_SWIFT_NAME(world(name:))`).
    open class func world(name: String) -> WKContentWorld { fatalError("declaration only") }
}

/// WKScriptMessage.h: `WK_SWIFT_UI_ACTOR @interface WKScriptMessage : NSObject`.
@MainActor open class WKScriptMessage: NSObject {
    /// `@property (nonatomic, readonly, copy) id body;`
    open var body: Any { fatalError("declaration only") }
    /// `@property (nullable, nonatomic, readonly, weak) WKWebView *webView;`
    open weak var webView: WKWebView? { fatalError("declaration only") }
    /// `@property (nonatomic, readonly, copy) WKFrameInfo *frameInfo;`
    open var frameInfo: WKFrameInfo { fatalError("declaration only") }
    /// `@property (nonatomic, readonly, copy) NSString *name;`
    open var name: String { fatalError("declaration only") }
}

/// WKScriptMessageHandlerWithReply.h: `WK_SWIFT_UI_ACTOR @protocol WKScriptMessageHandlerWithReply <NSObject>`
/// (iOS 14, macOS 11); its one method is required.
@MainActor public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    /// `- (void)userContentController:(WKUserContentController *)userContentController didReceiveScriptMessage:(WKScriptMessage *)message replyHandler:(WK_SWIFT_UI_ACTOR void (^)(id _Nullable reply, NSString *_Nullable errorMessage))replyHandler;`
    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    )
}

// MARK: WKFrameInfo.h, WKSecurityOrigin.h

/// WKSecurityOrigin.h: `WK_SWIFT_UI_ACTOR @interface WKSecurityOrigin : NSObject`.
@MainActor open class WKSecurityOrigin: NSObject {
    /// `@property (nonatomic, readonly, copy) NSString *protocol;`
    open var `protocol`: String { fatalError("declaration only") }
    /// `@property (nonatomic, readonly, copy) NSString *host;`
    open var host: String { fatalError("declaration only") }
    /// `@property (nonatomic, readonly) NSInteger port;`
    open var port: Int { fatalError("declaration only") }
}

/// WKFrameInfo.h: `WK_SWIFT_UI_ACTOR @interface WKFrameInfo : NSObject <NSCopying>`.
@MainActor open class WKFrameInfo: NSObject {
    /// `@property (nonatomic, readonly, getter=isMainFrame) BOOL mainFrame;`
    open var isMainFrame: Bool { fatalError("declaration only") }
    /// `@property (nonatomic, readonly) WKSecurityOrigin *securityOrigin;`
    open var securityOrigin: WKSecurityOrigin { fatalError("declaration only") }
}

// MARK: WKNavigationAction.h, WKNavigationResponse.h, WKWebpagePreferences.h

/// WKNavigationAction.h: `WK_SWIFT_UI_ACTOR @interface WKNavigationAction : NSObject`.
@MainActor open class WKNavigationAction: NSObject {
    /// `@property (nonatomic, readonly, copy) NSURLRequest *request;`
    open var request: URLRequest { fatalError("declaration only") }
    /// `@property (nonatomic, readonly, copy) WKFrameInfo *sourceFrame;`
    open var sourceFrame: WKFrameInfo { fatalError("declaration only") }
    /// `@property (nonatomic, readonly) BOOL shouldPerformDownload;` (iOS 14.5, macOS 11.3).
    @available(iOS 14.5, macOS 11.3, *)
    open var shouldPerformDownload: Bool { fatalError("declaration only") }
}

/// WKNavigationDelegate.h: `typedef NS_ENUM(NSInteger, WKNavigationActionPolicy)`; `.download` is
/// iOS 14.5, macOS 11.3.
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel
    case allow
    case download
}

/// WKNavigationDelegate.h: `typedef NS_ENUM(NSInteger, WKNavigationResponsePolicy)`.
public enum WKNavigationResponsePolicy: Int, Sendable {
    case cancel
    case allow
    case download
}

/// WKNavigationResponse.h: `WK_SWIFT_UI_ACTOR @interface WKNavigationResponse : NSObject`.
@MainActor open class WKNavigationResponse: NSObject {
    /// `@property (nonatomic, readonly) BOOL canShowMIMEType;`
    open var canShowMIMEType: Bool { fatalError("declaration only") }
}

/// WKWebpagePreferences.h: `WK_SWIFT_UI_ACTOR @interface WKWebpagePreferences : NSObject` (iOS 13, macOS 10.15).
@MainActor open class WKWebpagePreferences: NSObject {}

// MARK: WKUIDelegate.h

/// WKUIDelegate.h: `typedef NS_ENUM(NSInteger, WKMediaCaptureType)` (iOS 15, macOS 12).
public enum WKMediaCaptureType: Int, Sendable {
    case camera
    case microphone
    case cameraAndMicrophone
}

/// WKUIDelegate.h: `typedef NS_ENUM(NSInteger, WKPermissionDecision)` (iOS 15, macOS 12).
public enum WKPermissionDecision: Int, Sendable {
    case prompt
    case grant
    case deny
}

/// WKUIDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKUIDelegate <NSObject>`; every method `@optional`.
/// The ones the host implements are requirements here (see the file's comment).
@MainActor public protocol WKUIDelegate: NSObjectProtocol {
    /// `- (nullable WKWebView *)webView:(WKWebView *)webView createWebViewWithConfiguration:(WKWebViewConfiguration *)configuration forNavigationAction:(WKNavigationAction *)navigationAction windowFeatures:(WKWindowFeatures *)windowFeatures;`
    func webView(
        _ webView: WKWebView,
        createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction,
        windowFeatures: WKWindowFeatures
    ) -> WKWebView?
    /// `- (void)webViewDidClose:(WKWebView *)webView;` (iOS 9, macOS 10.11).
    func webViewDidClose(_ webView: WKWebView)
    /// `- (void)webView:(WKWebView *)webView runJavaScriptAlertPanelWithMessage:(NSString *)message initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(void))completionHandler;`
    func webView(
        _ webView: WKWebView,
        runJavaScriptAlertPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    )
    /// `- (void)webView:(WKWebView *)webView runJavaScriptConfirmPanelWithMessage:(NSString *)message initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(BOOL result))completionHandler;`
    func webView(
        _ webView: WKWebView,
        runJavaScriptConfirmPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView runJavaScriptTextInputPanelWithPrompt:(NSString *)prompt defaultText:(nullable NSString *)defaultText initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(NSString * _Nullable result))completionHandler;`
    func webView(
        _ webView: WKWebView,
        runJavaScriptTextInputPanelWithPrompt prompt: String,
        defaultText: String?,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView requestMediaCapturePermissionForOrigin:(WKSecurityOrigin *)origin initiatedByFrame:(WKFrameInfo *)frame type:(WKMediaCaptureType)type decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKPermissionDecision decision))decisionHandler;` (iOS 15, macOS 12).
    @available(iOS 15.0, macOS 12.0, *)
    func webView(
        _ webView: WKWebView,
        requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo,
        type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView runOpenPanelWithParameters:(WKOpenPanelParameters *)parameters initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(NSArray<NSURL *> * _Nullable URLs))completionHandler;` (macOS 10.12).
    func webView(
        _ webView: WKWebView,
        runOpenPanelWith parameters: WKOpenPanelParameters,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    )
}

extension WKUIDelegate {
    /// The app delegate's optional `webView(…)` methods, as `delegate.webView?(…)` reaches them.
    public var webView: WKUIDelegateOptionalMethods? { fatalError("declaration only") }
    /// The app delegate's optional `webViewDidClose(_:)`, as `delegate.webViewDidClose?(…)` reaches it.
    public var webViewDidClose: (@MainActor (WKWebView) -> Void)? { fatalError("declaration only") }
}

/// WKUIDelegate.h's optional `webView(…)` methods, called as the SDK's optional requirements are
/// (`delegate.webView?(…)`): each `callAsFunction` has the requirement's labels and types.
@MainActor public struct WKUIDelegateOptionalMethods {
    public func callAsFunction(
        _ webView: WKWebView,
        createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction,
        windowFeatures: WKWindowFeatures
    ) -> WKWebView? { fatalError("declaration only") }
    public func callAsFunction(
        _ webView: WKWebView,
        runJavaScriptAlertPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        runJavaScriptConfirmPanelWithMessage message: String,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        runJavaScriptTextInputPanelWithPrompt prompt: String,
        defaultText: String?,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {}
    @available(iOS 15.0, macOS 12.0, *)
    public func callAsFunction(
        _ webView: WKWebView,
        requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo,
        type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        runOpenPanelWith parameters: WKOpenPanelParameters,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) {}
}

// MARK: WKNavigationDelegate.h

/// WKNavigationDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKNavigationDelegate <NSObject>`; every
/// method `@optional`. The ones the host implements are requirements here (see the file's comment).
/// `WKNavigation` parameters are `null_unspecified` in the header, so Swift imports them as `WKNavigation!`.
@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationActionPolicy))decisionHandler;`
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction preferences:(WKWebpagePreferences *)preferences decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationActionPolicy, WKWebpagePreferences *))decisionHandler;` (iOS 13, macOS 10.15).
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationResponse:(WKNavigationResponse *)navigationResponse decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationResponsePolicy))decisionHandler;`
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView didStartProvisionalNavigation:(null_unspecified WKNavigation *)navigation;`
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!)
    /// `- (void)webView:(WKWebView *)webView didReceiveServerRedirectForProvisionalNavigation:(null_unspecified WKNavigation *)navigation;`
    func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!)
    /// `- (void)webView:(WKWebView *)webView didFailProvisionalNavigation:(null_unspecified WKNavigation *)navigation withError:(NSError *)error;`
    func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
    /// `- (void)webView:(WKWebView *)webView didCommitNavigation:(null_unspecified WKNavigation *)navigation;`
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    /// `- (void)webView:(WKWebView *)webView didFinishNavigation:(null_unspecified WKNavigation *)navigation;`
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
    /// `- (void)webView:(WKWebView *)webView didFailNavigation:(null_unspecified WKNavigation *)navigation withError:(NSError *)error;`
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    /// `- (void)webView:(WKWebView *)webView didReceiveAuthenticationChallenge:(NSURLAuthenticationChallenge *)challenge completionHandler:(WK_SWIFT_UI_ACTOR void (^)(NSURLSessionAuthChallengeDisposition disposition, NSURLCredential * _Nullable credential))completionHandler;`
    func webView(
        _ webView: WKWebView,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    )
    /// `- (void)webViewWebContentProcessDidTerminate:(WKWebView *)webView;` (iOS 9, macOS 10.11).
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    /// `- (void)webView:(WKWebView *)webView authenticationChallenge:(NSURLAuthenticationChallenge *)challenge shouldAllowDeprecatedTLS:(WK_SWIFT_UI_ACTOR void (^)(BOOL))decisionHandler;` (iOS 14, macOS 11).
    func webView(
        _ webView: WKWebView,
        authenticationChallenge challenge: URLAuthenticationChallenge,
        shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    )
    /// `- (void)webView:(WKWebView *)webView navigationAction:(WKNavigationAction *)navigationAction didBecomeDownload:(WKDownload *)download;` (iOS 14.5, macOS 11.3).
    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload)
    /// `- (void)webView:(WKWebView *)webView navigationResponse:(WKNavigationResponse *)navigationResponse didBecomeDownload:(WKDownload *)download;` (iOS 14.5, macOS 11.3).
    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload)
}

extension WKNavigationDelegate {
    /// The app delegate's optional `webView(…)` methods, as `delegate.webView?(…)` reaches them.
    public var webView: WKNavigationDelegateOptionalMethods? { fatalError("declaration only") }
    /// The app delegate's optional `webViewWebContentProcessDidTerminate(_:)`.
    public var webViewWebContentProcessDidTerminate: (@MainActor (WKWebView) -> Void)? { fatalError("declaration only") }
}

/// WKNavigationDelegate.h's optional `webView(…)` methods, called as the SDK's optional
/// requirements are (`delegate.webView?(…)`): each `callAsFunction` has the requirement's labels and types.
@MainActor public struct WKNavigationDelegateOptionalMethods {
    public func callAsFunction(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {}
    public func callAsFunction(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {}
    public func callAsFunction(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!) {}
    public func callAsFunction(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) {}
    public func callAsFunction(_ webView: WKWebView, didCommit navigation: WKNavigation!) {}
    public func callAsFunction(_ webView: WKWebView, didFinish navigation: WKNavigation!) {}
    public func callAsFunction(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {}
    public func callAsFunction(
        _ webView: WKWebView,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {}
    public func callAsFunction(
        _ webView: WKWebView,
        authenticationChallenge challenge: URLAuthenticationChallenge,
        shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {}
    @available(iOS 14.5, macOS 11.3, *)
    public func callAsFunction(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload) {}
    @available(iOS 14.5, macOS 11.3, *)
    public func callAsFunction(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload) {}
}

// MARK: UIKit, for the article snippets type-checked with the host (UIView.h, UIViewController.h)

/// UIView.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIView : UIResponder`.
@MainActor open class UIView: NSObject {
    /// UIView.h: `typedef NS_OPTIONS(NSUInteger, UIViewAutoresizing)` (`UIView.AutoresizingMask`).
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }

    /// `@property(nonatomic) CGRect bounds;`
    open var bounds: CGRect { fatalError("declaration only") }
    /// `@property(nonatomic) UIViewAutoresizing autoresizingMask;`
    open var autoresizingMask: AutoresizingMask {
        get { fatalError("declaration only") }
        set {}
    }
    /// `- (void)addSubview:(UIView *)view;`
    open func addSubview(_ view: UIView) {}
}

/// UIViewController.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIViewController : UIResponder`.
@MainActor open class UIViewController: NSObject {
    /// `- (instancetype)initWithNibName:(nullable NSString *)nibNameOrNil bundle:(nullable NSBundle *)nibBundleOrNil NS_DESIGNATED_INITIALIZER;`
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
    /// `- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;`
    public required init?(coder: NSCoder) {}
    /// `@property(null_resettable, nonatomic, strong) UIView *view;`
    open var view: UIView! { fatalError("declaration only") }
    /// `@property(nullable, nonatomic, copy) NSString *title;`
    open var title: String? {
        get { fatalError("declaration only") }
        set {}
    }
    /// `- (void)viewDidLoad;`
    open func viewDidLoad() {}
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

/// The overlay's `public class NSKeyValueObservation : NSObject`; observing stops at `invalidate()` or `deinit`.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    public func invalidate() {}
}

extension WKWebView {
    /// The overlay's `_KeyValueCodingAndObserving.observe(_:options:changeHandler:)`, which every
    /// `NSObject` has; declared here for `WKWebView` alone. Recent SDKs mark the handler `@Sendable`,
    /// the stricter form, declared here so the host's handler compiles under either.
    public nonisolated func observe<Value>(
        _ keyPath: KeyPath<WKWebView, Value>,
        options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (WKWebView, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation { fatalError("declaration only") }
}
#endif
