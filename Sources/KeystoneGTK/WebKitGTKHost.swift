// WebKitGTKHost.swift — attaches a Keystone to a WebKitGTK web view on Linux.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

/// Attaches a `BridgeHub` to a WebKitGTK web view: injects `window._dswk = true` and the page
/// runtime at document start, answers bridge prompts synchronously (every other dialog goes to
/// ``dialogHandler``, or keeps its normal behaviour), takes asynchronous calls through a script
/// message handler with a reply, evaluates the evaluator's batches, and reports page loads. It
/// reports who called (frame and origin) and decides nothing: the hub's policy does.
///
/// Create it, load pages and let it go on the thread that runs the GLib main loop
/// (``GTKMainLoop``); ``evaluate(_:)`` may be called from any thread (it hops to the main loop,
/// keeping the order). The host holds the hub strongly; the hub holds the host weakly.
public final class WebKitGTKHost: EvaluationTarget, @unchecked Sendable {
    /// How the host serves pages: the options every host takes.
    public typealias Options = HostOptions

    /// The hub that answers the page: the page the hub the host was made with gives it
    /// (`BridgeHub/openPage()`), a Keystone's first page or, while another host serves that, a page
    /// of its own.
    public let hub: any BridgeHub
    /// How the host serves pages, as it was created.
    public let options: Options
    /// The web view's `GtkWidget *`, for an app that places it in its own GTK container
    /// (``WebViewWindow`` does this for a window of its own).
    public var widget: UnsafeMutableRawPointer { UnsafeMutableRawPointer(view) }
    /// Receives the console lines of admitted documents when the host was made with
    /// `HostOptions(relaysConsole: true)`, each with the frame that wrote it; without that option
    /// nothing is relayed and it is never called. Set it before loading; it is called on the main
    /// loop's thread.
    public var consoleHandler: (@Sendable (ConsoleLine) -> Void)?
    /// Answers the page's own `alert`, `confirm` and `prompt`. Set it before loading.
    public var dialogHandler = ScriptDialogHandler()
    /// Told when the page's web process ends, after the hub has settled everything bound for the
    /// page and before the host reloads it (`HostOptions/reloadsAfterTermination`, backing off and
    /// stopping as `HostCore/TerminationLimit` says). Set it before loading; it is called on the
    /// main loop's thread.
    public var terminationHandler: (@Sendable (WebProcessTermination) -> Void)?
    /// Whether the page's web process runs Keystone's web-process extension
    /// (`HostOptions/loadsWebProcessExtension`): it has said so since the process started.
    public internal(set) var runsWebProcessExtension = false
    /// How many times Swift's bytes went to the page through the extension: for the package's own
    /// real-engine pages, which show which way they went.
    package internal(set) var extensionTransfers = 0
    /// How many pieces of the page's bytes came to Swift through the extension.
    package internal(set) var extensionUploads = 0
    /// Whether the page's bytes and Swift's go through the extension alone: the host offered it to
    /// its web context, and registers no byte scheme any document could post a body to. The hub
    /// then serves bytes while the page's web process runs the extension.
    var bytesGoThroughExtension = false
    /// Whether the host offered the extension to its web context.
    var offeredWebProcessExtension = false
    /// The memory Swift's bytes cross to the web process's extension in.
    let sharedBytes = SharedBytes()

    private let view: OpaquePointer
    var webView: OpaquePointer { ks_web_view(view) }
    private let manager: OpaquePointer
    /// What the host decides as every host does: batches, documents, origins, terminations and
    /// the page's dialect. Used on the main loop's thread only (batches hop there).
    let session: HostSession
    /// The engine calls the session makes: this web view's.
    private var engine: GTKEngine?
    /// Marks the prompts of the host's isolated-world script, which alone knows it: page scripts
    /// cannot read another world's variables.
    private let secret = UUID().uuidString
    /// Who sent a text, and its answer, as the relay's protocol says; the capabilities it issued to
    /// the documents' relays. Read and written on the main loop's thread only.
    private var relay: PageRelay

