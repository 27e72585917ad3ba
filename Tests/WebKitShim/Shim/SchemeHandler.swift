// SchemeHandler.swift — WKURLSchemeHandler and WKURLSchemeTask over WebKitGTK's URI scheme requests.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WKURLSchemeHandler.h: `WK_SWIFT_UI_ACTOR @protocol WKURLSchemeHandler <NSObject>`; both methods
/// are required.
@MainActor public protocol WKURLSchemeHandler: NSObjectProtocol {
    /// `- (void)webView:(WKWebView *)webView startURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask)
    /// `- (void)webView:(WKWebView *)webView stopURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask)
}

/// WKURLSchemeTask.h: `@protocol WKURLSchemeTask <NSObject>`, with no actor of its own.
public protocol WKURLSchemeTask: NSObjectProtocol {
    /// `@property (nonatomic, readonly, copy) NSURLRequest *request;`
    var request: URLRequest { get }
    /// `- (void)didReceiveResponse:(NSURLResponse *)response;`
    func didReceive(_ response: URLResponse)
    /// `- (void)didReceiveData:(NSData *)data;`
    func didReceive(_ data: Data)
    /// `- (void)didFinish;`
    func didFinish()
    /// `- (void)didFailWithError:(NSError *)error;`
    func didFailWithError(_ error: any Error)
}

/// One request of a scheme with a handler. WKURLSchemeTask.mm raises NSInternalInconsistencyException
/// when a task is answered after it finished or was stopped, or given data before a response: the
/// shim reports each as a fault. The request's body is handed as `httpBodyStream`, as WebKit does
/// for a `fetch` body it streams.
final class ShimSchemeTask: NSObject, WKURLSchemeTask, @unchecked Sendable {
    let request: URLRequest
    private let gtkRequest: OpaquePointer
    private weak var webView: WKWebView?
    private var response: URLResponse?
    private var body = Data()
    private var state = State.running

    private enum State {
        case running, finished, stopped
    }

