// wvjb6-standin.js — a page script that behaves as WebViewJavascriptBridge 6's own does, written
// from its protocol (shared PROTOCOL-WVJB.md), so that a page can run without Keystone's WVJB
// script: every message goes on one queue, each send points the messaging iframe at
// https://__wvjb_queue_message__, and `_fetchQueue()` hands the whole queue at once, whatever limit
// native names. Responses carry only `responseData`: WVJB's own script has no error channel.
(function () {
  if (window.WebViewJavascriptBridge) return;
  var QUEUE_URL = 'https://__wvjb_queue_message__';
  var queue = [];
  var handlers = {};
  var callbacks = {};
  var lastId = 0;
  var frame = document.createElement('iframe');
  frame.style.display = 'none';
  frame.src = QUEUE_URL;
  document.documentElement.appendChild(frame);

  function send(message, responseCallback) {
    if (responseCallback) {
      var id = 'cb_' + (++lastId) + '_' + Date.now();
      callbacks[id] = responseCallback;
      message.callbackId = id;
    }
    queue.push(message);
    frame.src = QUEUE_URL;
  }
  function fetchQueue() {
    var text = JSON.stringify(queue);
    queue = [];
    return text;
  }
  function handle(json) {
    setTimeout(function () {
      var message = JSON.parse(json);
      if (message.responseId) {
        var callback = callbacks[message.responseId];
        delete callbacks[message.responseId];
        if (callback) callback(message.responseData);
        return;
      }
      var respond = message.callbackId
        ? function (data) { send({ handlerName: message.handlerName, responseId: message.callbackId, responseData: data }); }
        : function () {};
      var handler = handlers[message.handlerName];
      if (handler) handler(message.data, respond); else console.log('No handler for message from ObjC');
    });
  }
  window.WebViewJavascriptBridge = {
    registerHandler: function (name, handler) { handlers[name] = handler; },
    callHandler: function (name, data, responseCallback) {
      if (arguments.length === 2 && typeof data === 'function') { responseCallback = data; data = null; }
      send({ handlerName: name, data: data }, responseCallback);
    },
    disableJavscriptAlertBoxSafetyTimeout: function () {},
    _fetchQueue: fetchQueue,
    _handleMessageFromObjC: handle,
  };
  var waiting = window.WVJBCallbacks || [];
  delete window.WVJBCallbacks;
  setTimeout(function () { waiting.forEach(function (callback) { callback(window.WebViewJavascriptBridge); }); });
})();
