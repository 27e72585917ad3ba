// JavaScriptPage.swift — a page without a browser that runs the JavaScript that ships: Keystone's
// page runtime, and the page's own scripts, in JavaScriptCore, with the host kit's session as its
// host.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// A page that runs Keystone's shipped page runtime (`keystone-bridge.js`) and any script a test
/// gives it in JavaScriptCore (Apple's framework; Debian's `libjavascriptcoregtk-4.1` on Linux),
/// attached to a hub through the same `HostSession` a real host uses. Nothing of what the page
/// does is re-implemented in Swift: a test of it tests the runtime an app ships.
///
/// The page's window has what the runtime and ordinary page code reach for (events, `location`,
/// `navigator`, `crypto`, `btoa`/`atob`, timers, `prompt`), no DOM. Its timers run on the clock
/// the page is given (a ``ManualClock`` in a deterministic test; a timer of no delay runs right
/// after the script that set it), and its random numbers are the same in every run. Everything the
/// page runs, it runs on one queue of its own, in order.
///
/// ```swift
/// let page = try JavaScriptPage(hub: keystone)
/// try await page.evaluate("dsBridge.register('greet', function (name) { return 'hi ' + name; })")
/// #expect(try await page.invoke("math.add", [1, 2]) == 3)
/// ```
public final class JavaScriptPage: EvaluationTarget, @unchecked Sendable {
    /// The hub the page is attached to.
    public let hub: any BridgeHub
    /// The page's origin, as its frame reports it.
    public let origin: String
    /// What the page wrote with `console.log` (and its other levels), and what its event listeners
    /// threw, in order.
    public var consoleLines: [String] { queue.sync { lines } }

    private let queue = DispatchQueue(label: "KeystoneTesting.JavaScriptPage")
    private let session: HostSession
    private let engine: ScriptEngine
    private let sleep: @Sendable (Duration) async throws -> Void
    // Read and written on `queue` only.
    private var context: JSGlobalContextRef
    private var native: JSObjectRef
    var lines: [String] = []
    private var lastSettlement = 0
    private var conditions: [(String, CheckedContinuation<Void, Never>)] = []
    private var isChecking = false
    var settlements: [Int: CheckedContinuation<Result<JSONValue, BridgeError>, Never>] = [:]

    /// A page of `origin` at `address` (the origin's root by default), attached to `hub`, with
    /// Keystone's runtime loaded and its document reported; its timers run on `clock`.
    /// - Throws: `BridgeError` when the runtime cannot be read from the package's resources, or a
    ///   script of its own fails to run.
    public init<C: Clock<Duration> & Sendable>(hub: any BridgeHub, origin: String = "https://app.example", address: String? = nil, clock: C) throws(BridgeError) {
        self.hub = hub
        self.origin = origin
        sleep = { duration in try await clock.sleep(for: duration) }
        session = HostSession(everyOriginOf: hub, options: HostOptions())
        engine = ScriptEngine()
        context = JSGlobalContextCreate(nil)
        native = JSObjectMakeFunctionWithCallback(context, nil, nil)
        engine.page = self
        session.engine = engine
        let started = queue.sync { Result { () throws(BridgeError) in try startDocument(address: address ?? origin + "/") } }
        try started.get()
        hub.attach(to: self)
    }

    /// A page whose timers run on the continuous clock.
    public convenience init(hub: any BridgeHub, origin: String = "https://app.example", address: String? = nil) throws(BridgeError) {
        try self.init(hub: hub, origin: origin, address: address, clock: ContinuousClock())
    }

    deinit {
        let (context, native) = (context, native)
        Self.pages.withLock { $0[UnsafeRawPointer(context)] = nil }
        JSValueUnprotect(context, native)
        JSGlobalContextRelease(context)
    }

    // MARK: Running scripts

