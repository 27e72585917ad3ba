// UserContent.swift — WKUserContentController, WKUserScript, WKContentWorld, WKScriptMessage and
// WKFrameInfo over WebKitGTK's user content manager. Declarations follow the headers named on each
// (Source/WebKit/UIProcess/API/Cocoa/ in WebKit's tree); behaviour follows README.md's table.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KeystoneHost

// MARK: WKContentWorld.h

/// WKContentWorld.h: `WK_SWIFT_UI_ACTOR @interface WKContentWorld : NSObject`.
@MainActor open class WKContentWorld: NSObject {
    /// The world's name; `nil` for the page's own world.
    let worldName: String?

    init(worldName: String?) {
        self.worldName = worldName
    }

    private static let pageWorld = WKContentWorld(worldName: nil)
    private static var named: [String: WKContentWorld] = [:]

    /// `@property (class, nonatomic, readonly) WKContentWorld *pageWorld;` (`NS_SWIFT_NAME(page)`).
    open class var page: WKContentWorld { pageWorld }
    /// `+ (WKContentWorld *)worldWithName:(NSString *)name;` (`NS_SWIFT_NAME(world(name:))`): the
    /// same name is the same world.
    open class func world(name: String) -> WKContentWorld {
        if let world = named[name] { return world }
        let world = WKContentWorld(worldName: name)
        named[name] = world
        ShimFrames.worldsNamed(Array(named.keys))
        return world
    }
    /// `@property (nullable, nonatomic, readonly, copy) NSString *name;`
    open var name: String? { worldName }
}

// MARK: WKUserScript.h

/// WKUserScript.h: `typedef NS_ENUM(NSInteger, WKUserScriptInjectionTime)`.
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart
    case atDocumentEnd
}

/// WKUserScript.h: `WK_SWIFT_UI_ACTOR @interface WKUserScript : NSObject <NSCopying>`.
@MainActor open class WKUserScript: NSObject {
    /// `@property (nonatomic, readonly, copy) NSString *source;`
    public let source: String
    /// `@property (nonatomic, readonly) WKUserScriptInjectionTime injectionTime;`
    public let injectionTime: WKUserScriptInjectionTime
    /// `@property (nonatomic, readonly, getter=isForMainFrameOnly) BOOL forMainFrameOnly;`
    public let isForMainFrameOnly: Bool
    let world: WKContentWorld

    /// `- (instancetype)initWithSource:(NSString *)source injectionTime:(WKUserScriptInjectionTime)injectionTime forMainFrameOnly:(BOOL)forMainFrameOnly inContentWorld:(WKContentWorld *)contentWorld;`
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld) {
        self.source = source
        self.injectionTime = injectionTime
        self.isForMainFrameOnly = forMainFrameOnly
        self.world = contentWorld
    }
}

// MARK: WKSecurityOrigin.h, WKFrameInfo.h

/// WKSecurityOrigin.h: `WK_SWIFT_UI_ACTOR @interface WKSecurityOrigin : NSObject`.
@MainActor open class WKSecurityOrigin: NSObject {
    let parts: OriginParts

    init(_ parts: OriginParts) {
        self.parts = parts
    }

    /// Not SDK API (WebKit makes security origins): the origin `serialized` names, for the
    /// shim's checks.
    public convenience init(shimOrigin serialized: String) {
        self.init(OriginParts(serialized: serialized))
    }

    /// `@property (nonatomic, readonly, copy) NSString *protocol;`
    open var `protocol`: String { parts.scheme }
    /// `@property (nonatomic, readonly, copy) NSString *host;`
    open var host: String { parts.host }
    /// `@property (nonatomic, readonly) NSInteger port;` (0 for the scheme's default port).
    open var port: Int { parts.port }
}

