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
  // The most characters of a mark's name sent (native keeps names of up to 256 UTF-8 bytes), and
  // the most marks held until native answers the runtime's announcement.
  var MARK_NAME_LENGTH = 85;
  var MARKS_HELD = 1000;

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
  // Whether native has a byte channel for this document, as it said when the runtime announced
  // itself; calls whose values hold bytes wait for that word (their results would wait anyway).
  var byteChannel = false;
  var announcedResolve = null;
  var announced = new Promise(function (resolve) { announcedResolve = resolve; });
  var tracesMarks = false; // native traces, and keeps the page's marks (its dsinit answer says so)
  var heldMarks = []; // marks made before the runtime announced itself, until native answers; then null
  var lastSpan = 0;
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
   *  `parts` (`_dsparts`) says the call moves `Data` as parts: an array of the sizes of the parts
   *  its `data` names by index (empty: none, but results' bytes come as bytes), or `'"stream"'`,
   *  the argument a stream of bytes; `durable` (`_dsdurable`) is a durable call's key. */
  function wrap(data, callback, inline, parts, durable) {
    // A value JSON cannot write (undefined, a function) is sent as null, as a member holding it
    // would be left out. The callback name is the runtime's own: letters, digits and `_`.
    var text = JSON.stringify(data);
    return '{"data":' + (text === undefined ? 'null' : text) + (callback ? ',"_dscbstub":"' + callback + '"' : '') +
      (inline ? ',"_dsinline":true' : '') + (durable !== undefined ? ',"_dsdurable":' + JSON.stringify(durable) : '') +
      (parts !== undefined ? ',"_dsparts":' + (typeof parts === 'string' ? parts : '[' + parts.join(',') + ']') + '}' : '}');
  }

  // --- Durable calls -------------------------------------------------------------------------

  /** A durable call: native runs it once under `key` for this page's origin, whatever becomes of
   *  the page, and a later document can recover its outcome. Its bytes move as any call's do (over
   *  the byte channel, or as base64 where there is none), its outcome comes as JSON (bytes as
   *  base64), it cannot be aborted, and once its outcome is here, native is told it was taken. */
  function invokeDurable(method, data, key) {
    return new Promise(function (resolve, reject) {
      var call = new NativeCall(method, null, new PromiseSink(method, data, function (value) {
        acknowledge([key]);
        resolve(value);
      }, function (error) {
        acknowledge([key]);
        reject(error);
      }));
      if (!hasNative()) return call.failWith(bridgeError(CODE_NOT_FOUND, 'no native bridge on this page'));
      if (isReadableStream(data)) {
        return call.failWith(bridgeError(CODE_UNSUPPORTED_CALL_KIND, 'a durable call\'s argument cannot be a stream: it may be sent again'));
      }
      if (mapParts(data, function () { return 0; }) !== data) {
        return announced.then(function () { sendWithParts(call, method, data, false, key); }).catch(function (error) {
          call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error)));
        });
      }
      sendNative(method, wrap(data, call.name, false, undefined, key)).then(function (text) { call.answered(text); }, function (error) {
        call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error)));
      });
    });
  }

  /** Tells native the page has taken the outcomes of the durable calls under `keys`. */
  function acknowledge(keys) {
    if (keys.length && hasNative()) sendNative('_dsb.acknowledge', wrap({ keys: keys })).catch(function () {});
  }

  /** A new key for a durable call: 128 random bits. */
  function durableKey() {
    var bytes = new Uint8Array(16), text = '';
    crypto.getRandomValues(bytes);
    for (var i = 0; i < bytes.length; i++) text += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return text;
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

  function fromBase64(text) {
    var binary = atob(String(text)), bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** How deep `mapParts` looks for bytes: as deep as native reads a value. */
  var PARTS_DEPTH = 512;

  /** A copy of `value` with each bytes value in it (an ArrayBuffer, typed array, DataView or Blob)
   *  replaced by what `replace(bytes)` returns, in the order JSON writes them; `value` itself when
   *  it holds none. Only what JSON writes is looked at: arrays, and plain objects' own keys. */
  function mapParts(value, replace, depth) {
    if (isBytes(value)) return replace(value);
    if (value === null || typeof value !== 'object' || (depth || 0) > PARTS_DEPTH || typeof value.toJSON === 'function') return value;
    var copy = null, keys = Array.isArray(value) ? null : Object.keys(value), count = keys ? keys.length : value.length;
    for (var i = 0; i < count; i++) {
      var key = keys ? keys[i] : i, item = value[key], mapped = mapParts(item, replace, (depth || 0) + 1);
      if (mapped === item && !copy) continue;
      if (!copy) {
        copy = keys ? {} : value.slice();
        for (var j = 0; keys && j < i; j++) define(copy, keys[j], value[keys[j]]);
      }
      if (keys) define(copy, key, mapped);
      else copy[key] = mapped;
    }
    return copy || value;
  }

  /** Sets `object[key]` as data, even a key spelling `__proto__`. */
  function define(object, key, value) {
    Object.defineProperty(object, key, { value: value, enumerable: true, writable: true, configurable: true });
  }

  /** `value` with each string that is `marker` and a part's index replaced by that part, in place
   *  (a value native sent, freshly parsed); the value itself, when it is such a string. */
  function placeParts(value, marker, parts, depth) {
    if (typeof value === 'string') {
      if (value.lastIndexOf(marker, 0) !== 0) return value;
      var index = Number(value.slice(marker.length));
      return index >= 0 && index < parts.length && String(index) === value.slice(marker.length) ? parts[index] : value;
    }
    if (value === null || typeof value !== 'object' || (depth || 0) > PARTS_DEPTH) return value;
    var keys = Array.isArray(value) ? null : Object.keys(value), count = keys ? keys.length : value.length;
    for (var i = 0; i < count; i++) {
      var key = keys ? keys[i] : i;
      var placed = placeParts(value[key], marker, parts, (depth || 0) + 1);
      if (placed !== value[key]) {
        if (keys) define(value, key, placed);
        else value[key] = placed;
      }
    }
    return value;
  }

  /** The parts of a message from native, `{marker, sizes, ticket}` or `{marker, sizes, base64}`:
   *  fetched from the byte channel with the ticket, or read from the message; each a Uint8Array. */
  function fetchParts(parts, signal, progress, into) {
    var sizes = Array.isArray(parts.sizes) ? parts.sizes : [];
    if (Array.isArray(parts.base64)) {
      return new Promise(function (resolve) {
        var decoded = parts.base64.map(fromBase64), total = 0;
        for (var i = 0; i < decoded.length; i++) total += decoded[i].length;
        if (progress) progress(total, total);
        if (!fits(into, total)) return resolve(decoded);
        // Into the page's buffer, each part a view of its place there.
        var views = [], at = 0;
        for (var k = 0; k < decoded.length; k++) {
          into.set(decoded[k], at);
          views.push(into.subarray(at, at + decoded[k].length));
          at += decoded[k].length;
        }
        resolve(views);
      });
    }
    var total = 0;
    for (var i = 0; i < sizes.length; i++) total += sizes[i];
    if (!fits(into, total)) into = null;
    // Whatever fails on the way (a page script's own String, say) fails the call, never leaves it waiting.
    return new Promise(function (resolve) { resolve(fetchBytes(String(parts.ticket), total, signal, progress, into)); }).then(function (bytes) {
      if (into && bytes.buffer !== into.buffer) {
        into.set(bytes);
        bytes = into.subarray(0, total);
      }
      if (sizes.length === 1) return [bytes];
      var out = [], at = 0;
      for (var k = 0; k < sizes.length; k++) {
        out.push(into ? bytes.subarray(at, at + sizes[k]) : bytes.slice(at, at + sizes[k]));
        at += sizes[k];
      }
      return out;
    });
  }

  // What a genuine buffer is, read from the engine's own getters as the runtime loads: a Proxy or
  // an object dressed as one answers neither.
  var viewLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
  var viewTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
  var bufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  var isView = ArrayBuffer.isView;

  /** The page's buffer for a result's bytes (`invoke`'s `into`), as a Uint8Array over its bytes: a
   *  Uint8Array as it is, another typed array, a DataView or an ArrayBuffer as a view of all of
   *  it; `null` for none. Anything else (a Proxy of a typed array, an object that only looks like
   *  one) is refused before the call is sent, with code 2. */
  function pageBuffer(into) {
    if (into === undefined || into === null) return null;
    if (isView(into)) {
      if (viewTag.call(into) === 'Uint8Array') return into;
      return new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    }
    try {
      bufferLength.call(into);
      return new Uint8Array(into);
    } catch (e) {
      throw bridgeError(CODE_INVALID_ARGUMENT, 'into is not a typed array, a DataView or an ArrayBuffer');
    }
  }

  /** Whether the page's buffer `into` holds `total` bytes. */
  function fits(into, total) {
    return into !== null && into !== undefined && viewLength.call(into) >= total;
  }

  /** The bytes of a message's parts from the byte channel: a Uint8Array of `size` bytes. With
   *  `progress`, the bytes are read as they come, and it hears how many have, and always once at
   *  the end. */
  function fetchBytes(source, size, signal, progress, into) {
    if (!host || typeof host.download !== 'function') return fetchFrom(source, size, signal, progress);
    // A host that can hand Swift's bytes to the page itself (WebKitGTK's, through its web-process
    // extension) does, into the page's buffer when it has one; where it cannot, they are fetched
    // from the address.
    return new Promise(function (resolve) { resolve(host.download(source, size, into || undefined)); }).then(function (outcome) {
      if (outcome === undefined) return fetchFrom(source, size, signal, progress);
      if (outcome instanceof Uint8Array && outcome.length === size) {
        if (progress) progress(size, size);
        return outcome;
      }
      var error = outcome && typeof outcome.error === 'string' ? readAnswer(outcome.error) : {};
      throw fromNative(typeof error.code === 'number' ? error : { code: CODE_FAILED, message: 'the bytes could not be handed over' });
    });
  }

  /** Fetches the bytes from the byte channel's address. */
  function fetchFrom(source, size, signal, progress) {
    return fetch(source, signal ? { signal: signal } : undefined).then(function (response) {
      if (!response.ok) {
        return response.text().then(function (text) {
          var error = readAnswer(text);
          throw fromNative(typeof error.code === 'number' ? error : { code: CODE_FAILED, message: 'the bytes could not be fetched' });
        });
      }
      if (progress && response.body && typeof response.body.getReader === 'function') return readCounting(response.body.getReader(), size, progress);
      return response.arrayBuffer();
    }).then(function (buffer) {
      if (buffer.byteLength !== size) throw bridgeError(CODE_FAILED, 'the bytes arrived cut short');
      if (progress) progress(size, size);
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
        if (received < size) progress(received, size);
        return next();
      });
    }
    return next();
  }

  /** The most bytes one piece carries: a transfer of more goes in pieces, each sent once native
   *  answered the one before, and progress is told after each. */
  var PIECE_BYTES = 1 << 20;
  /** The most bytes the next piece of a call's parts carries: more where the host hands pieces
   *  over without copying them through a request (`_keystoneHost.pieceBytes`, WebKitGTK's
   *  web-process extension), never more than 64 MiB. */
  function pieceBytes() {
    var larger = host && typeof host.pieceBytes === 'function' ? Number(host.pieceBytes()) : 0;
    return larger > PIECE_BYTES ? Math.min(larger, 64 << 20) : PIECE_BYTES;
  }

  /** A chunk of a ReadableStream the page passed, as a Uint8Array, or `null` when it is not bytes. */
  function chunkBytes(value) {
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return null;
  }

  /** The body of bytes `from`..`to` of `parts` (each a buffer, view or Blob), one after another:
   *  a view of one part where the range is in it, or a Blob of the pieces of several. */
  function pieceOf(parts, from, to) {
    var segments = [], at = 0;
    for (var i = 0; i < parts.length && at < to; i++) {
      var size = byteCount(parts[i]), start = Math.max(from - at, 0), end = Math.min(to - at, size);
      if (end > start) segments.push(sliceOf(parts[i], start, end));
      at += size;
    }
    return segments.length === 1 ? segments[0] : new Blob(segments);
  }

  function sliceOf(value, start, end) {
    if (typeof Blob === 'function' && value instanceof Blob) return value.slice(start, end);
    var view = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return view.subarray(start, end);
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

  /** Tells native the page stopped waiting for the call behind `name`, by the way the call itself
   *  went: a cancel never overtakes its call (a prompt would reach native before a message sent
   *  earlier), so native always has the call to cancel, and nothing of it stays. */
  function cancelNative(name) {
    sendNative('_dsb.cancel', wrap({ callback: name })).catch(function () {});
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
    this.sending = null; // the bytes of the call's parts in all, while they are being sent
    this.into = null; // the page's buffer the result's bytes go into, when they fit (`invoke`'s `into`)
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
    this.sent();
    if (!this.finished) this.sink.result(value);
  };
  NativeCall.prototype.fail = function (error) {
    this.failWith(fromNative(error));
  };
  NativeCall.prototype.end = function () {
    this.sent();
    if (this.finish()) this.sink.end();
  };
  /** The method returns nothing: `undefined` where the sink takes it (`invoke`), `""` otherwise,
   *  as DSBridge sends it. */
  NativeCall.prototype.nothing = function () {
    this.sent();
    if (!this.finish()) return;
    if (this.sink.nothing) {
      this.sink.nothing();
    } else {
      this.sink.result('');
      this.sink.end();
    }
  };
  /** Gives the call a callback name of its own again, before it is sent a second way (as base64
   *  after the byte channel could not be reached): whatever native still sends under the first
   *  name (the withdrawn call's end) reaches no live call. */
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
  /** A result whose value has parts: they are fetched, put in their places, then the result is
   *  handed on like any other. */
  NativeCall.prototype.parts = function (message) {
    var call = this;
    if (this.finished) return Promise.resolve();
    var progress = this.progress && function (moved, total) { call.report(moved, total); };
    return fetchParts(message.parts, this.signal, progress, this.into).then(function (parts) {
      call.result(placeParts(message.value, String(message.parts.marker), parts));
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
  /** All of the call's parts have arrived: progress hears their end once, whether native's word
   *  on the last piece or the call's outcome, which may overtake it, comes first. */
  NativeCall.prototype.sent = function () {
    if (this.sending === null) return;
    var total = this.sending;
    this.sending = null;
    this.report(total, total);
  };
  /** The call's own answer: a result inline, an error, or that results come through the callback. */
  NativeCall.prototype.answered = function (text) {
    var answer = readAnswer(text);
    if (answer.inline === true && answer.code === 0 && !answer.error) {
      this.sent();
      // A synchronous method's result, answered at once: no result comes through the callback.
      if (answer.void === true) {
        this.nothing();
      } else if (this.finish()) {
        this.sink.result(answer.data);
        this.sink.end();
      }
    } else if (answer.error) {
      this.sending = null;
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
    var speaksParts = sink.takesParts === true, inline = !!sink.synchronous;
    if (speaksParts && isReadableStream(data)) {
      announced.then(function () { sendStream(call, method, data, sink); }).catch(failed);
    } else if (speaksParts && mapParts(data, function () { return 0; }) !== data) {
      announced.then(function () { sendWithParts(call, method, data, inline); }).catch(failed);
    } else {
      sendNative(method, wrap(data, call.name, inline, speaksParts ? [] : undefined)).then(function (text) {
        call.answered(text);
      }, failed);
    }
    return call;
  }

  /** Sends `data`, which holds bytes, as the argument of `call` (a durable call's, when `durable`
   *  is its key): with a byte channel, each bytes value a part its JSON names by index, the parts
   *  posted under the ticket native answers with; without one (or where the page cannot reach
   *  it), each as base64 in its place. The call's outcome comes through its callback either way. */
  function sendWithParts(call, method, data, inline, durable) {
    if (call.finished) return; // aborted before it went: native never hears of it
    var parts = [];
    var value = mapParts(data, function (bytes) { parts.push(bytes); return parts.length - 1; });
    if (!byteChannel) return sendAsBase64(call, method, data, inline, durable);
    var sizes = parts.map(byteCount), total = 0;
    for (var i = 0; i < sizes.length; i++) total += sizes[i];
    sendNative(method, wrap(value, call.name, inline, sizes, durable)).then(function (text) {
      var answer = readAnswer(text);
      if (typeof answer.ticket !== 'string') return call.answered(text);
      return sendPieces(call, answer.ticket, function (from, to) { return Promise.resolve(pieceOf(parts, from, to)); }, total).catch(function () {
        // The channel could not be reached (a content security policy, say): the ticketed call is
        // withdrawn, and the bytes go as base64 from now on.
        if (call.finished) return;
        cancelNative(call.name);
        byteChannel = false;
        call.renew();
        sendAsBase64(call, method, data, inline, durable);
      });
    }).catch(function (error) { call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error))); });
  }

  /** Sends `data` with each bytes value in it as base64 in its place, as a `Data` in JSON. A
   *  durable call's (`durable`, its key) takes its outcome's bytes as base64 too. */
  function sendAsBase64(call, method, data, inline, durable) {
    if (call.finished) return Promise.resolve();
    var reads = [], total = 0;
    mapParts(data, function (bytes) { total += byteCount(bytes); reads.push(toBase64(bytes)); return null; });
    return Promise.all(reads).then(function (texts) {
      var next = 0;
      var value = mapParts(data, function () { return texts[next++]; });
      return sendNative(method, wrap(value, call.name, inline, durable === undefined ? [] : undefined, durable));
    }).then(function (text) {
      // Sent in the call itself: progress hears it at the end.
      call.sending = total;
      call.sent();
      call.answered(text);
    }, function (error) { call.failWith(error); });
  }

  /** Posts `total` bytes under `ticket`, piece by piece (`body(from, to)` gives each), the next
   *  once native answered this one, telling progress after each; resolves when native wants no
   *  more (all arrived, or it refused), rejects when the channel cannot be reached. */
  function sendPieces(call, ticket, body, total) {
    var sent = 0, piece = 0;
    call.sending = total;
    function next() {
      if (call.finished) return undefined;
      var size = Math.min(pieceBytes(), total - sent);
      return body(sent, sent + size).then(function (bytes) {
        return post(call, ticket, '?piece=' + piece, bytes);
      }).then(function (reply) {
        if (!reply.ok) return undefined; // refused: the call's callback says how it ended
        piece += 1;
        sent += size;
        if (sent < total) call.report(sent, total);
        else call.sent();
        return reply.more && sent < total ? next() : undefined;
      });
    }
    return next();
  }

  /** Posts one piece (or a stream's end) under `ticket` with `query`: `{ok, more}` from native's
   *  answer. A host that keeps the tickets posts them itself (WebKitGTK's relay, which holds the
   *  address behind a handle); otherwise they go to the address, a Blob's bytes read first. */
  function post(call, ticket, query, bytes) {
    var answered = host && typeof host.upload === 'function'
      ? new Promise(function (resolve) { resolve(host.upload(ticket, query, bytes)); })
      : bodyOf(bytes).then(function (body) {
        var init = { method: 'POST', body: body };
        if (call.signal) init.signal = call.signal;
        return fetch(ticket + query, init);
      }).then(function (response) {
        return response.text().then(function (text) { return JSON.stringify({ ok: response.ok, answer: readAnswer(text) }); });
      });
    return answered.then(function (text) {
      var reply = readAnswer(text);
      return { ok: reply.ok === true, more: !!(reply.answer && reply.answer.more === true) };
    });
  }

  /** Sends `stream` as the argument of `call`, chunk by chunk: announced as a stream, then each
   *  piece posted under the ticket the answer carried, the next once native has room for it; its
   *  end posted after the last. A method that takes `Data` gets the chunks gathered. Where there is
   *  no byte channel, the stream is gathered and sent as base64. */
  function sendStream(call, method, stream, sink) {
    function failed(error) {
      call.failWith(error instanceof Error ? error : bridgeError(CODE_FAILED, String(error)));
    }
    function asBase64() {
      new Response(stream).blob().then(function (blob) { sendAsBase64(call, method, blob, !!sink.synchronous); }, failed);
    }
    if (call.finished) return undefined; // aborted before it went: native never hears of it
    if (!byteChannel) return asBase64();
    sendNative(method, wrap(0, call.name, false, '"stream"')).then(function (text) {
      var answer = readAnswer(text);
      if (typeof answer.ticket !== 'string') return call.answered(text);
      var reader = stream.getReader(), ticket = answer.ticket, pending = null, sent = 0, piece = 0;
      function stop() {
        try { reader.cancel().catch(function () {}); } catch (e) { /* already released */ }
      }
      function next() {
        if (call.finished) return stop();
        var chunk = pending ? Promise.resolve({ value: pending, done: false }) : reader.read();
        return chunk.then(function (read) {
          if (call.finished) return stop();
          if (read.done) return post(call, ticket, '?end=' + piece, new Uint8Array(0)).then(function () { call.report(sent, sent); });
          var bytes = chunkBytes(read.value);
          if (!bytes) throw bridgeError(CODE_INVALID_ARGUMENT, 'a chunk of the stream is not bytes');
          if (!bytes.byteLength) return next(); // an empty chunk is skipped: no piece goes without bytes
          var body = bytes.byteLength > PIECE_BYTES ? bytes.subarray(0, PIECE_BYTES) : bytes;
          pending = bytes.byteLength > PIECE_BYTES ? bytes.subarray(PIECE_BYTES) : null;
          return post(call, ticket, '?piece=' + piece, body).then(function (reply) {
            if (!reply.ok || !reply.more) return stop(); // the method stopped reading, or refused: its callback says how
            piece += 1;
            sent += body.byteLength;
            call.report(sent, undefined);
            return next();
          });
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

  /** `invoke` moves `Data` as parts both ways: bytes anywhere in its argument go as bytes, and
   *  each `Data` in its result is a Uint8Array. */
  PromiseSink.prototype.takesParts = true;
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
    else if (message.parts && record.parts) return record.parts(message);
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
        // A result with parts is fetched first; what follows it for the same call waits for it.
        if (record.chain || (message.parts && record.parts)) {
          record.chain = (record.chain || Promise.resolve()).then(function () { return deliverToRecord(record, name, message); });
          return;
        }
        deliverToRecord(record, name, message);
        return;
      }
      if (message.parts) {
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
      if (callsInOrder || message.parts) callInOrder(message);
      else handleNativeCall(message.method, message.callbackId, message.args || [], message.durable);
    } else if (message.cancel !== undefined) {
      var call = running.get(message.cancel);
      if (call) call.stop();
    } else if (message.event !== undefined && (callsInOrder || message.parts)) {
      callInOrder(message);
    } else if (message.event !== undefined) {
      emitEvent(message.event, message.value);
    }
  }

  /** Hands an event's value to each of its listeners; one that throws does not stop the rest. */
  function emitEvent(name, value) {
    var list = (listeners[name] || []).slice();
    for (var i = 0; i < list.length; i++) {
      try { list[i].call(null, value); } catch (e) { /* one listener does not stop the rest */ }
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

  /** Calls of page handlers and events wait here behind one whose value has parts being fetched,
   *  so they reach the page in the order Swift sent them. */
  var callsInOrder = null;
  function callInOrder(message) {
    var chain = callsInOrder = (callsInOrder || Promise.resolve()).then(function () {
      var isEvent = message.event !== undefined;
      return withParts(message, isEvent ? message.value : message.args).then(function (value) {
        if (isEvent) emitEvent(message.event, value);
        else handleNativeCall(message.method, message.callbackId, Array.isArray(value) ? value : [], message.durable);
      }, function (error) {
        // The handler never saw the call: `undelivered` tells native so (a durable call goes on
        // to the next document; the document's loads stop as it goes).
        if (!isEvent) bridge.call('_dsb.returnValue', { id: message.callbackId, error: toNativeError(error), complete: true, undelivered: true });
      });
    });
    chain.then(function () { if (callsInOrder === chain) callsInOrder = null; });
  }

  /** `value` with its parts, fetched, in their places. A call of a handler the page lacks fetches
   *  nothing: it is answered as it is. */
  function withParts(message, value) {
    if (!message.parts || (message.method !== undefined && !findHandler(message.method))) return Promise.resolve(value);
    return fetchParts(message.parts).then(function (parts) { return placeParts(value, String(message.parts.marker), parts); });
  }

  /** Runs the page handler Swift called and answers through `_dsb.returnValue`. While the handler
   *  may still answer, native can withdraw the call (`{cancel: id}`): its later answers are
   *  dropped, and an asynchronous or WVJB handler's responder has a `signal` that aborts.
   *  `durable` is a durable Swift call's id, the same in every document it goes to: the responder
   *  carries it, for a handler that may have seen the call in a document that went. */
  function handleNativeCall(method, callbackId, args, durable) {
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
      if (typeof durable === 'string') respond.durable = durable;
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

    /** The durable calls earlier documents of this page's origin made, once none still runs: each
     *  `{key, method, value}` or `{key, method, error}`. Each is handed to one document until it
     *  has it: a page that goes before this resolves gets them again in its next document. */
    recovered: function () {
      return this.invoke('_dsb.recovered').then(function (calls) {
        acknowledge(calls.map(function (call) { return call.key; }));
        return calls;
      });
    },

    /** Declares the native methods this page will call; returns the names native lacks. Under a
     *  strict policy, only declared methods answer. */
    declare: function (methods) {
      return this.call('_dsb.declare', { methods: methods }) || [];
    },

    /** A Promise of the result of any native method; rejects with an Error carrying `code`. With
     *  `durable` (a key, or `true` for a new one), the call runs once under its key and outlives
     *  the page: see `recovered`. */
    invoke: function (method, data, options) {
      var durable = options && options.durable;
      if (durable === true || typeof durable === 'string') return invokeDurable(method, data, durable === true ? durableKey() : durable);
      var signal = options && options.signal, progress = options && options.onProgress;
      return new Promise(function (resolve, reject) {
        var into = pageBuffer(options ? options.into : undefined);
        startCall(method, data, signal, new PromiseSink(method, data, resolve, reject), progress).into = into;
      });
    },

    /** Every result of a multi-response native method, as an async iterable. Leaving the loop
     *  early, or aborting the signal, cancels the native call. */
    stream: function (method, data, options) {
      var signal = options && options.signal, progress = options && options.onProgress;
      var call = null;
      var results = resultQueue(function () { call.cancel(); });
      // An abort ends the loop at once: results already delivered but not yet read are dropped.
      if (signal) signal.addEventListener('abort', results.drop);
      call = startCall(method, data, signal, {
        takesParts: true,
        result: results.push,
        fail: results.fail,
        end: results.end,
        nothing: results.end // a method that returns nothing yields nothing
      }, progress);
      return results.iterator;
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
    },

    /** A dedicated `Worker` running `url` (a classic script, or a module with `{type: 'module'}`)
     *  whose global has `dsBridge` before `url` runs: `invoke` (with `signal` and `durable`) and
     *  `stream`, each call made through this document, as this document's. Bytes the worker passes
     *  are moved to the document, not copied, and the results' bytes are moved to the worker. The
     *  worker's calls end with this document, or when `terminate()` ends the worker. The worker
     *  starts from a `blob:` address: a page whose Content-Security-Policy limits workers allows
     *  `worker-src blob:` (or `script-src blob:`), and `url` itself. */
    worker: function (url, options) {
      return startWorker(url, options);
    },

    /** Marks a span of the page's own work on native's trace, beside the bridge's own events, and
     *  returns it: its `end()` ends it (once); a span never ended is drawn as an instant. Only a
     *  Keystone that traces keeps marks (its answer to the runtime's announcement says so): on any
     *  other, a mark sends nothing. A name is cut at 85 characters. */
    mark: function (name) {
      var span = ++lastSpan, label = String(name).slice(0, MARK_NAME_LENGTH), ended = false;
      sendMark('begin', label, span, markClock());
      return {
        end: function () {
          if (ended) return;
          ended = true;
          sendMark('end', label, span, markClock());
        }
      };
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
        takesParts: true,
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
    handleNativeCall(info.method, info.callbackId, Array.isArray(args) ? args : [], info.durable);
  };
  /** A stream's results as an async iterator, in the order they arrive: `push` each, then `end`
   *  or `fail`; leaving the loop early calls `cancel`, once, while the stream runs, and `drop`
   *  forgets the results not yet read. It refers to nothing outside itself: a worker's runtime is
   *  given its source too. */
  function resultQueue(cancel) {
    var queue = [], waiting = [], ended = false, failure = null;
    function flush() {
      while (waiting.length && (queue.length || ended || failure)) {
        var next = waiting.shift();
        if (queue.length) next.resolve({ value: queue.shift(), done: false });
        else if (failure) next.reject(failure);
        else next.resolve({ value: undefined, done: true });
      }
    }
    var iterator = {
      next: function () {
        return new Promise(function (resolve, reject) {
          waiting.push({ resolve: resolve, reject: reject });
          flush();
        });
      },
      return: function () {
        if (!ended && !failure) {
          cancel();
          ended = true;
        }
        queue.length = 0;
        flush();
        return Promise.resolve({ value: undefined, done: true });
      }
    };
    iterator[Symbol.asyncIterator] = function () { return iterator; };
    return {
      iterator: iterator,
      push: function (value) { queue.push(value); flush(); },
      end: function () { ended = true; flush(); },
      fail: function (error) { failure = error; flush(); },
      drop: function () { queue.length = 0; }
    };
  }

  // --- Workers ---------------------------------------------------------------------------------

  /** The ArrayBuffers behind the bytes in `value` (Uint8Array, ArrayBuffer, nested in arrays and
   *  objects), each once, for `postMessage` to move rather than copy. */
  function buffersIn(value, list, depth) {
    if (value === null || typeof value !== 'object' || depth > 64) return list;
    if (value instanceof ArrayBuffer) {
      if (list.indexOf(value) < 0) list.push(value);
    } else if (ArrayBuffer.isView(value)) {
      if (value.buffer instanceof ArrayBuffer && list.indexOf(value.buffer) < 0) list.push(value.buffer);
    } else if (Array.isArray(value)) {
      for (var i = 0; i < value.length; i++) buffersIn(value[i], list, depth + 1);
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      for (var key in value) if (Object.prototype.hasOwnProperty.call(value, key)) buffersIn(value[key], list, depth + 1);
    }
    return list;
  }

  /** The worker's half, run first in the worker: its `dsBridge`, which posts each call to the
   *  document and hears each answer back. Written out as the worker's source, with the sources of
   *  `resultQueue` and `buffersIn` as its arguments, so it refers to nothing else of this runtime. */
  function workerRuntime(scope, resultQueue, buffersIn) {
    var lastId = 0, calls = {};
    var realPost = scope.postMessage.bind(scope);
    scope.addEventListener('message', function (event) {
      var message = event.data;
      if (!message || message.keystone !== 'answer') return;
      event.stopImmediatePropagation();
      var call = calls[message.id];
      if (!call) return;
      if (message.kind === 'item') return call.item(message.value);
      delete calls[message.id];
      if (message.kind === 'result') call.resolve(message.value);
      else if (message.kind === 'end') call.end();
      else {
        var error = new Error(message.message);
        error.code = message.code;
        if (message.name) error.name = message.name;
        call.reject(error);
      }
    });
    function start(kind, method, data, options, call) {
      var id = ++lastId, signal = options && options.signal;
      if (signal && signal.aborted) {
        var aborted = new Error('the call was cancelled before it was made');
        aborted.code = 6;
        aborted.name = 'AbortError';
        return call.reject(aborted);
      }
      calls[id] = call;
      if (signal) signal.addEventListener('abort', function () { if (calls[id]) realPost({ keystone: 'call', kind: 'cancel', id: id }); });
      var durable = options && options.durable;
      realPost({ keystone: 'call', kind: kind, id: id, method: String(method), data: data, durable: durable === true || typeof durable === 'string' ? durable : undefined },
        buffersIn(data, [], 0));
      return id;
    }
    scope.dsBridge = {
      invoke: function (method, data, options) {
        return new Promise(function (resolve, reject) { start('invoke', method, data, options, { resolve: resolve, reject: reject }); });
      },
      stream: function (method, data, options) {
        var id = 0;
        var results = resultQueue(function () {
          if (!calls[id]) return;
          delete calls[id];
          realPost({ keystone: 'call', kind: 'cancel', id: id });
        });
        id = start('stream', method, data, options, { item: results.push, end: results.end, resolve: results.end, reject: results.fail });
        return results.iterator;
      },
      call: function () {
        throw new Error('a worker cannot wait for native: use dsBridge.invoke');
      }
    };
    realPost({ keystone: 'ready' });
  }
  var workerSource = '(' + workerRuntime + ')(self, ' + resultQueue + ', ' + buffersIn + ');\n';

  /** Starts `url` in a dedicated worker whose `dsBridge` calls through this document. */
  function startWorker(url, options) {
    var address = new URL(String(url), window.document ? window.document.baseURI : window.location.href).href;
    var isModule = options && options.type === 'module';
    var source = workerSource + (isModule ? 'await import(' + JSON.stringify(address) + ');\n' : 'importScripts(' + JSON.stringify(address) + ');\n');
    var blob = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    var worker = new Worker(blob, options);
    var calls = {};
    function answer(message, value) {
      try { worker.postMessage(message, buffersIn(value, [], 0)); } catch (e) { worker.postMessage(message); }
    }
    function failed(id, error) {
      answer({ keystone: 'answer', kind: 'error', id: id, code: error && error.code, name: error && error.name, message: String(error && error.message || error) });
    }
    worker.addEventListener('message', function (event) {
      var message = event.data;
      if (!message || (message.keystone !== 'call' && message.keystone !== 'ready')) return;
      event.stopImmediatePropagation();
      if (message.keystone === 'ready') return URL.revokeObjectURL(blob);
      var id = message.id;
      if (message.kind === 'cancel') {
        if (calls[id]) calls[id].abort();
        return;
      }
      if (typeof id !== 'number' || calls[id]) return;
      var controller = new AbortController();
      calls[id] = controller;
      function done() { delete calls[id]; }
      if (message.kind === 'stream') {
        (async function () {
          try {
            for await (var value of bridge.stream(message.method, message.data, { signal: controller.signal })) answer({ keystone: 'answer', kind: 'item', id: id, value: value }, value);
            done();
            answer({ keystone: 'answer', kind: 'end', id: id });
          } catch (error) {
            done();
            failed(id, error);
          }
        })();
        return;
      }
      var invoked = message.durable !== undefined
        ? bridge.invoke(message.method, message.data, { durable: message.durable })
        : bridge.invoke(message.method, message.data, { signal: controller.signal });
      invoked.then(function (value) {
        done();
        answer({ keystone: 'answer', kind: 'result', id: id, value: value }, value);
      }, function (error) {
        done();
        failed(id, error);
      });
    });
    // Ending the worker ends its calls, as the document's end would.
    var terminate = worker.terminate;
    worker.terminate = function () {
      Object.keys(calls).forEach(function (id) { calls[id].abort(); });
      return terminate.call(worker);
    };
    return worker;
  }

  Object.defineProperty(window, '_keystone', {
    // `pendingCallbacks()`: the names of the callbacks still open, for finding a call that never ended.
    value: { version: 1, deliver: deliver, pendingCallbacks: function () { return Array.from(pending.keys()); } },
    enumerable: false
  });

  bridge.register('_hasJavascriptMethod', function (method) {
    return findHandler(String(method)) !== null;
  });

  // --- Marks -------------------------------------------------------------------------------------

  /** Milliseconds on the page's monotonic clock. */
  function markClock() {
    return typeof performance !== 'undefined' && typeof performance.now === 'function' ? performance.now() : Date.now();
  }

  /** Sends one step of a mark made at `at`: held until the runtime has announced itself (the first
   *  MARKS_HELD), then sent with how long ago it was made, where native keeps marks. */
  function sendMark(step, name, span, at) {
    if (heldMarks) {
      if (heldMarks.length < MARKS_HELD) heldMarks.push([step, name, span, at]);
      return;
    }
    if (!tracesMarks || !hasNative()) return;
    sendNative('_dsb.mark', wrap({ step: step, name: name, span: span, ago: Math.max(0, markClock() - at) })).catch(function () {});
  }

  // Tell native the page is ready, and that it runs this runtime, once the document's scripts have
  // registered their handlers: a turn after DOMContentLoaded (so handlers registered in the page's
  // own DOMContentLoaded listeners count too), or on the next turn when the document has loaded.
  // Native calls made before then wait. (A dsbridge.js that loaded first may send its own as well.)
  window._dsInit = true;
  function announce() {
    setTimeout(function () {
      var answer = bridge.call('_dsb.dsinit', { runtime: 'keystone', version: 1 });
      if (answer === 'keystone' || (answer && answer.runtime === 'keystone')) nativeDelivers = true;
      byteChannel = !!(answer && answer.bytes === true);
      tracesMarks = !!(answer && answer.marks === true);
      var held = heldMarks || [];
      heldMarks = null;
      held.forEach(function (mark) { sendMark(mark[0], mark[1], mark[2], mark[3]); });
      announcedResolve();
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
