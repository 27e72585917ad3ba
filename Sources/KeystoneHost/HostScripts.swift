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
    public static func documentReporting(post: String) -> String {
        """
        (function () {
          var token = null;
          function send(report) { \(post); }
          window.addEventListener('keystone:document', function (event) {
            if (token !== null || window !== window.top || typeof event.detail !== 'string') return;
            token = event.detail;
            send('start ' + token);
          });
          window.addEventListener('pageshow', function (event) {
            if (event.persisted && token !== null) send('restore ' + token);
          });
          window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
        })();
        """
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
