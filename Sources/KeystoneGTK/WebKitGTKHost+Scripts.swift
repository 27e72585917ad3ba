// WebKitGTKHost+Scripts.swift — the host's document-start scripts: one in the page's world, one in
// an isolated world that page scripts cannot reach.
#if canImport(CWebKitGTK)
import Keystone

extension WebKitGTKHost {
    /// The isolated script world the host's own script and message handler live in. Page scripts
    /// can neither read its variables nor post to its handler, and its `window`, `prompt` and
    /// built-ins are its own, untouched by whatever the page replaces.
    static let worldName = "keystone-host"

    /// The page-world relay: `_dsbridge=` prompts and `window._keystoneHost.send` go to the host
    /// directly — prompts as prompts, messages through the page world's `keystone` script message
    /// handler — each prefixed with this document's capability (``capabilityPrefix``), which names
    /// the frame and origin the isolated world read for it. A page script that goes around the
    /// relay reaches the host without one, unattested.
    ///
    /// The relay asks for the capability on its first call, through a channel to the isolated
    /// world: a detached comment node that only the two hold. The relay writes the node's text and
    /// dispatches an event on the node, which runs the isolated world's listener at once and
    /// reaches nothing else in the document; the isolated world asks the host for a capability and
    /// writes `=` and the capability back. The relay introduces the node once, on `window`, as the
    /// `relatedTarget` of a cancellable `keystone:channel` event, at document start and when the
    /// isolated world says hello, whichever comes last; the isolated world cancels the event to take
    /// the node. Both run before any page script. When the host answers that it has forgotten the
    /// capability (``forgottenCapability``), the relay asks for a new one and sends again, once.
    ///
    /// Messages sent in one turn of the page's event loop go to the host together, as one batch
    /// (`PostedText/batchMethod`, then each message as its length in UTF-16 code units, `:` and the
    /// message), posted when the turn's script ends, or sooner when it reaches ``batchLength`` or
    /// `messagesPerPost` messages: one trip between the processes instead of one each. A prompt
    /// first posts what is waiting, so a synchronous call never overtakes an asynchronous one made
    /// before it. The answer to a batch is each answer framed the same way, in order; when it ends
    /// early (the host refused the rest), the rest get its last answer.
    ///
    /// Each message is made well-formed (`toWellFormed`, taken at document start) before it is
    /// framed: the engine converts a message to UTF-8 only up to a lone surrogate, which would cut
    /// the batch short; as U+FFFD the call keeps its length and fails on its own.
    ///
    /// A prompt is framed with the lengths of its text and default text, so that the host, which
    /// the engine hands both as C strings, can tell a text a NUL cut short. With `relaysConsole`,
    /// the relay also posts the document's `console` lines (``consoleMethod``), with the capability,
    /// so only admitted documents' lines reach the app, attributed to their frame.
    ///
    /// The relay holds the capability in its closure and hands it only to built-ins it took at
    /// document start (the handler's `postMessage` and `Promise.prototype.then` bound then, so a
    /// call makes no argument list), with no string method called on it, so a page script that replaces
    /// `Function.prototype.call`, `String.prototype.slice`, `dispatchEvent`, the node's accessors
    /// or the message handler's `postMessage` sees none of it.
    static func relayScript(messagesPerPost: Int, relaysConsole: Bool) -> String {
        """
        (function () {
          var apply = Reflect.apply, NewEvent = Event, NewFocusEvent = FocusEvent, NewPromise = Promise, toText = String;
          var bind = Function.prototype.bind, slice = String.prototype.slice, wellFormed = String.prototype.toWellFormed;
          var later = apply(bind, queueMicrotask, [window]), then = apply(bind, Function.prototype.call, [Promise.prototype.then]);
          var dispatch = EventTarget.prototype.dispatchEvent, listen = EventTarget.prototype.addEventListener;
          var text = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data');
          var handlers = window.webkit && window.webkit.messageHandlers;
          var handler = handlers && handlers.keystone, post = handler && typeof handler.postMessage === 'function' && apply(bind, handler.postMessage, [handler]);
          var prompt = window.prompt;
          var marker = \(JSONText(quoting: capabilityPrefix).string), forgotten = \(JSONText(quoting: forgottenCapability).string);
          var batchHeader = \(JSONText(quoting: PostedText.batchMethod + "\n").string);
          var consoleHeader = \(JSONText(quoting: consoleMethod + "\n").string);
          var unavailable = '{"code":-1,"data":"","error":{"code":11,"message":"this frame has no channel to the host"}}';
          var channel = document.createComment('');
          var introduced = false;
          function introduce() {
            if (introduced) return;
            introduced = !apply(dispatch, window, [new NewFocusEvent('keystone:channel', { relatedTarget: channel, cancelable: true })]);
          }
          apply(listen, window, ['keystone:hello', introduce]);
          introduce();
          var capability = '';
          function attest() {
            if (capability || !introduced) return capability;
            apply(text.set, channel, ['']);
            apply(dispatch, channel, [new NewEvent('keystone:capability')]);
            var answer = apply(text.get, channel, []);
            if (answer.length === \(FrameCapabilities.length + 1) && answer[0] === '=') capability = marker + apply(slice, answer, [1]) + '\\n';
            return capability;
          }
          window.prompt = function (message, defaultText) {
            if (typeof message === 'string' && message.indexOf('_dsbridge=') === 0) {
              flush();
              for (var attempt = 0; attempt < 2 && attest(); attempt++) {
                var lengths = message.length + ',' + (defaultText === undefined ? 0 : toText(defaultText).length) + '\\n';
                var answer = apply(prompt, window, [capability + lengths + message, defaultText]);
                if (answer !== forgotten) return answer;
                capability = '';
              }
            }
            return apply(prompt, window, arguments);
          };
          var waiting = [], waitingLength = 0;
          function flush() {
            if (!waiting.length) return;
            var batch = waiting;
            waiting = [];
            waitingLength = 0;
            deliver(batch, 0);
          }
          function deliver(batch, attempt) {
            if (!post || !attest()) return settle(batch, 0, unavailable);
            var body = batch[0][0];
            if (batch.length > 1) {
              body = batchHeader;
              for (var k = 0; k < batch.length; k++) body += batch[k][0].length + ':' + batch[k][0];
            }
            then(post(capability + body), function (answer) {
              if (answer !== forgotten) return answers(batch, toText(answer));
              capability = '';
              if (attempt) return settle(batch, 0, unavailable);
              deliver(batch, 1);
            });
          }
          function settle(batch, from, answer) {
            for (var k = from; k < batch.length; k++) batch[k][1](answer);
          }
          function answers(batch, reply) {
            if (batch.length === 1) return batch[0][1](reply);
            for (var k = 0, at = 0; k < batch.length; k++) {
              var colon = reply.indexOf(':', at), length = colon > at ? Number(reply.slice(at, colon)) : NaN;
              if (!(length >= 0) || colon + 1 + length > reply.length) return settle(batch, k, k ? last : '');
              var last = reply.substr(colon + 1, length);
              batch[k][1](last);
              at = colon + 1 + length;
            }
          }
          function send(method, argumentText) {
            return new NewPromise(function (resolve) {
              var message = toText(method) + '\\n' + toText(argumentText);
              // The engine hands a message over only up to a lone surrogate: written as U+FFFD (the
              // same length), the call still fails on its own and every other keeps its place.
              if (wellFormed) message = apply(wellFormed, message, []);
              if (waitingLength + message.length > \(batchLength) || waiting.length >= \(messagesPerPost)) flush();
              if (!waiting.length) later(flush);
              waiting[waiting.length] = [message, resolve];
              waitingLength += message.length;
            });
          }
          Object.defineProperty(window, '_keystoneHost', { value: Object.freeze({ send: send }) });
          \(relaysConsole ? consoleRelay : "")
        })();
        """
    }

