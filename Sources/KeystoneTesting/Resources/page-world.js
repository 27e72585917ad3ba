// page-world.js — what a browser's window gives a page's scripts and Keystone's runtime, for a page
// that runs in JavaScriptCore alone (JavaScriptPage.swift): a window and its document as event
// targets, location, navigator, crypto, base64, timers on the test's clock, and the page's own
// dialogs. Only what the runtime and ordinary page code reach for; nothing here talks to Swift but
// through the natives JavaScriptPage defines first (`__keystoneNative`).
(function (native, settings) {
  'use strict';
  var global = globalThis;
  global.window = global;
  global.self = global;

  function EventTargetLike() { this.listeners = Object.create(null); }
  EventTargetLike.prototype.addEventListener = function (type, listener) {
    if (typeof listener !== 'function' && !(listener && typeof listener.handleEvent === 'function')) return;
    (this.listeners[type] = this.listeners[type] || []).push(listener);
  };
  EventTargetLike.prototype.removeEventListener = function (type, listener) {
    var list = this.listeners[type];
    if (list) this.listeners[type] = list.filter(function (each) { return each !== listener; });
  };
  EventTargetLike.prototype.dispatchEvent = function (event) {
    var list = (this.listeners[event.type] || []).slice();
    event.target = event.currentTarget = this;
    for (var i = 0; i < list.length; i++) {
      try {
        if (typeof list[i] === 'function') list[i].call(this, event); else list[i].handleEvent(event);
      } catch (error) {
        native.error(String(error && error.stack || error));
      }
    }
    return !event.defaultPrevented;
  };

  function Event(type, init) {
    this.type = String(type);
    this.cancelable = !!(init && init.cancelable);
    this.defaultPrevented = false;
  }
  Event.prototype.preventDefault = function () { if (this.cancelable) this.defaultPrevented = true; };
  function CustomEvent(type, init) {
    Event.call(this, type, init);
    this.detail = init && init.detail !== undefined ? init.detail : null;
  }
  CustomEvent.prototype = Object.create(Event.prototype);
  global.Event = Event;
  global.CustomEvent = CustomEvent;

  var windowTarget = new EventTargetLike();
  ['addEventListener', 'removeEventListener', 'dispatchEvent'].forEach(function (name) {
    global[name] = function () { return EventTargetLike.prototype[name].apply(windowTarget, arguments); };
  });
  var documentTarget = new EventTargetLike();
  global.document = {
    readyState: 'complete',
    baseURI: settings.href,
    addEventListener: function () { return EventTargetLike.prototype.addEventListener.apply(documentTarget, arguments); },
    removeEventListener: function () { return EventTargetLike.prototype.removeEventListener.apply(documentTarget, arguments); },
    dispatchEvent: function () { return EventTargetLike.prototype.dispatchEvent.apply(documentTarget, arguments); }
  };

  var address = settings.href, colon = address.indexOf(':');
  global.location = {
    href: address,
    protocol: address.slice(0, colon + 1),
    origin: settings.origin,
    host: settings.origin.replace(/^[a-z]+:\/\//, ''),
    hash: '',
    toString: function () { return address; }
  };
  Object.defineProperty(global, 'origin', { value: settings.origin, enumerable: true });
  global.navigator = { userAgent: 'Mozilla/5.0 KeystoneTesting' };

  // A fixed sequence (xorshift), so that a run of a test is the same run every time.
  var seed = 0x2545f491;
  global.crypto = {
    getRandomValues: function (array) {
      for (var i = 0; i < array.length; i++) {
        seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
        array[i] = seed >>> 0;
      }
      return array;
    }
  };

  var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  global.btoa = function (text) {
    text = String(text);
    var out = '';
    for (var i = 0; i < text.length; i += 3) {
      var a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new Error('InvalidCharacterError');
      var bits = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += alphabet[bits >> 18 & 63] + alphabet[bits >> 12 & 63] +
        (i + 1 < text.length ? alphabet[bits >> 6 & 63] : '=') + (i + 2 < text.length ? alphabet[bits & 63] : '=');
    }
    return out;
  };
  global.atob = function (text) {
    text = String(text).replace(/[\t\n\f\r ]/g, '').replace(/=+$/, '');
    var out = '', bits = 0, count = 0;
    for (var i = 0; i < text.length; i++) {
      var value = alphabet.indexOf(text[i]);
      if (value < 0) throw new Error('InvalidCharacterError');
      bits = (bits << 6) | value;
      count += 6;
      if (count >= 8) { count -= 8; out += String.fromCharCode(bits >> count & 255); }
    }
    return out;
  };

  // Timers: each one's callback waits here; Swift runs it on the test's clock (`fire`).
  var timers = Object.create(null), lastTimer = 0;
  global.setTimeout = function (callback, delay) {
    var id = ++lastTimer, rest = Array.prototype.slice.call(arguments, 2);
    timers[id] = function () { if (typeof callback === 'function') callback.apply(global, rest); };
    native.schedule(id, Math.max(0, Number(delay) || 0));
    return id;
  };
  global.clearTimeout = function (id) { delete timers[id]; };
  global.queueMicrotask = function (callback) { Promise.resolve().then(callback); };
  native.fire = function (id) {
    var callback = timers[id];
    delete timers[id];
    if (callback) callback();
  };

  global.prompt = function (message, defaultText) { return native.prompt(message === undefined ? '' : String(message), defaultText === undefined ? null : String(defaultText)); };
  global.alert = function () {};
  global.confirm = function () { return false; };
  global.close = function () {};
  global.console = {
    log: function () { native.console(Array.prototype.map.call(arguments, String).join(' ')); }
  };
  global.console.info = global.console.warn = global.console.error = global.console.debug = global.console.log;
})
