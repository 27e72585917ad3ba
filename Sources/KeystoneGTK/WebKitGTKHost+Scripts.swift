// WebKitGTKHost+Scripts.swift — the host's document-start scripts: one in the page's world, one in
// an isolated world that page scripts cannot reach.
#if canImport(CWebKitGTK)
import Keystone

extension WebKitGTKHost {
    /// The isolated script world the host's own script and message handler live in. Page scripts
    /// can neither read its variables nor post to its handler, and its `window`, `prompt` and
    /// built-ins are its own, untouched by whatever the page replaces.
    static let worldName = "keystone-host"

    /// The page-world relay: `_dsbridge=` prompts and `window._keystoneHost.send` go to the
    /// isolated world as DOM events in this frame, and its answers come back the same way. It holds
    /// nothing secret; a page script that goes around it reaches the host unattested.
    static let relayScript = """
        (function () {
          var answer = null, acked = false, pending = {}, next = 0;
          var unavailable = '{"code":-1,"data":"","error":{"code":11,"message":"this frame has no channel to the host"}}';
          addEventListener('keystone:promptAnswer', function (e) { if (typeof e.detail === 'string') answer = e.detail; });
          addEventListener('keystone:ack', function () { acked = true; });
          addEventListener('keystone:answer', function (e) {
            var m;
            try { m = JSON.parse(e.detail); } catch (x) { return; }
            var resolve = Array.isArray(m) && pending[m[0]];
            if (!resolve) return;
            delete pending[m[0]];
            resolve(m[1]);
          });
          var prompt = window.prompt;
          window.prompt = function (message, defaultText) {
            if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
              answer = null;
              dispatchEvent(new CustomEvent('keystone:prompt', { detail: JSON.stringify([message, defaultText == null ? null : String(defaultText)]) }));
              if (answer !== null) return answer;
            }
            return prompt.apply(window, arguments);
          };
          function send(method, text) {
            return new Promise(function (resolve) {
              var id = ++next;
              pending[id] = resolve;
              acked = false;
              dispatchEvent(new CustomEvent('keystone:send', { detail: JSON.stringify([id, String(method), String(text)]) }));
              if (!acked) { delete pending[id]; resolve(unavailable); }
            });
          }
          Object.defineProperty(window, '_keystoneHost', { value: Object.freeze({ send: send }) });
        })();
        """

    /// The isolated world's script: answers the relay's events with what the engine shows this
    /// world — whether this is the top frame, and its origin — tagged with a secret page scripts
    /// never see, so the host can tell its prompts from a page's own.
    static func isolatedScript(secret: String) -> String {
        let prefix = JSONText(quoting: "\u{1}keystone:\(secret):").string
        return """
            (function () {
              var prefix = \(prefix);
              var prompt = window.prompt;
              var handlers = window.webkit && window.webkit.messageHandlers;
              var handler = handlers && handlers.keystone;
              function tag() { return prefix + (window === window.top ? 'top:' : 'sub:') + location.origin + '\\n'; }
              function reply(type, detail) { window.dispatchEvent(new CustomEvent(type, { detail: detail })); }
              function read(event) {
                try {
                  var m = JSON.parse(event.detail);
                  return Array.isArray(m) ? m : null;
                } catch (x) { return null; }
              }
              window.addEventListener('keystone:prompt', function (event) {
                var m = read(event);
                if (!m || typeof m[0] !== 'string') return;
                var answer = prompt.call(window, tag() + m[0], m[1] == null ? undefined : String(m[1]));
                reply('keystone:promptAnswer', answer == null ? '' : String(answer));
              });
              if (!handler) return;
              \(HostScripts.documentReporting(post: "handler.postMessage(tag() + '\\u0001document\\n' + token)"))
              window.addEventListener('keystone:send', function (event) {
                var m = read(event);
                if (!m) return;
                reply('keystone:ack', '');
                handler.postMessage(tag() + String(m[1]) + '\\n' + String(m[2])).then(function (answer) {
                  reply('keystone:answer', JSON.stringify([m[0], answer]));
                });
              });
            })();
            """
    }

    /// Relays the page's `console` lines on their own channel, when asked to.
    static let consoleScript = """
        (function () {
          var handlers = window.webkit && window.webkit.messageHandlers;
          var consoleHandler = handlers && handlers[\(JSONText(quoting: WebKitGTKHost.consoleChannel).string)];
          if (!consoleHandler) return;
          ['log', 'info', 'warn', 'error'].forEach(function (level) {
            var original = console[level];
            console[level] = function () {
              var text = Array.prototype.map.call(arguments, function (a) {
                if (typeof a === 'string') return a;
                try { return JSON.stringify(a); } catch (e) { return String(a); }
              }).join(' ');
              consoleHandler.postMessage(level + '\\n' + text);
              return original.apply(console, arguments);
            };
          });
        })();
        """
}
#endif
