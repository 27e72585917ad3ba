// Delegates.swift — WKUIDelegate and WKNavigationDelegate, their values and enumerations. Every
// delegate method is `@optional` in the headers (WKUIDelegate.h, WKNavigationDelegate.h): each has a
// default here that marks the delegate as not implementing it (ShimSupport.swift), so the shim
// calls a delegate's method only when it has one with the SDK's exact signature.
#if !canImport(WebKit)
import Foundation
import KeystoneHost
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WKNavigation.h: `WK_SWIFT_UI_ACTOR @interface WKNavigation : NSObject`.
@MainActor open class WKNavigation: NSObject {}

/// WKWindowFeatures.h: `WK_SWIFT_UI_ACTOR @interface WKWindowFeatures : NSObject`.
@MainActor open class WKWindowFeatures: NSObject {}

/// WKDownload.h: `WK_SWIFT_UI_ACTOR @interface WKDownload : NSObject<NSProgressReporting>`.
@MainActor open class WKDownload: NSObject {}

/// WKOpenPanelParameters.h: `WK_SWIFT_UI_ACTOR @interface WKOpenPanelParameters : NSObject`.
@available(iOS 18.4, macOS 10.12, *)
@MainActor open class WKOpenPanelParameters: NSObject {
    private let multiple: Bool

    /// Not SDK API (WebKit makes open-panel parameters): for the shim's checks.
    public init(shimAllowsMultipleSelection multiple: Bool) {
        self.multiple = multiple
    }

    /// `@property (nonatomic, readonly) BOOL allowsMultipleSelection;`
    open var allowsMultipleSelection: Bool { multiple }
    /// `@property (nonatomic, readonly) BOOL allowsDirectories;`
    open var allowsDirectories: Bool { false }
}

/// Not SDK API: what WebKit's own file picker chooses, where the platform has one.
@MainActor
public enum ShimFilePicker {
    /// The files WebKit's own picker chooses on iOS and visionOS, as a user would, when no UI
    /// delegate answers the open panel; `nil` (the default) stands for macOS, where WebKit then
    /// shows no panel and a file input gets no files (WKUIDelegate.h).
    public static var chosen: [URL]?
}

/// WKBackForwardListItem.h: `@interface WKBackForwardListItem : NSObject`, made by WebKit only.
open class WKBackForwardListItem: NSObject {}

/// WKWebpagePreferences.h: `WK_SWIFT_UI_ACTOR @interface WKWebpagePreferences : NSObject`.
@MainActor open class WKWebpagePreferences: NSObject {}

/// WKNavigationAction.h: `typedef NS_ENUM(NSInteger, WKNavigationType)`.
public enum WKNavigationType: Int, Sendable {
    case linkActivated = 0
    case formSubmitted = 1
    case backForward = 2
    case reload = 3
    case formResubmitted = 4
    case other = -1
}

/// WKNavigationAction.h: `WK_SWIFT_UI_ACTOR @interface WKNavigationAction : NSObject`.
@MainActor open class WKNavigationAction: NSObject {
    private let actionRequest: URLRequest
    private let source: WKFrameInfo?
    private let target: WKFrameInfo?
    private let type: WKNavigationType

    /// Not SDK API (WebKit makes navigation actions): for the shim's checks, which ask a delegate
    /// as WebKit does; the navigation targets its source frame unless `newWindow`.
    public convenience init(shimRequest request: URLRequest, sourceFrame: WKFrameInfo?, newWindow: Bool = false) {
        self.init(request: request, sourceFrame: sourceFrame, targetFrame: newWindow ? nil : sourceFrame, navigationType: .linkActivated)
    }

    init(request: URLRequest, sourceFrame: WKFrameInfo?, targetFrame: WKFrameInfo?, navigationType: WKNavigationType) {
        self.actionRequest = request
        self.source = sourceFrame
        self.target = targetFrame
        self.type = navigationType
    }

