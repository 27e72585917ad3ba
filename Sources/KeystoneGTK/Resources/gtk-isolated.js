// gtk-isolated.js — WebKitGTK's isolated-world script: it hands the page-world relay this document's
// capability, and reports what the top document does. Evaluates to a function the host calls at
// document start with its settings and the document's origin (see WebKitGTKHost.isolatedScript);
// every value in `config` is data, never code. Returns how to post to the host, or null when this
// world has no channel to it.
(function (config, origin) {
  var prompt = window.prompt;
  var handlers = window.webkit && window.webkit.messageHandlers;
  var handler = handlers && handlers[config.documentChannel];
  // The host's message handler lives in this world only: page scripts cannot post to it.
  var messages = handlers && handlers[config.messageHandler];
  var channel = null;
  // The number Keystone's web-process extension gave this subframe document, when it runs: the host
  // then delivers to the document through it. Read before any other script of this world runs.
  var number = window[config.documentGlobal];
  var numbered = typeof number === 'string' && /^[0-9]{1,20}$/.test(number) ? '#' + number : '';
  // What this world's prompts and messages start with: the secret tag, the frame (and its document's
  // number) and its origin.
  // A subframe whose parent is not the top document (a frame inside a frame) says so (`nst`), and
  // ends the header with its parent's origin, as the engine gives it this world.
  var nested = window !== window.top && window.parent !== window.top;
  var ancestors = nested && window.location && window.location.ancestorOrigins;
  var parentOrigin = ancestors && ancestors.length ? ' ' + ancestors[0] : '';
  var kind = window === window.top ? 'top' : nested ? 'nst' + numbered : 'sub' + numbered;
  function tag() { return config.tagPrefix + kind + ':' + origin + parentOrigin + '\n'; }

  // Takes the relay's channel node (once), and answers its requests for a capability by asking the
  // host, which issues one for this frame and origin.
  window.addEventListener('keystone:channel', function (event) {
    var node = event.relatedTarget;
    if (channel || !(node instanceof Comment)) return;
    channel = node;
    event.preventDefault();
    channel.addEventListener('keystone:capability', function () {
      var answer = prompt.call(window, tag() + config.capabilityRequest);
      channel.data = '=' + (answer == null ? '' : String(answer));
    });
    // The relay's messages: its number, a new line and its text, always a string here, posted to
    // the host unless longer than any the relay makes; the answer goes back the same way.
    channel.addEventListener('keystone:post', function (event) {
      var text = String(channel.data), newline = text.indexOf('\n');
      if (!messages || newline < 0) return;
      event.preventDefault();
      var id = text.slice(0, newline), body = text.slice(newline + 1);
      var reply = body.length <= config.maximumPostLength ? messages.postMessage(body)
        : Promise.resolve(body.slice(config.batchAt, config.batchAt + config.batchHeader.length) === config.batchHeader ? config.tooLongBatch : config.tooLong);
      function answer(value) {
        channel.data = id + '\n' + (value == null ? '' : String(value));
        channel.dispatchEvent(new Event('keystone:answer'));
      }
      reply.then(answer, function () { answer(''); });
    });
  });
  if (!handler) {
    window.dispatchEvent(new CustomEvent('keystone:hello', { detail: '' }));
    return null;
  }
  function post(text) { handler.postMessage(tag() + text); }

  // A subframe document the web-process extension numbered says when it is hidden for good: its
  // frame commits a next document (one where no script runs included, which clears no world), or
  // goes. Swift's calls of it then end at once, not when something is next sent to it.
  if (numbered && window !== window.top) {
    window.addEventListener('pagehide', function (event) { if (!event.persisted) post(config.frameEnded); });
  }

  // In the top document: a page dialect that signals (WebViewJavascriptBridge) points an iframe
  // of the page at an address `config.signalPattern` matches (`https://__wvjb_queue_message__`).
  // Only iframes of the top document are seen here (a subframe's are in its own document); each
  // signal's address is reported, at most once an address a turn.
  if (typeof config.signalPattern === 'string' && window === window.top && typeof MutationObserver === 'function') {
    var signalled = new RegExp(config.signalPattern, 'i');
    var Frame = HTMLIFrameElement;
    new MutationObserver(function (records) {
      var seen = {};
      function check(node) {
        if (!(node instanceof Frame)) return;
        var url = node.src;
        if (signalled.test(url) && !seen[url]) {
          seen[url] = true;
          post(config.signalPrefix + url);
        }
      }
      for (var i = 0; i < records.length; i++) {
        var record = records[i];
        if (record.type === 'attributes') check(record.target);
        else for (var k = 0; k < record.addedNodes.length; k++) check(record.addedNodes[k]);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
  }
  return post;
})
