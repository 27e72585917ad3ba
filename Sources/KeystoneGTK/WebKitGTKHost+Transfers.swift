// WebKitGTKHost+Transfers.swift — the byte channel: the custom scheme `keystone:`, whose requests
// go to the hub through its transport, and whose answers are the hub's.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

extension WebKitGTKHost {
    /// The byte channel's transport: its scheme is registered CORS-enabled and secure, so a page of
    /// any origin, http or https, may `fetch` it.
    static let transport = URLSchemeTransport.keystone

    /// A host, held weakly.
    struct WeakHost {
        weak var host: WebKitGTKHost?
    }

    /// The hosts by web view: a web context has one handler per scheme, shared by every web view
    /// in it. Read and written on the main loop's thread only.
    nonisolated(unsafe) private static var hostsByView: [OpaquePointer: WeakHost] = [:]
    /// The web contexts whose scheme handler is registered (once each, for the life of the
    /// context). Main loop's thread only.
    nonisolated(unsafe) private static var servedContexts: Set<OpaquePointer> = []

    /// Serves the byte channel for this host's web view and tells the hub so: through the
    /// web-process extension alone where the host offered it (the hub hears once the page's web
    /// process says it runs it), through the scheme otherwise.
    func serveBytes() {
        Self.hostsByView[webView] = WeakHost(host: self)
        if offeredWebProcessExtension {
            bytesGoThroughExtension = true
            if runsWebProcessExtension { session.serveBytes(over: Self.transport, isSecure: true) }
            return
        }
        if let context = webkit_web_view_get_context(webView), Self.servedContexts.insert(context).inserted {
            webkit_web_context_register_uri_scheme(context, URLSchemeTransport.scheme, { request, _ in WebKitGTKHost.answerTransfer(request) }, nil, nil)
            let security = webkit_web_context_get_security_manager(context)
            webkit_security_manager_register_uri_scheme_as_secure(security, URLSchemeTransport.scheme)
            webkit_security_manager_register_uri_scheme_as_cors_enabled(security, URLSchemeTransport.scheme)
        }
        session.serveBytes(over: Self.transport, isSecure: true)
    }

    /// The host is going: its web view's requests find no hub.
    func stopServingBytes() {
        Self.hostsByView[webView] = nil
    }

    /// Answers one request of the scheme with its web view's hub: the method, address and `Origin`
    /// as the engine reports them, and the body read only if the hub asks for it. The hub may
    /// answer later (a stream's chunk waits for room): the request is kept until it does.
    private static func answerTransfer(_ request: OpaquePointer?) {
        guard let request else { return }
        guard let view = webkit_uri_scheme_request_get_web_view(request), let host = hostsByView[view]?.host else {
            finish(request, with: .notFound)
            return
        }
        let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
        let url = webkit_uri_scheme_request_get_uri(request).map { String(cString: $0) } ?? ""
        let origin = webkit_uri_scheme_request_get_http_headers(request).flatMap { soup_message_headers_get_one($0, "Origin") }.map {
            String(cString: $0)
        }
        let held = HeldRequest(request)
        transport.serve(method: method, url: url, origin: origin, hub: host.hub) { limit in
            readBody(of: request, limit: limit)
        } respond: { response in
            held.finish { WebKitGTKHost.finish($0, with: response) }
        }
    }

    /// A request of a scheme, referenced until its answer is handed to the engine on the main loop's
    /// thread, the only thread it is touched on. An answer after the engine stopped the request (its
    /// page went) is taken and dropped by WebKit.
    final class HeldRequest: @unchecked Sendable {
        private let request: OpaquePointer

        init(_ request: OpaquePointer) {
            self.request = request
            g_object_ref(UnsafeMutableRawPointer(request))
        }

        /// Answers the request with `answer`, on the main loop's thread, and lets it go.
        func finish(_ answer: @escaping @Sendable (OpaquePointer) -> Void) {
            guard Thread.isMainThread else {
                DispatchQueue.main.async { self.finish(answer) }
                return
            }
            answer(request)
            g_object_unref(UnsafeMutableRawPointer(request))
        }
    }

    /// The request's body, read whole: `nil` when it holds more than `limit` bytes or cannot be read.
    private static func readBody(of request: OpaquePointer, limit: Int) -> Data? {
        // The body stream is ours to release; no body is an empty one.
        guard let stream = webkit_uri_scheme_request_get_http_body(request) else { return Data() }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        return URLSchemeTransport.readBody(limit: limit) { Int(g_input_stream_read(stream, $0.baseAddress, gsize($0.count), nil, nil)) }
    }

    /// Hands the engine the hub's answer: its status, headers and body.
    private static func finish(_ request: OpaquePointer, with response: URLSchemeTransport.Response) {
        let bytes = response.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        g_bytes_unref(bytes)
        let answer = webkit_uri_scheme_response_new(stream, gint64(response.body.count))
        webkit_uri_scheme_response_set_status(answer, guint(response.status), response.reason)
        let headers = soup_message_headers_new(KS_SOUP_MESSAGE_HEADERS_RESPONSE)
        for (name, value) in response.headers { soup_message_headers_append(headers, name, value) }
        webkit_uri_scheme_response_set_http_headers(answer, headers)  // takes the headers
        webkit_uri_scheme_response_set_content_type(answer, response.contentType)
        webkit_uri_scheme_request_finish_with_response(request, answer)
        g_object_unref(UnsafeMutableRawPointer(answer))
        g_object_unref(UnsafeMutableRawPointer(stream))
    }
}
#endif
