// WebKitStandIn.swift — declarations only: the WebKit symbols WKWebViewHost uses, with the
// signatures and actor isolation of Apple's documentation, so the host type-checks on Linux.
#if !canImport(WebKit)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor open class WKWebView: NSObject {
    open var configuration: WKWebViewConfiguration { fatalError("declaration only") }
    open weak var uiDelegate: (any WKUIDelegate)?
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    open var url: URL? { fatalError("declaration only") }
    open func reload() -> WKNavigation? { fatalError("declaration only") }
    open func evaluateJavaScript(
        _ javaScriptString: String,
        completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {}
}

@MainActor open class WKNavigation: NSObject {}

@MainActor open class WKWebViewConfiguration: NSObject {
    open var userContentController: WKUserContentController { fatalError("declaration only") }
}

@MainActor open class WKUserContentController: NSObject {
    open func addUserScript(_ userScript: WKUserScript) {}
    open func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply,
        contentWorld world: WKContentWorld,
        name: String
    ) {}
    open func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {}
}

public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart
    case atDocumentEnd
}

@MainActor open class WKUserScript: NSObject {
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) {}
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld) {}
}

@MainActor open class WKContentWorld: NSObject {
    open class var page: WKContentWorld { fatalError("declaration only") }
    open class func world(name: String) -> WKContentWorld { fatalError("declaration only") }
}

@MainActor open class WKSecurityOrigin: NSObject {
    open var `protocol`: String { fatalError("declaration only") }
    open var host: String { fatalError("declaration only") }
    open var port: Int { fatalError("declaration only") }
}

@MainActor open class WKFrameInfo: NSObject {
    open var isMainFrame: Bool { fatalError("declaration only") }
    open var securityOrigin: WKSecurityOrigin { fatalError("declaration only") }
}

@MainActor open class WKScriptMessage: NSObject {
    open var body: Any { fatalError("declaration only") }
    open var frameInfo: WKFrameInfo { fatalError("declaration only") }
    open var name: String { fatalError("declaration only") }
}

/// In the SDK every method is `optional`; Linux has no `@objc` protocols, so the one the host
/// implements is a plain requirement here.
@MainActor public protocol WKUIDelegate: NSObjectProtocol {
    func webView(
        _ webView: WKWebView,
        runJavaScriptTextInputPanelWithPrompt prompt: String,
        defaultText: String?,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    )
}

@MainActor open class WKNavigationAction: NSObject {
    open var request: URLRequest { fatalError("declaration only") }
    /// WKNavigationAction.h: `@property (nonatomic, readonly, copy) WKFrameInfo *sourceFrame;`
    open var sourceFrame: WKFrameInfo { fatalError("declaration only") }
}

public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel
    case allow
}

@MainActor open class WKWebpagePreferences: NSObject {}

@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    )
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    )
}

@MainActor public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    )
}
#endif