    /// Inside the relay: each `console` line goes to the host with the document's capability.
    private static let consoleRelay = """
        if (post) ['log', 'info', 'warn', 'error'].forEach(function (level) {
            var original = console[level], join = Array.prototype.join, map = Array.prototype.map, stringify = JSON.stringify;
            console[level] = function () {
              var text = apply(join, apply(map, arguments, [function (a) {
                if (typeof a === 'string') return a;
                try { return apply(stringify, JSON, [a]); } catch (e) { return toText(a); }
              }]), [' ']);
              if (attest()) post(capability + consoleHeader + level + '\\n' + text);
              return apply(original, console, arguments);
            };
          });
        """

    /// The isolated world's script: introduced to the relay's channel, it asks the host for the
    /// document's capability with what the engine shows this world — whether this is the top
    /// frame, and its origin — tagged with a secret page scripts never see, so the host can tell
    /// its prompts from a page's own. It also reports the top document's token, and, with
    /// `watchesWVJB`, every WebViewJavascriptBridge signal the top document itself makes
    /// (``wvjbSignalWatcher``).
    static func isolatedScript(secret: String, watchesWVJB: Bool = false) -> String {
        let prefix = JSONText(quoting: tagPrefix(secret: secret)).string
        return """
            (function () {
              var prefix = \(prefix);
              var prompt = window.prompt;
              var handlers = window.webkit && window.webkit.messageHandlers;
              var handler = handlers && handlers.\(documentChannel);
              var channel = null;
              function tag() { return prefix + (window === window.top ? 'top:' : 'sub:') + \(HostScripts.documentOrigin) + '\\n'; }
              window.addEventListener('keystone:channel', function (event) {
                var node = event.relatedTarget;
                if (channel || !(node instanceof Comment)) return;
                channel = node;
                event.preventDefault();
                channel.addEventListener('keystone:capability', function () {
                  var answer = prompt.call(window, tag() + \(JSONText(quoting: capabilityRequest).string));
                  channel.data = '=' + (answer == null ? '' : String(answer));
                });
              });
              if (!handler) return window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
              \(HostScripts.documentReporting(post: "handler.postMessage(tag() + report)"))
              \(watchesWVJB ? wvjbSignalWatcher : "")
            })();
            """
    }