    /// `@property (nonatomic, readonly, copy) NSURLRequest *request;`
    open var request: URLRequest { actionRequest }
    /// `@property (nonatomic, readonly, copy) WKFrameInfo *sourceFrame;`: declared nonnull, and nil
    /// at run time for a navigation no frame started (WKNavigationAction.mm checks `if (!sourceFrame)`
    /// itself): the shim hands nil as Objective-C does, in a value Swift believes cannot be nil.
    open var sourceFrame: WKFrameInfo { unsafeBitCast(source, to: WKFrameInfo.self) }
    /// `@property (nullable, nonatomic, readonly, copy) WKFrameInfo *targetFrame;`
    open var targetFrame: WKFrameInfo? { target }
    /// `@property (nonatomic, readonly) WKNavigationType navigationType;`
    open var navigationType: WKNavigationType { type }
    /// `@property (nonatomic, readonly) BOOL shouldPerformDownload;`
    @available(iOS 14.5, macOS 11.3, *)
    open var shouldPerformDownload: Bool { false }
}

/// WKNavigationDelegate.h: `typedef NS_ENUM(NSInteger, WKNavigationActionPolicy)`; `.download` is
/// newer than the others.
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
    private let mainFrame: Bool
    private let showable: Bool
    private let urlResponse: URLResponse

    init(isForMainFrame: Bool, canShowMIMEType: Bool, response: URLResponse) {
        self.mainFrame = isForMainFrame
        self.showable = canShowMIMEType
        self.urlResponse = response
    }

    /// `@property (nonatomic, readonly, getter=isForMainFrame) BOOL forMainFrame;`
    open var isForMainFrame: Bool { mainFrame }
    /// `@property (nonatomic, readonly, copy) NSURLResponse *response;`
    open var response: URLResponse { urlResponse }
    /// `@property (nonatomic, readonly) BOOL canShowMIMEType;`
    open var canShowMIMEType: Bool { showable }
}

/// WKUIDelegate.h: `typedef NS_ENUM(NSInteger, WKMediaCaptureType)`.
public enum WKMediaCaptureType: Int, Sendable {
    case camera
    case microphone
    case cameraAndMicrophone
}

/// WKUIDelegate.h: `typedef NS_ENUM(NSInteger, WKPermissionDecision)`.
public enum WKPermissionDecision: Int, Sendable {
    case prompt
    case grant
    case deny
}

/// WKUIDelegate.h: `typedef NS_ENUM(NSInteger, WKDialogResult)`.
public enum WKDialogResult: Int, Sendable {
    case showDefault = 1
    case askAgain
    case handled
}

// MARK: WKUIDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKUIDelegate <NSObject>`, every method `@optional`.

@MainActor public protocol WKUIDelegate: NSObjectProtocol {
    /// `- (nullable WKWebView *)webView:(WKWebView *)webView createWebViewWithConfiguration:(WKWebViewConfiguration *)configuration forNavigationAction:(WKNavigationAction *)navigationAction windowFeatures:(WKWindowFeatures *)windowFeatures;`
    func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration, for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView?
    /// `- (void)webViewDidClose:(WKWebView *)webView;`
    func webViewDidClose(_ webView: WKWebView)
    /// `- (void)webView:(WKWebView *)webView runJavaScriptAlertPanelWithMessage:(NSString *)message initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(void))completionHandler;`
    func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void)
    /// `- (void)webView:(WKWebView *)webView runJavaScriptConfirmPanelWithMessage:(NSString *)message initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(BOOL result))completionHandler;`
    func webView(_ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void)
    /// `- (void)webView:(WKWebView *)webView runJavaScriptTextInputPanelWithPrompt:(NSString *)prompt defaultText:(nullable NSString *)defaultText initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(NSString * _Nullable result))completionHandler;`
    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void)
    /// `- (void)webView:(WKWebView *)webView requestMediaCapturePermissionForOrigin:(WKSecurityOrigin *)origin initiatedByFrame:(WKFrameInfo *)frame type:(WKMediaCaptureType)type decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKPermissionDecision decision))decisionHandler;`
    @available(iOS 15.0, macOS 12.0, *)
    func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void)
    /// `- (void)webView:(WKWebView *)webView requestDeviceOrientationAndMotionPermissionForOrigin:(WKSecurityOrigin *)origin initiatedByFrame:(WKFrameInfo *)frame decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKPermissionDecision decision))decisionHandler;`
    @available(iOS 15.0, *) @available(macOS, unavailable)
    func webView(
        _ webView: WKWebView, requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void)
    #if os(iOS) || os(visionOS) || os(Linux)
    /// `- (void)webView:(WKWebView *)webView showLockdownModeFirstUseMessage:(NSString *)message completionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKDialogResult))completionHandler;`
    @available(iOS 16.0, *)
    func webView(_ webView: WKWebView, showLockdownModeFirstUseMessage message: String, completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void)
    #endif
    /// `- (void)webView:(WKWebView *)webView runOpenPanelWithParameters:(WKOpenPanelParameters *)parameters initiatedByFrame:(WKFrameInfo *)frame completionHandler:(WK_SWIFT_UI_ACTOR void (^)(NSArray<NSURL *> * _Nullable URLs))completionHandler;`
    @available(iOS 18.4, macOS 10.12, *)
    func webView(_ webView: WKWebView, runOpenPanelWith parameters: WKOpenPanelParameters, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void)
}

