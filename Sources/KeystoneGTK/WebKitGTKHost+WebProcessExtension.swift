// WebKitGTKHost+WebProcessExtension.swift — Keystone's extension of WebKitGTK's web process: offered
// to the web context, and heard from per web process.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

extension WebKitGTKHost {
    /// The extension's file, a resource of this module (built from `WebProcessExtension/` by the
    /// package's KeystoneWebProcessExtensionBuilder plugin), in a private folder of its own: made
    /// once per process, on first use.
    private static let extensionFolder = Result { () throws(BridgeError) -> URL in
        guard let file = Bundle.module.url(forResource: "keystone-web-process-extension", withExtension: "so") else {
            throw BridgeError(code: .notFound, message: "the web-process extension is missing from the KeystoneGTK bundle")
        }
        return try WebProcessExtensionFolder.make(holding: file)
    }
    /// Whether a host made with `options` offers the extension to its web context: it asks to, and
    /// the extension's file is there. Such a host's bytes go through the extension alone.
    static func offersWebProcessExtension(_ options: HostOptions) -> Bool {
        guard options.loadsWebProcessExtension, case .success = extensionFolder else { return false }
        return true
    }

    /// The page worlds' names the extension reads, from its wire's one description.
    static let extensionNames = PageRelay.ExtensionNames(
        relay: KEYSTONE_RELAY_GLOBAL, target: KEYSTONE_RELAY_TARGET, received: KEYSTONE_RELAY_RECEIVED, outgoing: KEYSTONE_RELAY_OUTGOING,
        documentGlobal: KEYSTONE_DOCUMENT_GLOBAL)

    /// The web contexts told where the extension is. Main loop's thread only.
    nonisolated(unsafe) private static var offeredContexts: Set<OpaquePointer> = []
    /// What the extension says when it runs in a page's web process, and the version it speaks
    /// (`keystone-extension-wire.h`, as every name the two say to each other).
    static let extensionAnnouncement = KEYSTONE_EXTENSION_MESSAGE
    static let extensionVersion = UInt32(KEYSTONE_EXTENSION_VERSION)

