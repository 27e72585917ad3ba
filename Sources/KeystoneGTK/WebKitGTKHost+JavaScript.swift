// WebKitGTKHost+JavaScript.swift — evaluating JavaScript in the page and reading its result: the
// one place the host talks to webkit_web_view_evaluate_javascript.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

extension WebKitGTKHost {
    /// Evaluates `javascript` in the page's main frame, after every batch already handed to the
    /// host, and returns its completion value as JSON (`undefined` is `null`).
    ///
    /// The value is measured in the page (`HostCore/measuredScript(_:limit:)`): one past the limit
    /// never crosses to the app. Where the page's Content Security Policy forbids `eval`, the
    /// script runs as it is and its value is measured as it arrives; WebKitGTK then rebuilds the
    /// value in the app's process with object keys in reverse order, so a script whose result must
    /// keep its order returns `JSON.stringify(…)` and the app decodes the string.
    /// - Throws: `BridgeError` (`failed`) when the script throws or its value is not JSON;
    ///   `limitExceeded` when its value is larger than the hub's `BridgeLimits/evaluationResultBytes`.
    public func evaluate(javascript: String) async throws(BridgeError) -> JSONValue {
        try await session.evaluate(javascript: javascript)
    }

    /// Evaluates `script` in the main frame now (on the main loop's thread) and hands `completion`
    /// the JSON text of its completion value (`nil` for `undefined`), or the error it threw; a
    /// value over `limit` bytes is refused before it is converted, and with no `limit` the value is
    /// not read (`nil`).
    func run(_ script: String, limit: Int?, completion: @escaping (Result<String?, BridgeError>) -> Void) {
        let pending = Unmanaged.passRetained(RunningScript(host: self, limit: limit, completion: completion)).toOpaque()
        webkit_web_view_evaluate_javascript(
            webView, script, -1, nil, nil, nil,
            { _, result, data in
                let running = Unmanaged<RunningScript>.fromOpaque(data!).takeRetainedValue()
                running.completion(running.finish(result))
            }, pending)
    }
}

/// A script evaluating in the engine, until its result comes back.
private final class RunningScript {
    let host: WebKitGTKHost
    let limit: Int?
    let completion: (Result<String?, BridgeError>) -> Void

    init(host: WebKitGTKHost, limit: Int?, completion: @escaping (Result<String?, BridgeError>) -> Void) {
        self.host = host
        self.limit = limit
        self.completion = completion
    }

    /// The JSON text of the completion value (`nil` for `undefined`), or the error it threw.
    func finish(_ result: OpaquePointer?) -> Result<String?, BridgeError> {
        var error: OpaquePointer?
        guard let value = webkit_web_view_evaluate_javascript_finish(host.webView, result, &error) else {
            let message = error.map { String(cString: ks_error_message($0)) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(BridgeError(code: .failed, message: "the script failed: \(message)"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        guard let limit, jsc_value_is_undefined(value) == 0 else { return .success(nil) }
        let tooLarge = HostCore.scriptValueTooLarge(limit: limit)
        // A string is measured before it is quoted as JSON, which would copy it again.
        if jsc_value_is_string(value) != 0, let bytes = jsc_value_to_string_as_bytes(value) {
            let count = g_bytes_get_size(bytes)
            g_bytes_unref(bytes)
            guard count <= limit else { return .failure(tooLarge) }
        }
        guard let json = jsc_value_to_json(value, 0) else { return .success(nil) }
        defer { g_free(json) }
        let count = strlen(json)
        guard count <= limit else { return .failure(tooLarge) }
        return .success(String(cString: json))
    }
}

/// The engine calls of a GTK host's session: its web view's, on the main loop's thread.
final class GTKEngine: HostEngine, @unchecked Sendable {
    private weak var host: WebKitGTKHost?

    init(host: WebKitGTKHost) {
        self.host = host
    }

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        guard let host else { return completion(.failure(BridgeError(code: .pageGone, message: "the web view went away first"))) }
        host.run(script, limit: valueLimit, completion: completion)
    }

    func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void) {
        guard let host else { return done() }
        host.evaluate(script, in: frame, done: done)
    }

    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        let milliseconds = UInt32(clamping: delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
        if milliseconds == 0 { MainLoopWork.enqueue(work, dropped: dropped) } else { MainLoopWork.after(milliseconds: milliseconds, work, dropped: dropped) }
    }

    func reload() {
        guard let host else { return }
        webkit_web_view_reload(host.webView)
    }

    func report(_ termination: WebProcessTermination) {
        host?.terminationHandler?(termination)
    }
}
#endif