/// Every requirement is `@optional` in the header: a default that marks itself called stands for
/// a delegate without the method (``OptionalRequirement``).
extension WKUIDelegate {
    public func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration, for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
        OptionalRequirement.unimplemented()
        return nil
    }
    public func webViewDidClose(_ webView: WKWebView) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void) {
        OptionalRequirement.unimplemented()
    }
    public func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    public func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    @available(iOS 15.0, macOS 12.0, *)
    public func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    @available(iOS 15.0, *) @available(macOS, unavailable)
    public func webView(
        _ webView: WKWebView, requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    #if os(iOS) || os(visionOS) || os(Linux)
    @available(iOS 16.0, *)
    public func webView(_ webView: WKWebView, showLockdownModeFirstUseMessage message: String, completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void) {
        OptionalRequirement.unimplemented()
    }
    #endif
    @available(iOS 18.4, macOS 10.12, *)
    public func webView(
        _ webView: WKWebView, runOpenPanelWith parameters: WKOpenPanelParameters, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
}

/// Not SDK API: WKUIDelegate's optional `webView(…)` methods as `delegate.webView?(…)` reaches them:
/// each call is `nil` when the delegate does not implement the method.
@MainActor public struct WKUIDelegateOptionalMethods {
    let delegate: any WKUIDelegate
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration, for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        var result: WKWebView? = nil
        _ = OptionalRequirement.implemented("webView:createWebViewWithConfiguration:forNavigationAction:windowFeatures:", by: delegate) {
            result = delegate.webView(webView, createWebViewWith: configuration, for: navigationAction, windowFeatures: windowFeatures)
        }
        return result
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:", by: delegate) {
            delegate.webView(webView, runJavaScriptAlertPanelWithMessage: message, initiatedByFrame: frame, completionHandler: completionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:completionHandler:", by: delegate) {
            delegate.webView(webView, runJavaScriptConfirmPanelWithMessage: message, initiatedByFrame: frame, completionHandler: completionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:", by: delegate) {
            delegate.webView(webView, runJavaScriptTextInputPanelWithPrompt: prompt, defaultText: defaultText, initiatedByFrame: frame, completionHandler: completionHandler)
        } ? () : nil
    }
    @available(iOS 15.0, macOS 12.0, *)
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:requestMediaCapturePermissionForOrigin:initiatedByFrame:type:decisionHandler:", by: delegate) {
            delegate.webView(webView, requestMediaCapturePermissionFor: origin, initiatedByFrame: frame, type: type, decisionHandler: decisionHandler)
        } ? () : nil
    }
    @available(iOS 15.0, *) @available(macOS, unavailable)
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:requestDeviceOrientationAndMotionPermissionForOrigin:initiatedByFrame:decisionHandler:", by: delegate) {
            delegate.webView(webView, requestDeviceOrientationAndMotionPermissionFor: origin, initiatedByFrame: frame, decisionHandler: decisionHandler)
        } ? () : nil
    }
    #if os(iOS) || os(visionOS) || os(Linux)
    @available(iOS 16.0, *)
    @discardableResult public func callAsFunction(_ webView: WKWebView, showLockdownModeFirstUseMessage message: String, completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void)
        -> Void?
    {
        OptionalRequirement.implemented("webView:showLockdownModeFirstUseMessage:completionHandler:", by: delegate) {
            delegate.webView(webView, showLockdownModeFirstUseMessage: message, completionHandler: completionHandler)
        } ? () : nil
    }
    #endif
    @available(iOS 18.4, macOS 10.12, *)
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, runOpenPanelWith parameters: WKOpenPanelParameters, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:runOpenPanelWithParameters:initiatedByFrame:completionHandler:", by: delegate) {
            delegate.webView(webView, runOpenPanelWith: parameters, initiatedByFrame: frame, completionHandler: completionHandler)
        } ? () : nil
    }
}

