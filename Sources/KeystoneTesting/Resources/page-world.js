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
    // A document whose scripts are still being added reads `loading` until the page says they
    // have all run (`native.finishLoading`), as a browser's parser does.
    readyState: settings.loading ? 'loading' : 'complete',
    baseURI: settings.href,
    addEventListener: function () { return EventTargetLike.prototype.addEventListener.apply(documentTarget, arguments); },
    removeEventListener: function () { return EventTargetLike.prototype.removeEventListener.apply(documentTarget, arguments); },
    dispatchEvent: function () { return EventTargetLike.prototype.dispatchEvent.apply(documentTarget, arguments); }
  };

  var address = settings.href, colon = address.indexOf(':');
  // The address, whose hash a script may set; `reload()` and an address of the same origin load a
  // new document of the page (after the script that asked), as an engine does.
  var hashAt = address.indexOf('#');
  var base = hashAt < 0 ? address : address.slice(0, hashAt), hash = hashAt < 0 ? '' : address.slice(hashAt);
  global.location = {
    protocol: address.slice(0, colon + 1),
    origin: settings.origin,
    host: settings.origin.replace(/^[a-z]+:\/\//, ''),
    pathname: base.slice(settings.origin.length).split('?')[0] || '/',
    search: base.indexOf('?') < 0 ? '' : base.slice(base.indexOf('?')),
    reload: function () { native.navigate(base + hash); },
    assign: function (url) { native.navigate(String(url)); },
    replace: function (url) { native.navigate(String(url)); },
    toString: function () { return base + hash; }
  };
  Object.defineProperty(global.location, 'href', {
    get: function () { return base + hash; },
    set: function (url) { native.navigate(String(url)); },
    enumerable: true
  });
  Object.defineProperty(global.location, 'hash', {
    get: function () { return hash; },
    set: function (value) { value = String(value); hash = value === '' || value === '#' ? '' : (value[0] === '#' ? value : '#' + value); },
    enumerable: true
  });

  // Storage that outlives the document, per page: the session's and the origin's, kept in Swift.
  function Storage(kind) {
    this.getItem = function (key) { return native.storage(kind, 'get', String(key), null); };
    this.setItem = function (key, value) { native.storage(kind, 'set', String(key), String(value)); };
    this.removeItem = function (key) { native.storage(kind, 'set', String(key), null); };
    this.clear = function () { native.storage(kind, 'clear', '', null); };
  }
  global.sessionStorage = new Storage('session');
  global.localStorage = new Storage('local');
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

  // Math.random from a fixed sequence too, and a clock that reads one fixed time: the page's
  // time is its timers', on the test's clock.
  var randomSeed = 0x6d2b79f5;
  Math.random = function () {
    randomSeed ^= randomSeed << 13; randomSeed ^= randomSeed >>> 17; randomSeed ^= randomSeed << 5;
    return (randomSeed >>> 0) / 4294967296;
  };
  Date.now = function () { return 1767225600000; };

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

  // The end of the document's loading: DOMContentLoaded, then load.
  native.finishLoading = function () {
    if (global.document.readyState !== 'loading') return;
    global.document.readyState = 'interactive';
    global.document.dispatchEvent(new Event('DOMContentLoaded'));
    global.document.readyState = 'complete';
    global.dispatchEvent(new Event('load'));
  };
  // The engine shows the document again, from its back/forward cache when `persisted`.
  native.show = function (persisted) {
    var event = new Event('pageshow');
    event.persisted = !!persisted;
    global.dispatchEvent(event);
  };

  // Aborting, as the DOM's AbortController and AbortSignal do it.
  function AbortSignal() {
    EventTargetLike.call(this);
    this.aborted = false;
    this.reason = undefined;
    this.onabort = null;
  }
  AbortSignal.prototype = Object.create(EventTargetLike.prototype);
  AbortSignal.prototype.throwIfAborted = function () { if (this.aborted) throw this.reason; };
  function abortError() {
    var error = new Error('The operation was aborted.');
    error.name = 'AbortError';
    return error;
  }
  function AbortController() { this.signal = new AbortSignal(); }
  AbortController.prototype.abort = function (reason) {
    var signal = this.signal;
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason === undefined ? abortError() : reason;
    var event = new Event('abort');
    if (typeof signal.onabort === 'function') signal.onabort(event);
    signal.dispatchEvent(event);
  };
  global.AbortController = AbortController;
  global.AbortSignal = AbortSignal;

  // A ReadableStream of chunks, as far as a page hands one over: a source's `start` and `pull`,
  // read through one reader.
  function ReadableStream(source) {
    var stream = this, queue = [], waiting = [], done = false, failure = null, pulling = false;
    source = source || {};
    function settle() {
      while (waiting.length && (queue.length || done || failure)) {
        var next = waiting.shift();
        if (queue.length) next.resolve({ value: queue.shift(), done: false });
        else if (failure) next.reject(failure);
        else next.resolve({ value: undefined, done: true });
      }
      if (waiting.length && !done && !failure && !pulling && typeof source.pull === 'function') {
        pulling = true;
        Promise.resolve().then(function () { return source.pull(controller); }).then(function () {
          pulling = false;
          settle();
        }, function (error) { pulling = false; failure = error; settle(); });
      }
    }
    var controller = {
      enqueue: function (chunk) { queue.push(chunk); settle(); },
      close: function () { done = true; settle(); },
      error: function (error) { failure = error; settle(); }
    };
    this.locked = false;
    this.getReader = function () {
      stream.locked = true;
      return {
        read: function () { return new Promise(function (resolve, reject) { waiting.push({ resolve: resolve, reject: reject }); settle(); }); },
        cancel: function (reason) {
          done = true;
          queue.length = 0;
          settle();
          return Promise.resolve(typeof source.cancel === 'function' ? source.cancel(reason) : undefined);
        },
        releaseLock: function () { stream.locked = false; }
      };
    };
    if (typeof source.start === 'function') source.start(controller);
  }
  global.ReadableStream = ReadableStream;

  // UTF-8 both ways, for text the page reads from bytes and sends as bytes.
  global.TextEncoder = function TextEncoder() {};
  global.TextEncoder.prototype.encode = function (text) {
    var utf8 = unescape(encodeURIComponent(String(text === undefined ? '' : text)));
    var bytes = new Uint8Array(utf8.length);
    for (var i = 0; i < utf8.length; i++) bytes[i] = utf8.charCodeAt(i);
    return bytes;
  };
  global.TextDecoder = function TextDecoder() {};
  global.TextDecoder.prototype.decode = function (bytes) {
    if (!bytes) return '';
    var view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    var text = '';
    for (var i = 0; i < view.length; i += 8192) text += String.fromCharCode.apply(null, view.subarray(i, i + 8192));
    try { return decodeURIComponent(escape(text)); } catch (e) { return text; }
  };

  /** The bytes of a value a Blob or a body is made of, as a Uint8Array of their own. */
  function bytesOf(part) {
    if (part instanceof Blob) return part._bytes.slice();
    if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
    if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
    return new global.TextEncoder().encode(String(part));
  }
  // A Blob of bytes in memory: what a page makes of parts, and slices.
  function Blob(parts, options) {
    var pieces = (parts || []).map(bytesOf), size = 0;
    pieces.forEach(function (piece) { size += piece.length; });
    var bytes = new Uint8Array(size), at = 0;
    pieces.forEach(function (piece) { bytes.set(piece, at); at += piece.length; });
    this._bytes = bytes;
    this.size = size;
    this.type = options && options.type ? String(options.type) : '';
  }
  Blob.prototype.slice = function (start, end) {
    var blob = new Blob([]);
    blob._bytes = this._bytes.slice(start, end);
    blob.size = blob._bytes.length;
    return blob;
  };
  Blob.prototype.arrayBuffer = function () { return Promise.resolve(this._bytes.slice().buffer); };
  Blob.prototype.text = function () { return Promise.resolve(new global.TextDecoder().decode(this._bytes)); };
  /** A stream of the Blob's bytes, in one chunk. */
  Blob.prototype.stream = function () {
    var bytes = this._bytes.slice();
    return new global.ReadableStream({ start: function (controller) { controller.enqueue(bytes); controller.close(); } });
  };
  global.Blob = Blob;

  /** A request's body as one Uint8Array of its own (null: none). */
  function bodyBytes(body) {
    if (body === undefined || body === null) return null;
    if (body instanceof Blob) return body._bytes.slice();
    if (typeof body === 'string') return new global.TextEncoder().encode(body);
    if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
    if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
    return new global.TextEncoder().encode(String(body));
  }
  function Response(status, bytes, type) {
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.body = null;
    this.headers = { get: function (name) { return String(name).toLowerCase() === 'content-type' ? type : null; } };
    this.arrayBuffer = function () { return Promise.resolve(bytes.buffer); };
    this.text = function () { return Promise.resolve(new global.TextDecoder().decode(bytes)); };
    this.json = function () { return this.text().then(JSON.parse); };
  }
  // The page's fetch reaches the schemes its host serves (Keystone's byte channel), and nothing
  // else: any other address fails as a refused load does.
  global.fetch = function (input, init) {
    init = init || {};
    var signal = init.signal;
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    var method = String(init.method || 'GET').toUpperCase(), body = bodyBytes(init.body);
    return new Promise(function (resolve, reject) {
      if (signal) signal.addEventListener('abort', function () { reject(signal.reason); });
      native.fetch(method, String(input), body, function (status, bytes, type) {
        if (!status) reject(new TypeError('Load failed'));
        else resolve(new Response(status, new Uint8Array(bytes), type));
      });
    });
  };

  // WebKit's script message handler with a reply, under the name Keystone's hosts add.
  global.webkit = {
    messageHandlers: {
      keystone: {
        postMessage: function (message) {
          return Promise.resolve(native.send(String(message && message.method), String(message && message.arguments)));
        }
      }
    }
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
