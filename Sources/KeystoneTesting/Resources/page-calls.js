// page-calls.js — a test's reach into a page that runs in JavaScriptCore alone (JavaScriptPage.swift):
// it calls the page's own runtime API (`dsBridge`, `WebViewJavascriptBridge`) as a page's code
// does, and hands what comes back to Swift. It decides nothing about the protocol: every text on the
// wire is the runtime's. Values cross as JSON, their bytes as Uint8Arrays beside it.
(function (native) {
  'use strict';
  var global = globalThis;

  /** `value` as JSON, each bytes value in it replaced by `marker` and its index in `parts`. */
  function encode(value, marker) {
    var parts = [];
    var json = JSON.stringify(value === undefined ? null : value, function (key, item) {
      var bytes = item instanceof ArrayBuffer ? new Uint8Array(item)
        : ArrayBuffer.isView(item) ? new Uint8Array(item.buffer, item.byteOffset, item.byteLength) : null;
      if (!bytes) return item;
      parts.push(new Uint8Array(bytes));
      return marker + (parts.length - 1);
    });
    return { json: json === undefined ? 'null' : json, parts: parts };
  }

  /** The value `json` holds, each string `marker` + n replaced by part n. */
  function decode(json, marker, parts) {
    return JSON.parse(json, function (key, item) {
      if (marker && typeof item === 'string' && item.indexOf(marker) === 0) {
        var index = Number(item.slice(marker.length));
        if (parts[index]) return new Uint8Array(parts[index]);
      }
      return item;
    });
  }

  function errorOf(error) {
    return { code: error && typeof error.code === 'number' ? error.code : undefined,
      message: String(error && error.message !== undefined ? error.message : error) };
  }

  /** Hands Swift what settles `promise`: the value, or the error. */
  function settle(id, promise, marker) {
    Promise.resolve(promise).then(function (value) {
      var out = encode(value, marker);
      native.settled(id, true, out.json, out.parts);
    }, function (error) {
      native.settled(id, false, JSON.stringify(errorOf(error)), []);
    });
  }

  // Swift's side of the page's handlers and listeners, by number.
  var replies = Object.create(null), lastReply = 0, namespaces = Object.create(null);
  var controllers = Object.create(null), iterators = Object.create(null);
  // Callbacks of `call`s whose end Swift waits for: checked after each script native runs here.
  var watched = Object.create(null);

  function handler(number, asynchronous, marker) {
    if (!asynchronous) {
      return function () {
        var out = encode(Array.prototype.slice.call(arguments), marker);
        var answer = JSON.parse(native.handle(number, out.json, out.parts));
        if (answer.error) {
          var error = new Error(answer.error.message);
          error.code = answer.error.code;
          throw error;
        }
        return answer.value;
      };
    }
    return function () {
      var args = Array.prototype.slice.call(arguments), respond = args.pop();
      var reply = ++lastReply;
      replies[reply] = respond;
      var out = encode(args, marker);
      native.handleLater(number, reply, out.json, out.parts, typeof respond.durable === 'string' ? respond.durable : null);
    };
  }

  function isOpen(name) {
    if (!name) return false;
    if (global._keystone) return global._keystone.pendingCallbacks().indexOf(name) >= 0;
    return typeof global[name] === 'function';
  }

  global.__keystoneTesting = {
    settle: settle,
    decode: decode,
    encode: encode,

    /** Registers Swift's handler `number` as the page's `name`: a dotted name as a method of its
     *  namespace's object, as a page registers one. */
    register: function (name, number, asynchronous, marker) {
      var fn = handler(number, asynchronous, marker);
      var dot = name.lastIndexOf('.');
      if (dot < 0) return global.dsBridge.register(name, fn, asynchronous);
      var space = name.slice(0, dot), key = (asynchronous ? 'a:' : 's:') + space;
      var object = namespaces[key] = namespaces[key] || {};
      object[name.slice(dot + 1)] = fn;
      global.dsBridge.register(space, object, asynchronous);
    },
    registerHandler: function (name, number, marker) {
      global.WebViewJavascriptBridge.registerHandler(name, function (data, respond) {
        var reply = ++lastReply;
        replies[reply] = function (value) { respond(value); };
        replies[reply].signal = respond.signal;
        var out = encode([data], marker);
        native.handleLater(number, reply, out.json, out.parts, null);
      });
    },
    /** A handler's answer: `respond(value, complete)`. */
    reply: function (reply, json, marker, parts, complete) {
      var respond = replies[reply];
      if (!respond) return;
      if (complete) delete replies[reply];
      respond(decode(json, marker, parts), complete);
    },
    /** Whether Swift withdrew the call a handler's reply answers. */
    withdrawn: function (reply) {
      var respond = replies[reply];
      return !!(respond && respond.signal && respond.signal.aborted);
    },
    on: function (name, number, marker) {
      if (typeof global.dsBridge.on !== 'function') return;
      global.dsBridge.on(name, function (value) {
        var out = encode(value, marker);
        native.heard(number, out.json, out.parts);
      });
    },

    /** `dsBridge.invoke(method, value, options)`, settled to Swift as call `id`, which Swift can
     *  abort. */
    invoke: function (id, method, value, options, marker) {
      var controller = new AbortController();
      controllers[id] = controller;
      options = options || {};
      options.signal = controller.signal;
      var promise = global.dsBridge.invoke(method, value, options);
      Promise.resolve(promise).then(function () { delete controllers[id]; }, function () { delete controllers[id]; });
      settle(id, promise, marker);
    },
    abort: function (id) {
      var controller = controllers[id];
      delete controllers[id];
      if (controller) controller.abort();
    },
    /** `dsBridge.invoke(method, stream)` of a ReadableStream of `chunks`. */
    chunks: function (chunks) {
      var index = 0;
      return new ReadableStream({
        pull: function (controller) {
          if (index < chunks.length) controller.enqueue(new Uint8Array(chunks[index++]));
          else controller.close();
        }
      });
    },

    /** `dsBridge.call(method, value, callback)`: its results go to Swift as call `id`, until the
     *  callback is closed (native ends it with the last result) or the call's answer refused it.
     *  Returns the callback's name. */
    call: function (id, method, value, marker) {
      var ended = false, name = 'dscb' + global.dscb;
      var before = global._keystone ? global._keystone.pendingCallbacks() : null;
      function end(error) {
        if (ended) return;
        ended = true;
        delete watched[id];
        native.ended(id, error ? JSON.stringify(error.code !== undefined && !(error instanceof Error) ? error : errorOf(error)) : null);
      }
      function checkClosed() {
        Promise.resolve().then(function () { if (!isOpen(name)) end(null); });
      }
      global.dsBridge.call(method, value, function (result, error) {
        if (ended) return;
        if (arguments.length > 1 && error) return end(error);
        var out = encode(result, marker);
        native.result(id, out.json, out.parts);
        checkClosed();
      });
      // Refused while the page waited: the refusal is the outcome (a callback released by a
      // script that ran first ends no sooner).
      var answer;
      try { answer = JSON.parse(native.lastAnswer() || '{}') || {}; } catch (e) { answer = {}; }
      if (answer.error || (typeof answer.code === 'number' && answer.code !== 0)) {
        end(answer.error || { code: 1, message: 'the call was not handled (code ' + answer.code + ')' });
      }
      if (before) {
        name = global._keystone.pendingCallbacks().filter(function (each) { return before.indexOf(each) < 0; })[0] || null;
      }
      if (!name || !isOpen(name)) checkClosed();
      else watched[id] = function () { if (!isOpen(name)) end(null); };
      return name;
    },
    /** Ends each watched call whose callback native has closed. */
    sweep: function () {
      Object.keys(watched).forEach(function (id) { if (watched[id]) watched[id](); });
    },
    /** The names of the page's callbacks still open. */
    callbacks: function () {
      if (global._keystone) return global._keystone.pendingCallbacks();
      return Object.keys(global).filter(function (key) { return /^dscb\d+$/.test(key) && typeof global[key] === 'function'; });
    },

    /** Every result of `dsBridge.stream(method, value)`, to Swift as call `id`. */
    stream: function (id, method, value, marker) {
      var iterator = global.dsBridge.stream(method, value);
      iterators[id] = iterator;
      function next() {
        iterator.next().then(function (step) {
          if (step.done) {
            delete iterators[id];
            return native.ended(id, null);
          }
          var out = encode(step.value, marker);
          native.result(id, out.json, out.parts);
          next();
        }, function (error) {
          delete iterators[id];
          native.ended(id, JSON.stringify(errorOf(error)));
        });
      }
      next();
    },
    leave: function (id) {
      var iterator = iterators[id];
      delete iterators[id];
      if (iterator) iterator.return();
    }
  };
})(__keystoneNative);
