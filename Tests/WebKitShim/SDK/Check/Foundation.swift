// Foundation.swift — the Foundation that Apple's SDK gives the Apple host, as far as the host, the
// hub's sources it reaches and the shim's declarations name it: declarations for
// scripts/apple-sdk-check.sh to type-check against, never run. Foundation is the same API on every
// platform (the Linux build checks the host's use of it against swift-corelibs-foundation); what
// the check asks of the SDK is WebKit's, UIKit's and AppKit's, per platform.
@_exported import Dispatch

open class NSObject: NSObjectProtocol, Hashable {
    public init() {}
    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    open func responds(to aSelector: Selector!) -> Bool { false }
}

public protocol NSObjectProtocol: AnyObject {
    func responds(to aSelector: Selector!) -> Bool
}

/// The Objective-C runtime's `SEL`, which Foundation re-exports.
public struct Selector: Hashable, Sendable {
    public init(_ name: String) {}
}

// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSSelectorFromString(_ aSelectorName: String) -> Selector { Selector(aSelectorName) }

// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSStringFromSelector(_ aSelector: Selector) -> String { "" }

public struct Data: Hashable, Sendable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public init() {}
    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }
    public subscript(position: Int) -> UInt8 {
        get { 0 }
        set {}
    }
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == UInt8 {}
}

public struct URL: Hashable, Sendable {
    public init?(string: String) { nil }
    public var absoluteString: String { "" }
    public var scheme: String? { nil }
    public var host: String? { nil }
    public var path: String { "" }
}

public struct URLRequest: Hashable, Sendable {
    public init(url: URL) {}
    public var url: URL?
    public var httpMethod: String?
    public var httpBody: Data?
    public var httpBodyStream: InputStream? { nil }
    public var allHTTPHeaderFields: [String: String]?
    public func value(forHTTPHeaderField field: String) -> String? { nil }
}

open class URLResponse: NSObject, @unchecked Sendable {}

open class HTTPURLResponse: URLResponse, @unchecked Sendable {
    public init?(url: URL, statusCode: Int, httpVersion: String?, headerFields: [String: String]?) {}
}

open class URLAuthenticationChallenge: NSObject, @unchecked Sendable {}

open class URLCredential: NSObject, @unchecked Sendable {}

open class URLSession: NSObject, @unchecked Sendable {
    public enum AuthChallengeDisposition: Int, Sendable {
        case useCredential, performDefaultHandling, cancelAuthenticationChallenge, rejectProtectionSpace
    }
}

open class NSNull: NSObject, @unchecked Sendable {}

open class Thread: NSObject, @unchecked Sendable {
    open class var isMainThread: Bool { true }
}

open class Stream: NSObject, @unchecked Sendable {
    open func open() {}
    open func close() {}
}

open class InputStream: Stream, @unchecked Sendable {
    open func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int { 0 }
    open var hasBytesAvailable: Bool { false }
}

open class JSONSerialization: NSObject {
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let fragmentsAllowed = WritingOptions(rawValue: 4)
    }
    open class func isValidJSONObject(_ obj: Any) -> Bool { false }
    open class func data(withJSONObject obj: Any, options opt: WritingOptions = []) throws -> Data { Data() }
}

extension Error {
    public var localizedDescription: String { "" }
}

open class NSError: NSObject, Error, @unchecked Sendable {
    public init(domain: String, code: Int, userInfo dict: [String: Any]? = nil) {}
    open var domain: String { "" }
    open var code: Int { 0 }
    open var userInfo: [String: Any] { [:] }
}

public struct Notification: Sendable {
    public struct Name: Hashable, Sendable {
        public init(_ rawValue: String) {}
    }
}

open class OperationQueue: NSObject, @unchecked Sendable {}

open class NotificationCenter: NSObject, @unchecked Sendable {
    open class var `default`: NotificationCenter { NotificationCenter() }
    open func addObserver(
        forName name: Notification.Name?, object obj: Any?, queue: OperationQueue?, using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol { NSObject() }
    open func removeObserver(_ observer: Any) {}
    open func post(name aName: Notification.Name, object anObject: Any?) {}
}

open class Bundle: NSObject, @unchecked Sendable {
    open class var main: Bundle { Bundle() }
    open func object(forInfoDictionaryKey key: String) -> Any? { nil }
}
