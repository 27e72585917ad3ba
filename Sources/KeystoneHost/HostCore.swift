// HostCore.swift — what every host decides the same way: which documents get scripts, when the page
// changes, how a batch is kept to its document, and when a crashing page stops being reloaded.
import Foundation
import Keystone

/// The part of a host that does not depend on its engine, as a pure value: a host turns engine
/// events into calls of this value and carries out the ``Action``s it returns, and nothing else
/// of what follows is decided in a host.
///
/// - **Documents.** A committed main-frame navigation ends the page load (the first one ends
///   nothing). The host's isolated world then reports the new document's token, or the token of a
///   document the engine restored from its back/forward cache; a report of a token other than the
///   current one also ends the page load, so a host that learns of documents only from those
///   reports (WKWebView's) keeps the same rule. Batches run only in the document whose token was
///   reported for the current page load (``guarded(_:)``).
/// - **Origins.** Exactly the allowed origins, port included, get the host's scripts: the engine's
///   URL patterns only narrow injection to the host, and the scripts check the document's own
///   security origin before anything is installed (``scriptsOnlyForAllowedOrigins(_:)``). An
///   allowed origin is written the one way the engine writes it, or the host is not created.
/// - **Terminations.** Each end of the web process ends the page load and is reported. The page is
///   reloaded after a delay that doubles with each termination in ``TerminationLimit/window``, and
///   not at all past ``TerminationLimit/reloads`` in that window.
public struct HostCore: Sendable {
    /// What the host must do, in order.
    public enum Action: Sendable, Hashable {
        /// The page load has ended: tell the hub (`BridgeHub/pageDidUnload()`) and forget whatever
        /// the host keeps per page load.
        case unloadPage
        /// Tell the app the web process ended.
        case reportTermination(WebProcessTermination)
        /// Reload the web view after `delay`.
        case reload(after: Duration)
    }

    /// How often a page whose web process keeps ending is reloaded.
    public struct TerminationLimit: Sendable, Hashable {
        /// The most reloads in ``window``; a termination past them is reported and not reloaded.
        public var reloads: Int
        /// The span over which terminations are counted.
        public var window: Duration
        /// The delay before the second reload in ``window``; each later one waits twice as long.
        /// The first reload is at once.
        public var backoff: Duration

        /// Creates a limit; by default 5 reloads a minute, the second after 0.5 s.
        public init(reloads: Int = 5, window: Duration = .seconds(60), backoff: Duration = .milliseconds(500)) {
            self.reloads = reloads
            self.window = window
            self.backoff = backoff
        }
    }

    /// The origins whose documents get the host's scripts; `nil`: every document.
    public let allowedOrigins: Set<SecurityOrigin>?
    /// Whether the host reloads a page whose web process ended.
    public let reloadsAfterTermination: Bool
    /// How often it does.
    public let terminationLimit: TerminationLimit
    /// The token of the current page load's document, once its isolated world reported it.
    public private(set) var documentToken: String?
    /// That document's origin, as its isolated world read it (`nil` when opaque or not reported).
    public private(set) var documentOrigin: String?
    /// The current page load's main document as its isolated world reported it: the main frame, of
    /// ``documentOrigin``; the caller of what the document does without a frame of its own (a
    /// WebViewJavascriptBridge signal).
    public var mainDocument: CallerFrame { CallerFrame(isMainFrame: true, origin: documentOrigin) }
    /// The subframe documents that reported themselves in the current page load, by token, for a
    /// host whose engine cannot tell documents apart itself (WKWebView's).
    private var subframes: [String: (document: FrameDocument, origin: String?, nestedIn: String?)] = [:]
    /// The tokens of ``subframes`` by document.
    private var subframeTokens: [FrameDocument: String] = [:]
    /// The last number given to a subframe document by this core.
    private var lastSubframe: UInt64 = 0
    /// The most subframe documents named at once in a page load: a document past them is a
    /// subframe that makes synchronous calls only.
    public static let subframeDocuments = 1024
    private var hasCommittedDocument = false
    /// When the web process ended, within the last ``TerminationLimit/window``.
    private var terminations: [Duration] = []

    /// Creates the core for a host whose hub gives every origin the host's scripts.
    public init(reloadsAfterTermination: Bool = true, terminationLimit: TerminationLimit = TerminationLimit()) {
        self.init(origins: nil, reloadsAfterTermination: reloadsAfterTermination, terminationLimit: terminationLimit)
    }

