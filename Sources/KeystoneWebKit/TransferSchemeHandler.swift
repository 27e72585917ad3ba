// TransferSchemeHandler.swift — the byte channel on Apple systems: the custom scheme `keystone:`,
// whose requests go to the hub of the web view that made them.
import Foundation
import Keystone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(WebKit)
import WebKit
#endif

#if canImport(WebKit) || KEYSTONE_WEBKIT_STANDIN
/// Serves the byte channel for the web views of one configuration: each request goes as it is to
/// the hub of its web view's ``WKWebViewHost``, which reads its body only once its ticket admits it,
/// and the hub's answer goes back as it is.
///
/// WebKit takes a scheme handler only before a web view is made from a configuration, so an app
/// that wants `Data` moved as bytes calls ``WKWebViewHost/serveTransfers(in:)`` on the
/// configuration first; without it, `Data` goes as base64 in JSON, as for every other page.
@MainActor
final class TransferSchemeHandler: NSObject, WKURLSchemeHandler {
    /// The scheme, and the address prefix the hub is told the channel is served under.
    static let scheme = "keystone"
    static let base = "keystone://transfer/"

    private struct Attached {
        weak var webView: WKWebView?
        weak var host: WKWebViewHost?
    }

    /// The hosts of the web views made from the configuration.
    private var attached: [Attached] = []

    /// Answers `webView`'s requests with `host`'s hub.
    func attach(_ host: WKWebViewHost, to webView: WKWebView) {
        attached.removeAll { $0.webView == nil || $0.webView === webView }
        attached.append(Attached(webView: webView, host: host))
    }

    func detach(_ webView: WKWebView) {
        attached.removeAll { $0.webView == nil || $0.webView === webView }
    }

    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
        let request = urlSchemeTask.request
        let response: TransferResponse
        if let host = attached.first(where: { $0.webView === webView })?.host {
            response = host.hub.handleTransfer(
                method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "", origin: request.value(forHTTPHeaderField: "Origin")
            ) { limit in Self.body(of: request, limit: limit) }
        } else {
            response = TransferResponse(status: 404, contentType: "text/plain", body: Data())
        }
        let fields = Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        guard let url = request.url, let head = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            urlSchemeTask.didFailWithError(BridgeError(code: .malformedMessage, message: "the request has no address"))
            return
        }
        urlSchemeTask.didReceive(head)
        if !response.body.isEmpty { urlSchemeTask.didReceive(response.body) }
        urlSchemeTask.didFinish()
    }

    /// Every request is answered before `start` returns: nothing is left to stop.
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {}

    /// The request's body, whole: `nil` when it holds more than `limit` bytes. WebKit hands a
    /// body as `httpBody`, or as a stream when it is large.
    private static func body(of request: URLRequest, limit: Int) -> Data? {
        if let body = request.httpBody { return body.count <= limit ? body : nil }
        guard let stream = request.httpBodyStream else { return Data() }
        stream.open()
        defer { stream.close() }
        return TransferBody.read(limit: limit) { buffer in
            buffer.baseAddress.map { stream.read($0.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count) } ?? -1
        }
    }
}
#endif
