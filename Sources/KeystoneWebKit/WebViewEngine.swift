// WebViewEngine.swift — the engine calls of a WKWebView host's session.
import Foundation
import Keystone
import KeystoneHost

#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// The engine calls of a WKWebView host's session: its web view's, on the main thread.
final class WebViewEngine: HostEngine, @unchecked Sendable {
    private weak var host: WKWebViewHost?

    @MainActor
    init(host: WKWebViewHost) {
        self.host = host
    }

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        MainActor.assumeIsolated {
            guard let webView = host?.webView else { return completion(.failure(BridgeError(code: .pageGone, message: "the web view has gone"))) }
            webView.evaluateJavaScript(script) { value, error in
                guard let valueLimit else { return completion(.success(nil)) }
                completion(
                    WKWebViewHost.json(value, error).flatMap { json in
                        guard let json else { return .success(nil) }
                        guard json.count <= valueLimit else { return .failure(HostCore.scriptValueTooLarge(limit: valueLimit)) }
                        return .success(String(decoding: json, as: UTF8.self))
                    })
            }
        }
    }

    func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void) {
        MainActor.assumeIsolated {
            guard let host else { return done() }
            host.evaluate(script, inSubframe: frame, done: done)
        }
    }

    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return DispatchQueue.main.async(execute: work) }
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: work)
    }

    /// Reloads the page once the web view is visible, as WebKit reloads a page whose process ended.
    func reload() {
        MainActor.assumeIsolated { host?.reloadWhenVisible() }
    }

    func report(_ termination: WebProcessTermination) {
        MainActor.assumeIsolated { host?.terminationHandler?(termination) }
    }
}

#endif
