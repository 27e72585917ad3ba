// WebKitGTKHost+JavaScript.swift — evaluating the app's own JavaScript and reading its result.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone

extension WebKitGTKHost {
    /// Evaluates `javascript` in the page's main frame, after every batch already handed to the
    /// host, and returns its completion value as JSON (`undefined` is `null`).
    ///
    /// WebKitGTK rebuilds the value in the app's process with object keys in reverse order; a
    /// script whose result must keep its order returns `JSON.stringify(…)` and the app decodes the
    /// string.
    /// - Throws: ``BridgeError`` (`failed`) when the script throws or its value is not JSON.
    public func evaluate(javascript: String) async throws(BridgeError) -> JSONValue {
        let json = await withCheckedContinuation { (continuation: CheckedContinuation<Result<String?, BridgeError>, Never>) in
            let work = Unmanaged.passRetained(ScriptEvaluation(host: self, script: javascript, continuation: continuation)).toOpaque()
            // The source releases the evaluation when it is destroyed; one destroyed before it ran
            // (the main loop went away) answers instead of leaving its caller waiting.
            g_idle_add_full(G_PRIORITY_DEFAULT, { data in
                Unmanaged<ScriptEvaluation>.fromOpaque(data!).takeUnretainedValue().start()
                return 0  // G_SOURCE_REMOVE
            }, work, { data in
                let evaluation = Unmanaged<ScriptEvaluation>.fromOpaque(data!).takeRetainedValue()
                if !evaluation.hasStarted {
                    evaluation.continuation.resume(returning: .failure(BridgeError(code: .pageGone, message: "the web view went away first")))
                }
            })
        }
        guard let text = try json.get() else { return .null }
        do {
            return try DefaultJSONSerializer().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw BridgeError(code: .failed, message: "the script's value is not JSON")
        }
    }
}

/// One evaluation of app JavaScript on its way to, and back from, the web view.
private final class ScriptEvaluation {
    let host: WebKitGTKHost
    let script: String
    let continuation: CheckedContinuation<Result<String?, BridgeError>, Never>
    /// Set on the main loop's thread when the evaluation starts.
    private(set) var hasStarted = false

    init(host: WebKitGTKHost, script: String, continuation: CheckedContinuation<Result<String?, BridgeError>, Never>) {
        self.host = host
        self.script = script
        self.continuation = continuation
    }

    /// Starts the evaluation on the main loop; the callback owns this object until it finishes.
    func start() {
        hasStarted = true
        let me = Unmanaged.passRetained(self).toOpaque()
        webkit_web_view_evaluate_javascript(host.webView, script, -1, nil, nil, nil, { source, result, data in
            let evaluation = Unmanaged<ScriptEvaluation>.fromOpaque(data!).takeRetainedValue()
            evaluation.continuation.resume(returning: evaluation.finish(result))
        }, me)
    }

    /// The JSON text of the completion value (`nil` for `undefined`), or the error it threw.
    private func finish(_ result: OpaquePointer?) -> Result<String?, BridgeError> {
        var error: UnsafeMutablePointer<GError>?
        guard let value = webkit_web_view_evaluate_javascript_finish(host.webView, result, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(BridgeError(code: .failed, message: "the script failed: \(message)"))
        }
        defer { g_object_unref(value) }
        guard jsc_value_is_undefined(value) == 0, let json = jsc_value_to_json(value, 0) else { return .success(nil) }
        defer { g_free(json) }
        return .success(String(cString: json))
    }
}
#endif
