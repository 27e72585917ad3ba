// matrix.js — pairs of features, each run the same way in memory (Tests/MatrixTests, the shipped
// runtime in JavaScriptCore) and in both real hosts (matrix.html): each pair's outcome, a value or
// a coded error, must be the one matrix-expected.json states, the same three ways.
(function (window) {
  'use strict';
  /** `count` bytes of the demo's pattern (i % 251). */
  function pattern(count) {
    var bytes = new Uint8Array(count);
    for (var i = 0; i < count; i++) bytes[i] = i % 251;
    return bytes;
  }
  /** A value as plain JSON, each bytes value its length and sum. */
  function plain(value) {
    if (value instanceof Uint8Array) {
      var sum = 0;
      for (var i = 0; i < value.length; i++) sum += value[i];
      return { bytes: value.length, sum: sum };
    }
    if (Array.isArray(value)) return value.map(plain);
    if (value && typeof value === 'object') {
      var out = {};
      Object.keys(value).sort().forEach(function (key) { out[key] = plain(value[key]); });
      return out;
    }
    return value === undefined ? null : value;
  }
  async function collect(iterator, limit) {
    var values = [];
    for await (var value of iterator) {
      values.push(value);
      if (values.length === limit) break;
    }
    return values;
  }
  function callHandler(name, data) {
    return new Promise(function (resolve, reject) {
      window.WebViewJavascriptBridge.callHandler(name, data, function (value, error) { if (error) reject(error); else resolve(value); });
    });
  }

  var pairs = {
    'sync': function () { return dsBridge.call('math.add', [1, 2]); },
    'sync call of an asynchronous method × bytes': function () { return dsBridge.call('binary.count', pattern(10)); },
    'async × bytes to Swift': function () { return dsBridge.invoke('binary.count', pattern(70000)); },
    'async × bytes both ways': function () { return dsBridge.invoke('binary.echo', pattern(3000)); },
    'async × bytes inside a value': function () { return dsBridge.invoke('binary.describe', { name: 'photo', bytes: new Blob([pattern(1000)]) }); },
    'bytes from Swift inside a value': function () { return dsBridge.invoke('binary.bundle', 3); },
    'multi-response': function () { return collect(dsBridge.stream('stream.countdown', 3)); },
    'multi-response × cancellation': function () { return collect(dsBridge.stream('stream.ticks', { count: 5, intervalMs: 10 }), 2); },
    'byte stream to Swift': function () {
      var chunks = [pattern(100), pattern(2000)], index = 0;
      return dsBridge.invoke('binary.upload', new ReadableStream({
        pull: function (controller) { if (index < chunks.length) controller.enqueue(chunks[index++]); else controller.close(); }
      }));
    },
    'durable × bytes inside a value': function () {
      return dsBridge.invoke('durable.submit', { key: 'matrix', photo: new Blob([pattern(500)]), thumbnail: pattern(5) }, { durable: 'matrix-bytes' });
    },
    'durable × multi-response': function () { return dsBridge.invoke('stream.countdown', 2, { durable: 'matrix-stream' }); },
    'cancellation × bytes': function () {
      var controller = new AbortController();
      controller.abort();
      return dsBridge.invoke('binary.make', 1000, { signal: controller.signal });
    },
    'WVJB dialect × bytes': function () { return callHandler('binary.count', pattern(64)); },
    'WVJB dialect × a refusal': function () { return callHandler('binary.count', 'not bytes'); },
    'Swift → page × bytes': function () {
      dsBridge.registerAsyn('matrix.bytes', function (bytes, count, respond) { respond([bytes instanceof Uint8Array, bytes.length, count]); });
      return dsBridge.invoke('binary.callPage', { handler: 'matrix.bytes', count: 700 });
    },
    'unknown method': function () { return dsBridge.invoke('binary.nothing', 1); }
  };

  /** Every pair's outcome: `{value}` (plain JSON) or `{code}`. */
  window.runMatrix = async function () {
    var outcomes = {};
    for (var name of Object.keys(pairs)) {
      try {
        outcomes[name] = { value: plain(await pairs[name]()) };
      } catch (error) {
        outcomes[name] = { code: error && typeof error.code === 'number' ? error.code : String(error && error.name) };
      }
    }
    return outcomes;
  };
})(window);