    /// Runs `script` in the page, after everything already waiting there, and returns its
    /// completion value as JSON (`undefined` is `null`).
    /// - Throws: `BridgeError` (`failed`) with the exception's text when the script throws, or
    ///   when its value has no JSON form.
    @discardableResult
    public func evaluate(_ script: String) async throws(BridgeError) -> JSONValue {
        let result: Result<JSONValue, BridgeError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.run(script)) }
        }
        return try result.get()
    }

    /// Calls `method` as a page does (`dsBridge.invoke(method, argument)`) and returns what its
    /// promise resolves to, as JSON.
    /// - Throws: `BridgeError` with the code and message the promise was rejected with.
    public func invoke(_ method: String, _ argument: JSONValue = .null) async throws(BridgeError) -> JSONValue {
        let result: Result<JSONValue, BridgeError> = await withCheckedContinuation { continuation in
            queue.async {
                self.lastSettlement += 1
                let id = self.lastSettlement
                self.settlements[id] = continuation
                let call = "dsBridge.invoke(\(JSONText(quoting: method).string), \(Self.json(argument)))"
                if case .failure(let error) = self.run("__keystoneTesting.settle(\(id), \(call))") {
                    self.settlements.removeValue(forKey: id)?.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Returns once `expression` is true in the page: checked now, and again after each script,
    /// batch or timer the page runs, so a test waits for what Swift's work delivers without
    /// polling or sleeping.
    public func until(_ expression: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.conditions.append((expression, continuation))
                self.checkConditions()
            }
        }
    }

    /// Resumes the waiters whose expression is now true. The queue's only.
    private func checkConditions() {
        guard !isChecking, !conditions.isEmpty else { return }
        isChecking = true
        defer { isChecking = false }
        let waiting = conditions
        conditions = []
        for (expression, continuation) in waiting {
            if case .success(.bool(true)) = run("!!(" + expression + ")") {
                continuation.resume()
            } else {
                conditions.append((expression, continuation))
            }
        }
    }

    /// Returns once the page has nothing left to run now: every script, batch and timer of no
    /// delay queued so far, and those they queued in turn.
    public func settle() async {
        for _ in 0..<10_000 {
            let idle: Bool = await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.engine.waiting == 0) }
            }
            if idle { return }
        }
    }

    // MARK: EvaluationTarget

    /// Runs `batch` in the page as its host's session does: after what waits, only while its page
    /// load is the current one, guarded to its document.
    public func evaluate(_ batch: ScriptBatch) {
        session.evaluate(batch) {}
    }

    // MARK: The document

    /// A new context with the window, the natives and the host's page-world scripts; the host
    /// hears of the document as a real one's does.
    private func startDocument(address: String) throws(BridgeError) {
        Self.pages.withLock { $0[UnsafeRawPointer(context)] = Weak(self) }
        native = makeNative()
        JSValueProtect(context, native)
        set("__keystoneNative", to: native, on: JSContextGetGlobalObject(context)!)
        let settings = "{\"href\":\(JSONText(quoting: address).string),\"origin\":\(JSONText(quoting: origin).string)}"
        guard let prelude = Bundle.module.url(forResource: "page-world", withExtension: "js"), let source = try? String(contentsOf: prelude, encoding: .utf8)
        else { throw BridgeError(code: .notFound, message: "page-world.js is missing from the KeystoneTesting bundle") }
        _ = try run("(" + source + ")(__keystoneNative, \(settings));").get()
        _ = try run(Self.settleScript + "\ndelete globalThis.__keystoneNative;").get()
        _ = try run(try HostScripts.pageWorld(injectsPageRuntime: true)).get()
        session.documentCommitted()
        if case .success(.string(let token)) = run("window.__keystoneDocument") {
            session.documentReported("start " + token, from: CallerFrame(isMainFrame: true, origin: origin))
        }
    }

    /// Settles the promise of ``invoke(_:_:)`` number `id` in Swift.
    private static let settleScript = """
        globalThis.__keystoneTesting = { settle: (function (native) {
          return function (id, promise) {
            Promise.resolve(promise).then(function (value) {
              native.settled(id, true, JSON.stringify(value === undefined ? null : value));
            }, function (error) {
              native.settled(id, false, JSON.stringify({ code: error && error.code, message: String(error && error.message !== undefined ? error.message : error) }));
            });
          };
        })(__keystoneNative) };
        """

    // MARK: The natives

    /// The object the window's natives hang from: `prompt`, `schedule`, `console`, `error`,
    /// `settled` (and `fire`, which the window adds for Swift to call).
    private func makeNative() -> JSObjectRef {
        let empty = Self.string("({})")
        defer { JSStringRelease(empty) }
        let object = JSValueToObject(context, JSEvaluateScript(context, empty, nil, nil, 1, nil), nil)!
        let functions: [(String, JSObjectCallAsFunctionCallback)] = [
            ("prompt", nativePrompt), ("schedule", nativeSchedule), ("console", nativeConsole), ("error", nativeError), ("settled", nativeSettled),
        ]
        for (name, callback) in functions {
            let key = Self.string(name)
            defer { JSStringRelease(key) }
            set(name, to: JSObjectMakeFunctionWithCallback(context, key, callback), on: object)
        }
        return object
    }

    /// A timer of the page's, `milliseconds` from now: run on the page's queue, after what waits.
    func schedule(timer id: Int, after milliseconds: Double) {
        engine.waiting += 1
        let fire: @Sendable () -> Void = { [self] in
            engine.waiting -= 1
            call("fire", with: [JSValueMakeNumber(context, Double(id))])
            checkConditions()
        }
        guard milliseconds > 0 else { return queue.async(execute: fire) }
        let sleep = sleep
        let queue = queue
        Task {
            try? await sleep(.milliseconds(milliseconds))
            queue.async(execute: fire)
        }
    }

    /// Calls the native object's function `name` (one the window added) with `arguments`.
    private func call(_ name: String, with arguments: [JSValueRef?]) {
        let key = Self.string(name)
        defer { JSStringRelease(key) }
        guard let function = JSValueToObject(context, JSObjectGetProperty(context, native, key, nil), nil) else { return }
        var exception: JSValueRef?
        arguments.withUnsafeBufferPointer { buffer in
            _ = JSObjectCallAsFunction(context, function, nil, buffer.count, buffer.baseAddress, &exception)
        }
        if let exception { lines.append("error: " + text(exception)) }
    }

    // MARK: Values

    /// Runs `script` now (on the queue) and returns its completion value as JSON.
    fileprivate func run(_ script: String) -> Result<JSONValue, BridgeError> {
        defer { checkConditions() }
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

    func text(_ value: JSValueRef) -> String {
        guard let string = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        return Self.swiftString(string)
    }

    private func set(_ name: String, to value: JSValueRef?, on object: JSObjectRef) {
        let key = Self.string(name)
        defer { JSStringRelease(key) }
        JSObjectSetProperty(context, object, key, value, 0, nil)
    }

    static func string(_ text: String) -> JSStringRef {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    }

    private static func swiftString(_ string: JSStringRef) -> String {
        let count = JSStringGetLength(string)
        guard count > 0, let characters = JSStringGetCharactersPtr(string) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF16.self)
    }

    private static func json(_ value: JSONValue) -> String {
        (try? DefaultJSONSerializer().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func error(_ json: JSONValue) -> BridgeError {
        guard case .object(let members) = json else { return BridgeError(code: .failed, message: "rejected") }
        let code = members.first { $0.0 == "code" }.flatMap { if case .number(let n) = $0.1 { Int(n) } else { nil } }
        let message = members.first { $0.0 == "message" }.flatMap { if case .string(let s) = $0.1 { s } else { nil } } ?? ""
        return BridgeError(code: code.flatMap(BridgeError.Code.init(rawValue:)) ?? .failed, message: message)
    }

    // MARK: Which page a native call is for

    private struct Weak: @unchecked Sendable {
        weak var page: JavaScriptPage?
        init(_ page: JavaScriptPage) { self.page = page }
    }

    private static let pages = Locked<[UnsafeRawPointer: Weak]>([:])

    static func page(of context: JSContextRef) -> JavaScriptPage? {
        let global = JSContextGetGlobalContext(context)
        return pages.withLock { $0[UnsafeRawPointer(global!)]?.page }
    }
}

/// The engine calls of a ``JavaScriptPage``'s session: its context's, on its queue.
private final class ScriptEngine: HostEngine, @unchecked Sendable {
    weak var page: JavaScriptPage?
    /// What is queued to run on the page's queue and has not run yet. The queue's only.
    var waiting = 0

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        guard let page else { return completion(.failure(BridgeError(code: .pageGone, message: "the page has gone"))) }
        switch page.run(script) {
        case .success(let value):
            guard valueLimit != nil else { return completion(.success(nil)) }
            completion(.success(String(decoding: (try? DefaultJSONSerializer().encode(value)) ?? Data("null".utf8), as: UTF8.self)))
        case .failure(let error):
            completion(.failure(error))
        }
    }

    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        guard let page else { return dropped() }
        page.later(after: delay, work)
    }

    func reload() {}

    func report(_ termination: WebProcessTermination) {}
}

extension JavaScriptPage {
    /// Runs `work` on the page's queue after `delay` (none: after what waits there).
    fileprivate func later(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let engine = engine
        let queue = queue
        queue.async { engine.waiting += 1 }
        let run: @Sendable () -> Void = {
            engine.waiting -= 1
            work()
        }
        guard delay > .zero else { return queue.async(execute: run) }
        let sleep = sleep
        Task {
            try? await sleep(delay)
            queue.async(execute: run)
        }
    }
}