    init(_ gtkRequest: OpaquePointer, request: URLRequest, webView: WKWebView) {
        self.gtkRequest = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(gtkRequest)))
        self.request = request
        self.webView = webView
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(gtkRequest))
    }

    private func check(_ what: String) -> Bool {
        MainActor.assumeIsolated {
            switch state {
            case .running: return true
            case .finished: ShimFaults.raise("NSInternalInconsistencyException: \(what): this task has already been finished")
            case .stopped: ShimFaults.raise("NSInternalInconsistencyException: \(what): this task has already been stopped")
            }
            return false
        }
    }

    func didReceive(_ response: URLResponse) {
        guard check("didReceiveResponse:") else { return }
        self.response = response
    }

    func didReceive(_ data: Data) {
        guard check("didReceiveData:") else { return }
        guard response != nil else {
            return MainActor.assumeIsolated { ShimFaults.raise("NSInternalInconsistencyException: didReceiveData: was called before didReceiveResponse:") }
        }
        body.append(data)
    }

    func didFinish() {
        guard check("didFinish") else { return }
        guard let response else {
            return MainActor.assumeIsolated { ShimFaults.raise("NSInternalInconsistencyException: didFinish was called before didReceiveResponse:") }
        }
        state = .finished
        let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        g_bytes_unref(bytes)
        let answer = webkit_uri_scheme_response_new(stream, gint64(body.count))!
        g_object_unref(UnsafeMutableRawPointer(stream))
        let http = response as? HTTPURLResponse
        webkit_uri_scheme_response_set_status(answer, guint(http?.statusCode ?? 200), nil)
        if let type = response.mimeType ?? http?.value(forHTTPHeaderField: "Content-Type") { webkit_uri_scheme_response_set_content_type(answer, type) }
        if let fields = http?.allHeaderFields, !fields.isEmpty {
            let headers = soup_message_headers_new(KS_SOUP_MESSAGE_HEADERS_RESPONSE)!
            for (name, value) in fields { soup_message_headers_append(headers, "\(name)", "\(value)") }
            webkit_uri_scheme_response_set_http_headers(answer, headers)
        }
        webkit_uri_scheme_request_finish_with_response(gtkRequest, answer)
        g_object_unref(UnsafeMutableRawPointer(answer))
        MainActor.assumeIsolated { webView?.runningTasks.removeAll { $0 === self } }
    }

    func didFailWithError(_ error: any Error) {
        guard check("didFailWithError:") else { return }
        state = .finished
        let failure = g_error_new_literal(g_quark_from_string("WebKitShim"), 1, "\(error)")
        webkit_uri_scheme_request_finish_error(gtkRequest, failure)
        g_error_free(failure)
        MainActor.assumeIsolated { webView?.runningTasks.removeAll { $0 === self } }
    }

    /// WebKit stops a task whose page went (the shim: at a main-frame commit, the end of the web
    /// content process, or the web view's end) and tells its handler.
    @MainActor
    func stop() {
        guard state == .running, let webView else { return }
        state = .stopped
        webView.runningTasks.removeAll { $0 === self }
        let scheme = request.url?.scheme?.lowercased() ?? ""
        webView.configuration.urlSchemeHandler(forURLScheme: scheme)?.webView(webView, stop: self)
        let failure = g_error_new_literal(g_quark_from_string("WebKitShim"), 2, "stopped")
        webkit_uri_scheme_request_finish_error(gtkRequest, failure)
        g_error_free(failure)
    }

    // MARK: Serving a scheme

    @MainActor private static var served: Set<String> = []

    /// Whether a handler's scheme was registered in the web context.
    @MainActor static func isServed(_ scheme: String) -> Bool { served.contains(scheme) }

    /// Registers `scheme` in the web context once: CORS-enabled (a page's `fetch` of it from another
    /// origin reads the answer when its headers allow it) and not secure, as WebKit's Cocoa API
    /// registers a scheme with a handler (WebPageProxy, `registerURLSchemeHandler`; WebKit has no
    /// API to make it secure, so an https document's `fetch` of it is mixed content).
    @MainActor
    static func serve(_ scheme: String, in context: OpaquePointer?) {
        guard let context, served.insert(scheme).inserted else { return }
        webkit_web_context_register_uri_scheme(
            context, scheme,
            { request, _ in
                guard let request else { return }
                MainActor.assumeIsolated { ShimSchemeTask.start(request) }
            }, nil, nil)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(context), scheme)
    }

    @MainActor
    private static func start(_ gtkRequest: OpaquePointer) {
        let uri = webkit_uri_scheme_request_get_uri(gtkRequest).map { String(cString: $0) } ?? ""
        guard let view = webkit_uri_scheme_request_get_web_view(gtkRequest), let webView = WKWebView.of(view), let url = URL(string: uri),
            let handler = webView.configuration.urlSchemeHandler(forURLScheme: url.scheme ?? "")
        else {
            let failure = g_error_new_literal(g_quark_from_string("WebKitShim"), 3, "no handler")
            webkit_uri_scheme_request_finish_error(gtkRequest, failure)
            g_error_free(failure)
            return
        }
        var request = URLRequest(url: url)
        request.httpMethod = webkit_uri_scheme_request_get_http_method(gtkRequest).map { String(cString: $0) } ?? "GET"
        if let headers = webkit_uri_scheme_request_get_http_headers(gtkRequest) {
            let box = HeaderBox()
            soup_message_headers_foreach(
                headers,
                { name, value, data in
                    guard let name, let value, let data else { return }
                    Unmanaged<HeaderBox>.fromOpaque(data).takeUnretainedValue().fields.append((String(cString: name), String(cString: value)))
                }, Unmanaged.passUnretained(box).toOpaque())
            for (name, value) in box.fields { request.addValue(value, forHTTPHeaderField: name) }
        }
        if let stream = webkit_uri_scheme_request_get_http_body(gtkRequest) {
            var body = Data()
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { g_input_stream_read(stream, $0.baseAddress, gsize($0.count), nil, nil) }
                if count <= 0 { break }
                body.append(contentsOf: buffer[..<count])
            }
            g_object_unref(UnsafeMutableRawPointer(stream))
            request.httpBodyStream = InputStream(data: body)
        }
        let task = ShimSchemeTask(gtkRequest, request: request, webView: webView)
        webView.runningTasks.append(task)
        handler.webView(webView, start: task)
    }

    private final class HeaderBox {
        var fields: [(String, String)] = []
    }
}
#endif
