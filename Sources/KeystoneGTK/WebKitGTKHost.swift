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

    /// The hub that answers the page.
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
    /// What the isolated world sends starts with these bytes, then the frame (`top` or `sub`) and
    /// its origin, then a new line and its own text.
    private let tagPrefix: [UInt8]
    /// The capabilities issued to the documents' relays; read and written on the main loop's
    /// thread only.
    private var capabilities = FrameCapabilities()

    /// Creates a web view with the host's scripts and handlers and attaches `hub` to it. Throws
    /// `invalidRegistration` when one of the policy's allowed origins is not written as the engine
    /// writes origins (`HostCore/init(allowedOrigins:reloadsAfterTermination:terminationLimit:)`).
    public init(hub: any BridgeHub, options: Options = Options()) throws {
        self.hub = hub
        self.options = options
        session = try HostSession(hub: hub, options: options)
        tagPrefix = Array(Self.tagPrefix(secret: secret).utf8)
        manager = webkit_user_content_manager_new()
        // The host owns one reference to the view (its widget starts floating), whatever container
        // the app puts it in, and one to the content manager; it drops both in `deinit`.
        view = OpaquePointer(g_object_ref_sink(UnsafeMutableRawPointer(webkit_web_view_new_with_user_content_manager(manager))))
        let source = try HostScripts.pageWorld(
            relay: try Self.relayScript(messagesPerPost: hub.limits.messagesPerPost, relaysConsole: options.relaysConsole),
            injectsPageRuntime: options.injectsPageRuntime
        )
        let isolated = try Self.isolatedScript(secret: secret, signalPattern: session.signalPattern, limits: hub.limits)
        addScripts(pageWorld: session.core.scriptsOnlyForAllowedOrigins(source), isolatedWorld: session.core.scriptsOnlyForAllowedOrigins(isolated))
        engine = GTKEngine(host: self)
        session.engine = engine
        connectSignals()
        MainQueueSource.install()
        hub.attach(to: self)
        if options.injectsPageRuntime, options.servesBytes { serveBytes() }
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
                // The relay posts only strings: anything else is refused unread, never converted.
                let text: String? =
                    jsc_value_is_string(value) != 0 ? WebKitGTKHost.withText(of: value) { host.answerMessage($0) } : WebKitGTKHost.notText
                let answer = text.map { jsc_value_new_string(jsc_value_get_context(value), $0) } ?? jsc_value_new_null(jsc_value_get_context(value))
                // The reply takes its own reference; the new value's is ours to drop.
                webkit_script_message_reply_return_value(reply, answer)
                g_object_unref(UnsafeMutableRawPointer(answer))
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
        capabilities.removeAll()
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

    /// Who sent a prompt or a message, as far as the engine lets the host tell.
    private enum Sender {
        /// The host's isolated world, with the frame and origin it read itself.
        case isolatedWorld(CallerFrame)
        /// A document's relay, with the frame and origin its capability stands for.
        case relay(CallerFrame)
        /// A relay whose capability the host no longer remembers (or never issued).
        case forgotten
        /// A page script that went around the relay, from any frame.
        case unattested

        /// The frame a call from this sender is made for; `nil` for a forgotten capability, whose
        /// call is not made.
        var frame: CallerFrame? {
            switch self {
            case .isolatedWorld(let frame), .relay(let frame): frame
            case .forgotten: nil
            case .unattested: .unattested
            }
        }
    }

    private static let capabilityPrefixBytes = Array(capabilityPrefix.utf8)

    /// Splits a text into who sent it and the page's own text: the isolated world's tag or a
    /// relay's capability first, when the text has either. Text with neither came from a page
    /// script that called `prompt` or posted itself, from any frame. Read in place, as bytes: a
    /// call's text is copied once, into the strings the hub is given.
    private func identify(_ bytes: Bytes) -> (Sender, Bytes) {
        if bytes.starts(with: Self.capabilityPrefixBytes) {
            let start = Self.capabilityPrefixBytes.count
            let end = start + FrameCapabilities.length
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\n") else { return (.unattested, bytes) }
            let frame = capabilities.frame(for: Bytes(rebasing: bytes[start..<end]))
            return (frame.map(Sender.relay) ?? .forgotten, Bytes(rebasing: bytes[(end + 1)...]))
        }
        guard bytes.starts(with: tagPrefix), let (header, rest) = Self.splitLine(Bytes(rebasing: bytes[tagPrefix.count...])) else {
            return (.unattested, bytes)
        }
        let isMainFrame = header.starts(with: "top:".utf8)
        // The document's own security origin; an opaque one reads "null" and is no origin.
        let origin = SecurityOrigin(String(decoding: header.dropFirst(4), as: UTF8.self))
        return (.isolatedWorld(CallerFrame(isMainFrame: isMainFrame, origin: origin?.description)), rest)
    }

    /// Bytes of a text the engine handed over, read in place.
    typealias Bytes = PostedText.Bytes

    /// The bytes before the first line feed and those after it; the page's text is split by bytes,
    /// never by characters, which a combining mark after the line feed would merge with it.
    static func splitLine(_ text: Bytes) -> (Bytes, Bytes)? {
        guard let newline = text.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return (Bytes(rebasing: text[..<newline]), Bytes(rebasing: text[(newline + 1)...]))
    }

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
            let defaultText = webkit_script_dialog_prompt_get_default_text(dialog)
            return Self.withBytes(of: message) { bytes in
                let (sender, bytes) = identify(bytes)
                switch sender {
                case .isolatedWorld(let frame):
                    guard bytes.elementsEqual(Self.capabilityRequest.utf8) else { return true }
                    webkit_script_dialog_prompt_set_text(dialog, capabilities.issue(for: frame))
                case .forgotten:
                    webkit_script_dialog_prompt_set_text(dialog, Self.forgottenCapability)
                case .relay(let frame):
                    webkit_script_dialog_prompt_set_text(dialog, answerRelayPrompt(bytes, defaultText: defaultText, frame: frame))
                case .unattested:
                    let text = String(decoding: bytes, as: UTF8.self)
                    if Keystone.isBridgePrompt(text) {
                        let answer = hub.refusal(of: .unattested) ?? hub.handlePrompt(text, defaultText: defaultText.map { String(cString: $0) }, frame: .unattested)
                        webkit_script_dialog_prompt_set_text(dialog, answer ?? "")
                        return true
                    }
                    guard let prompt = dialogHandler.prompt else { return false }
                    // Not setting the text answers `null`, as a cancelled prompt does.
                    if let answer = prompt(text, defaultText.map { String(cString: $0) }) { webkit_script_dialog_prompt_set_text(dialog, answer) }
                }
                return true
            }
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

    /// A relay's bridge prompt from `frame`: admitted first, then read by the lengths the relay
    /// framed it with (`<prompt length>,<default text length>`, a new line, the prompt) in UTF-16
    /// code units. The engine hands both texts over as C strings, so a NUL in either shows as a
    /// shorter text, and the call is refused rather than made with a name or arguments cut short.
    private func answerRelayPrompt(_ bytes: Bytes, defaultText: UnsafePointer<CChar>?, frame: CallerFrame) -> String {
        if let refusal = hub.refusal(of: frame) { return refusal }
        let answer = { (defaultBytes: Bytes) -> String in
            guard let (lengths, text) = Self.splitLine(bytes), let comma = lengths.firstIndex(of: UInt8(ascii: ",")),
                Int(String(decoding: Bytes(rebasing: lengths[..<comma]), as: UTF8.self)) == PostedText.utf16Count(text),
                Int(String(decoding: Bytes(rebasing: lengths[(comma + 1)...]), as: UTF8.self)) == PostedText.utf16Count(defaultBytes)
            else { return PostedText.Refusal.lengthMismatch }
            let prompt = String(decoding: text, as: UTF8.self)
            return self.hub.handlePrompt(prompt, defaultText: String(decoding: defaultBytes, as: UTF8.self), frame: frame) ?? ""
        }
        guard let defaultText else { return answer(Bytes(start: nil, count: 0)) }
        return Self.withBytes(of: defaultText, answer)
    }

    /// A relay's script message, posted by the isolated world: its capability, then `method`, a new
    /// line, and the arguments; or a batch of such messages (`PostedText/batchMethod`), answered
    /// together; or a console line. A sender the hub does not admit is refused whole, before anything else is
    /// read; `nil` answers a console line.
    private func answerMessage(_ message: Bytes) -> String? {
        let (sender, text) = identify(message)
        guard let frame = sender.frame else { return Self.forgottenCapability }
        let isBatch = text.starts(with: Self.batchHeader)
        if let refusal = hub.refusal(of: frame) {
            guard isBatch else { return refusal }
            var answers = ""
            PostedText.appendFramed(refusal, to: &answers)
            return answers
        }
        if isBatch {
            guard text.count <= Self.batchBytes else { return Self.batchTooLarge }
            return PostedText.answerBatch(Bytes(rebasing: text[Self.batchHeader.count...]), limit: hub.limits.messagesPerPost) { method, arguments in
                hub.handleMessage(String(decoding: method, as: UTF8.self), arguments: String(decoding: arguments, as: UTF8.self), frame: frame)
            }
        }
        guard let (method, arguments) = Self.splitLine(text) else { return PostedText.Refusal.namesNoMethod }
        if method.elementsEqual(Self.consoleMethod.utf8) {
            relayConsoleLine(arguments, from: frame)
            return nil
        }
        return hub.handleMessage(String(decoding: method, as: UTF8.self), arguments: String(decoding: arguments, as: UTF8.self), frame: frame)
    }

    /// Hands an admitted document's console line (`level`, a new line, the text) to
    /// ``consoleHandler``, cut to the hub's `BridgeLimits/consoleLineBytes`.
    private func relayConsoleLine(_ line: Bytes, from frame: CallerFrame) {
        guard options.relaysConsole, let consoleHandler, let (level, text) = Self.splitLine(line) else { return }
        consoleHandler(ConsoleLine(level: String(decoding: level.prefix(16), as: UTF8.self), text: text, limit: hub.limits.consoleLineBytes, frame: frame))
    }

    /// The isolated world reports the top document's token when the document starts (after its
    /// commit made it the hub's current page load) and when the engine restores it from its
    /// back/forward cache, and each signal of the page's dialect the top document makes. Only the
    /// isolated world can post here; its tag still says which frame posted.
    private func documentReported(_ message: Bytes) {
        guard case (.isolatedWorld(let frame), let bytes) = identify(message), frame.isAttestedMainFrame else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix(Self.signalPrefix) {
            session.signalled(String(text.dropFirst(Self.signalPrefix.count)), from: session.mainDocument)
        } else {
            session.documentReported(text, from: frame)
        }
    }

    private static let batchHeader = Array((PostedText.batchMethod + "\n").utf8)

    /// The method a console line is posted as; no method a page calls can have this name.
    static let consoleMethod = "\u{1}console"

    /// The most UTF-8 bytes of messages and framing one batch may carry: more than any batch the
    /// relay makes (at most ``batchLength`` code units of messages, each framed by a few digits and
    /// a colon), so only a page script that posts its own batch meets it.
    static let batchBytes = 16 << 20
    /// The answer to a batch over ``batchBytes``: one refusal, framed as a batch's answers are.
    private static let batchTooLarge: String = {
        var answers = ""
        let message = "a batch of messages is larger than the host's limit of \(batchBytes) bytes (Keystone's runtime never sends one)"
        PostedText.appendFramed(BridgeError(code: .limitExceeded, message: message).promptAnswer, to: &answers)
        return answers
    }()
}

#endif
