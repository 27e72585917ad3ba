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
    ///
    /// The events carry plain strings, never JSON to re-parse: a prompt is `+` (or `-` without a
    /// default text), the message's length, `:`, the message, then the default text; a message is
    /// its id, a new line, the method, a new line and the arguments. An answer is the id, a new
    /// line and the answer; answers to a batch are the ids joined by commas, a new line, then each
    /// answer as its length, `:` and the answer, in order. The isolated world takes a message by
    /// cancelling its event, so the relay knows at once whether this frame has a channel to the
    /// host.
    static let relayScript = """
        (function () {
          var answer = null, pending = {}, next = 0;
          var unavailable = '{"code":-1,"data":"","error":{"code":11,"message":"this frame has no channel to the host"}}';
          addEventListener('keystone:promptAnswer', function (e) { if (typeof e.detail === 'string') answer = e.detail; });
          function settle(id, text) {
            var resolve = pending[id];
            if (!resolve) return;
            delete pending[id];
            resolve(text);
          }
          addEventListener('keystone:answer', function (e) {
            var d = e.detail, cut = typeof d === 'string' ? d.indexOf('\\n') : -1;
            if (cut < 1) return;
            var ids = d.slice(0, cut).split(','), at = cut + 1;
            if (ids.length === 1) return settle(ids[0], d.slice(at));
            for (var k = 0; k < ids.length; k++) {
              var colon = d.indexOf(':', at), length = colon > at ? Number(d.slice(at, colon)) : NaN;
              if (!(length >= 0) || colon + 1 + length > d.length) return;
              settle(ids[k], d.substr(colon + 1, length));
              at = colon + 1 + length;
            }
          });
          var prompt = window.prompt;
          window.prompt = function (message, defaultText) {
            if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
              answer = null;
              var rest = defaultText == null ? '-' : '+';
              dispatchEvent(new CustomEvent('keystone:prompt', { detail: rest + message.length + ':' + message + (defaultText == null ? '' : String(defaultText)) }));
              if (answer !== null) return answer;
            }
            return prompt.apply(window, arguments);
          };
          function send(method, text) {
            return new Promise(function (resolve) {
              var id = String(++next);
              pending[id] = resolve;
              var event = new CustomEvent('keystone:send', { detail: id + '\\n' + String(method) + '\\n' + String(text), cancelable: true });
              if (dispatchEvent(event)) { delete pending[id]; resolve(unavailable); }
            });
          }
          Object.defineProperty(window, '_keystoneHost', { value: Object.freeze({ send: send }) });
        })();
        """

    /// The isolated world's script: answers the relay's events with what the engine shows this
    /// world — whether this is the top frame, and its origin — tagged with a secret page scripts
    /// never see, so the host can tell its prompts from a page's own.
    ///
    /// Messages sent in one turn of the page's event loop go to the host together, as one batch
    /// (``batchMethod``, then each message as its length, `:` and the message), posted when the
    /// turn's script ends, or sooner when it reaches ``batchLength`` UTF-16 code units: one trip
    /// between the processes instead of one each. A prompt first posts what is waiting, so a
    /// synchronous call never overtakes an asynchronous one made before it.
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
              var queue = [], ids = [], queuedLength = 0;
              function post() {
                if (!queue.length) return;
                var answerIds = ids.join(','), body = queue.length === 1 ? queue[0]
                  : \(JSONText(quoting: batchMethod + "\n").string) + queue.map(function (m) { return m.length + ':' + m; }).join('');
                queue = []; ids = []; queuedLength = 0;
                handler.postMessage(tag() + body).then(function (answer) {
                  reply('keystone:answer', answerIds + '\\n' + answer);
                });
              }
              window.addEventListener('keystone:prompt', function (event) {
                post();
                var d = event.detail, colon = typeof d === 'string' ? d.indexOf(':') : -1;
                var length = colon > 1 ? Number(d.slice(1, colon)) : NaN;
                if (!(length >= 0) || colon + 1 + length > d.length) return;
                var message = d.substr(colon + 1, length);
                var answer = prompt.call(window, tag() + message, d[0] === '+' ? d.slice(colon + 1 + length) : undefined);
                reply('keystone:promptAnswer', answer == null ? '' : String(answer));
              });
              if (!handler) return;
              \(HostScripts.documentReporting(post: "handler.postMessage(tag() + '\\u0001document\\n' + token)"))
              window.addEventListener('keystone:send', function (event) {
                var d = event.detail, cut = typeof d === 'string' ? d.indexOf('\\n') : -1;
                if (cut < 1) return;
                event.preventDefault();
                var message = d.slice(cut + 1);
                if (queuedLength + message.length > \(batchLength)) post();
                if (!queue.length) queueMicrotask(post);
                queue.push(message);
                ids.push(d.slice(0, cut));
                queuedLength += message.length;
              });
            })();
            """
    }

    /// The method a batch of messages is sent as; no method a page calls can have this name.
    static let batchMethod = "\u{1}batch"
    /// The most UTF-16 code units of messages the isolated world puts in one batch; a longer
    /// message goes alone.
    static let batchLength = 1 << 20

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