    /// Creates a web view with the host's scripts and handlers and attaches `hub` to it. Throws
    /// `invalidRegistration` when one of the policy's allowed origins is not written as the engine
    /// writes origins (`HostCore/init(allowedOrigins:reloadsAfterTermination:terminationLimit:)`).
    public init(hub: any BridgeHub, options: Options = Options()) throws {
        // The page this host serves: from here on, `hub` is it.
        let hub = hub.openPage()
        self.hub = hub
        self.options = options
        session = try HostSession(opening: hub, options: options)
        relay = PageRelay(secret: secret)
        manager = webkit_user_content_manager_new()
        // The host owns one reference to the view (its widget starts floating), whatever container
        // the app puts it in, and one to the content manager; it drops both in `deinit`.
        view = OpaquePointer(g_object_ref_sink(UnsafeMutableRawPointer(webkit_web_view_new_with_user_content_manager(manager))))
        let source = try HostScripts.pageWorld(
            relay: try Self.relayScript(
                messagesPerPost: hub.limits.messagesPerPost, relaysConsole: options.relaysConsole, extensionCarriesBytes: Self.offersWebProcessExtension(options)),
            injectsPageRuntime: options.injectsPageRuntime
        )
        let isolated = try Self.isolatedScript(secret: secret, signalPattern: session.signalPattern, limits: hub.limits)
        addScripts(pageWorld: session.core.scriptsOnlyForAllowedOrigins(source), isolatedWorld: session.core.scriptsOnlyForAllowedOrigins(isolated))
        engine = GTKEngine(host: self)
        session.engine = engine
        connectSignals()
        offerWebProcessExtension()
        MainQueueSource.install()
        hub.attach(to: self)
        if options.injectsPageRuntime, options.servesBytes { serveBytes() }
        if let app = options.appOrigin { serveApp(app) }
    }

    /// Adds the host's scripts at document start, in the page world and the isolated world, each
    /// already checking its document's own origin: the engine's URL patterns narrow injection to
    /// the allowed origins' hosts (they cannot say a port).
    private func addScripts(pageWorld: String, isolatedWorld: String) {
        let frames = options.injectsIntoSubframes ? KS_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES : KS_WEBKIT_USER_CONTENT_INJECT_TOP_FRAME
        let start = KS_WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START
        Self.withURIPatterns(session.core.injectionPatterns) { allowList in
            for script in [
                webkit_user_script_new(pageWorld, frames, start, allowList, nil),
                webkit_user_script_new_for_world(isolatedWorld, frames, start, Self.worldName, allowList, nil),
            ] {
                webkit_user_content_manager_add_script(manager, script)
                webkit_user_script_unref(script)
            }
        }
    }

    /// Runs `body` with a NULL-terminated list of `patterns`, or with `nil` for every document.
    private static func withURIPatterns(_ patterns: [String]?, _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Void) {
        guard let patterns else { return body(nil) }
        let copies = patterns.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        (copies.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { body($0.baseAddress) }
    }

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ks_on_script_dialog(
            webView,
            { _, dialog, data in
                guard let dialog, let data else { return 0 }
                return Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue().handleDialog(dialog) ? 1 : 0
            }, me)
        // The relay's messages, posted by the isolated world only: no page script of any frame can
        // reach this handler, so none can make the engine rebuild a value of its own in the app.
        _ = ks_on_message_with_reply(
            manager, Self.messageHandler, Self.worldName,
            { _, value, reply, data in
                guard let value, let reply, let data else { return 0 }
                let host = Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue()
                let answer = MessageReply(reply, context: jsc_value_get_context(value))
                // The relay posts only strings: anything else is refused unread, never converted.
                guard jsc_value_is_string(value) != 0 else {
                    answer.send(PageRelay.notText)
                    return 1
                }
                WebKitGTKHost.withText(of: value) { host.answerMessage($0, reply: answer) }
                return 1
            }, me)
        _ = ks_on_message_with_reply(
            manager, Self.documentChannel, Self.worldName,
            { _, value, reply, data in
                guard let value, let reply, let data else { return 0 }
                let host = Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue()
                WebKitGTKHost.withText(of: value, host.documentReported)
                let answer = jsc_value_new_null(jsc_value_get_context(value))
                webkit_script_message_reply_return_value(reply, answer)
                g_object_unref(UnsafeMutableRawPointer(answer))
                return 1
            }, me)
        _ = ks_on_load_changed(
            webView,
            { _, event, data in
                guard let data, event == KS_WEBKIT_LOAD_COMMITTED else { return }
                Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue().documentDidCommit()
            }, me)
        _ = ks_on_decide_policy(
            webView,
            { _, decision, type, data in
                guard let decision, let data, let uri = ks_navigation_decision_uri(decision, type) else { return 0 }
                let host = Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue()
                // A signal of the page's dialect is cancelled whichever frame made it; WebKitGTK does
                // not say which, so only the top document's, which its isolated world reports, is
                // answered (``documentReported(_:)``).
                guard host.session.isSignal(String(cString: uri)) else { return 0 }
                webkit_policy_decision_ignore(decision)
                return 1
            }, me)
        _ = ks_on_web_process_terminated(
            webView,
            { _, reason, data in
                guard let data else { return }
                Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue().webProcessDidTerminate(reason)
            }, me)
    }

