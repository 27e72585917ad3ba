// ShimSupport.swift — what the Cocoa WebKit shim needs to be faithful where Swift on Linux differs
// from Objective-C: optional protocol requirements, completion handlers WebKit checks, and the
// exceptions WebKit raises. See README.md beside this folder for what each rule follows.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
import KeystoneHost

/// Not SDK API: what WebKit would raise as an Objective-C exception (and so crash the app): the shim reports it
/// here. By default a fault ends the process with its message, as the exception would; a test of
/// the shim itself records faults instead.
@MainActor
public enum ShimFaults {
    /// Receives every fault; the default prints it and aborts.
    public static var handler: @MainActor (String) -> Void = { message in
        FileHandle.standardError.write(Data("WebKit shim: \(message)\n".utf8))
        abort()
    }

    static func raise(_ message: String) {
        handler(message)
    }
}

/// Not SDK API: optional requirements of WebKit's delegate protocols. Objective-C asks a delegate whether it
/// `respondsToSelector:`; Swift on Linux has no such question, so each optional requirement has a
/// default implementation that marks itself called, and the shim calls a requirement through
/// ``implemented(_:by:_:)``. A delegate's method whose signature only nearly matches the
/// requirement witnesses nothing: the default runs, and the method is never called, as on a
/// device. A delegate that answers `responds(to:)` itself (``ShimSelectorResponder``, what an
/// `NSObject` overriding `respondsToSelector:` is on a device) is not called for a selector it
/// says it does not respond to.
@MainActor
public enum OptionalRequirement {
    private static var missed = false

    /// Called by every default implementation: the delegate has no such method.
    public static func unimplemented() {
        missed = true
    }

    /// Runs `call` (one call of the requirement whose Objective-C selector is `selector`, on
    /// `delegate`) unless the delegate says it does not respond to it, and returns whether the
    /// delegate implements it.
    public static func implemented(_ selector: String, by delegate: AnyObject, _ call: () -> Void) -> Bool {
        if let responder = delegate as? any ShimSelectorResponder, !responder.responds(to: Selector(name: selector)) { return false }
        let outer = missed
        missed = false
        call()
        let implemented = !missed
        missed = outer
        return implemented
    }
}

/// Not SDK API: a delegate that answers whether it responds to a selector, as an `NSObject` that
/// overrides `respondsToSelector:` does on a device (`NSObjectProtocol`'s `responds(to:)`, which
/// swift-corelibs-foundation's `NSObject` does not have). WebKit asks a delegate's
/// `respondsToSelector:` for each optional method when the delegate is set; the shim asks at each
/// call.
@MainActor
public protocol ShimSelectorResponder: AnyObject {
    func responds(to aSelector: Selector!) -> Bool
}

/// A completion handler WebKit hands a delegate: WebKit raises when one is called twice, and when
/// one is released without being called (`CompletionHandlerCallChecker`, in
/// Source/WebKit/UIProcess/Cocoa/CompletionHandlerCallChecker.mm).
@MainActor
final class CheckedCompletion {
    /// The selector of the delegate method the handler is handed to.
    let selector: String
    private var called = false
    private var armed = true

    init(_ selector: String) {
        self.selector = selector
    }

    /// Marks the handler called; a second call is a fault.
    func call() -> Bool {
        guard !called else {
            ShimFaults.raise("completion handler passed to \(selector) was called more than once")
            return false
        }
        called = true
        return true
    }

    /// The delegate turned out not to implement the method: it never held the handler.
    func disarm() {
        armed = false
    }

    // Released on the main thread, where WebKit and every object here live.
    deinit {
        MainActor.assumeIsolated {
            if armed, !called { ShimFaults.raise("completion handler passed to \(selector) was not called") }
        }
    }
}

/// A security origin's parts, as WebKit reports them (WKSecurityOrigin.h): the port is 0 for a
/// scheme's default port; an opaque origin has an empty protocol and host.
struct OriginParts: Equatable {
    var scheme: String
    var host: String
    var port: Int

    static let opaque = OriginParts(scheme: "", host: "", port: 0)

    /// The parts of a serialised origin (`https://a.example:8443`, `null`, `file://`).
    init(serialized: String) {
        guard serialized != "null", let range = serialized.range(of: "://") else {
            self = .opaque
            return
        }
        scheme = String(serialized[..<range.lowerBound])
        var rest = String(serialized[range.upperBound...])
        port = 0
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]"), let number = Int(rest[rest.index(after: colon)...]) {
            port = number
            rest = String(rest[..<colon])
        }
        host = rest
    }

    init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }
}
#endif
