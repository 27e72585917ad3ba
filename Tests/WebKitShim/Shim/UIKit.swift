// UIKit.swift — the UIKit the article snippets use with the host (UIView.h, UIViewController.h), and
// the AppKit a web view is on macOS (NSView.h): the shim compiles them with the host; nothing here
// draws. UIKit is not macOS's, nor AppKit iOS's (sdk.tsv); on Linux the web view is a UIView.
#if !canImport(WebKit)
import Foundation

#if os(macOS)
/// Not SDK API: the view a web view is on this platform.
public typealias ShimPlatformView = NSView
/// Not SDK API: the window a web view is in on this platform.
public typealias ShimPlatformWindow = NSWindow

/// NSView.h: `NS_SWIFT_UI_ACTOR @interface NSView : NSResponder`.
@MainActor open class NSView: NSObject {
    public override init() {}
    /// `@property (nullable, readonly, unsafe_unretained) NSWindow *window;`: the shim's window
    /// showing the view (``ShimWindow``), or none.
    open var window: NSWindow? { shownIn }
    var shownIn: NSWindow?
}

/// NSWindow.h: `NS_SWIFT_UI_ACTOR @interface NSWindow : NSResponder`.
@MainActor open class NSWindow: NSObject {
    /// `@property (getter=isVisible) BOOL visible;`
    open var isVisible: Bool { true }
}

/// NSApplication.h: `NS_SWIFT_UI_ACTOR @interface NSApplication : NSResponder`.
@MainActor open class NSApplication: NSObject {
    /// `APPKIT_EXTERN NSNotificationName NSApplicationDidBecomeActiveNotification;`
    public static let didBecomeActiveNotification = Notification.Name("NSApplicationDidBecomeActiveNotification")
}
#else
/// Not SDK API: the view a web view is on this platform.
public typealias ShimPlatformView = UIView
/// Not SDK API: the window a web view is in on this platform.
public typealias ShimPlatformWindow = UIWindow

/// UIView.h: `UIKIT_EXTERN NS_SWIFT_UI_ACTOR @interface UIView : UIResponder`.
@MainActor open class UIView: NSObject {
    /// UIView.h: `typedef NS_OPTIONS(NSUInteger, UIViewAutoresizing)` (`UIView.AutoresizingMask`).
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }

    public override init() {}

    /// `@property(nonatomic) CGRect bounds;`
    open var bounds = CGRect.zero
    /// `@property(nonatomic) UIViewAutoresizing autoresizingMask;`
    open var autoresizingMask: AutoresizingMask = []
    /// `- (void)addSubview:(UIView *)view;`
    open func addSubview(_ view: UIView) {}
    /// `@property(nullable, nonatomic, readonly) UIWindow *window;`: the shim's window showing the
    /// view (``ShimWindow``), or none.
    open var window: UIWindow? { shownIn }
    var shownIn: UIWindow?
}

/// UIWindow.h: `UIKIT_EXTERN NS_SWIFT_UI_ACTOR @interface UIWindow : UIView`.
@MainActor open class UIWindow: UIView {
    /// `@property(nullable, nonatomic, weak) UIWindowScene *windowScene;`: the shim's one scene
    /// (``UIScene/shimMain``) for a window that shows a web view.
    @available(iOS 13.0, *)
    open weak var windowScene: UIWindowScene? {
        get { scene }
        set { scene = newValue }
    }
    private weak var scene: UIWindowScene?
}

/// UIScene.h: `UIKIT_EXTERN NS_SWIFT_UI_ACTOR @interface UIScene : UIResponder`: a scene of the app,
/// in the foreground or not.
@available(iOS 13.0, *)
@MainActor open class UIScene: NSObject {
    /// UIScene.h: `typedef NS_ENUM(NSInteger, UISceneActivationState)`.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// `@property(nonatomic, readonly) UISceneActivationState activationState;`
    open var activationState: ActivationState { state }
    private var state = ActivationState.foregroundActive

    /// `UIKIT_EXTERN NSNotificationName const UISceneDidActivateNotification;`
    public static let didActivateNotification = Notification.Name("UISceneDidActivateNotification")

    /// Not SDK API: the scene every window of the shim's is in.
    public static let shimMain = UIWindowScene()

    /// Not SDK API: moves the scene to `state` as the system would (the app goes to the background
    /// or comes back), posting what UIKit posts.
    public func shimMove(to state: ActivationState) {
        self.state = state
        if state == .foregroundActive { NotificationCenter.default.post(name: Self.didActivateNotification, object: self) }
    }
}

/// UIWindowScene.h: `UIKIT_EXTERN NS_SWIFT_UI_ACTOR @interface UIWindowScene : UIScene`.
@available(iOS 13.0, *)
@MainActor open class UIWindowScene: UIScene {}

/// UIViewController.h: `UIKIT_EXTERN NS_SWIFT_UI_ACTOR @interface UIViewController : UIResponder`.
@MainActor open class UIViewController: NSObject {
    /// `- (instancetype)initWithNibName:(nullable NSString *)nibNameOrNil bundle:(nullable NSBundle *)nibBundleOrNil NS_DESIGNATED_INITIALIZER;`
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
    /// `- (nullable instancetype)initWithCoder:(NSCoder *)coder NS_DESIGNATED_INITIALIZER;`
    public required init?(coder: NSCoder) {}
    /// `@property(null_resettable, nonatomic, strong) UIView *view;`
    open var view: UIView! = UIView()
    /// `@property(nullable, nonatomic, copy) NSString *title;`
    open var title: String?
    /// `- (void)viewDidLoad;`
    open func viewDidLoad() {}
}
#endif
#endif

// MARK: The Objective-C runtime's selectors, which swift-corelibs-foundation does not have

#if !canImport(WebKit) && os(Linux)
/// Not SDK API: on Linux, the Objective-C runtime's `SEL` (objc.h), which Apple systems import as
/// `Selector`.
public struct Selector: Sendable, Hashable {
    let name: String
}

/// Not SDK API: on Linux, Foundation's `NSSelectorFromString` (NSObjCRuntime.h).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSSelectorFromString(_ aSelectorName: String) -> Selector {
    Selector(name: aSelectorName)
}

/// Not SDK API: on Linux, Foundation's `NSStringFromSelector` (NSObjCRuntime.h).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSStringFromSelector(_ aSelector: Selector) -> String {
    aSelector.name
}

extension WKWebView {
    /// Not SDK API: on Linux, `NSObject`'s `performSelector:` (NSObject.h). The shim answers
    /// WebKit's private `_killWebContentProcess`, which ends the web content process as a crash
    /// would.
    @discardableResult public func perform(_ aSelector: Selector!) -> Unmanaged<AnyObject>! {
        if aSelector.name == "_killWebContentProcess" { killWebContentProcess() }
        return nil
    }
}
#endif