    /// Creates the core for a host whose hub admits `allowedOrigins` (`BridgeHub/runtimeOrigins`).
    /// - Throws: `BridgeError` `invalidRegistration` for an allowed origin not written as the engine
    ///   writes origins (`scheme://host[:port]`, lowercase, no default port, no path or wildcard),
    ///   naming how to write it.
    public init(
        allowedOrigins: Set<String>?,
        reloadsAfterTermination: Bool = true,
        terminationLimit: TerminationLimit = TerminationLimit()
    ) throws(BridgeError) {
        var origins: Set<SecurityOrigin>?
        for text in (allowedOrigins ?? []).sorted() {
            guard let origin = SecurityOrigin(text) else {
                throw BridgeError(code: .invalidRegistration, message: "an allowed origin must be scheme://host[:port] with no path or wildcard")
            }
            guard origin.description == text else {
                throw BridgeError(code: .invalidRegistration, message: "write the allowed origin as the engine does: \(origin)")
            }
            origins = (origins ?? []).union([origin])
        }
        if allowedOrigins != nil, origins == nil { origins = [] }
        self.init(origins: origins, reloadsAfterTermination: reloadsAfterTermination, terminationLimit: terminationLimit)
    }

    private init(origins: Set<SecurityOrigin>?, reloadsAfterTermination: Bool, terminationLimit: TerminationLimit) {
        allowedOrigins = origins
        self.reloadsAfterTermination = reloadsAfterTermination
        self.terminationLimit = terminationLimit
    }

    // MARK: Origins

    /// Whether a document of `origin` (a host's report; `nil` when opaque or unknown) gets the
    /// host's scripts and may be admitted at all.
    public func allowsDocument(of origin: String?) -> Bool {
        guard let allowedOrigins else { return true }
        guard let origin, let parsed = SecurityOrigin(origin) else { return false }
        return allowedOrigins.contains(parsed)
    }

    /// The hosts of the allowed origins, for an engine that narrows user scripts by URL pattern:
    /// `scheme://host/*` for each (the engine's patterns cannot say a port, so the scripts check the
    /// exact origin themselves); `nil` for every document.
    public var injectionPatterns: [String]? {
        allowedOrigins.map { origins in
            Set(origins.map { "\($0.scheme)://\($0.host.isEmpty ? "" : $0.host)/*" }).sorted()
        }
    }

    /// `script`, run only in documents whose own security origin (`HostScripts/documentOrigin`, read
    /// at document start, before any page script) is allowed: an opaque origin reads `"null"` and
    /// never is.
    public func scriptsOnlyForAllowedOrigins(_ script: String) -> String {
        guard let allowedOrigins else { return script }
        let list = "[" + allowedOrigins.map { JSONText(quoting: $0.description).string }.sorted().joined(separator: ",") + "]"
        return "if (\(list).indexOf(\(HostScripts.documentOrigin)) !== -1) {\n\(script)\n}"
    }

    // MARK: Documents

    /// Whether a document of `origin` can fetch the host's byte channel: an https document is a
    /// secure context, where WebKit blocks a `fetch` of a scheme that is not secure as mixed content
    /// (WebCore's MixedContentChecker; WebKit's Cocoa API registers no scheme with a handler as
    /// secure). Where it cannot, the host serves no channel for that document, and the page's bytes
    /// go as base64.
    public static func documentReachesByteChannel(origin: String?, channelIsSecure: Bool) -> Bool {
        channelIsSecure || origin?.hasPrefix("https://") != true
    }

    /// The engine committed a new main document: the page load ends, unless it is the first.
    public mutating func documentCommitted() -> [Action] {
        defer { hasCommittedDocument = true }
        forgetDocument()
        return hasCommittedDocument ? [.unloadPage] : []
    }

    /// The host's isolated world reported the main document's token and `origin`: at its start, or
    /// when the engine restored it from its back/forward cache (`restored`). A token other than the
    /// current page load's ends that page load: the restored (or new) document is a page load of
    /// its own.
    public mutating func documentReported(token: String, restored: Bool, origin: String? = nil) -> [Action] {
        documentOrigin = origin
        guard documentToken != token else { return [] }
        let changes = documentToken != nil
        if changes {
            subframes.removeAll()
            subframeTokens.removeAll()
        }
        documentToken = token
        hasCommittedDocument = true
        return changes ? [.unloadPage] : []
    }

