// PageDocument.swift — one document of a JavaScriptPage: a JavaScriptCore context of its own with the
// window, the host's page-world scripts, the page's runtime and its own scripts.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// A document of a ``JavaScriptPage``, used on its page's queue only. It ends when the page leaves
/// it for good (a navigation whose document the engine does not keep, the web process's end): its
/// context is released and the calls Swift waits on settle `pageGone`.
final class PageDocument: @unchecked Sendable {
    weak var page: JavaScriptPage?
    private(set) var context: JSGlobalContextRef?
    private var native: JSObjectRef?
    /// The token the host's page-world script named the document with (main frames).
    var token: String?
    /// Calls Swift waits on, by number.
    var calls: [Int: PageCall] = [:]
    /// The answer to the document's last `prompt`, as the page read it.
    var lastAnswer: String?
    /// The answer to the document's announcement (`_dsb.dsinit`), once it made one.
    var announcement: String?
    /// Timers set while the document loads, run once it has loaded; `nil` once it has.
    var loadingTimers: [(Int, Double)]?
    /// The document's fetches in flight, by number: the callback each answers (protected).
    private var loads: [Int: JSObjectRef] = [:]
    private var lastLoad = 0

    /// A document that runs nothing: the page's before its first.
    init() {}

    init(page: JavaScriptPage) throws(BridgeError) {
        self.page = page
        let context = JSGlobalContextCreate(nil)!
        self.context = context
        loadingTimers = page.setup.loads ? [] : nil
        Self.documents.withLock { $0[UnsafeRawPointer(context)] = Weak(document: self) }
        let native = makeNative(context)
        JSValueProtect(context, native)
        self.native = native
        set("__keystoneNative", to: native, on: JSContextGetGlobalObject(context)!)
        let settings = "{\"href\":\(JSONText(quoting: page.address).string),\"origin\":\(JSONText(quoting: page.origin).string),\"loading\":\(page.setup.loads)}"
        _ = try run("(" + Self.resource("page-world") + ")(__keystoneNative, \(settings));").get()
        _ = try run(Self.resource("page-calls") + "\ndelete globalThis.__keystoneNative;").get()
        _ = try run(try HostScripts.pageWorld(injectsPageRuntime: page.setup.runtime == .keystone)).get()
        if page.setup.runtime == .dsbridge { _ = try run(Self.resource("dsbridge-standin")).get() }
    }

