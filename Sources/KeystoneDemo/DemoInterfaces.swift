// DemoInterfaces.swift — the interfaces the demo registers (documented in Docs/Demo.md).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Namespace `""`: echoes any JSON back, and WebViewJavascriptBridge's example handler.
struct EchoInterface: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("echo") { (value: JSONValue) in value }
        methods.async("echoAsync") { (value: JSONValue) async in value }
        methods.async("testObjcCallback") { (_: JSONValue?) async in "Response from testObjcCallback" }
    }
}

/// Namespace `math`: sums, now and after about 10 ms.
struct MathInterface: BridgeInterface {
    func add(_ pair: [Double]) throws -> Double {
        guard pair.count == 2 else { throw BridgeError(code: .invalidArgument, message: "add takes [a, b]") }
        return pair[0] + pair[1]
    }

    func slowAdd(_ pair: [Double]) async throws -> Double {
        try await Task.sleep(for: .milliseconds(10))
        return try add(pair)
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("add", add)
        methods.async("slowAdd", slowAdd)
        methods.describe("add", "The sum of the numbers, at once.")
        methods.describe("slowAdd", "The sum of the numbers, a moment later.")
    }
}

/// Namespace `math.basic.ops`: a method three levels down.
struct OpsInterface: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("mul") { (pair: [Double]) throws -> Double in
            guard pair.count == 2 else { throw BridgeError(code: .invalidArgument, message: "mul takes [a, b]") }
            return pair[0] * pair[1]
        }
    }
}

/// Namespace `stream`: multi-response methods.
struct StreamInterface: BridgeInterface {
    struct Ticks: Codable, Sendable {
        var count: Int
        var intervalMs: Int
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.multiResponse("countdown") { (from: Int, writer: ResponseWriter<Int>) in
            for n in stride(from: from, through: 0, by: -1) { try await writer.write(n) }
        }
        methods.multiResponse("ticks") { (ticks: Ticks, writer: ResponseWriter<Int>) in
            for n in 0..<ticks.count {
                if n > 0 { try await Task.sleep(for: .milliseconds(ticks.intervalMs)) }
                try await writer.write(n)
            }
        }
    }
}

/// Namespace `errors`: failures with their codes.
struct ErrorsInterface: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("fail") { (message: String) -> JSONValue in throw BridgeError(code: .failed, message: message) }
        methods.sync("needsInt") { (value: Int) in value }
    }
}

/// Namespace `console`: a page method named like the console, which a host's console relay must
/// leave alone.
struct ConsoleInterface: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.async("log") { (text: String) async in "native console.log: \(text)" }
    }
}

/// Namespace `native`: Swift calling back into the page that called it, through the call's context
/// (bound to that page load, so nothing reaches a later page).
struct NativeInterface: BridgeInterface {
    struct Call: Codable, Sendable {
        var method: String
        var args: [JSONValue]
    }

    struct TimedCall: Codable, Sendable {
        var method: String
        var args: [JSONValue]
        var timeoutMs: Int
    }

    /// The Keystone's page of the web view that calls (`Keystone.page(_:)`), whose state the
    /// diagnostics read: how many Swift calls of page handlers wait to settle, how many of the
    /// page's asynchronous calls run, how many tickets of the byte channel are open, whether the
    /// host serves one, and the subframe documents Swift can call; `nil` once it has gone.
    let page: @Sendable (PageID) -> KeystonePage?

    /// A call of the handler `method` of every subframe document, or of the one numbered `document`.
    struct FramesCall: Codable, Sendable {
        var method: String
        var args: [JSONValue]
        var document: UInt64?
    }

    /// What one subframe's handler answered to `callSubframes`: its origin, and its value or the
    /// code of its error.
    struct FrameAnswer: Codable, Sendable {
        var origin: String?
        var value: JSONValue?
        var code: Int?
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.async("callJS") { (call: Call, context: CallContext) async throws -> JSONValue in
            try await context.page.call(call.method, arguments: call.args, as: JSONValue.self)
        }
        methods.multiResponse("streamJS") { (call: Call, context: CallContext, writer: ResponseWriter<JSONValue>) in
            for try await value in context.page.stream(call.method, arguments: call.args, of: JSONValue.self) {
                try await writer.write(value)
            }
        }
        // A Swift call of a page handler with a timeout: fails `timedOut` (13) without an answer in time.
        methods.async("callJSWithin") { (call: TimedCall, context: CallContext) async throws -> JSONValue in
            try await context.page.call(call.method, arguments: call.args, as: JSONValue.self, timeout: .milliseconds(call.timeoutMs))
        }
        // Swift addresses every subframe document of the page load that registered its handlers (or
        // the one numbered `document`): calls `method` in each at once, and answers with each one's
        // outcome, in the frames' order.
        methods.async("callSubframes") { (call: FramesCall, context: CallContext) async -> [FrameAnswer] in
            let calling = page(context.pageID)
            let frames = (calling?.subframes ?? []).filter { frame in call.document.map { frame.document?.rawValue == $0 } ?? true }
            return await withTaskGroup(of: (Int, FrameAnswer).self) { group in
                for (index, frame) in frames.enumerated() {
                    group.addTask {
                        do {
                            guard let connection = calling?.page(frame) else { throw BridgeError(code: .pageGone, message: "the bridge has gone") }
                            let value = try await connection.call(call.method, arguments: call.args, as: JSONValue.self)
                            return (index, FrameAnswer(origin: frame.origin, value: value))
                        } catch {
                            return (index, FrameAnswer(origin: frame.origin, code: BridgeError(error).code.rawValue))
                        }
                    }
                }
                var answers = [FrameAnswer?](repeating: nil, count: frames.count)
                for await (index, answer) in group { answers[index] = answer }
                return answers.compactMap { $0 }
            }
        }
        methods.sync("pendingCalls") { (context: CallContext) in page(context.pageID)?.pendingCallCount ?? 0 }
        methods.sync("runningCalls") { (context: CallContext) in page(context.pageID)?.runningCallCount ?? 0 }
        methods.sync("openTransfers") { (context: CallContext) in page(context.pageID)?.openTransferCount ?? 0 }
        methods.sync("servesBytes") { (context: CallContext) in page(context.pageID)?.servesBytes ?? false }
        methods.sync("residentBytes") { () -> Int in residentBytes() }
        // Asking the page needs the page's answer, so this cannot be synchronous: a page blocked in
        // its `prompt` cannot answer.
        methods.async("hasJS") { (name: String, context: CallContext) async throws -> Bool in
            try await context.page.hasJavaScriptMethod(name)
        }
        methods.sync("caller") { (_: JSONValue?, context: CallContext) -> CallerFrame in context.frame }
    }
}

