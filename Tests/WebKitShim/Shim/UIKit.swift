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
@MainActor open class NSWindow: NSObject {}
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
@MainActor open class UIWindow: UIView {}

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
