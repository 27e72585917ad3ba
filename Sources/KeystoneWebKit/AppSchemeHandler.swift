// AppSchemeHandler.swift — the app's own web files on Apple systems: the app's scheme, answered by
// the host kit's AppOrigin and streamed from disk to WebKit one piece at a time.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Serves an ``AppOrigin`` to the web views of one configuration (``WKWebViewHost/serveApp(_:in:)``).
/// Each request is answered off the main thread; a file's bytes go to WebKit one piece at a time,
/// the next read only once WebKit has the last, and no more once WebKit stopped the task.
@MainActor
final class AppSchemeHandler: NSObject, WKURLSchemeHandler {
    /// What is served.
    nonisolated let app: AppOrigin
    /// The tasks started and neither finished nor stopped: WebKit raises an exception when a
    /// stopped task is answered.
    private var running: [ObjectIdentifier: Started] = [:]

    /// The largest piece handed to WebKit at once.
    nonisolated static let pieceBytes = 256 << 10

    init(app: AppOrigin) {
        self.app = app
    }

    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
        let request = urlSchemeTask.request
        let started = Started(urlSchemeTask)
        running[started.id] = started
        let (method, url, range) = (request.httpMethod ?? "GET", request.url?.absoluteString ?? "", request.value(forHTTPHeaderField: "Range"))
        let app = app
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            let response = app.respond(method: method, url: url, range: range)
            let fields = Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
            guard let address = request.url, let head = HTTPURLResponse(url: address, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)
            else {
                _ = Self.onMain(self, started, { $0.didFailWithError(BridgeError(code: .malformedMessage, message: "the request has no address")) }, ends: true)
                return
            }
            guard Self.onMain(self, started, { $0.didReceive(head) }) else { return }
            // One piece in flight at a time: the next is read once WebKit has this one.
            let complete = response.read(chunkBytes: Self.pieceBytes) { piece in Self.onMain(self, started, { $0.didReceive(piece) }) }
            _ = Self.onMain(
                self, started,
                { task in
                    if complete { task.didFinish() } else { task.didFailWithError(BridgeError(code: .failed, message: "the file could not be read")) }
                }, ends: true)
        }
    }

    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
        running[ObjectIdentifier(urlSchemeTask)]?.isStopped.withLock { $0 = true }
        running[ObjectIdentifier(urlSchemeTask)] = nil
    }

    /// Runs `act` on the task on the main thread and waits for it; `false` (and nothing done) once
    /// WebKit stopped the task or the handler has gone. `ends` lets the task go after.
    nonisolated private static func onMain(
        _ handler: AppSchemeHandler?, _ started: Started, _ act: @escaping @MainActor (any WKURLSchemeTask) -> Void, ends: Bool = false
    ) -> Bool {
        guard let handler, !started.isStopped.withLock({ $0 }) else { return false }
        let done = DispatchSemaphore(value: 0)
        let delivered = Locked(false)
        DispatchQueue.main.async { [weak handler] in
            MainActor.assumeIsolated {
                defer { done.signal() }
                guard let handler, handler.running[started.id] != nil else { return }
                act(started.task)
                delivered.withLock { $0 = true }
                if ends { handler.running[started.id] = nil }
            }
        }
        done.wait()
        return delivered.withLock { $0 }
    }

    /// A task being answered: touched on the main thread only, but for whether it was stopped.
    private final class Started: @unchecked Sendable {
        let task: any WKURLSchemeTask
        let isStopped = Locked(false)
        var id: ObjectIdentifier { ObjectIdentifier(task) }

        init(_ task: any WKURLSchemeTask) {
            self.task = task
        }
    }
}
#endif