extension WKUIDelegate {
    /// Not SDK API: the delegate's optional `webView(…)` methods, as `delegate.webView?(…)` reaches them.
    public var webView: WKUIDelegateOptionalMethods? { WKUIDelegateOptionalMethods(delegate: self) }
    /// Not SDK API: the delegate's optional `webViewDidClose(_:)`, as `delegate.webViewDidClose?(…)` reaches it:
    /// the call is `nil` when the delegate has no such method.
    public var webViewDidClose: (@MainActor (WKWebView) -> Void?)? { { webView in OptionalRequirement.implemented("webViewDidClose:", by: self) { self.webViewDidClose(webView) } ? () : nil } }
}

// MARK: WKNavigationDelegate.h: `WK_SWIFT_UI_ACTOR @protocol WKNavigationDelegate <NSObject>`, every
// method `@optional`. `WKNavigation` parameters are `null_unspecified`, imported as `WKNavigation!`.

@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationActionPolicy))decisionHandler;`
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void)
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction preferences:(WKWebpagePreferences *)preferences decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationActionPolicy, WKWebpagePreferences *))decisionHandler;`
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void)
    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationResponse:(WKNavigationResponse *)navigationResponse decisionHandler:(WK_SWIFT_UI_ACTOR void (^)(WKNavigationResponsePolicy))decisionHandler;`
    func webView(_ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse, decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void)
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
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)
    /// `- (void)webViewWebContentProcessDidTerminate:(WKWebView *)webView;`
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    /// `- (void)webView:(WKWebView *)webView authenticationChallenge:(NSURLAuthenticationChallenge *)challenge shouldAllowDeprecatedTLS:(WK_SWIFT_UI_ACTOR void (^)(BOOL))decisionHandler;`
    func webView(_ webView: WKWebView, authenticationChallenge challenge: URLAuthenticationChallenge, shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void)
    /// `- (void)webView:(WKWebView *)webView navigationAction:(WKNavigationAction *)navigationAction didBecomeDownload:(WKDownload *)download;`
    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload)
    /// `- (void)webView:(WKWebView *)webView navigationResponse:(WKNavigationResponse *)navigationResponse didBecomeDownload:(WKDownload *)download;`
    @available(iOS 14.5, macOS 11.3, *)
    func webView(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload)
    /// `- (void)webView:(WKWebView *)webView shouldGoToBackForwardListItem:(WKBackForwardListItem *)backForwardListItem willUseInstantBack:(BOOL)willUseInstantBack completionHandler:(void (^)(BOOL shouldGoToItem))completionHandler;`
    @available(iOS 26.0, macOS 26.0, *)
    func webView(_ webView: WKWebView, shouldGoTo backForwardListItem: WKBackForwardListItem, willUseInstantBack: Bool, completionHandler: @escaping (Bool) -> Void)
}

/// Every requirement is `@optional` in the header: a default that marks itself called stands for
/// a delegate without the method (``OptionalRequirement``).
extension WKNavigationDelegate {
    public func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void) {
        OptionalRequirement.unimplemented()
    }
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse, decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        OptionalRequirement.unimplemented()
    }
    public func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        OptionalRequirement.unimplemented()
    }
    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        OptionalRequirement.unimplemented()
    }
    public func webView(_ webView: WKWebView, authenticationChallenge challenge: URLAuthenticationChallenge, shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void) {
        OptionalRequirement.unimplemented()
    }
    @available(iOS 14.5, macOS 11.3, *)
    public func webView(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload) {
        OptionalRequirement.unimplemented()
    }
    @available(iOS 14.5, macOS 11.3, *)
    public func webView(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload) {
        OptionalRequirement.unimplemented()
    }
    @available(iOS 26.0, macOS 26.0, *)
    public func webView(_ webView: WKWebView, shouldGoTo backForwardListItem: WKBackForwardListItem, willUseInstantBack: Bool, completionHandler: @escaping (Bool) -> Void) {
        OptionalRequirement.unimplemented()
    }
}

/// Not SDK API: WKNavigationDelegate's optional `webView(…)` methods as `delegate.webView?(…)`
/// reaches them: each call is `nil` when the delegate does not implement the method.
@MainActor public struct WKNavigationDelegateOptionalMethods {
    let delegate: any WKNavigationDelegate
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:decidePolicyForNavigationAction:decisionHandler:", by: delegate) {
            delegate.webView(webView, decidePolicyFor: navigationAction, decisionHandler: decisionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:decidePolicyForNavigationAction:preferences:decisionHandler:", by: delegate) {
            delegate.webView(webView, decidePolicyFor: navigationAction, preferences: preferences, decisionHandler: decisionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse, decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:decidePolicyForNavigationResponse:decisionHandler:", by: delegate) {
            delegate.webView(webView, decidePolicyFor: navigationResponse, decisionHandler: decisionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) -> Void? {
        OptionalRequirement.implemented("webView:didStartProvisionalNavigation:", by: delegate) { delegate.webView(webView, didStartProvisionalNavigation: navigation) } ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!) -> Void? {
        OptionalRequirement.implemented("webView:didReceiveServerRedirectForProvisionalNavigation:", by: delegate) {
            delegate.webView(webView, didReceiveServerRedirectForProvisionalNavigation: navigation)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) -> Void? {
        OptionalRequirement.implemented("webView:didFailProvisionalNavigation:withError:", by: delegate) { delegate.webView(webView, didFailProvisionalNavigation: navigation, withError: error) }
            ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didCommit navigation: WKNavigation!) -> Void? {
        OptionalRequirement.implemented("webView:didCommitNavigation:", by: delegate) { delegate.webView(webView, didCommit: navigation) } ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didFinish navigation: WKNavigation!) -> Void? {
        OptionalRequirement.implemented("webView:didFinishNavigation:", by: delegate) { delegate.webView(webView, didFinish: navigation) } ? () : nil
    }
    @discardableResult public func callAsFunction(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) -> Void? {
        OptionalRequirement.implemented("webView:didFailNavigation:withError:", by: delegate) { delegate.webView(webView, didFail: navigation, withError: error) } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:didReceiveAuthenticationChallenge:completionHandler:", by: delegate) {
            delegate.webView(webView, didReceive: challenge, completionHandler: completionHandler)
        } ? () : nil
    }
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, authenticationChallenge challenge: URLAuthenticationChallenge, shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:authenticationChallenge:shouldAllowDeprecatedTLS:", by: delegate) {
            delegate.webView(webView, authenticationChallenge: challenge, shouldAllowDeprecatedTLS: decisionHandler)
        } ? () : nil
    }
    @available(iOS 14.5, macOS 11.3, *)
    @discardableResult public func callAsFunction(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload) -> Void? {
        OptionalRequirement.implemented("webView:navigationAction:didBecomeDownload:", by: delegate) { delegate.webView(webView, navigationAction: navigationAction, didBecome: download) } ? () : nil
    }
    @available(iOS 14.5, macOS 11.3, *)
    @discardableResult public func callAsFunction(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload) -> Void? {
        OptionalRequirement.implemented("webView:navigationResponse:didBecomeDownload:", by: delegate) { delegate.webView(webView, navigationResponse: navigationResponse, didBecome: download) }
            ? () : nil
    }
    @available(iOS 26.0, macOS 26.0, *)
    @discardableResult public func callAsFunction(
        _ webView: WKWebView, shouldGoTo backForwardListItem: WKBackForwardListItem, willUseInstantBack: Bool, completionHandler: @escaping (Bool) -> Void
    ) -> Void? {
        OptionalRequirement.implemented("webView:shouldGoToBackForwardListItem:willUseInstantBack:completionHandler:", by: delegate) {
            delegate.webView(webView, shouldGoTo: backForwardListItem, willUseInstantBack: willUseInstantBack, completionHandler: completionHandler)
        } ? () : nil
    }
}

extension WKNavigationDelegate {
    /// Not SDK API: the delegate's optional `webView(…)` methods, as `delegate.webView?(…)` reaches them.
    public var webView: WKNavigationDelegateOptionalMethods? { WKNavigationDelegateOptionalMethods(delegate: self) }
    /// Not SDK API: the delegate's optional `webViewWebContentProcessDidTerminate(_:)`: the call is `nil` when
    /// the delegate has no such method.
    public var webViewWebContentProcessDidTerminate: (@MainActor (WKWebView) -> Void?)? {
        { webView in OptionalRequirement.implemented("webViewWebContentProcessDidTerminate:", by: self) { self.webViewWebContentProcessDidTerminate(webView) } ? () : nil }
    }
}
#endif