/// WKFrameInfo.h: `WK_SWIFT_UI_ACTOR @interface WKFrameInfo : NSObject <NSCopying>`. The shim
/// learns a frame from its own script in that frame (README.md: frames).
@MainActor open class WKFrameInfo: NSObject {
    private let mainFrame: Bool
    private let origin: WKSecurityOrigin
    private let address: URL
    private weak var view: WKWebView?
    /// How the frame's script named the frame; `nil` where no frame script could say (README.md:
    /// frames).
    let frameName: FrameScript.FrameName?
    /// WebKit's identifier of the frame (the shim's extension's), once known.
    var frameIdentifier: UInt64? {
        switch frameName {
        case .identifier(let identifier): identifier
        case .pending(let name): ShimFrames.identifier(boundTo: name)
        case nil: nil
        }
    }

    /// Not SDK API (WebKit makes frame infos): a frame, for the shim's checks.
    public convenience init(shimMainFrame isMainFrame: Bool, origin serialized: String, webView: WKWebView?) {
        self.init(isMainFrame: isMainFrame, origin: OriginParts(serialized: serialized), address: webView?.url, webView: webView)
    }

    init(isMainFrame: Bool, origin: OriginParts, address: URL?, frame: FrameScript.FrameName? = nil, webView: WKWebView?) {
        self.mainFrame = isMainFrame
        self.frameName = frame
        self.origin = WKSecurityOrigin(origin)
        self.address = address ?? URL(string: "about:blank")!
        self.view = webView
    }

    /// `@property (nonatomic, readonly, getter=isMainFrame) BOOL mainFrame;`
    open var isMainFrame: Bool { mainFrame }
    /// `@property (nonatomic, readonly, copy) NSURLRequest *request;`: the frame's address as the
    /// frame saw it when it prompted or posted (README.md: frames).
    open var request: URLRequest { URLRequest(url: address) }
    /// `@property (nonatomic, readonly) WKSecurityOrigin *securityOrigin;`
    open var securityOrigin: WKSecurityOrigin { origin }
    /// `@property (nonatomic, readonly, weak) WKWebView *webView;`
    open weak var webView: WKWebView? { view }
}

// MARK: WKScriptMessage.h, WKScriptMessageHandlerWithReply.h

/// WKScriptMessage.h: `WK_SWIFT_UI_ACTOR @interface WKScriptMessage : NSObject`.
@MainActor open class WKScriptMessage: NSObject {
    private let messageBody: Any
    private weak var view: WKWebView?
    private let frame: WKFrameInfo
    private let handlerName: String
    private let contentWorld: WKContentWorld

    init(body: Any, webView: WKWebView?, frameInfo: WKFrameInfo, name: String, world: WKContentWorld) {
        self.messageBody = body
        self.view = webView
        self.frame = frameInfo
        self.handlerName = name
        self.contentWorld = world
    }

    /// `@property (nonatomic, readonly, copy) id body;`: the property-list types only
    /// (`NSNumber, NSString, NSDate, NSArray, NSDictionary, and NSNull`).
    open var body: Any { messageBody }
    /// `@property (nullable, nonatomic, readonly, weak) WKWebView *webView;`
    open weak var webView: WKWebView? { view }
    /// `@property (nonatomic, readonly, copy) WKFrameInfo *frameInfo;`
    open var frameInfo: WKFrameInfo { frame }
    /// `@property (nonatomic, readonly, copy) NSString *name;`
    open var name: String { handlerName }
    /// `@property (nonatomic, readonly) WKContentWorld *world;`
    open var world: WKContentWorld { contentWorld }
}

/// WKScriptMessageHandlerWithReply.h: `WK_SWIFT_UI_ACTOR @protocol WKScriptMessageHandlerWithReply <NSObject>`
///; its one method is required.
@MainActor public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    /// `- (void)userContentController:(WKUserContentController *)userContentController didReceiveScriptMessage:(WKScriptMessage *)message replyHandler:(WK_SWIFT_UI_ACTOR void (^)(id _Nullable reply, NSString *_Nullable errorMessage))replyHandler;`
    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    )
}

// MARK: WKUserContentController.h