    /// Offers the extension to the web view's context, whose web processes started from now on
    /// load it, and listens for it. Where it cannot be offered the hub's logging hears why, once,
    /// and the host works as without it.
    func offerWebProcessExtension() {
        _ = ks_on_user_message(
            webView,
            { _, message, data in
                guard let message, let data else { return 0 }
                return Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue().receive(message) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard options.loadsWebProcessExtension, let context = webkit_web_view_get_context(webView) else { return }
        switch Self.extensionFolder {
        case .success(let folder):
            offeredWebProcessExtension = true
            guard Self.offeredContexts.insert(context).inserted else { return }
            webkit_web_context_set_web_extensions_directory(context, folder.path)
            // The extension makes the host's isolated world itself, by this name, so that it can
            // name the subframe documents the host's scripts run in.
            webkit_web_context_set_web_extensions_initialization_user_data(context, g_variant_new_string(Self.worldName))
        case .failure(let error):
            guard Self.offeredContexts.insert(context).inserted else { return }
            (hub as? Keystone)?.components.logging.log(.warning, "the web process runs without Keystone's extension: \(error.message)")
        }
    }

    /// The relay's request `request` of Swift's bytes at `address`, for `frame`: where the page's
    /// web process runs the extension and the frame is one it reaches (the main frame, or a
    /// subframe document it numbered: it hands the bytes to that document's relay), the hub's
    /// answer to the fetch goes there in shared memory (``SharedBytes``), and the relay hears
    /// ``PageRelay/downloadSent``, or the refusal; otherwise nothing is fetched, and the answer `""`
    /// has the page fetch the address itself.
    func sendBytes(request: String, address: String, frame: CallerFrame) -> String {
        guard runsWebProcessExtension, frame.isReachable, case .success(let fetch) = Self.transport.request(method: "GET", url: address, origin: frame.origin, carriedBy: Self.sharedMemory),
            fetch.kind == .fetch
        else { return "" }
        let document = frame.document?.rawValue ?? 0  // a main frame names none
        let refused: BridgeError
        switch hub.receiveBytesNow(fetch, readBody: { _ in nil }) {
        case .bytes(let bytes):
            switch sharedBytes.hand(bytes, for: request, document: document) {
            case .send(let descriptor, let isRegion):
                send(request: request, document: document, size: bytes.count, descriptor: descriptor, isRegion: isRegion)
                fallthrough
            case .waiting:
                extensionTransfers += 1
                return PageRelay.downloadSent
            case .failed:
                refused = BridgeError(code: .failed, message: "the bytes could not be put in shared memory")
            }
        case .refused(let error):
            refused = error
        default:
            refused = BridgeError(code: .failed, message: "the bytes could not be fetched")
        }
        return String(decoding: URLSchemeTransport.Response.refusal(refused).body, as: UTF8.self)
    }

    /// The relay's request `request` to send a piece of the page's bytes to `address` (a ticket's,
    /// with the piece's query), for `frame`: where the page's web process runs the extension and
    /// the frame is one it reaches, the extension is asked for the piece, which it hands over in
    /// sealed shared memory, and `answer` gets the hub's answer to it (`{"ok":…,"answer":…}`);
    /// otherwise `answer` gets `""` and the page posts the piece to the address. The sender was
    /// admitted before this was asked, and the memory is read only once the piece's ticket admits
    /// it, no more of it than the ticket takes: no document hands the app bytes it did not ask for.
    func takeBytes(request: String, address: String, frame: CallerFrame, answer: @escaping @Sendable (String) -> Void) {
        guard runsWebProcessExtension, frame.isReachable, case .success(let piece) = Self.transport.request(method: "POST", url: address, origin: frame.origin, carriedBy: Self.sharedMemory),
            piece.kind != .fetch
        else { return answer("") }
        let document = frame.document?.rawValue ?? 0
        let parameters = [g_variant_new_string(request), g_variant_new_uint64(guint64(document)), g_variant_new_uint64(guint64(hub.limits.transferBytes))]
            .withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
        let message = webkit_user_message_new(Self.uploadMessage, parameters)
        let taking = Unmanaged.passRetained(TakenBytes(host: self, address: address, origin: frame.origin, answer: answer)).toOpaque()
        webkit_web_view_send_message_to_page(
            webView, message, nil,
            { view, result, data in
                guard let data else { return }
                let taking = Unmanaged<TakenBytes>.fromOpaque(data).takeRetainedValue()
                var error: OpaquePointer?
                let reply = webkit_web_view_send_message_to_page_finish(view, result, &error)
                if let error { g_error_free(error) }
                taking.received(reply)
                if let reply { g_object_unref(UnsafeMutableRawPointer(reply)) }
            }, taking)
    }

    /// How a trace names the bytes the web-process extension moves (`ByteRequest.transport`).
    static let sharedMemory = "webProcess"

    /// What carries the host's request for a piece of the page's bytes, and the extension's answer.
    static let uploadMessage = KEYSTONE_UPLOAD_MESSAGE

    /// Sends the extension `size` bytes for the relay's `request` of the subframe document
    /// `document` (0: the main frame) in the memory of `descriptor` (which the message then owns),
    /// or with none, which the extension hands over as bytes that could not be read. A message in
    /// the lent region has the host keep itself until the extension answers, when the region is the
    /// host's again and the next waiting transfer goes.
    private func send(request: String, document: UInt64, size: Int, descriptor: Int32?, isRegion: Bool) {
        var descriptors = descriptor.map { [$0] } ?? []
        let list = descriptors.isEmpty ? nil : g_unix_fd_list_new_from_array(&descriptors, 1)
        let parameters = [g_variant_new_string(request), g_variant_new_uint64(guint64(size)), g_variant_new_uint64(guint64(document))].withUnsafeBufferPointer {
            g_variant_new_tuple($0.baseAddress, 3)
        }
        let message = webkit_user_message_new_with_fd_list(Self.bytesMessage, parameters, list)
        if let list { g_object_unref(UnsafeMutableRawPointer(list)) }
        let callback: GAsyncReadyCallback =
            isRegion
            ? { view, result, data in
                WebKitGTKHost.finish(view, result)
                guard let data else { return }
                Unmanaged<WebKitGTKHost>.fromOpaque(data).takeRetainedValue().sendWaiting()
            }
            : { view, result, _ in WebKitGTKHost.finish(view, result) }
        webkit_web_view_send_message_to_page(webView, message, nil, callback, isRegion ? Unmanaged.passRetained(self).toOpaque() : nil)
    }

    /// The region is the host's again: the transfers waiting for it go, each in it until one is
    /// lent it (the rest wait for that one's answer); one whose memory could not be had goes
    /// without, and its request fails.
    private func sendWaiting() {
        while let next = sharedBytes.returned() {
            send(request: next.request, document: next.document, size: next.size, descriptor: next.descriptor, isRegion: next.descriptor != nil)
            if next.descriptor != nil { return }
        }
    }

    /// Takes the extension's answer to a message of Swift's bytes, or the error in its place.
    private static func finish(_ view: OpaquePointer?, _ result: OpaquePointer?) {
        var error: OpaquePointer?
        if let answer = webkit_web_view_send_message_to_page_finish(view, result, &error) { g_object_unref(UnsafeMutableRawPointer(answer)) }
        if let error { g_error_free(error) }
    }

    /// What carries Swift's bytes to the extension.
    static let bytesMessage = KEYSTONE_BYTES_MESSAGE
    /// What carries a script to a subframe document, and the extension's word that one has gone.
    static let evaluateMessage = KEYSTONE_EVALUATE_MESSAGE
    static let frameGoneMessage = KEYSTONE_FRAME_GONE_MESSAGE

    /// Evaluates `script` in the subframe document `frame` through the extension, which runs it
    /// only while that document is its frame's; `done` once the extension has answered (a web
    /// process without it answers with an error). Only the extension numbers documents, so a
    /// numbered one is in a web process that runs it. Main loop's thread only.
    func evaluate(_ script: String, in frame: FrameDocument, done: @escaping @Sendable () -> Void) {
        let parameters = [g_variant_new_uint64(guint64(frame.rawValue)), g_variant_new_string(script)].withUnsafeBufferPointer {
            g_variant_new_tuple($0.baseAddress, 2)
        }
        let message = webkit_user_message_new(Self.evaluateMessage, parameters)
        let finished = Unmanaged.passRetained(EvaluationDone(done)).toOpaque()
        webkit_web_view_send_message_to_page(
            webView, message, nil,
            { view, result, data in
                WebKitGTKHost.finish(view, result)
                guard let data else { return }
                Unmanaged<EvaluationDone>.fromOpaque(data).takeRetainedValue().done()
            }, finished)
    }

    /// A message of the page's web process: the extension's announcement, of the version this host
    /// speaks, or its word that a subframe document has gone, is taken; any other is left to the
    /// app's own handlers.
    private func receive(_ message: OpaquePointer) -> Bool {
        let name = String(cString: webkit_user_message_get_name(message))
        let parameters = webkit_user_message_get_parameters(message)
        switch name {
        case Self.extensionAnnouncement:
            runsWebProcessExtension =
                parameters.map { String(cString: g_variant_get_type_string($0)) == "u" && g_variant_get_uint32($0) == Self.extensionVersion } ?? false
            // Documents of this web process get the byte channel only where it carries their bytes.
            if bytesGoThroughExtension {
                if runsWebProcessExtension { session.serveBytes(over: Self.transport, isSecure: true) } else { session.stopServingBytes() }
            }
        case Self.frameGoneMessage:
            guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "t" else { return true }
            session.numberedDocumentGone(FrameDocument(rawValue: UInt64(g_variant_get_uint64(parameters))))
        default:
            return false
        }
        return true
    }
}

/// A piece of the page's bytes the host asked the extension for, until its answer: the piece goes
/// to the hub as the byte channel's post to `address` would, its body the extension's sealed
/// memory, read only if the ticket admits it.
private final class TakenBytes {
    weak var host: WebKitGTKHost?
    let address: String
    let origin: String?
    let answer: @Sendable (String) -> Void

    init(host: WebKitGTKHost, address: String, origin: String?, answer: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.address = address
        self.origin = origin
        self.answer = answer
    }

    /// The extension's reply (`nil`: none came): its count and memory, or no memory when it had no
    /// piece to give.
    func received(_ reply: OpaquePointer?) {
        let parameters = reply.flatMap { webkit_user_message_get_parameters($0) }
        let list = reply.flatMap { webkit_user_message_get_fd_list($0) }
        guard let host, let parameters, String(cString: g_variant_get_type_string(parameters)) == "t", let list, g_unix_fd_list_get_length(list) == 1
        else { return answer(Self.unreadable) }
        let size = Int(clamping: g_variant_get_uint64(parameters))
        let descriptor = Descriptor(g_unix_fd_list_get(list, 0, nil))  // a duplicate, ours to close
        guard descriptor.number >= 0 else { return answer(Self.unreadable) }
        host.extensionUploads += 1
        let answer = answer
        WebKitGTKHost.transport.serve(method: "POST", url: address, origin: origin, carriedBy: WebKitGTKHost.sharedMemory, hub: host.hub) { limit in
            Self.read(descriptor.number, size: size, limit: limit)
        } respond: { response in
            let text = "{\"ok\":\(response.status == 200),\"answer\":\(String(decoding: response.body, as: UTF8.self))}"
            if Thread.isMainThread { answer(text) } else { DispatchQueue.main.async { answer(text) } }
        }
    }

    /// The answer to a piece the extension could not give: the bytes cannot be read.
    static let unreadable = #"{"ok":false,"answer":{"code":2,"message":"the bytes cannot be read"}}"#

    /// The `size` bytes of `descriptor`, when that is at most `limit` and the memory is sealed
    /// against any change: mapped, not copied, and let go with the value.
    private static func read(_ descriptor: Int32, size: Int, limit: Int) -> Data? {
        let seals = fcntl(descriptor, KS_F_GET_SEALS)
        var status = stat()
        let sealed = KS_F_SEAL_SHRINK | KS_F_SEAL_GROW | KS_F_SEAL_WRITE
        guard size <= limit, seals >= 0, seals & sealed == sealed, fstat(descriptor, &status) == 0, Int(status.st_size) == size else { return nil }
        guard size > 0 else { return Data() }
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }
}

/// A file descriptor, closed when the last of its holders lets go of it.
private final class Descriptor: @unchecked Sendable {
    let number: Int32

    init(_ number: Int32) {
        self.number = number
    }

    deinit {
        if number >= 0 { close(number) }
    }
}

/// What runs once the extension has evaluated a script, carried through its C callback.
private final class EvaluationDone {
    let done: @Sendable () -> Void

    init(_ done: @escaping @Sendable () -> Void) {
        self.done = done
    }
}
#endif