    deinit {
        // The page load ends with the host: nothing waits for a page no host answers.
        session.closed()
        stopServingBytes()
        stopServingApp()
        let me = Unmanaged.passUnretained(self).toOpaque()
        ks_disconnect_all(UnsafeMutableRawPointer(webView), me)
        ks_disconnect_all(UnsafeMutableRawPointer(manager), me)
        // A view that outlives its host (still in a window) keeps no bridge that answers nobody.
        webkit_user_content_manager_unregister_script_message_handler_in_world(manager, Self.messageHandler, Self.worldName)
        webkit_user_content_manager_unregister_script_message_handler_in_world(manager, Self.documentChannel, Self.worldName)
        webkit_user_content_manager_remove_all_scripts(manager)
        g_object_unref(UnsafeMutableRawPointer(manager))
        g_object_unref(UnsafeMutableRawPointer(view))
    }

    /// Loads `html` with `baseURI` as its address.
    public func loadHTML(_ html: String, baseURI: String? = nil) {
        webkit_web_view_load_html(webView, html, baseURI)
    }

    /// Loads the page at `uri`.
    public func load(uri: String) {
        webkit_web_view_load_uri(webView, uri)
    }

    /// Ends the page's web process, as a crash would: for an app that must free its memory, and
    /// for tests of what a crash does.
    public func terminateWebProcess() {
        webkit_web_view_terminate_web_process(webView)
    }

    /// The page's web process ended: the page is gone (pending calls settle with `pageGone`, the
    /// page's running calls are cancelled), the app hears why, and the page is reloaded as the
    /// host core says. The reloaded document then starts the next page load without ending another.
    private func webProcessDidTerminate(_ reason: UInt32) {
        relay.forgetFrames()
        runsWebProcessExtension = false
        if bytesGoThroughExtension { session.stopServingBytes() }
        sharedBytes.dropWaiting()
        let reason: WebProcessTermination.Reason =
            switch reason {
            case KS_WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemoryLimit
            case KS_WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .terminatedByApp
            default: .crashed
            }
        session.webProcessTerminated(reason)
    }

    /// A new document replaced the old one (a provisional load that fails replaces nothing).
    private func documentDidCommit() {
        sharedBytes.dropWaiting()
        session.documentCommitted()
    }

    // MARK: EvaluationTarget

    public func evaluate(_ batch: ScriptBatch) {
        evaluate(batch) {}
    }

