// WebKitGTKHost+AppOrigin.swift — the app's own web files at its origin: the scheme the app chose,
// whose requests are answered by the host kit's AppOrigin and streamed from disk.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

#if canImport(Glibc)
import Glibc
#endif

extension WebKitGTKHost {
    /// The hosts serving an app origin, by web view: a web context has one handler per scheme,
    /// shared by every web view in it. Main loop's thread only.
    nonisolated(unsafe) private static var appHosts: [OpaquePointer: WeakHost] = [:]
    /// The schemes registered, by web context (once each, for the life of the context). Main
    /// loop's thread only.
    nonisolated(unsafe) private static var appSchemes: [OpaquePointer: Set<String>] = [:]

    /// The largest body handed to the engine at once; a larger one is read from disk as the engine
    /// takes it.
    static let appBodyInMemory = 1 << 20

    /// Serves `app` in this host's web view. The scheme is registered as WebKit registers a scheme
    /// with a handler: CORS-enabled and not secure, as on Apple systems, so its pages are secure
    /// contexts while an https page cannot fetch, import or frame its files (Docs: "Serving your
    /// app's pages").
    func serveApp(_ app: AppOrigin) {
        Self.appHosts[webView] = WeakHost(host: self)
        guard let context = webkit_web_view_get_context(webView), Self.appSchemes[context, default: []].insert(app.scheme).inserted else { return }
        webkit_web_context_register_uri_scheme(context, app.scheme, { request, _ in WebKitGTKHost.answerApp(request) }, nil, nil)
    }

    /// The host is going: its web view's requests find no files.
    func stopServingApp() {
        Self.appHosts[webView] = nil
    }

    /// Answers one request of an app scheme with its web view's app origin: a web view of another
    /// host, or of none, gets the same 404 as a file that is not there. The file is found, and a
    /// small one read, off the main loop; the engine is answered on it.
    private static func answerApp(_ request: OpaquePointer?) {
        guard let request else { return }
        let url = webkit_uri_scheme_request_get_uri(request).map { String(cString: $0) } ?? ""
        let app = webkit_uri_scheme_request_get_web_view(request).flatMap { appHosts[$0]?.host?.options.appOrigin }
        let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
        let range = webkit_uri_scheme_request_get_http_headers(request).flatMap { soup_message_headers_get_one($0, "Range") }.map { String(cString: $0) }
        let held = HeldRequest(request)
        DispatchQueue.global(qos: .userInitiated).async {
            let response = app?.respond(method: method, url: url, range: range) ?? .notFound
            let body = Body(response)
            held.finish { finish($0, with: response, body: body) }
        }
    }

    /// A response's body as the engine will read it, made ready off the main loop: a small one's
    /// bytes, a file that runs to its end opened at the part's start, any other part's socket, or
    /// nothing when the file cannot be opened.
    private enum Body: Sendable {
        case bytes(Data)
        case descriptor(Int32)
        case unreadable

        init(_ response: AppFileResponse) {
            if let bytes = response.bytes(atMost: WebKitGTKHost.appBodyInMemory) {
                self = .bytes(bytes)
                return
            }
            guard case .file(let path, let offset, let length) = response.body else {
                self = .unreadable
                return
            }
            let file = open(path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else {
                self = .unreadable
                return
            }
            var status = stat()
            // The part runs to the file's end: the engine reads the file itself, from the part's start.
            if fstat(file, &status) == 0, Int(status.st_size) == offset + length, lseek(file, off_t(offset), SEEK_SET) == off_t(offset) {
                self = .descriptor(file)
                return
            }
            close(file)
            self = Self.written(response).map { .descriptor($0) } ?? .unreadable
        }

        /// The reading end of a socket the part is written into from a worker thread, blocking while
        /// the engine has not read what went before; the engine closing its end (the request
        /// stopped) ends the writing.
        private static func written(_ response: AppFileResponse) -> Int32? {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return nil }
            let (reader, writer) = (ends[0], ends[1])
            _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
            DispatchQueue.global(qos: .userInitiated).async {
                response.read { piece in
                    piece.withUnsafeBytes { buffer in
                        var sent = 0
                        while sent < buffer.count {
                            let count = send(writer, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                            guard count > 0 else { return false }
                            sent += count
                        }
                        return true
                    }
                }
                close(writer)
            }
            return reader
        }
    }

    /// Hands the engine `response` with its `body`, on the main loop's thread.
    private static func finish(_ request: OpaquePointer, with response: AppFileResponse, body: Body) {
        let stream: OpaquePointer
        switch body {
        case .bytes(let bytes):
            let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            stream = g_memory_input_stream_new_from_bytes(data)
            g_bytes_unref(data)
        case .descriptor(let file):
            stream = g_unix_input_stream_new(file, 1)
        case .unreadable:
            let failure = g_error_new_literal(g_quark_from_string("Keystone"), 1, "the file could not be read")
            webkit_uri_scheme_request_finish_error(request, failure)
            g_error_free(failure)
            return
        }
        let answer = webkit_uri_scheme_response_new(stream, gint64(response.bodyLength))
        webkit_uri_scheme_response_set_status(answer, guint(response.status), response.reason)
        let headers = soup_message_headers_new(KS_SOUP_MESSAGE_HEADERS_RESPONSE)
        for header in response.headers { soup_message_headers_append(headers, header.name, header.value) }
        webkit_uri_scheme_response_set_http_headers(answer, headers)  // takes the headers
        if let type = response.header("Content-Type") { webkit_uri_scheme_response_set_content_type(answer, type) }
        webkit_uri_scheme_request_finish_with_response(request, answer)
        g_object_unref(UnsafeMutableRawPointer(answer))
        g_object_unref(UnsafeMutableRawPointer(stream))
    }
}
#endif