/// WKUserContentController.h: `WK_SWIFT_UI_ACTOR @interface WKUserContentController : NSObject <NSSecureCoding>`,
/// over one WebKitGTK user content manager. Web views made from configurations that share it share
/// its scripts and handlers, as WebKit's do.
@MainActor open class WKUserContentController: NSObject {
    /// The WebKitGTK user content manager.
    let manager: OpaquePointer
    private var scripts: [WKUserScript] = []
    private var handlers: [HandlerKey: Registration] = [:]
    /// The worlds the shim's frame script runs in: every world with a script or a handler.
    private var worlds: [String?] = [nil]
    /// The web views that use this controller, for the messages' `webView`.
    var webViews: [WeakWebView] = []

    struct WeakWebView {
        weak var webView: WKWebView?
        let view: OpaquePointer
    }

    private struct HandlerKey: Hashable {
        var world: String?
        var name: String
    }

    /// A handler WebKitGTK calls with a message: registered under the name the page uses.
    final class Registration {
        let handler: any WKScriptMessageHandlerWithReply
        let world: WKContentWorld
        let name: String
        weak var controller: WKUserContentController?

        init(handler: any WKScriptMessageHandlerWithReply, world: WKContentWorld, name: String, controller: WKUserContentController) {
            self.handler = handler
            self.world = world
            self.name = name
            self.controller = controller
        }
    }

