// keystone-bridge.js — Keystone's page runtime: a drop-in for dsbridge.js 3.1.4 (same globals, same
// wire protocol) with promises, streams, cancellation and events. Plain JavaScript, no build step.
(function (window) {
  'use strict';
  if (window._keystone) return; // a second copy of this script changes nothing

  // dsbridge.js may have loaded first: keep its handler tables and counter, so what it registered
  // stays registered. If it loads later, it finds `_dsf` and does nothing.
  var dsf = window._dsf || { _obs: {} };
  var dsaf = window._dsaf || { _obs: {} };
  dsf._obs = dsf._obs || {};
  dsaf._obs = dsaf._obs || {};
  if (typeof window.dscb !== 'number') window.dscb = 0;

  var CODE_NOT_FOUND = 1;
  var CODE_INVALID_ARGUMENT = 2;
  var CODE_UNSUPPORTED_CALL_KIND = 3;
  var CODE_FAILED = 5;
  var CODE_CANCELLED = 6;
  var CODE_PAGE_GONE = 7;
  var CODE_NOT_ALLOWED = 11;

  // Callback names are unique to this page load, so a late result meant for an earlier page can
  // never reach one of this page's callbacks.
  var loadToken = Math.random().toString(36).slice(2, 8) + Date.now().toString(36);
  var pending = new Map(); // callback name -> { result(value), fail(error), end(), nothing(), global }
  // This runtime's own count of its calls. dsbridge.js names callbacks from `window.dscb`, which a
  // page can reset or share; a name taken from it could be one still open, and the earlier call's
  // answer would be lost.
  var lastCallback = 0;
  var running = new Map(); // Swift's call id -> { stop() }, while a page handler may still answer
  var nativeDelivers = false; // native answered dsinit: every result reaches `deliver`
  var listeners = {}; // event name -> [listener]
  var wvjbHandlers = {}; // WebViewJavascriptBridge handler name -> function (data, responseCallback)
  var wvjbSafetyTimeout = true; // WVJB runs handlers a turn later unless the page turns it off

  // --- Reaching native -------------------------------------------------------------------------

  /** The host's own message transport, when its script defined one before this runtime: it is
   *  read once, since the host defines it fixed, and a page script that defines one later is not
   *  the host's. */
  var host = window._keystoneHost && typeof window._keystoneHost.send === 'function' ? window._keystoneHost : null;

  function hasNative() {
    return !!(host || window._dsbridge || window._dswk || navigator.userAgent.indexOf('_dsbridge') !== -1);
  }

  /** A synchronous call: the answer text, as dsbridge.js gets it. */
  function promptNative(method, argumentText) {
    if (window._dsbridge) return window._dsbridge.call(method, argumentText);
    if (window._dswk || navigator.userAgent.indexOf('_dsbridge') !== -1) {
      return window.prompt('_dsbridge=' + method, argumentText);
    }
    return '';
  }

  /** An asynchronous call's immediate answer: through the host's own message transport
   *  (`window._keystoneHost.send`), or WebKit's script message handler with a reply, where the host
   *  has one; through `prompt` everywhere else. */
  function sendNative(method, argumentText) {
    if (host) return Promise.resolve(host.send(method, argumentText));
    var handlers = window.webkit && window.webkit.messageHandlers;
    if (handlers && handlers.keystone) {
      return Promise.resolve(handlers.keystone.postMessage({ method: method, arguments: argumentText }));
    }
    return new Promise(function (resolve) { resolve(promptNative(method, argumentText)); });
  }

  function readAnswer(text) {
    try {
      return JSON.parse(text || '{}') || {};
    } catch (e) {
      return {};
    }
  }

  /** The `{data, _dscbstub}` wrapper; `inline` asks native to answer a synchronous method's
   *  result in the call's own answer (`{"code":0,"data":…,"inline":true}`), in one round trip;
   *  `bytes` says this call takes a `Data` result as bytes (`_dsbytes: true`); `upload`, that its
   *  argument is that many bytes, to be sent once native issues a ticket (`_dsbytes: N`), or a
   *  stream of chunks, each sent once native has room for it (`_dsbytes: "stream"`). */
  function wrap(data, callback, inline, bytes, upload) {
    // A value JSON cannot write (undefined, a function) is sent as null, as a member holding it
    // would be left out. The callback name is the runtime's own: letters, digits and `_`.
    var text = upload === undefined ? JSON.stringify(data) : 'null';
    return '{"data":' + (text === undefined ? 'null' : text) + (callback ? ',"_dscbstub":"' + callback + '"' : '') +
      (inline ? ',"_dsinline":true' : '') +
      (upload !== undefined ? ',"_dsbytes":' + upload + '}' : bytes ? ',"_dsbytes":true}' : '}');
  }

  // --- Bytes ---------------------------------------------------------------------------------

  /** Whether `value` is bytes: an ArrayBuffer, a typed array or DataView, a Blob or File. */
  function isBytes(value) {
    if (value === null || typeof value !== 'object') return false;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
    return typeof Blob === 'function' && value instanceof Blob;
  }

  function isReadableStream(value) {
    return typeof ReadableStream === 'function' && value instanceof ReadableStream;
  }

  function byteCount(value) {
    return typeof Blob === 'function' && value instanceof Blob ? value.size : value.byteLength;
  }

  /** A request body for `value`: bytes as they are; a Blob's bytes read first, since engines
   *  do not hand a Blob body to a scheme handler (WebKitGTK's UI process cannot resolve it). */
  function bodyOf(value) {
    if (typeof Blob === 'function' && value instanceof Blob) return value.arrayBuffer();
    return Promise.resolve(value);
  }

  /** `value`'s bytes as base64, for a native side without a byte channel (as a `Data` in JSON). */
  function toBase64(value) {
    return bodyOf(value).then(function (buffer) {
      var bytes = ArrayBuffer.isView(buffer) ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(buffer);
      var text = '';
      for (var i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      return btoa(text);
    });
  }

  /** Fetches the bytes of a result from the byte channel: a Uint8Array of `size` bytes. With
   *  `progress`, the bytes are read as they come, and it hears how many have. */
  function fetchBytes(source, size, signal, progress) {
    return fetch(source, signal ? { signal: signal } : undefined).then(function (response) {
      if (!response.ok) {
        return response.text().then(function (text) {
          throw fromNative(readAnswer(text).error || { code: CODE_FAILED, message: 'the bytes could not be fetched' });
        });
      }
      if (progress && response.body && typeof response.body.getReader === 'function') return readCounting(response.body.getReader(), size, progress);
      return response.arrayBuffer();
    }).then(function (buffer) {
      if (buffer.byteLength !== size) throw bridgeError(CODE_FAILED, 'the bytes arrived cut short');
      return new Uint8Array(buffer);
    });
  }

  /** Reads `reader` into one buffer of `size` bytes, telling `progress` how many have come. */
  function readCounting(reader, size, progress) {
    var bytes = new Uint8Array(size), received = 0;
    function next() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return bytes.buffer.slice(0, received);
        if (received + chunk.value.byteLength > size) throw bridgeError(CODE_FAILED, 'the bytes arrived longer than announced');
        bytes.set(chunk.value, received);
        received += chunk.value.byteLength;
        progress(received, size);
        return next();
      });
    }
    return next();
  }

  /** The most bytes of a stream posted at once: a longer chunk goes in pieces. */
  var STREAM_PIECE = 1 << 20;

  /** A chunk of a ReadableStream the page passed, as a Uint8Array, or `null` when it is not bytes. */
  function chunkBytes(value) {
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return null;
  }

  function nextCallbackName() {
    return 'dscb' + lastCallback++ + '_' + loadToken;
  }

  // --- Errors ----------------------------------------------------------------------------------

  /** An Error carrying the `code` and `message` of a native error object. */
  function bridgeError(code, message) {
    var error = new Error(message);
    error.name = 'KeystoneError';
    error.code = code;
    return error;
  }

  function fromNative(object) {
    return bridgeError(typeof object.code === 'number' ? object.code : CODE_FAILED, String(object.message || ''));
  }

  /** What an aborted call rejects with: always an `AbortError` of code 6 (cancelled), like every
   *  other failure a KeystoneError with a code; the signal's own reason (the DOM's AbortError, code
   *  20, or what the page passed to `abort(reason)`) is its `cause`. */
  function abortError(signal) {
    var error = bridgeError(CODE_CANCELLED, 'the call was aborted');
    error.name = 'AbortError';
    if (signal && signal.reason !== undefined) error.cause = signal.reason;
    return error;
  }

  /** The `{code, message}` sent to native for a page handler's failure. */
  function toNativeError(error) {
    var code = error && typeof error.code === 'number' ? error.code : CODE_FAILED;
    var message = error && error.message !== undefined ? String(error.message) : String(error);
    return { code: code, message: message };
  }

  // --- Asynchronous calls: one record per callback -----------------------------------------------

  /** Registers `handlers` under a fresh callback name and, until native has said it delivers to
   *  this runtime, a `window` function for plain scripts. */
  function openCallback(handlers) {
    var name = nextCallbackName();
    pending.set(name, handlers);
    // A page not recognised as Keystone's is sent plain scripts: `name(value)` or `name("", error)`.
    // Once native answers `_dsb.dsinit` with "keystone", every result comes through `deliver`, so
    // the global object is spared a property added and deleted for every call.
    if (!nativeDelivers) {
      handlers.global = true;
      window[name] = function (value, error) {
        if (arguments.length > 1 && error) deliverOne({ callback: name, error: error });
        else deliverOne({ callback: name, value: value });
      };
    }
    return name;
  }

  function closeCallback(name) {
    var record = pending.get(name);
    pending.delete(name);
    if (record && record.global) delete window[name];
  }

  function cancelNative(name) {
    promptNative('_dsb.cancel', wrap({ callback: name }));
  }

  /**
   * One asynchronous call: the page's `sink` ({ result(value), fail(error), end() }, and
   * `synchronous()` to ask a synchronous method the synchronous way), registered under its callback
   * while it runs. Every path ends in exactly one of `fail` or `end`, and closes the callback. One
   * object per call, with its handlers on the prototype: the commonest call allocates little.
   */
  function NativeCall(method, signal, sink) {
    this.method = method;
    this.signal = signal;
    this.sink = sink;
    this.finished = false;
    this.global = false;
    this.onAbort = null;
    this.progress = null;
    this.name = openCallback(this);
  }

  NativeCall.prototype.finish = function () {
    if (this.finished) return false;
    this.finished = true;
    closeCallback(this.name);
    if (this.onAbort) this.signal.removeEventListener('abort', this.onAbort);
    return true;
  };
  NativeCall.prototype.failWith = function (error) {
    if (this.finish()) this.sink.fail(error);
  };
  // The callback record's three handlers, called by `deliverOne`.
  NativeCall.prototype.result = function (value) {
    if (!this.finished) this.sink.result(value);
  };
  NativeCall.prototype.fail = function (error) {
    this.failWith(fromNative(error));
  };
  NativeCall.prototype.end = function () {
    if (this.finish()) this.sink.end();
  };
  /** The method returns nothing: `undefined` where the sink takes it (`invoke`), `""` otherwise,
   *  as DSBridge sends it. */
  NativeCall.prototype.nothing = function () {
    if (!this.finish()) return;
    if (this.sink.nothing) {
      this.sink.nothing();
    } else {
      this.sink.result('');
      this.sink.end();
    }
  };
  /** Gives the call a callback name of its own again, before it is sent a second way (as base64
   *  after native refused its bytes, or after the byte channel could not be reached): whatever
   *  native still sends under the first name (its release of the refused call) reaches no live
   *  call. */
  NativeCall.prototype.renew = function () {
    if (this.finished) return;
    closeCallback(this.name);
    this.name = openCallback(this);
  };
  /** Cancels the call: native is told, and the page's sink fails with an AbortError. */
  NativeCall.prototype.cancel = function () {
    if (this.finished) return;
    cancelNative(this.name);
    this.failWith(abortError(this.signal));
  };
  /** A result that is bytes: fetched from the byte channel, then handed on like any other. */
  NativeCall.prototype.bytes = function (message) {
    var call = this;
    if (this.finished) return Promise.resolve();
    return fetchBytes(message.bytes, message.size, this.signal, this.progress && function (received, total) { call.report(received, total); }).then(function (bytes) {
      call.result(bytes);
      if (message.complete) call.end();
    }, function (error) {
      call.failWith(error);
    });
  };
  /** Tells the page's `onProgress`, if any, how many bytes have moved of `total` (undefined when
   *  not known); what it throws stops nothing. */
  NativeCall.prototype.report = function (moved, total) {
    if (!this.progress || this.finished) return;
    try { this.progress(moved, total); } catch (e) { /* the transfer goes on */ }
  };
  /** The call's own answer: a result inline, an error, or that results come through the callback. */
  NativeCall.prototype.answered = function (text) {
    var answer = readAnswer(text);
    if (answer.inline === true && answer.code === 0 && !answer.error) {
      // A synchronous method's result, answered at once: no result comes through the callback.
      if (answer.void === true) {
        this.nothing();
      } else if (this.finish()) {
        this.sink.result(answer.data);
        this.sink.end();
      }
    } else if (answer.error) {
      if (answer.error.code === CODE_UNSUPPORTED_CALL_KIND && !this.finished && this.sink.synchronous) {
        this.finish();
        this.sink.synchronous();
      } else {
        this.failWith(fromNative(answer.error));
      }
    } else if (answer.code !== 0) {
      this.failWith(bridgeError(CODE_NOT_FOUND, 'the call of "' + this.method + '" was not handled'));
    }
  };

  /** Starts an asynchronous call of `method` with `data`, results going to `sink`; returns the
   *  call, whose `cancel()` cancels it. */
  function startCall(method, data, signal, sink, progress) {
    var call = new NativeCall(method, signal, sink);
    if (typeof progress === 'function') call.progress = progress;
    if (signal) {
      if (signal.aborted) {
        call.finished = true;
        closeCallback(call.name);
        sink.fail(abortError(signal));
        return call;
      }
      call.onAbort = function () { call.cancel(); };
      signal.addEventListener('abort', call.onAbort);
    }
    if (!hasNative()) {
      call.failWith(bridgeError(CODE_NOT_FOUND, 'no native bridge on this page'));
      return call;
    }
    function failed(error) {
      call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error)));
    }
    var takesBytes = sink.takesBytes === true;
    if (takesBytes && isReadableStream(data)) {
      uploadStream(call, method, data, sink);
    } else if (takesBytes && isBytes(data)) {
      upload(call, method, data, sink);
    } else {
      sendNative(method, wrap(data, call.name, !!sink.synchronous, takesBytes)).then(function (text) {
        call.answered(text);
      }, failed);
    }
    return call;
  }

  /** Sends `bytes` as the argument of `call`: announced with their size, then, with the ticket
   *  native answers with, posted to the byte channel, whose answer is the call's. Where there is
   *  no byte channel, or the page's policy keeps the page from reaching it, they go as base64. */
  function upload(call, method, bytes, sink) {
    var inline = !!sink.synchronous;
    function asBase64() {
      if (call.finished) return;
      call.renew();
      toBase64(bytes).then(function (text) {
        return sendNative(method, wrap(text, call.name, inline, true));
      }).then(function (text) { call.answered(text); }, function (error) { call.failWith(error); });
    }
    sendNative(method, wrap(null, call.name, inline, true, byteCount(bytes))).then(function (text) {
      var answer = readAnswer(text);
      if (typeof answer.upload !== 'string') {
        if (answer.error && answer.error.code === CODE_UNSUPPORTED_CALL_KIND) asBase64(); // no byte channel
        else call.answered(text);
        return;
      }
      post(call, answer.upload, bytes).then(function (reply) {
        call.report(byteCount(bytes), byteCount(bytes));
        call.answered(reply);
      }, function (error) {
        if (call.finished) return;
        // The channel could not be reached (a content security policy, say): the ticketed call
        // is withdrawn and the bytes go as base64.
        cancelNative(call.name);
        asBase64();
      });
    }, function (error) { call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error))); });
  }

  /** Posts `bytes` to the byte channel's `address`: the text of the answer. A host that keeps the
   *  tickets posts them itself (WebKitGTK's relay, which holds the address behind a handle);
   *  otherwise they go to the address, a Blob's bytes read first. */
  function post(call, address, bytes) {
    if (host && typeof host.upload === 'function') return new Promise(function (resolve) { resolve(host.upload(address, bytes)); });
    return bodyOf(bytes).then(function (body) {
      var init = { method: 'POST', body: body };
      if (call.signal) init.signal = call.signal;
      return fetch(address, init);
    }).then(function (response) { return response.text(); });
  }

  /** Sends `stream` as the argument of `call`, chunk by chunk: announced as a stream, then each
   *  piece posted to the ticket the answer to the one before carried, which native gives once it
   *  has room; the end is posted to the last ticket with `?end`. A method that takes `Data` gets the chunks gathered. Where
   *  native takes no stream (no byte channel, or a synchronous method), the stream is gathered
   *  and sent whole. */
  function uploadStream(call, method, stream, sink) {
    function failed(error) {
      call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error)));
    }
    sendNative(method, wrap(null, call.name, false, true, '"stream"')).then(function (text) {
      var answer = readAnswer(text);
      if (typeof answer.upload !== 'string') {
        if (answer.error && answer.error.code === CODE_UNSUPPORTED_CALL_KIND && !call.finished) {
          call.renew();
          new Response(stream).blob().then(function (blob) { upload(call, method, blob, sink); }, failed);
        } else {
          call.answered(text);
        }
        return;
      }
      var reader = stream.getReader(), address = answer.upload, pending = null, sent = 0;
      function stop() {
        try { reader.cancel().catch(function () {}); } catch (e) { /* already released */ }
      }
      function next() {
        if (call.finished) return stop();
        var chunk = pending ? Promise.resolve({ value: pending, done: false }) : reader.read();
        return chunk.then(function (read) {
          if (call.finished) return stop();
          if (read.done) return send(new Uint8Array(0), true);
          var bytes = chunkBytes(read.value);
          if (!bytes) throw bridgeError(CODE_INVALID_ARGUMENT, 'a chunk of the stream is not bytes');
          if (!bytes.byteLength) return next(); // an empty chunk is skipped: no piece goes without bytes
          pending = bytes.byteLength > STREAM_PIECE ? bytes.subarray(STREAM_PIECE) : null;
          return send(bytes.byteLength > STREAM_PIECE ? bytes.subarray(0, STREAM_PIECE) : bytes, false);
        });
      }
      // The end is said on its own address (the ticket's, with `?end`), never read from an empty
      // body: an engine that drops a body must not end a stream early.
      function send(piece, last) {
        return post(call, last ? address + '?end' : address, piece).then(function (reply) {
          var posted = readAnswer(reply);
          if (!last && typeof posted.upload === 'string') {
            address = posted.upload;
            sent += piece.byteLength;
            call.report(sent, undefined);
            return next();
          }
          // The end, or native stopped reading or refused: what it answered is the call's answer.
          // A piece refused for its ticket (the method stopped reading as it was posted, or Swift
          // ended the call) only ends the sending: the call's callback says how the call ended.
          if (!last) stop();
          if (posted.error && posted.error.code === CODE_NOT_ALLOWED) return;
          call.answered(reply);
        });
      }
      next().catch(function (error) {
        stop();
        if (call.finished) return;
        cancelNative(call.name);
        failed(error);
      });
    }, failed);
  }

  /** The sink of `invoke`: one settlement of its Promise, from the first result, the end or a
   *  failure. */
  function PromiseSink(method, data, resolve, reject) {
    this.method = method;
    this.data = data;
    this.resolve = resolve;
    this.reject = reject;
    this.settled = false;
  }

  /** `invoke` takes a `Data` result as a Uint8Array, and sends bytes as bytes. */
  PromiseSink.prototype.takesBytes = true;
  PromiseSink.prototype.result = function (value) {
    if (this.settled) return;
    this.settled = true;
    this.resolve(value);
  };
  PromiseSink.prototype.fail = function (error) {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  };
  PromiseSink.prototype.end = function () {
    if (this.settled) return;
    this.settled = true;
    this.resolve(undefined);
  };
  /** A method that returns nothing resolves `undefined`. */
  PromiseSink.prototype.nothing = PromiseSink.prototype.end;
  /** A synchronous native method: ask it the synchronous way. */
  PromiseSink.prototype.synchronous = function () {
    var answer = readAnswer(promptNative(this.method, wrap(this.data, null)));
    this.settled = true;
    if (answer.error) this.reject(fromNative(answer.error));
    else this.resolve(answer.void === true ? undefined : answer.data);
  };

  // --- Native -> page ----------------------------------------------------------------------------

  /** Calls `receive` with each result a message carries: `value`, or each of `values` (a run of
   *  results for one callback, sent together); one that throws does not stop the rest. */
  function eachValue(message, receive) {
    if ('value' in message) receive(message.value);
    if (!Array.isArray(message.values)) return;
    for (var i = 0; i < message.values.length; i++) {
      try { receive(message.values[i]); } catch (e) { /* the next result still arrives */ }
    }
  }

  /** One message for a callback this runtime opened; a promise while bytes are being fetched. */
  function deliverToRecord(record, name, message) {
    if (message.error) record.fail(message.error);
    else if (message.release) closeCallback(name);
    else if (message.bytes !== undefined && record.bytes) return record.bytes(message);
    else if (message.void && record.nothing) record.nothing();
    else {
      try {
        eachValue(message, function (value) { record.result(value); });
      } finally {
        if (message.complete) record.end(); // even when the page's callback threw
      }
    }
  }

  function deliverOne(message) {
    if (message.callback !== undefined) {
      var name = message.callback;
      var record = pending.get(name);
      if (record) {
        // A result that is bytes is fetched first; what follows it for the same call waits for it.
        if (record.chain || (message.bytes !== undefined && record.bytes)) {
          record.chain = (record.chain || Promise.resolve()).then(function () { return deliverToRecord(record, name, message); });
          return;
        }
        deliverToRecord(record, name, message);
        return;
      }
      if (message.bytes !== undefined) {
        delete window[name]; // never fetched for a callback this runtime did not open
        return;
      }
      // A callback this runtime did not open (a co-loaded dsbridge.js made it): plain semantics.
      var plain = window[name];
      try {
        if (typeof plain === 'function') {
          if (message.error) plain('', message.error);
          else eachValue(message, function (value) { plain(value); });
        }
      } finally {
        if (message.error || message.complete || message.release) delete window[name];
      }
    } else if (message.method !== undefined) {
      if (callsInOrder || (Array.isArray(message.bytes) && message.bytes.length)) callInOrder(message);
      else handleNativeCall(message.method, message.callbackId, message.args || []);
    } else if (message.cancel !== undefined) {
      var call = running.get(message.cancel);
      if (call) call.stop();
    } else if (message.event !== undefined) {
      var list = (listeners[message.event] || []).slice();
      for (var i = 0; i < list.length; i++) {
        try { list[i].call(null, message.value); } catch (e) { /* one listener does not stop the rest */ }
      }
    }
  }

  /** Delivers a batch from native, each message on its own, so one that throws stops nothing. */
  function deliver(messages) {
    for (var i = 0; i < messages.length; i++) {
      try { deliverOne(messages[i]); } catch (e) { /* the next message still runs */ }
    }
  }

  /** `table[key]` when the page registered it there itself, never what every object inherits
   *  (`toString`, `constructor`, `__proto__`): Swift finds only the page's own handlers. */
  function registered(table, key) {
    return table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
  }
  /** A method of an object the page registered as a namespace: its own or its class's, but not
   *  one every object has. */
  function namespaceMethod(ob, name) {
    return ob && (typeof ob === 'object' || typeof ob === 'function') && !(name in Object.prototype) && typeof ob[name] === 'function' ? ob[name] : undefined;
  }

  function findHandler(method) {
    var fn = registered(dsf, method);
    if (typeof fn === 'function') return { fn: fn, owner: dsf, async: false };
    fn = registered(dsaf, method);
    if (typeof fn === 'function') return { fn: fn, owner: dsaf, async: true };
    // WebViewJavascriptBridge names are flat: "a.b" is a name, not a namespace.
    fn = registered(wvjbHandlers, method);
    if (typeof fn === 'function') return { fn: fn, wvjb: true };
    var dot = method.lastIndexOf('.');
    if (dot < 0) return null;
    var namespace = method.slice(0, dot);
    var name = method.slice(dot + 1);
    var ob = registered(dsf._obs, namespace);
    fn = namespaceMethod(ob, name);
    if (fn) return { fn: fn, owner: ob, async: false };
    ob = registered(dsaf._obs, namespace);
    fn = namespaceMethod(ob, name);
    if (fn) return { fn: fn, owner: ob, async: true };
    return null;
  }

  function isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
  }

  /** Runs the page handler Swift called and answers through `_dsb.returnValue`. While the handler
   *  may still answer, native can withdraw the call (`{cancel: id}`): its later answers are
   *  dropped, and an asynchronous or WVJB handler's responder has a `signal` that aborts. */
  /** Calls of page handlers wait here behind one whose arguments are bytes being fetched, so
   *  handlers run in the order Swift called them. */
  var callsInOrder = null;
  function callInOrder(message) {
    var chain = callsInOrder = (callsInOrder || Promise.resolve()).then(function () {
      return withBytes(message).then(function (args) {
        handleNativeCall(message.method, message.callbackId, args);
      }, function (error) {
        bridge.call('_dsb.returnValue', { id: message.callbackId, error: toNativeError(error), complete: true });
      });
    });
    chain.then(function () { if (callsInOrder === chain) callsInOrder = null; });
  }

  /** A call's arguments, each that native sent as bytes fetched from the byte channel as a
   *  Uint8Array. A call of a handler the page lacks fetches nothing: it is answered as it is. */
  function withBytes(message) {
    var args = Array.isArray(message.args) ? message.args.slice() : [];
    var bytes = Array.isArray(message.bytes) ? message.bytes : [];
    if (!bytes.length || !findHandler(message.method)) return Promise.resolve(args);
    return Promise.all(bytes.map(function (argument) {
      if (!argument || typeof argument.index !== 'number' || !(argument.index >= 0 && argument.index < args.length)) return null;
      return fetchBytes(argument.source, argument.size).then(function (value) { args[argument.index] = value; });
    })).then(function () { return args; });
  }

  function handleNativeCall(method, callbackId, args) {
    var answered = false;
    var controller = null;
    function settle() {
      answered = true;
      running.delete(callbackId);
    }
    function answer(data, complete) {
      if (answered) return;
      if (complete) settle();
      bridge.call('_dsb.returnValue', { id: callbackId, data: data, complete: complete });
    }
    function answerError(error) {
      if (answered) return;
      settle();
      bridge.call('_dsb.returnValue', { id: callbackId, error: toNativeError(error), complete: true });
    }
    /** The responder of an asynchronous or WVJB handler, with the signal of its call. */
    function responder(respond) {
      if (typeof AbortController === 'function') {
        controller = new AbortController();
        respond.signal = controller.signal;
      }
      return respond;
    }
    running.set(callbackId, {
      stop: function () {
        settle();
        if (controller) controller.abort(bridgeError(CODE_CANCELLED, 'native withdrew the call'));
      }
    });
    var handler = findHandler(method);
    if (!handler) {
      answerError(bridgeError(CODE_NOT_FOUND, 'the page has no handler "' + method + '"'));
      return;
    }
    if (handler.wvjb) {
      runWVJBHandler(handler.fn, args, responder(function (data) { answer(data === undefined ? null : data, true); }), answerError);
      return;
    }
    var result;
    try {
      if (handler.async) {
        args = args.slice();
        args.push(responder(function (data, complete) { answer(data, complete !== false); }));
      }
      result = handler.fn.apply(handler.owner, args);
    } catch (error) {
      answerError(error);
      return;
    }
    if (isThenable(result)) {
      result.then(function (value) { if (!handler.async) answer(value, true); }, answerError);
    } else if (!handler.async) {
      answer(result, true);
    }
  }

  /** A WebViewJavascriptBridge handler: `fn(data, responseCallback)` with Swift's one argument,
   *  run a turn later (WVJB's alert-box safety timeout) unless the page turned that off. */
  function runWVJBHandler(fn, args, respond, answerError) {
    function run() {
      try {
        fn(args.length ? args[0] : null, respond);
      } catch (error) {
        answerError(error);
      }
    }
    if (wvjbSafetyTimeout) setTimeout(run, 0);
    else run();
  }

  // --- The page API --------------------------------------------------------------------------------

  var bridge = {
    /** dsbridge.js 3.1.4: synchronous without a callback (returns `.data`), asynchronous with one. */
    call: function (method, args, cb) {
      if (typeof args === 'function') {
        cb = args;
        args = {};
      }
      var name = null;
      if (typeof cb === 'function') {
        name = openCallback({
          result: function (value) { cb(value); },
          fail: function (error) { closeCallback(name); cb('', error); },
          end: function () { closeCallback(name); }
        });
      }
      var answer = readAnswer(promptNative(method, wrap(args, name)));
      if (name && answer.error) closeCallback(name);
      return answer.data;
    },

    register: function (name, fun, asyn) {
      var table = asyn ? dsaf : dsf;
      if (typeof fun === 'object') table._obs[name] = fun;
      else table[name] = fun;
    },

    registerAsyn: function (name, fun) {
      this.register(name, fun, true);
    },

    hasNativeMethod: function (name, type) {
      return this.call('_dsb.hasNativeMethod', { name: name, type: type || 'all' });
    },

    disableJavascriptDialogBlock: function (disable) {
      this.call('_dsb.disableJavascriptDialogBlock', { disable: disable !== false });
    },

    /** Presents credentials to the app's policy; a Promise of whether this page load is now
     *  authorised (until the page unloads). */
    authorize: function (credentials) {
      return this.invoke('_dsb.authorize', credentials);
    },

    /** Declares the native methods this page will call; returns the names native lacks. Under a
     *  strict policy, only declared methods answer. */
    declare: function (methods) {
      return this.call('_dsb.declare', { methods: methods }) || [];
    },

    /** A Promise of the result of any native method; rejects with an Error carrying `code`. */
    invoke: function (method, data, options) {
      var signal = options && options.signal, progress = options && options.onProgress;
      return new Promise(function (resolve, reject) {
        startCall(method, data, signal, new PromiseSink(method, data, resolve, reject), progress);
      });
    },

    /** Every result of a multi-response native method, as an async iterable. Leaving the loop
     *  early, or aborting the signal, cancels the native call. */
    stream: function (method, data, options) {
      var signal = options && options.signal, progress = options && options.onProgress;
      var queue = [];
      var waiting = [];
      var ended = false;
      var failure = null;
      function flush() {
        while (waiting.length && (queue.length || ended || failure)) {
          var next = waiting.shift();
          if (queue.length) next.resolve({ value: queue.shift(), done: false });
          else if (failure) next.reject(failure);
          else next.resolve({ value: undefined, done: true });
        }
      }
      // An abort ends the loop at once: results already delivered but not yet read are dropped.
      if (signal) signal.addEventListener('abort', function () { queue.length = 0; });
      function end() { ended = true; flush(); }
      var call = startCall(method, data, signal, {
        takesBytes: true,
        result: function (value) { queue.push(value); flush(); },
        fail: function (error) { failure = error; flush(); },
        end: end,
        nothing: end // a method that returns nothing yields nothing
      }, progress);
      var iterator = {
        next: function () {
          return new Promise(function (resolve, reject) {
            waiting.push({ resolve: resolve, reject: reject });
            flush();
          });
        },
        return: function () {
          if (!ended && !failure) {
            call.cancel();
            ended = true;
            failure = null;
          }
          queue.length = 0;
          flush();
          return Promise.resolve({ value: undefined, done: true });
        }
      };
      iterator[Symbol.asyncIterator] = function () { return iterator; };
      return iterator;
    },

    /** Listens to the named event native emits. */
    on: function (name, listener) {
      (listeners[name] = listeners[name] || []).push(listener);
    },

    /** Stops listening; without a listener, removes every listener of the event. */
    off: function (name, listener) {
      if (!listeners[name]) return;
      if (listener === undefined) delete listeners[name];
      else listeners[name] = listeners[name].filter(function (l) { return l !== listener; });
    }
  };

  /** `dsBridge.native.a.b.method(data, options)`: `invoke` (or `stream`) of `a.b.method`, written
   *  as the method's path. The typed declarations Keystone generates from the app's interfaces
   *  give each its types. A path segment named `then`, `toString`, `valueOf`, `toJSON` or
   *  `constructor` is never a method here (printing or awaiting a namespace would call native):
   *  call such a method with `invoke`. */
  var notMethods = { then: true, valueOf: true, toJSON: true, constructor: true };
  function nativeClient(path) {
    var shown = 'dsBridge.native' + (path ? '.' + path : '');
    return new Proxy(function () {}, {
      get: function (_, key) {
        // What printing, converting or awaiting a namespace asks for is never a method: `then`
        // (it would pass for a Promise), `toString`, `valueOf`, `toJSON`, `constructor`.
        if (key === 'toString') return function () { return shown; };
        if (typeof key !== 'string' || Object.prototype.hasOwnProperty.call(notMethods, key)) return undefined;
        return nativeClient(path ? path + '.' + key : key);
      },
      apply: function (_, self, args) { return nativeCall(path, args[0], args[1]); }
    });
  }

  /** One call of the client: a Promise of its result (`invoke`), unless the page iterates it at
   *  once, in the same turn (`for await`), when it is the iterator of `stream`. The runtime cannot
   *  know a method's kind, so the page's first use decides; a call nobody uses goes as `invoke`. */
  function nativeCall(method, data, options) {
    var promise = null, iterator = null;
    function asPromise() {
      if (!promise && !iterator) {
        promise = invokeNative.call(bridge, method, data, options);
        promise.catch(function () {}); // a call nobody awaits raises no unhandled rejection
      }
      return promise || Promise.reject(bridgeError(CODE_UNSUPPORTED_CALL_KIND, 'the call is being iterated'));
    }
    Promise.resolve().then(function () { if (!iterator) asPromise(); });
    var handle = {
      then: function (resolve, reject) { return asPromise().then(resolve, reject); },
      catch: function (reject) { return asPromise().catch(reject); },
      finally: function (done) { return asPromise().finally(done); }
    };
    handle[Symbol.asyncIterator] = function () {
      if (!promise && !iterator) iterator = streamNative.call(bridge, method, data, options);
      if (!iterator) throw bridgeError(CODE_UNSUPPORTED_CALL_KIND, 'iterate a multi-response call in the turn it is made');
      return iterator;
    };
    // It is the iterator too, as the declarations type a multi-response method's call.
    handle.next = function () { return handle[Symbol.asyncIterator]().next(); };
    handle.return = function () { return handle[Symbol.asyncIterator]().return(); };
    return handle;
  }
  // The client calls the runtime's own invoke and stream, whatever a page later puts in their place.
  var invokeNative = bridge.invoke, streamNative = bridge.stream;
  bridge.native = nativeClient('');

  /** WebViewJavascriptBridge 6's page API over the same wire: `callHandler("a.b.m", data, cb)`
   *  calls Swift's method `m` of namespace `a.b`; Swift calls `registerHandler` handlers by name. */
  var wvjb = {
    registerHandler: function (name, handler) {
      wvjbHandlers[name] = handler;
    },

    /** `callHandler(name, data?, responseCallback?)`; `callHandler(name, cb)` sends `null`. The
     *  callback receives each result, or `null` and `{code, message}` on failure (upstream never
     *  answers a failure; an old page ignores the second argument). Without a callback: a Promise. */
    callHandler: function (name, data, responseCallback) {
      if (arguments.length === 2 && typeof data === 'function') {
        responseCallback = data;
        data = null;
      }
      if (data === undefined) data = null;
      if (typeof responseCallback !== 'function') {
        var promise = bridge.invoke(name, data);
        promise.catch(function () {}); // a page that ignores the Promise sees no unhandled rejection
        return promise;
      }
      function failed(error) { responseCallback(null, { code: error.code, message: error.message }); }
      startCall(name, data, null, {
        takesBytes: true,
        result: function (value) { responseCallback(value); },
        fail: failed,
        end: function () {},
        synchronous: function () {
          var answer = readAnswer(promptNative(name, wrap(data, null)));
          if (answer.error) failed(fromNative(answer.error));
          else responseCallback(answer.data);
        }
      });
    },

    /** Upstream's spelling. Handlers Swift calls then run at once instead of a turn later. */
    disableJavscriptAlertBoxSafetyTimeout: function () {
      wvjbSafetyTimeout = false;
    }
  };

  window._dsf = dsf;
  window._dsaf = dsaf;
  window.dsBridge = bridge;
  if (!window.WebViewJavascriptBridge) {
    window.WebViewJavascriptBridge = wvjb;
    // setupWebViewJavascriptBridge queued its callbacks before the bridge existed: call each once,
    // in order, then forget them.
    var queued = window.WVJBCallbacks;
    delete window.WVJBCallbacks;
    if (Array.isArray(queued)) {
      for (var q = 0; q < queued.length; q++) {
        try { queued[q](wvjb); } catch (e) { /* one page callback does not stop the rest */ }
      }
    }
  }
  window.close = function () { bridge.call('_dsb.closePage'); };
  /** dsbridge.js's entry for native's calls (`{method, callbackId, data}`, `data` a JSON array as
   *  text). What it is handed is read with care: something that is not such a call does nothing. */
  window._handleMessageFromNative = function (info) {
    if (!info || typeof info.method !== 'string' || typeof info.callbackId !== 'number') return;
    var args;
    try {
      args = JSON.parse(info.data);
    } catch (e) {
      args = null;
    }
    handleNativeCall(info.method, info.callbackId, Array.isArray(args) ? args : []);
  };
  Object.defineProperty(window, '_keystone', {
    // `pendingCallbacks()`: the names of the callbacks still open, for finding a call that never ended.
    value: { version: 1, deliver: deliver, pendingCallbacks: function () { return Array.from(pending.keys()); } },
    enumerable: false
  });

  bridge.register('_hasJavascriptMethod', function (method) {
    return findHandler(String(method)) !== null;
  });

  // Tell native the page is ready, and that it runs this runtime, once the document's scripts have
  // registered their handlers: a turn after DOMContentLoaded (so handlers registered in the page's
  // own DOMContentLoaded listeners count too), or on the next turn when the document has loaded.
  // Native calls made before then wait. (A dsbridge.js that loaded first may send its own as well.)
  window._dsInit = true;
  function announce() {
    setTimeout(function () {
      if (bridge.call('_dsb.dsinit', { runtime: 'keystone', version: 1 }) === 'keystone') nativeDelivers = true;
    }, 0);
  }
  var document = window.document;
  if (document && document.readyState === 'loading') document.addEventListener('DOMContentLoaded', announce);
  else announce();
  // A page the engine restores from its back/forward cache is a new page load for native, which
  // waits for this runtime to announce itself again.
  if (typeof window.addEventListener === 'function') {
    window.addEventListener('pageshow', function (event) {
      if (!event || !event.persisted) return;
      // Native ended this document's calls when it left: each one still open fails now, coded,
      // instead of waiting for an answer that cannot come.
      var open = Array.from(pending.values());
      pending.forEach(function (record, name) { closeCallback(name); });
      var gone = bridgeError(CODE_PAGE_GONE, 'the page was restored from the back/forward cache: native ended its calls');
      open.forEach(function (record) { try { record.fail(gone); } catch (e) { /* the next still fails */ } });
      announce();
    });
  }
})(window);
