// HostScripts.swift — the document-start scripts every host shares: naming each document, and
// keeping the bridge out of documents of origins the policy does not allow.
import Foundation
import Keystone

/// The scripts a host injects at document start, shared by every host: the page world's (with the
/// page runtime) and the isolated world's document reporter, whose reports a host hands to its
/// ``HostSession`` (``HostSession/documentReported(_:from:)``).
public enum HostScripts {
    /// A JavaScript expression for the document's security origin, as this world's bindings read
    /// it at document start, before any page script runs: `self.origin`, which is `"null"` for an
    /// opaque origin (a sandboxed frame, `data:`). WebKit also reads a local file's origin as
    /// `"null"` (it keeps files apart from one another); a top document at a `file:` address cannot
    /// be sandboxed, so it reads `"file://"`, as `WKSecurityOrigin` reports it. A `file:` subframe
    /// stays opaque: it could be a sandboxed one.
    public static let documentOrigin =
        "(self.origin === 'null' && window === window.top && location.protocol === 'file:' ? 'file://' : self.origin)"

    /// Everything a host injects into the page world at document start, in order: `window._dswk =
    /// true` (so dsbridge.js takes the prompt route), ``documentNaming``, the host's own `relay`
    /// (if its engine needs one), and Keystone's page runtime unless the host serves pages bare.
    /// - Throws: `BridgeError` (`notFound`) if the runtime is missing from the package's resources.
    public static func pageWorld(relay: String = "", injectsPageRuntime: Bool) throws(BridgeError) -> String {
        var source = "window._dswk = true;\n" + documentNaming
        if !relay.isEmpty { source += "\n" + relay }
        if injectsPageRuntime {
            do {
                source += "\n" + (try Keystone.pageRuntimeScript())
            } catch {
                throw BridgeError(error)
            }
        }
        return source
    }

    /// Page world: names this document with a random token fixed on `window.__keystoneDocument`
    /// before any page script runs, and announces it (`keystone:document`) to the host's isolated
    /// world, again whenever that world says hello (whichever of the two runs first).
    public static let documentNaming = """
        (function () {
          var words = new Uint32Array(4);
          crypto.getRandomValues(words);
          var documentToken = Array.prototype.map.call(words, function (n) { return n.toString(36); }).join('');
          Object.defineProperty(window, '__keystoneDocument', { value: documentToken });
          function announce() { dispatchEvent(new CustomEvent('keystone:document', { detail: documentToken })); }
          addEventListener('keystone:hello', announce);
          announce();
          // A document the engine restores from its back/forward cache runs no user script again: it
          // is a new page load for the host, and a dsbridge.js page announces itself again (Keystone's
          // runtime does so itself).
          addEventListener('pageshow', function (event) {
            if (!event.persisted || window._keystone || !window._dsf) return;
            setTimeout(function () { window.prompt('_dsbridge=_dsb.dsinit', '{"data":null}'); }, 0);
          });
        })();
        """

    /// Isolated world: reports the top document's token once, as `report` (`start ` and the
    /// token), through `post(report)` (a JavaScript expression using `report`), and again
    /// (`restore ` and the token) each time the engine restores the document from its back/forward
    /// cache; then says hello to the page world. A host hands each report to its session
    /// (``HostSession/documentReported(_:from:)``).
    ///
    /// With `subframes`, for a host whose engine names the frame of each report but has no way of
    /// its own to tell a subframe's documents apart (WKWebView's), a subframe's document reports
    /// itself too: `frame ` and its token at its start and on its restore (`nested `, the token, a
    /// space and its parent's origin for a frame inside a frame), `frame-end ` and its token when
    /// it is hidden for good
    /// (``HostSession/subframeReported(_:from:)``).
    public static func documentReporting(post: String, subframes: Bool = false) -> String {
        """
        (function () {
          var token = null, top = window === window.top, reports = top || \(subframes);
          var nested = !top && window.parent !== window.top;
          var ancestors = nested && window.location && window.location.ancestorOrigins;
          var parent = ancestors && ancestors.length ? ' ' + ancestors[0] : '';
          function send(report) { \(post); }
          window.addEventListener('keystone:document', function (event) {
            if (token !== null || !reports || typeof event.detail !== 'string') return;
            token = event.detail;
            send((top ? 'start ' : nested ? 'nested ' : 'frame ') + token + parent);
          });
          window.addEventListener('pageshow', function (event) {
            if (event.persisted && token !== null) send((top ? 'restore ' : nested ? 'nested ' : 'frame ') + token + parent);
          });
          window.addEventListener('pagehide', function (event) {
            if (!top && !event.persisted && token !== null) send('frame-end ' + token);
          });
          window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
        })();
        """
    }

    /// Page world, in subframes, for a host whose engine names the frame of each prompt but not
    /// its document (WKWebView's): a bridge prompt's default text starts with ``documentMark``,
    /// the document's token and a new line, so that its answers and Swift's calls reach the
    /// document that made it (``HostSession/caller(ofPromptWith:frame:)``). A page script that
    /// writes another document's token gains nothing: the host takes it only from a frame of the
    /// origin that document reported from.
    public static let subframePrompts = """
        (function () {
          if (window === window.top) return;
          var prompt = window.prompt, apply = Reflect.apply, toText = String;
          var mark = \(JSONText(quoting: documentMark).string) + window.__keystoneDocument + '\\n';
          window.prompt = function (message, defaultText) {
            if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
              return apply(prompt, window, [message, mark + (defaultText === undefined ? '' : toText(defaultText))]);
            }
            return apply(prompt, window, arguments);
          };
        })();
        """

    /// What starts a subframe's bridge prompt's default text, before its document's token
    /// (``subframePrompts``): no JSON text starts with it.
    public static let documentMark = "\u{1}keystone-document "

    /// Whether `text` could be a document's token as ``documentNaming`` makes them: 1 to 64 letters
    /// and digits.
    package static func isDocumentToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// A subframe's report of its document (``documentReporting(post:subframes:)``): its token,
    /// whether the document has ended, and, for a frame inside another subframe, its parent's
    /// origin (`""` when it could not be read; `nil` for a frame of the top document); `nil` for
    /// anything else.
    package static func subframeReport(_ text: some StringProtocol) -> (token: String, ended: Bool, nestedIn: String?)? {
        for (prefix, ended, nested) in [("frame ", false, false), ("nested ", false, true), ("frame-end ", true, false)] where text.hasPrefix(prefix) {
            var token = text.dropFirst(prefix.count)
            var parent: String?
            if nested {
                let space = token.firstIndex(of: " ")
                parent = space.flatMap { SecurityOrigin(String(token[token.index(after: $0)...]))?.description } ?? ""
                token = token[..<(space ?? token.endIndex)]
            }
            guard isDocumentToken(token) else { return nil }
            return (String(token), ended, parent)
        }
        return nil
    }

    /// The token and whether the document was restored, from an isolated world's report; `nil` for
    /// anything else.
    package static func documentReport(_ text: some StringProtocol) -> (token: String, restored: Bool)? {
        for (prefix, restored) in [("start ", false), ("restore ", true)] where text.hasPrefix(prefix) {
            let token = text.dropFirst(prefix.count)
            guard !token.isEmpty, token.utf8.count <= 64 else { return nil }
            return (String(token), restored)
        }
        return nil
    }
}