    /// NSObject's `- (instancetype)init;`
    public override init() {
        manager = webkit_user_content_manager_new()
        super.init()
        registerHiddenHandler(world: nil)
        rebuildScripts()
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            for registration in handlers.values {
                ks_disconnect_all(UnsafeMutableRawPointer(manager), Unmanaged.passUnretained(registration).toOpaque())
            }
            ks_disconnect_all(UnsafeMutableRawPointer(manager), Unmanaged.passUnretained(self).toOpaque())
            g_object_unref(UnsafeMutableRawPointer(manager))
        }
    }

    /// `@property (nonatomic, readonly, copy) NSArray<WKUserScript *> *userScripts;`
    open var userScripts: [WKUserScript] { scripts }

    /// `- (void)addUserScript:(WKUserScript *)userScript;`
    open func addUserScript(_ userScript: WKUserScript) {
        scripts.append(userScript)
        addWorld(userScript.world.worldName)
        rebuildScripts()
    }

    /// `- (void)removeAllUserScripts;`
    open func removeAllUserScripts() {
        scripts = []
        rebuildScripts()
    }

    /// `- (void)addScriptMessageHandlerWithReply:(id <WKScriptMessageHandlerWithReply>)scriptMessageHandlerWithReply contentWorld:(WKContentWorld *)contentWorld name:(NSString *)name;`
    ///. WebKit holds the handler strongly, and raises NSInvalidArgumentException
    /// ("Attempt to add script message handler with name '%@' when one already exists.") when
    /// `name` is taken in that world (WKUserContentController.mm).
    open func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply,
        contentWorld world: WKContentWorld,
        name: String
    ) {
        let key = HandlerKey(world: world.worldName, name: name)
        guard handlers[key] == nil else {
            return ShimFaults.raise("NSInvalidArgumentException: Attempt to add script message handler with name '\(name)' when one already exists.")
        }
        let registration = Registration(handler: scriptMessageHandlerWithReply, world: world, name: name, controller: self)
        handlers[key] = registration
        addWorld(world.worldName)
        _ = ks_on_message_with_reply(
            manager, name, world.worldName,
            { _, value, reply, data in
                guard let value, let reply, let data else { return 0 }
                MainActor.assumeIsolated {
                    let registration = Unmanaged<Registration>.fromOpaque(data).takeUnretainedValue()
                    registration.controller?.deliver(value, reply: reply, to: registration)
                }
                return 1
            }, Unmanaged.passUnretained(registration).toOpaque())
        rebuildScripts()
    }

    /// `- (void)removeScriptMessageHandlerForName:(NSString *)name contentWorld:(WKContentWorld *)contentWorld;`
    open func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {
        guard let registration = handlers.removeValue(forKey: HandlerKey(world: contentWorld.worldName, name: name)) else { return }
        ks_disconnect_all(UnsafeMutableRawPointer(manager), Unmanaged.passUnretained(registration).toOpaque())
        webkit_user_content_manager_unregister_script_message_handler_in_world(manager, name, contentWorld.worldName)
    }

    // MARK: Frames

    private func addWorld(_ world: String?) {
        guard !worlds.contains(world) else { return }
        worlds.append(world)
        registerHiddenHandler(world: world)
    }

    /// A handler no page can name, in `world`: with it the world has `window.webkit`, whose
    /// handlers' `postMessage` the frame script wraps before any page script runs.
    private func registerHiddenHandler(world: String?) {
        // The page world's frame script reports here where its frame points its iframes, and every
        // world's frame script the identifier of a frame it first named otherwise.
        _ = ks_on_message_with_reply(
            manager, FrameScript.hiddenHandler(world: world), world,
            { _, value, reply, data in
                guard let value, let reply, let data else { return 0 }
                MainActor.assumeIsolated {
                    let controller = Unmanaged<WKUserContentController>.fromOpaque(data).takeUnretainedValue()
                    if let tagged = FrameScript.untag(value), let report = tagged.body as? [Any], report.count == 2, let address = report[1] as? String {
                        switch report[0] as? String {
                        case "binds":
                            if case .identifier(let identifier)? = tagged.tag.frame { ShimFrames.bind(address, to: identifier) }
                        case "navigates" where tagged.tag.world == nil:
                            controller.navigationSources.append((address, tagged.tag))
                            if controller.navigationSources.count > 64 { controller.navigationSources.removeFirst() }
                        case "aborts" where tagged.tag.world == nil:
                            for case let webView? in controller.webViews.map(\.webView) { webView.pageAborted(address) }
                        default:
                            break
                        }
                    }
                    let answer = jsc_value_new_undefined(jsc_value_get_context(value))
                    webkit_script_message_reply_return_value(reply, answer)
                    g_object_unref(UnsafeMutableRawPointer(answer))
                }
                return 1
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Where frames said they point their iframes, oldest first: a navigation to one of these
    /// addresses was started by that frame.
    var navigationSources: [(address: String, source: FrameScript.Tagged)] = []

    /// The frame that said it points an iframe at `address`, taken from the list.
    func takeNavigationSource(_ address: String) -> FrameScript.Tagged? {
        guard let index = navigationSources.firstIndex(where: { $0.address == address }) else { return nil }
        return navigationSources.remove(at: index).source
    }

    /// Puts the user scripts in WebKitGTK's manager again: the shim's frame script first in every
    /// world, then the app's, in the order added.
    private func rebuildScripts() {
        webkit_user_content_manager_remove_all_scripts(manager)
        for world in worlds {
            add(source: FrameScript.source(world: world), time: .atDocumentStart, mainFrameOnly: false, world: world)
        }
        for script in scripts {
            add(source: script.source, time: script.injectionTime, mainFrameOnly: script.isForMainFrameOnly, world: script.world.worldName)
        }
    }

    /// A user script in WebKitGTK's manager. Where the app declares App-Bound Domains
    /// (``ShimAppBoundDomains``), WebKit injects no script of the app's into a document of another
    /// domain: the script is limited to those domains' documents.
    private func add(source: String, time: WKUserScriptInjectionTime, mainFrameOnly: Bool, world: String?) {
        let frames = mainFrameOnly ? KS_WEBKIT_USER_CONTENT_INJECT_TOP_FRAME : KS_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES
        let injection: UInt32 = time == .atDocumentStart ? KS_WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : 1  // WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        let patterns = ShimAppBoundDomains.domains.map { domains in domains.flatMap { ["*://\($0)/*", "*://*.\($0)/*"] } }
        let copies = patterns.map { $0.map { strdup($0) } + [nil] }
        defer { copies?.forEach { free($0) } }
        let script =
            copies.map { copies in
                copies.withUnsafeBufferPointer { list in
                    let allowed = UnsafePointer<UnsafePointer<CChar>?>(OpaquePointer(list.baseAddress))
                    return world.map { webkit_user_script_new_for_world(source, frames, injection, $0, allowed, nil) }
                        ?? webkit_user_script_new(source, frames, injection, allowed, nil)
                }
            } ?? (world.map { webkit_user_script_new_for_world(source, frames, injection, $0, nil, nil) } ?? webkit_user_script_new(source, frames, injection, nil, nil))
        webkit_user_content_manager_add_script(manager, script)
        webkit_user_script_unref(script)
    }

    // MARK: Messages

    /// A message WebKitGTK delivered to `registration`'s name: the frame script's tag says which
    /// frame and world posted it; the body is converted to the property-list types.
    private func deliver(_ value: OpaquePointer, reply: OpaquePointer, to registration: Registration) {
        let context = jsc_value_get_context(value)!
        let tagged = FrameScript.untag(value)
        let webView = webViews.first { $0.webView != nil }?.webView
        guard let tagged, tagged.tag.world == registration.world.worldName else {
            // Posted around the frame script (README.md: frames): no frame can be told.
            webkit_script_message_reply_return_error_message(reply, "the shim cannot tell which frame posted this message")
            return
        }
        let frame = tagged.tag.frameInfo(of: webView)
        let message = WKScriptMessage(body: tagged.body, webView: webView, frameInfo: frame, name: registration.name, world: registration.world)
        let pending = PendingReply(reply: reply, context: context)
        let selector = "-[\(type(of: registration.handler)) userContentController:didReceiveScriptMessage:replyHandler:]"
        registration.handler.userContentController(self, didReceive: message) { result, error in
            guard pending.isOpen else { return ShimFaults.raise("replyHandler passed to \(selector) should not be called twice") }
            pending.answer(result, error: error)
        }
    }
}

/// A script message's reply, kept until the handler answers it. A reply handler released without
/// being called raises nothing: WebKit rejects the page's promise (WKScriptMessageHandlerWithReply.h;
/// `WKUserContentController.AsyncScriptMessageHandlerBasicPost` in WebKit's API tests).
@MainActor
final class PendingReply {
    private let reply: OpaquePointer
    private let context: OpaquePointer
    /// Whether the page's promise is still unsettled.
    private(set) var isOpen = true

    init(reply: OpaquePointer, context: OpaquePointer) {
        self.reply = reply
        self.context = context
        webkit_script_message_reply_ref(reply)
        g_object_ref(UnsafeMutableRawPointer(context))
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            if isOpen { webkit_script_message_reply_return_error_message(reply, "WKWebView API client did not respond to this postMessage") }
            webkit_script_message_reply_unref(reply)
            g_object_unref(UnsafeMutableRawPointer(context))
        }
    }

    /// Settles the page's promise: rejected with `error`, or resolved with `result` converted as
    /// WebKit converts a reply (`nil` is `undefined`); a value of no property-list type rejects it.
    func answer(_ result: Any?, error: String?) {
        isOpen = false
        if let error { return webkit_script_message_reply_return_error_message(reply, error) }
        guard let value = try? JSValues.make(result, in: context) else {
            return webkit_script_message_reply_return_error_message(reply, "The result value passed back from the WKWebView API client was unable to be serialized")
        }
        webkit_script_message_reply_return_value(reply, value)
        g_object_unref(UnsafeMutableRawPointer(value))
    }
}
/// Not SDK API: the app's App-Bound Domains, as an app declares them in its Info.plist
/// (`WKAppBoundDomains`), or `nil` where it declares none. Where it declares them, WebKit injects no
/// script of the app's into a document of another domain and refuses to evaluate one there
/// (`WKErrorJavaScriptAppBoundDomain`, 14); a web view's scripts follow the list as it is when they
/// are added.
@MainActor
public enum ShimAppBoundDomains {
    public static var domains: [String]?

    /// Whether the document at `url` is of an app-bound domain (or the app declares none).
    static func admits(_ url: URL?) -> Bool {
        guard let domains else { return true }
        guard let host = url?.host?.lowercased() else { return false }
        return domains.contains { host == $0 || host.hasSuffix("." + $0) }
    }
}
#endif