    /// `script`, made for the current page load, wrapped to run only in its document: the engine
    /// may have committed the next document before the host heard of it.
    public func guarded(_ script: String) -> String {
        guard let documentToken else { return script }
        return "if(window.__keystoneDocument===\(JSONText(quoting: documentToken).string)){\(script)}"
    }

    /// The host is going away, or gives the web view back: the page load ends, and the next
    /// document the host might see is a first one.
    public mutating func closed() -> [Action] {
        hasCommittedDocument = false
        forgetDocument()
        return [.unloadPage]
    }

    /// The page load's document is gone: neither its token nor its origin stands any more, nor any
    /// of its subframes' documents.
    private mutating func forgetDocument() {
        documentToken = nil
        documentOrigin = nil
        subframes.removeAll()
        subframeTokens.removeAll()
    }

    // MARK: Subframe documents

    /// A subframe's isolated world reported its document's `token` from a frame of `origin`, as the
    /// engine says, and, for a frame inside another subframe, its parent's origin (`nestedIn`; `""`
    /// when unknown, as for a document named before its report): the document's number (the same
    /// again for a document restored from the back/forward cache), or `nil` for a document the
    /// host's scripts never run in (an origin not allowed) or past ``subframeDocuments``.
    public mutating func subframeStarted(token: String, origin: String?, nestedIn: String? = "") -> FrameDocument? {
        if let known = subframes[token] {
            guard known.origin == origin else { return nil }
            subframes[token]?.nestedIn = nestedIn
            return known.document
        }
        guard allowsDocument(of: origin), subframes.count < Self.subframeDocuments else { return nil }
        lastSubframe += 1
        let document = FrameDocument(rawValue: lastSubframe)
        subframes[token] = (document, origin, nestedIn)
        subframeTokens[document] = token
        return document
    }

    /// The subframe document of `token` has ended (or was found gone): its number, once.
    public mutating func subframeEnded(token: String) -> FrameDocument? {
        guard let ended = subframes.removeValue(forKey: token) else { return nil }
        subframeTokens.removeValue(forKey: ended.document)
        return ended.document
    }

    /// The subframe document `document` has gone: whether it was named.
    public mutating func subframeEnded(_ document: FrameDocument) -> Bool {
        guard let token = subframeTokens[document] else { return false }
        return subframeEnded(token: token) != nil
    }

    /// Whether the subframe document `document` is named in the current page load.
    public func namesSubframe(_ document: FrameDocument) -> Bool {
        subframeTokens[document] != nil
    }

    /// The caller of a subframe's prompt that names its document by `token`, when the engine says
    /// the prompt came from a subframe of the origin that document reported from: `frame` with the
    /// document; `nil` otherwise.
    public func subframeCaller(token: String, frame: CallerFrame) -> CallerFrame? {
        guard frame.isAttested, !frame.isMainFrame, let known = subframes[token], known.origin == frame.origin else { return nil }
        var caller = CallerFrame(isMainFrame: false, origin: frame.origin, document: known.document)
        caller.nestedIn = known.nestedIn
        return caller
    }

    /// `script`, for the subframe document `document`, wrapped to run only in that document (its
    /// frame may hold another by now), with the completion value ``subframeScriptRan`` where it
    /// ran and `""` where it did not; `nil` for a document not named.
    public func guarded(_ script: String, inSubframe document: FrameDocument) -> String? {
        guard let token = subframeTokens[document] else { return nil }
        return "if(window.__keystoneDocument===\(JSONText(quoting: token).string)){\(script)\n;\"\(Self.subframeScriptRan)\"}else{\"\"}"
    }

    /// The completion value of a script ``guarded(_:inSubframe:)`` that ran in its document.
    public static let subframeScriptRan = "ran"

    // MARK: The web process

    /// The web process ended at `now` (any clock's reading, the same clock every time) for
    /// `reason`.
    public mutating func webProcessTerminated(_ reason: WebProcessTermination.Reason, at now: Duration) -> [Action] {
        hasCommittedDocument = false
        forgetDocument()
        terminations.removeAll { now - $0 >= terminationLimit.window }
        terminations.append(now)
        let count = terminations.count
        let reloads = reloadsAfterTermination && count <= terminationLimit.reloads
        var actions: [Action] = [.unloadPage, .reportTermination(WebProcessTermination(reason: reason, reloads: reloads, recentCount: count))]
        if reloads {
            actions.append(.reload(after: count == 1 ? .zero : terminationLimit.backoff * (1 << min(count - 2, 20))))
        }
        return actions
    }
}
