// wvjb-bridge.js — WebViewJavascriptBridge 6's page side on its own wire (a queue the native side
// fetches after a navigation to https://__wvjb_queue_message__), written for Keystone from the
// protocol. A host injects it when a page asks for a bridge (https://__bridge_loaded__) and has
// none. Plain JavaScript, no build step.
(function (window) {
  'use strict';
  if (window.WebViewJavascriptBridge) return;

  var QUEUE_URL = 'https://__wvjb_queue_message__';
  var handlers = {};
  var responseCallbacks = {};
  var queue = [];
  var lastId = 0;
  var safetyTimeout = true;
  var messagingFrame = null;

  function registerHandler(name, handler) {
    handlers[name] = handler;
  }

  function callHandler(name, data, responseCallback) {
    if (arguments.length === 2 && typeof data === 'function') {
      responseCallback = data;
      data = null;
    }
    send({ handlerName: name, data: data === undefined ? null : data }, responseCallback);
  }

  function disableJavscriptAlertBoxSafetyTimeout() {
    safetyTimeout = false;
  }

  function send(message, responseCallback) {
    if (typeof responseCallback === 'function') {
      var callbackId = 'cb_' + (++lastId) + '_' + Date.now();
      responseCallbacks[callbackId] = responseCallback;
      message.callbackId = callbackId;
    }
    queue.push(message);
    if (messagingFrame) messagingFrame.src = QUEUE_URL;
  }

  /** The native side fetches the queue, as JSON text. The first fetch begins with
   *  `{"keystone":"wvjb"}`, which WVJB's own script never sends: native then knows this page can
   *  answer `_hasJavascriptMethod`. */
  var announced = false;
  function fetchQueue(limit) {
    // At most `limit` messages a fetch (native's limit of calls a post may carry); the rest are
    // signalled again, so none waits for another call to be sent.
    var count = limit > 0 ? limit : queue.length;
    var taken = queue.slice(0, count);
    queue = queue.slice(count);
    if (queue.length && messagingFrame) messagingFrame.src = QUEUE_URL;
    var text = JSON.stringify(announced ? taken : [{ keystone: 'wvjb' }].concat(taken));
    announced = true;
    return text;
  }

  function dispatch(message) {
    if (message.responseId !== undefined) {
      var callback = responseCallbacks[message.responseId];
      if (!callback) return;
      delete responseCallbacks[message.responseId];
      callback(message.responseData, message.error);
      return;
    }
    var respond;
    if (message.callbackId !== undefined) {
      var callbackId = message.callbackId;
      respond = function (data) {
        send({ handlerName: message.handlerName, responseId: callbackId, responseData: data === undefined ? null : data });
      };
    }
    var handler = handlers[message.handlerName];
    if (typeof handler !== 'function') {
      console.log('WebViewJavascriptBridge: no handler for message from native: ' + message.handlerName);
      return;
    }
    handler(message.data, respond);
  }

  /** Native delivers one message as JSON text. */
  function handleMessageFromNative(messageJSON) {
    var message = JSON.parse(messageJSON);
    if (safetyTimeout) setTimeout(function () { dispatch(message); }, 0);
    else dispatch(message);
  }

  var bridge = {
    registerHandler: registerHandler,
    callHandler: callHandler,
    disableJavscriptAlertBoxSafetyTimeout: disableJavscriptAlertBoxSafetyTimeout,
    _fetchQueue: fetchQueue,
    _handleMessageFromObjC: handleMessageFromNative
  };
  window.WebViewJavascriptBridge = bridge;

  var document = window.document;
  messagingFrame = document.createElement('iframe');
  messagingFrame.style.display = 'none';
  messagingFrame.src = QUEUE_URL; // tells native the bridge is in: it sends what waited
  document.documentElement.appendChild(messagingFrame);

  registerHandler('_disableJavascriptAlertBoxSafetyTimeout', disableJavscriptAlertBoxSafetyTimeout);
  // Swift's `hasJavaScriptMethod` asks this, as it asks dsbridge.js.
  registerHandler('_hasJavascriptMethod', function (name, respond) {
    if (respond) respond(typeof handlers[String(name)] === 'function');
  });

  setTimeout(function () {
    var callbacks = window.WVJBCallbacks;
    delete window.WVJBCallbacks;
    if (!Array.isArray(callbacks)) return;
    for (var i = 0; i < callbacks.length; i++) {
      try { callbacks[i](bridge); } catch (e) { /* one page callback does not stop the rest */ }
    }
  }, 0);
})(window);