    /// The text of the KeystoneTesting resource `name`.js.
    private static func resource(_ name: String) throws(BridgeError) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "js"), let source = try? String(contentsOf: url, encoding: .utf8) else {
            throw BridgeError(code: .notFound, message: "\(name).js is missing from the KeystoneTesting bundle")
        }
        return source
    }

    /// The document's end: its context goes, and every call Swift waits on settles `pageGone`.
    func end() {
        endCalls()
        guard let context else { return }
        for (_, callback) in loads { JSValueUnprotect(context, callback) }
        loads = [:]
        self.context = nil
        Self.documents.withLock { $0[UnsafeRawPointer(context)] = nil }
        if let native { JSValueUnprotect(context, native) }
        native = nil
        JSGlobalContextRelease(context)
    }

    /// Every call Swift waits on in the document settles `pageGone`: the document has gone from
    /// the page (for good, or into the back/forward cache).
    func endCalls() {
        let open = calls
        calls = [:]
        let gone = BridgeError(code: .pageGone, message: "the document that made the call has gone")
        for call in open.values { call.end(.failure(gone)) }
    }

    // MARK: Loads

    /// A fetch of the document's starts, answered through `callback`: its number.
    func startLoad(_ callback: JSObjectRef) -> Int {
        guard let context else { return 0 }
        JSValueProtect(context, callback)
        lastLoad += 1
        loads[lastLoad] = callback
        return lastLoad
    }

    /// The fetch `load` is answered with `status` (0: it failed), `bytes` of `type`, unless it was
    /// stopped first.
    func finishLoad(_ load: Int, status: Int, bytes: Data, type: String) {
        guard let context, let callback = loads.removeValue(forKey: load) else { return }
        call(callback, with: [number(Double(status)), buffer(bytes), argument(type)])
        JSValueUnprotect(context, callback)
    }

    /// The engine stops the document's loads, as WebKit does when a navigation leaves it: each
    /// fetch in flight fails (`TypeError`, "Load failed") while the document still runs.
    func stopLoads() {
        for load in loads.keys.sorted() { finishLoad(load, status: 0, bytes: Data(), type: "") }
    }

    /// The document has loaded: DOMContentLoaded, then the timers its scripts set meanwhile.
    /// Whether the document has finished loading: its runtime has announced itself.
    var hasLoaded: Bool { loadingTimers == nil }

    func finishLoading() {
        guard let timers = loadingTimers else { return }
        loadingTimers = nil
        callNative("finishLoading", with: [])
        for (id, delay) in timers { page?.schedule(timer: id, after: delay, in: self) }
    }

    // MARK: Running scripts

    /// Runs `script` now and returns its completion value as JSON; `parts` are the page's
    /// `__keystoneParts` (Uint8Arrays) while it runs.
    func run(_ script: String, parts: [Data] = []) -> Result<JSONValue, BridgeError> {
        guard let context else { return .failure(BridgeError(code: .pageGone, message: "the document has gone")) }
        if !parts.isEmpty { setParts(parts) }
        defer { if !parts.isEmpty { setParts([]) } }
        var exception: JSValueRef?
        let source = Self.string(script)
        defer { JSStringRelease(source) }
        let value = JSEvaluateScript(context, source, nil, nil, 1, &exception)
        if let exception { return .failure(BridgeError(code: .failed, message: "the script threw: " + text(exception))) }
        guard let value, !JSValueIsUndefined(context, value) else { return .success(.null) }
        var failure: JSValueRef?
        guard let json = JSValueCreateJSONString(context, value, 0, &failure) else {
            return failure == nil ? .success(.null) : .failure(BridgeError(code: .failed, message: "the script's value has no JSON form"))
        }
        defer { JSStringRelease(json) }
        let decoded = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(Self.swiftString(json).utf8))
        return decoded.map { .success($0) } ?? .failure(BridgeError(code: .failed, message: "the script's value has no JSON form"))
    }

    /// Sets the page's `__keystoneParts` to `parts`, each an ArrayBuffer of its bytes.
    private func setParts(_ parts: [Data]) {
        guard let context else { return }
        let setter = Self.string("(function () { globalThis.__keystoneParts = Array.prototype.slice.call(arguments); })")
        defer { JSStringRelease(setter) }
        guard let function = JSValueToObject(context, JSEvaluateScript(context, setter, nil, nil, 1, nil), nil) else { return }
        JSValueProtect(context, function)
        defer { JSValueUnprotect(context, function) }
        // Each buffer is kept from the collector until the call has them: an array of Swift's is
        // not where JavaScriptCore looks for values in use.
        let buffers = parts.map { buffer($0) }
        defer { for buffer in buffers { JSValueUnprotect(context, buffer) } }
        buffers.withUnsafeBufferPointer { _ = JSObjectCallAsFunction(context, function, nil, $0.count, $0.baseAddress, nil) }
    }

    /// A new ArrayBuffer holding a copy of `bytes`, protected from the collector until the call it
    /// is an argument of (``call(_:with:)``) lets it go.
    func buffer(_ bytes: Data) -> JSValueRef? {
        guard let context else { return nil }
        let copy = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        let buffer = JSObjectMakeArrayBufferWithBytesNoCopy(context, copy, bytes.count, { bytes, _ in free(bytes) }, nil, nil)
        JSValueProtect(context, buffer)
        return buffer
    }

    /// The bytes of a Uint8Array the page handed over.
    func bytes(_ value: JSValueRef?) -> Data {
        guard let context, let value, let object = JSValueToObject(context, value, nil),
            let pointer = JSObjectGetTypedArrayBytesPtr(context, object, nil)
        else { return Data() }
        let count = JSObjectGetTypedArrayByteLength(context, object, nil)
        return Data(bytes: pointer, count: count)
    }

    /// The Uint8Arrays of an array the page handed over.
    func parts(_ value: JSValueRef?) -> [Data] {
        guard let context, let value, let array = JSValueToObject(context, value, nil) else { return [] }
        let length = JSValueToNumber(context, property("length", of: array), nil)
        guard length.isFinite, length > 0, length < 1_048_576 else { return [] }
        let count = Int(length)
        return (0..<count).map { bytes(property(String($0), of: array)) }
    }

    private func property(_ name: String, of object: JSObjectRef) -> JSValueRef? {
        let key = Self.string(name)
        defer { JSStringRelease(key) }
        return JSObjectGetProperty(context, object, key, nil)
    }

    /// Calls the native object's function `name` (one the window added) with `arguments`.
    func callNative(_ name: String, with arguments: [JSValueRef?]) {
        guard let context, let native, let function = JSValueToObject(context, property(name, of: native), nil) else { return }
        call(function, with: arguments)
    }

    /// Calls `function` with `arguments` (each protected by its maker: ``buffer(_:)``,
    /// ``argument(_:)``), then lets them go; what it throws goes to the page's console.
    func call(_ function: JSObjectRef, with arguments: [JSValueRef?]) {
        guard let context else { return }
        defer { for argument in arguments { JSValueUnprotect(context, argument) } }
        var exception: JSValueRef?
        arguments.withUnsafeBufferPointer { buffer in
            _ = JSObjectCallAsFunction(context, function, nil, buffer.count, buffer.baseAddress, &exception)
        }
        if let exception { page?.lines.append("error: " + text(exception)) }
        page?.checkConditions()
    }

    func text(_ value: JSValueRef) -> String {
        guard let context, let string = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        return Self.swiftString(string)
    }

    func string(_ value: String) -> JSValueRef? {
        let string = Self.string(value)
        defer { JSStringRelease(string) }
        return JSValueMakeString(context, string)
    }

    /// `value` as an argument of ``call(_:with:)``, protected until the call.
    func argument(_ value: String) -> JSValueRef? {
        let string = string(value)
        JSValueProtect(context, string)
        return string
    }

    func number(_ value: Double) -> JSValueRef? { JSValueMakeNumber(context, value) }

    private func set(_ name: String, to value: JSValueRef?, on object: JSObjectRef) {
        let key = Self.string(name)
        defer { JSStringRelease(key) }
        JSObjectSetProperty(context, object, key, value, 0, nil)
    }

    /// The object the window's natives hang from.
    private func makeNative(_ context: JSGlobalContextRef) -> JSObjectRef {
        let empty = Self.string("({})")
        defer { JSStringRelease(empty) }
        let object = JSValueToObject(context, JSEvaluateScript(context, empty, nil, nil, 1, nil), nil)!
        for (name, callback) in nativeFunctions {
            let key = Self.string(name)
            defer { JSStringRelease(key) }
            JSObjectSetProperty(context, object, key, JSObjectMakeFunctionWithCallback(context, key, callback), 0, nil)
        }
        return object
    }

    static func string(_ text: String) -> JSStringRef {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    }

    static func swiftString(_ string: JSStringRef) -> String {
        let count = JSStringGetLength(string)
        guard count > 0, let characters = JSStringGetCharactersPtr(string) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF16.self)
    }

    // MARK: Which document a native call is for

    private struct Weak: @unchecked Sendable {
        weak var document: PageDocument?
    }

    private static let documents = Locked<[UnsafeRawPointer: Weak]>([:])

    static func document(of context: JSContextRef?) -> PageDocument? {
        guard let context, let global = JSContextGetGlobalContext(context) else { return nil }
        return documents.withLock { $0[UnsafeRawPointer(global)]?.document }
    }
}

/// A call Swift waits on in a page: settled once, or a sequence of results and an end.
enum PageCall: Sendable {
    case settle(@Sendable (Result<(String, [Data]), BridgeError>) -> Void)
    case results(@Sendable (String, [Data]) -> Void, ended: @Sendable (BridgeError?) -> Void)

    func end(_ outcome: Result<(String, [Data]), BridgeError>) {
        switch (self, outcome) {
        case (.settle(let settle), _): settle(outcome)
        case (.results(_, let ended), .success): ended(nil)
        case (.results(_, let ended), .failure(let error)): ended(error)
        }
    }
}
