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
    /// isolated world, and its answers come back, through a channel: a detached comment node that
    /// only the relay and the isolated world hold. Each side writes the node's text, then signals
    /// the other with an event dispatched on the node, which runs the other side's listener at once
    /// and reaches nothing else in the document. The relay holds nothing secret; a page script that
    /// goes around it reaches the host unattested.
    ///
    /// The relay introduces the node once, on `window`, as the `relatedTarget` of a cancellable
    /// `keystone:channel` event, at document start and when the isolated world says hello,
    /// whichever comes last; the isolated world cancels the event to take the node. Both run before
    /// any page script.
    ///
    /// The node's text carries plain strings, never JSON to re-parse: a prompt is `+` (or `-`
    /// without a default text), the message's length, `:`, the message, then the default text; a
    /// message is its id, a new line, the method, a new line and the arguments. The isolated world
    /// takes either by replacing the text with `=` (then the prompt's answer), so the relay knows
    /// at once whether this frame has a channel to the host. An answer is the id, a new line and
    /// the answer; answers to a batch are the ids joined by commas, a new line, then each answer as
    /// its length, `:` and the answer, in order.
    ///
    /// The relay calls only built-ins it took at document start, so a page script that replaces
    /// `Function.prototype.call`, `dispatchEvent` or the node's accessors sees none of its traffic.
    static let relayScript = """
        (function () {
          var apply = Reflect.apply, NewEvent = Event, NewFocusEvent = FocusEvent, toText = String;
          var dispatch = EventTarget.prototype.dispatchEvent, listen = EventTarget.prototype.addEventListener;
          var text = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data');
          var channel = document.createComment('');
          function write(value) { apply(text.set, channel, [value]); }
          function read() { return apply(text.get, channel, []); }
          function signal(type) { apply(dispatch, channel, [new NewEvent(type)]); }
          var introduced = false;
          function introduce() {
            if (introduced) return;
            introduced = !apply(dispatch, window, [new NewFocusEvent('keystone:channel', { relatedTarget: channel, cancelable: true })]);
          }
          apply(listen, window, ['keystone:hello', introduce]);
          introduce();
          var pending = {}, next = 0;
          var unavailable = '{"code":-1,"data":"","error":{"code":11,"message":"this frame has no channel to the host"}}';
          function settle(id, answer) {
            var resolve = pending[id];
            if (!resolve) return;
            delete pending[id];
            resolve(answer);
          }
          apply(listen, channel, ['keystone:answer', function () {
            var d = read(), cut = d.indexOf('\\n');
            if (cut < 1) return;
            var ids = d.slice(0, cut).split(','), at = cut + 1;
            if (ids.length === 1) return settle(ids[0], d.slice(at));
            for (var k = 0; k < ids.length; k++) {
              var colon = d.indexOf(':', at), length = colon > at ? Number(d.slice(at, colon)) : NaN;
              if (!(length >= 0) || colon + 1 + length > d.length) return;
              settle(ids[k], d.substr(colon + 1, length));
              at = colon + 1 + length;
            }
          }]);
          var prompt = window.prompt;
          window.prompt = function (message, defaultText) {
            if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
              write((defaultText == null ? '-' : '+') + message.length + ':' + message + (defaultText == null ? '' : toText(defaultText)));
              signal('keystone:prompt');
              var answer = read();
              if (answer[0] === '=') return answer.slice(1);
            }
            return apply(prompt, window, arguments);
          };
          function send(method, argumentText) {
            return new Promise(function (resolve) {
              var id = toText(++next);
              pending[id] = resolve;
              write(id + '\\n' + toText(method) + '\\n' + toText(argumentText));
              signal('keystone:send');
              if (read() !== '=') { delete pending[id]; resolve(unavailable); }
            });
          }
          Object.defineProperty(window, '_keystoneHost', { value: Object.freeze({ send: send }) });
        })();
        """

    /// The isolated world's script: answers the relay through the channel it is introduced to,
    /// with what the engine shows this world — whether this is the top frame, and its origin —
    /// tagged with a secret page scripts never see, so the host can tell its prompts from a
    /// page's own.
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
              var channel = null;
              function tag() { return prefix + (window === window.top ? 'top:' : 'sub:') + location.origin + '\\n'; }
              var queue = [], ids = [], queuedLength = 0;
              function post() {
                if (!queue.length) return;
                var answerIds = ids.join(','), body = queue.length === 1 ? queue[0]
                  : \(JSONText(quoting: batchMethod + "\n").string) + queue.map(function (m) { return m.length + ':' + m; }).join('');
                queue = []; ids = []; queuedLength = 0;
                handler.postMessage(tag() + body).then(function (answer) {
                  channel.data = answerIds + '\\n' + answer;
                  channel.dispatchEvent(new Event('keystone:answer'));
                });
              }
              function onPrompt() {
                post();
                var d = channel.data, colon = d.indexOf(':');
                var length = colon > 1 ? Number(d.slice(1, colon)) : NaN;
                if (!(length >= 0) || colon + 1 + length > d.length) return;
                var message = d.substr(colon + 1, length);
                var answer = prompt.call(window, tag() + message, d[0] === '+' ? d.slice(colon + 1 + length) : undefined);
                channel.data = '=' + (answer == null ? '' : String(answer));
              }
              function onSend() {
                var d = channel.data, cut = d.indexOf('\\n');
                if (cut < 1) return;
                channel.data = '=';
                var message = d.slice(cut + 1);
                if (queuedLength + message.length > \(batchLength)) post();
                if (!queue.length) queueMicrotask(post);
                queue.push(message);
                ids.push(d.slice(0, cut));
                queuedLength += message.length;
              }
              window.addEventListener('keystone:channel', function (event) {
                var node = event.relatedTarget;
                if (channel || !(node instanceof Comment)) return;
                channel = node;
                event.preventDefault();
                channel.addEventListener('keystone:prompt', onPrompt);
                if (handler) channel.addEventListener('keystone:send', onSend);
              });
              if (!handler) return window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
              \(HostScripts.documentReporting(post: "handler.postMessage(tag() + '\\u0001document\\n' + token)"))
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