/// Namespace `sequence`: notes in the order they arrive, so a page can check the order its calls
/// reached Swift in.
struct SequenceInterface: BridgeInterface {
    let notes = Locked<[String]>([])

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("note") { (text: String) in notes.withLock { $0.append(text) } }
        // Returns nothing, later: for calls made without a callback, and for what no result answers.
        methods.async("noteLater") { (text: String) async in
            await Task.yield()
            notes.withLock { $0.append(text) }
        }
        // In WebViewJavascriptBridge's style: answers "handled" for "now", declines for anything else.
        methods.handler("handle") { (how: String, respond: ResponseCallback<String>?) in
            if how == "now" { respond?("handled") }
        }
        methods.sync("take") { () -> [String] in
            notes.withLock { taken in
                defer { taken = [] }; return taken
            }
        }
    }
}

/// Namespace `mainActor`: methods that hop to the main actor and the main queue, as app code does.
/// Each answers whether its work ran on the main thread; where the main queue is not drained (a GTK
/// loop without `GTKMainLoop`), they never answer.
struct MainActorInterface: BridgeInterface {
    /// A count kept by main-actor code, read and written only there.
    @MainActor final class Counter {
        var value = 0
        nonisolated init() {}
        func increment() -> Int {
            value += 1
            return value
        }
    }

    let counter: Counter

    func exposeMethods(to methods: inout MethodList) {
        methods.async("run") { (_: JSONValue?) async -> Bool in
            await MainActor.run { Thread.isMainThread }
        }
        methods.async("task") { (_: JSONValue?) async -> Bool in
            await Task { @MainActor in Thread.isMainThread }.value
        }
        methods.async("dispatch") { (_: JSONValue?) async -> Bool in
            await withCheckedContinuation { continuation in
                DispatchQueue.main.async { continuation.resume(returning: Thread.isMainThread) }
            }
        }
        methods.async("increment") { [counter] (_: JSONValue?) async -> Int in
            await counter.increment()
        }
    }
}

/// Namespace `host`: what the app does with its web view besides the bridge.
struct HostInterface: BridgeInterface {
    /// Evaluates app JavaScript in the page (web view) that asks and returns its value.
    let evaluate: @Sendable (String, PageID) async throws -> JSONValue
    /// Ends the web process of the page (web view) that asks, soon after answering.
    let terminate: @Sendable (PageID) -> Void
    /// How many times the page's web process has ended.
    let terminations: @Sendable () -> Int
    /// Which host serves the page: `gtk` (WebKitGTKHost) or `webkit` (WKWebViewHost), for the
    /// pages that show a difference between them.
    var host = "gtk"
    /// Whether the page's web process runs Keystone's web-process extension (WebKitGTK's only).
    var webProcessExtension: @Sendable () -> Bool = { false }
    /// How many times Swift's bytes went to the page through the extension.
    var extensionTransfers: @Sendable () -> Int = { 0 }
    var extensionUploads: @Sendable () -> Int = { 0 }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("webProcessExtension", webProcessExtension)
        methods.sync("extensionTransfers", extensionTransfers)
        methods.sync("extensionUploads", extensionUploads)
        methods.async("evaluate") { (script: String, context: CallContext) async throws -> JSONValue in try await evaluate(script, context.pageID) }
        methods.sync("terminate") { (context: CallContext) in terminate(context.pageID) }
        methods.sync("terminations", terminations)
        methods.sync("name") { host }
    }
}

/// This process's resident memory in bytes (Linux's `/proc/self/statm`), 0 where it cannot be read.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

extension Keystone {
    /// Registers every demo interface under its namespace; `counter` is the main actor's.
    func registerDemoInterfaces(counter: MainActorInterface.Counter) throws {
        try register(EchoInterface())
        try register(MathInterface(), namespace: "math")
        try register(OpsInterface(), namespace: "math.basic.ops")
        try register(StreamInterface(), namespace: "stream")
        try register(ErrorsInterface(), namespace: "errors")
        try register(ConsoleInterface(), namespace: "console")
        try register(SequenceInterface(), namespace: "sequence")
        try register(BinaryInterface(), namespace: "binary")
        try register(MainActorInterface(counter: counter), namespace: "mainActor")
        let page: @Sendable (PageID) -> KeystonePage? = { [weak self] id in self?.page(id) }
        try register(
            DurableInterface(callDurably: { id, method, args in
                guard let page = page(id) else { throw BridgeError(code: .pageGone, message: "the page has gone") }
                return try await page.call(method, arguments: args, as: JSONValue.self, durable: true)
            }), namespace: "durable")
        try register(NativeInterface(page: page), namespace: "native")
        try register(PagesInterface(keystone: { [weak self] in self }), namespace: "pages")
    }
}