    /// Evaluates `batch` on the main loop and calls `done` when the engine has run it, or when it
    /// was dropped (made for a page that has gone, or the main loop went away first).
    public func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        session.evaluate(batch, done: done)
    }

    // MARK: Calls from the page

    /// Bytes of a text the engine handed over, read in place.
    typealias Bytes = PostedText.Bytes

    /// Runs `body` with the bytes of a C string the engine owns, up to its terminating NUL.
    static func withBytes<Result>(of text: UnsafePointer<CChar>, _ body: (Bytes) -> Result) -> Result {
        let count = strlen(text)
        return text.withMemoryRebound(to: UInt8.self, capacity: count + 1) { body(Bytes(start: $0, count: count)) }
    }

    /// Runs `body` with the UTF-8 bytes of a JavaScript value's text, all of them: read by length,
    /// so a NUL inside ends nothing.
    static func withText<Result>(of value: OpaquePointer, _ body: (Bytes) -> Result) -> Result {
        guard let text = jsc_value_to_string_as_bytes(value) else { return body(Bytes(start: nil, count: 0)) }
        defer { g_bytes_unref(text) }
        var count: gsize = 0
        let start = g_bytes_get_data(text, &count)?.assumingMemoryBound(to: UInt8.self)
        return body(Bytes(start: start, count: Int(count)))
    }

    /// Answers a dialog: a bridge prompt goes to the hub, any other dialog to ``dialogHandler``.
    /// Returns whether the dialog was handled (otherwise WebKit shows its own).
    private func handleDialog(_ dialog: OpaquePointer) -> Bool {
        let message = webkit_script_dialog_get_message(dialog)!
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case KS_WEBKIT_SCRIPT_DIALOG_PROMPT:
            let outcome = Self.withBytes(of: message) { bytes in
                let defaultText = webkit_script_dialog_prompt_get_default_text(dialog)
                return defaultText.map { Self.withBytes(of: $0) { relay.answerPrompt(bytes, defaultText: $0, hub: hub) } }
                    ?? relay.answerPrompt(bytes, defaultText: nil, hub: hub)
            }
            switch outcome {
            case .answer(let text):
                webkit_script_dialog_prompt_set_text(dialog, text)
            case .handled:
                break
            case .pagePrompt(let text):
                guard let prompt = dialogHandler.prompt else { return false }
                // Not setting the text answers `null`, as a cancelled prompt does.
                let defaultText = webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) }
                if let answer = prompt(text, defaultText) { webkit_script_dialog_prompt_set_text(dialog, answer) }
            }
            return true
        case KS_WEBKIT_SCRIPT_DIALOG_CONFIRM:
            guard let confirm = dialogHandler.confirm else { return false }
            webkit_script_dialog_confirm_set_confirmed(dialog, confirm(String(cString: message)) ? 1 : 0)
            return true
        case KS_WEBKIT_SCRIPT_DIALOG_ALERT:
            guard let alert = dialogHandler.alert else { return false }
            alert(String(cString: message))
            return true
        default:
            return false
        }
    }

    /// A relay's script message, posted by the isolated world, answered through `reply` as the
    /// relay's protocol says (`null` for a console line), at once or, for a piece of the page's
    /// bytes, once the hub has taken it.
    private func answerMessage(_ message: Bytes, reply: MessageReply) {
        switch relay.answerMessage(message, hub: hub) {
        case .answer(let text):
            reply.send(text)
        case .console(let level, let text, let frame):
            relayConsoleLine(level: level, text: text, from: frame)
            reply.send(nil)
        case .download(let request, let address, let frame):
            reply.send(sendBytes(request: request, address: address, frame: frame))
        case .upload(let request, let address, let frame):
            takeBytes(request: request, address: address, frame: frame) { reply.send($0) }
        case .ignored:
            reply.send(nil)
        }
    }

    /// Hands an admitted document's console line (`level`, a new line, the text) to
    /// ``consoleHandler``, cut to the hub's `BridgeLimits/consoleLineBytes`.
    private func relayConsoleLine(level: Bytes, text: Bytes, from frame: CallerFrame) {
        guard options.relaysConsole, let consoleHandler else { return }
        consoleHandler(ConsoleLine(level: String(decoding: level.prefix(16), as: UTF8.self), text: text, limit: hub.limits.consoleLineBytes, frame: frame))
    }

    /// The isolated world reports the top document's token when the document starts (after its
    /// commit made it the hub's current page load) and when the engine restores it from its
    /// back/forward cache, and each signal of the page's dialect the top document makes. Only the
    /// isolated world can post here; its tag still says which frame posted.
    private func documentReported(_ message: Bytes) {
        switch relay.documentMessage(message) {
        case .report(let text, let frame): session.documentReported(text, from: frame)
        case .signal(let url): session.signalled(url, from: session.mainDocument)
        case .subframeEnded(let document): session.numberedDocumentGone(document)
        case nil: break
        }
    }
}

/// The reply to one script message, sent once: a string, or `null`. Used on the main loop's thread
/// only: what answers later hops there first.
final class MessageReply: @unchecked Sendable {
    private var reply: OpaquePointer?
    private let context: OpaquePointer?

    init(_ reply: OpaquePointer, context: OpaquePointer?) {
        self.reply = webkit_script_message_reply_ref(reply)
        self.context = context
        if let context { g_object_ref(UnsafeMutableRawPointer(context)) }
    }

    func send(_ text: String?) {
        guard let reply else { return }
        self.reply = nil
        let value = text.map { jsc_value_new_string(context, $0) } ?? jsc_value_new_null(context)
        // The reply takes its own reference; the new value's is ours to drop.
        webkit_script_message_reply_return_value(reply, value)
        if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
        webkit_script_message_reply_unref(reply)
    }

    deinit {
        // A reply never sent: the page hears nothing, as from a host that went.
        if let reply { webkit_script_message_reply_unref(reply) }
        if let context { g_object_unref(UnsafeMutableRawPointer(context)) }
    }
}
#endif
