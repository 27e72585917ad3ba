// TransferSchemeHandler.swift — the byte channel on Apple systems: the custom scheme `keystone:`,
// whose requests go to the hub of the web view that made them.
import Foundation
import Keystone
import KeystoneHost

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM
/// Serves the byte channel for the web views of one configuration: each request goes as it is to
/// the hub of its web view's ``WKWebViewHost``, which reads its body only once its ticket admits it,
/// and the hub's answer goes back as it is.
///
/// WebKit takes a scheme handler only before a web view is made from a configuration, so an app
/// that wants `Data` moved as bytes calls ``WKWebViewHost/serveBytes(in:)`` on the
/// configuration first; without it, `Data` goes as base64 in JSON, as for every other page.
@MainActor
final class TransferSchemeHandler: NSObject, WKURLSchemeHandler {
    /// The byte channel's transport.
    nonisolated static let transport = URLSchemeTransport.keystone

    private struct Attached {
        weak var webView: WKWebView?
        weak var host: WKWebViewHost?
    }

    /// The hosts of the web views made from the configuration.
    private var attached: [Attached] = []
    /// The tasks started and neither answered nor stopped: WebKit raises an exception when a
    /// stopped task is answered, so an answer the hub gives later goes only to a task still here.
    private var running: Set<ObjectIdentifier> = []

    /// Answers `webView`'s requests with `host`'s hub.
    func attach(_ host: WKWebViewHost, to webView: WKWebView) {
        attached.removeAll { $0.webView == nil || $0.webView === webView }
        attached.append(Attached(webView: webView, host: host))
    }

    func detach(_ webView: WKWebView) {
        attached.removeAll { $0.webView == nil || $0.webView === webView }
    }

    /// Hands the request to its web view's hub, off the main thread: the hub reads the body (up to
    /// `BridgeLimits/transferBytes`) only once the request's ticket admits it, and a chunk of a
    /// stream into Swift waits until the method reading it has room. The answer comes back to the
    /// main actor, where WebKit is answered.
    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
        let request = urlSchemeTask.request
        guard let hub = attached.first(where: { $0.webView === webView })?.host?.hub else {
            return Self.answer(urlSchemeTask, with: .notFound)
        }
        let task = StartedTask(urlSchemeTask)
        running.insert(task.id)
        let respond: @Sendable (URLSchemeTransport.Response) -> Void = { [weak self] response in
            Task { @MainActor in
                guard let self, self.running.remove(task.id) != nil else { return }  // stopped meanwhile
                Self.answer(task.task, with: response)
            }
        }
        let method = request.httpMethod ?? "GET"
        let url = request.url?.absoluteString ?? ""
        let origin = request.value(forHTTPHeaderField: "Origin")
        let body = RequestBody(request)
        DispatchQueue.global(qos: .userInitiated).async {
            Self.transport.serve(method: method, url: url, origin: origin, hub: hub, readBody: body.read, respond: respond)
        }
    }

    /// WebKit stopped the task (its page went, or the page's `fetch` was aborted): an answer the
    /// hub gives it later is dropped.
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
        running.remove(ObjectIdentifier(urlSchemeTask))
    }

    /// A task the hub has yet to answer, kept (so its identity stays its own) until it does. It is
    /// touched on the main actor only, where WebKit calls and is called.
    private struct StartedTask: @unchecked Sendable {
        let task: any WKURLSchemeTask
        var id: ObjectIdentifier { ObjectIdentifier(task) }

        init(_ task: any WKURLSchemeTask) {
            self.task = task
        }
    }

    /// Hands WebKit the hub's answer: its status, headers and body.
    private static func answer(_ urlSchemeTask: any WKURLSchemeTask, with response: URLSchemeTransport.Response) {
        let request = urlSchemeTask.request
        let fields = Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        guard let url = request.url, let head = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            urlSchemeTask.didFailWithError(BridgeError(code: .malformedMessage, message: "the request has no address"))
            return
        }
        urlSchemeTask.didReceive(head)
        if !response.body.isEmpty { urlSchemeTask.didReceive(response.body) }
        urlSchemeTask.didFinish()
    }

    /// A request's body, read where the hub reads it: WebKit hands a body as `httpBody`, or as a
    /// stream when it is large, and a body it does not hand over reads as empty, which the hub
    /// refuses for a piece (a stream's end is said with `?end=`, never by an empty body). The
    /// request is read by one thread at a time, the hub's.
    private struct RequestBody: @unchecked Sendable {
        let request: URLRequest

        init(_ request: URLRequest) {
            self.request = request
        }

        /// The body, whole: `nil` when it holds more than `limit` bytes.
        func read(limit: Int) -> Data? {
            if let body = request.httpBody { return body.count <= limit ? body : nil }
            guard let stream = request.httpBodyStream else { return Data() }
            stream.open()
            defer { stream.close() }
            return URLSchemeTransport.readBody(limit: limit) { buffer in
                buffer.baseAddress.map { stream.read($0.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count) } ?? -1
            }
        }
    }
}
#endif
