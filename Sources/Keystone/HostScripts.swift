// HostScripts.swift — the document-start scripts every host shares: naming each document, and
// keeping the bridge out of documents of origins the policy does not allow.
/// Scripts a host injects at document start, shared by every host.
public enum HostScripts {
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
        })();
        """

    /// Isolated world: reports the top document's token once, through `post(token)` (a JavaScript
    /// expression using `token`), then says hello to the page world.
    public static func documentReporting(post: String) -> String {
        """
        (function () {
          var sent = false;
          window.addEventListener('keystone:document', function (event) {
            if (sent || window !== window.top || typeof event.detail !== 'string') return;
            sent = true;
            var token = event.detail;
            \(post);
          });
          window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
        })();
        """
    }

    /// `script`, run only in documents of `origins` (every document when `nil`): for engines
    /// whose user scripts cannot be limited to origins themselves.
    public static func onlyIn(_ origins: Set<String>?, _ script: String) -> String {
        guard let origins else { return script }
        let list = "[" + origins.sorted().map { JSONText(quoting: $0).string }.joined(separator: ",") + "]"
        return "if (\(list).indexOf(location.origin) !== -1) {\n\(script)\n}"
    }

    /// `script`, made for a document named `token`, run only there: a batch the engine runs after
    /// a navigation the host has not yet heard of reaches no later document.
    public static func guarded(_ script: String, forDocument token: String?) -> String {
        guard let token else { return script }
        return "if(window.__keystoneDocument===\(JSONText(quoting: token).string)){\(script)}"
    }
}