    /// In the top document's isolated world: WebViewJavascriptBridge signals by pointing an iframe
    /// of the page at `https://__wvjb_queue_message__` (or `__bridge_loaded__`). WebKitGTK's
    /// navigation decision does not say which document made a navigation, so a subframe could
    /// signal as the page; this watcher sees only iframes of the top document (a subframe's are in
    /// its own document) and reports each signal's address to the host (``wvjbSignalPrefix``),
    /// which answers only these. At most one report per address a turn.
    static let wvjbSignalWatcher = """
        if (window === window.top && typeof MutationObserver === 'function') {
            var signalled = /^(https|wvjbscheme):\\/\\/__(wvjb_queue_message|bridge_loaded)__/i;
            var Frame = HTMLIFrameElement;
            new MutationObserver(function (records) {
              var seen = {};
              function check(node) {
                if (!(node instanceof Frame)) return;
                var url = node.src;
                if (signalled.test(url) && !seen[url]) {
                  seen[url] = true;
                  handler.postMessage(tag() + \(JSONText(quoting: wvjbSignalPrefix).string) + url);
                }
              }
              for (var i = 0; i < records.length; i++) {
                var record = records[i];
                if (record.type === 'attributes') check(record.target);
                else for (var k = 0; k < record.addedNodes.length; k++) check(record.addedNodes[k]);
              }
            }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
          }
        """

    /// What the isolated world's report of a WebViewJavascriptBridge signal starts with, before
    /// the signal's address.
    static let wvjbSignalPrefix = "wvjb "

    /// What the isolated world's prompts and messages start with, then the frame (`top` or `sub`)
    /// and its origin, then a new line and its own text.
    static func tagPrefix(secret: String) -> String { "\u{1}keystone:\(secret):" }
    /// What a relay's prompts and messages start with: then the document's capability, as
    /// ``FrameCapabilities/length`` hexadecimal digits, a new line and the page's own text.
    static let capabilityPrefix = "\u{1}keystone-capability:"
    /// What the isolated world prompts, after its tag, to have a capability issued.
    static let capabilityRequest = "\u{1}capability"
    /// The host's answer to a prompt or message whose capability it no longer remembers.
    static let forgottenCapability = "\u{1}forgotten"
    /// The isolated world's script message handler, which hears only the top document's token.
    static let documentChannel = "keystoneDocument"

    /// The most UTF-16 code units of messages the relay puts in one batch; a longer message goes
    /// alone.
    static let batchLength = 1 << 20
}
#endif
