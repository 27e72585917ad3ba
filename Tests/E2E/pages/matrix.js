// matrix.js — pairs of features, each run the same way in memory (Tests/MatrixTests, the shipped
// runtime in JavaScriptCore) and in both real hosts (matrix.html): each pair's outcome, a value or
// a coded error, must be the one matrix-expected.json states, the same three ways.
//
// In the main frame it runs in three documents: the first runs the pairs of one document, then
// leaves calls in flight (a durable call with bytes both ways, a Swift call of the page) and
// reloads; the second finds what became of them, leaves the same in flight and ends its web
// process (`host.terminate`); the third finds what became of those and resolves `window.matrix` to
// every outcome (`main`). In a subframe document (`window.matrixFrame`), it runs the pairs of one
// document and resolves `window.matrix` to their outcomes (`subframe`).
(function (window) {
  'use strict';
  var frame = window.matrixFrame === true;
  /** Which document of the main frame's three this is: `first`, `navigated` or `terminated`. */
  var phase = frame ? 'frame' : sessionStorage.getItem('matrix-phase') || 'first';
  window.matrixPhase = phase;

  /** `count` bytes of the demo's pattern (i % 251). */
  function pattern(count) {
    var bytes = new Uint8Array(count);
    for (var i = 0; i < count; i++) bytes[i] = i % 251;
    return bytes;
  }
  function sum(bytes) {
    var total = 0;
    for (var i = 0; i < bytes.length; i++) total += bytes[i];
    return total;
  }
  /** A value as plain JSON, each bytes value its length and sum. */
  function plain(value) {
    if (value instanceof Uint8Array) return { bytes: value.length, sum: sum(value) };
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
  function pause(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
  /** Whether `check()` came true, asked every 10 ms, at most 500 times. */
  async function until(check) {
    for (var i = 0; i < 500; i++) {
      if (check()) return true;
      await pause(10);
    }
    return false;
  }
  /** A key of this document's kind: a subframe's durable calls are its own. */
  function key(name) { return frame ? name + '-frame' : name; }

  // A handler that never answers: what Swift's calls of it wait for is their timeout, their
  // cancellation, or the document's end.
  dsBridge.registerAsyn('matrix.never', function () {});
  // The demo's `durable.sendPhoto` makes a durable Swift call of it with 70,000 bytes: answered
  // only once the document that made the call has gone.
  var photoAnswering = phase !== 'first';
  dsBridge.registerAsyn('durable.photo', function (bytes, respond) {
    if (photoAnswering) respond([bytes instanceof Uint8Array, bytes.length, sum(bytes)]);
  });

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
      return dsBridge.invoke('durable.submit', { key: key('matrix'), photo: new Blob([pattern(500)]), thumbnail: pattern(5) }, { durable: key('matrix-bytes') });
    },
    'durable × multi-response': function () { return dsBridge.invoke('stream.countdown', 2, { durable: key('matrix-stream') }); },
    'durable × a byte stream': function () {
      return dsBridge.invoke('binary.upload', new Blob([pattern(10)]).stream(), { durable: key('matrix-stream-bytes') });
    },
    'cancellation × bytes': function () {
      var controller = new AbortController();
      controller.abort();
      return dsBridge.invoke('binary.make', 1000, { signal: controller.signal });
    },
    'timeout × async (the page aborts a call still running)': function () {
      var controller = new AbortController();
      setTimeout(function () { controller.abort(); }, 50);
      return dsBridge.invoke('native.callJS', { method: 'matrix.never', args: [] }, { signal: controller.signal });
    },
    'timeout × Swift → page': function () { return dsBridge.invoke('native.callJSWithin', { method: 'matrix.never', args: [], timeoutMs: 50 }); },
    'Swift → page × bytes': function () {
      dsBridge.registerAsyn('matrix.bytes', function (bytes, count, respond) { respond([bytes instanceof Uint8Array, bytes.length, count]); });
      return dsBridge.invoke('binary.callPage', { handler: 'matrix.bytes', count: 700 });
    },
    'unknown method': function () { return dsBridge.invoke('binary.nothing', 1); }
  };
  if (!frame) {
    pairs['WVJB dialect × bytes'] = function () { return callHandler('binary.count', pattern(64)); };
    pairs['WVJB dialect × a refusal'] = function () { return callHandler('binary.count', 'not bytes'); };
  }

  /** `{value}` (plain JSON) or `{code}` of what `run` resolves to. */
  async function outcome(run) {
    try {
      return { value: plain(await run()) };
    } catch (error) {
      return { code: error && typeof error.code === 'number' ? error.code : String(error && error.name) };
    }
  }
  async function runPairs() {
    var outcomes = {};
    for (var name of Object.keys(pairs)) outcomes[name] = await outcome(pairs[name]);
    return outcomes;
  }

  /** Leaves a durable call in flight whose work makes a durable Swift call of this page with bytes
   *  (`durable.sendPhoto`, under `name`), and a call whose Swift method waits for a handler that
   *  never answers; returns once Swift waits on the page for both. */
  async function leaveInFlight(name) {
    dsBridge.invoke('durable.sendPhoto', name, { durable: name }).catch(function () {});
    dsBridge.invoke('native.callJS', { method: 'matrix.never', args: [] }).catch(function () {});
    await until(function () { return dsBridge.call('native.pendingCalls') >= 2; });
  }
  /** What became of the calls an earlier document left in flight under `name`: the durable call
   *  ran once and its outcome is recovered here; nothing of the other runs or waits any more. */
  async function whatBecameOf(name) {
    var recovered = plain(await dsBridge.recovered());
    var settled = await until(function () { return dsBridge.call('native.pendingCalls') === 0 && dsBridge.call('native.runningCalls') === 0; });
    return { value: plain({ recovered: recovered, ranOnce: dsBridge.call('durable.count', name) === 1, settled: settled }) };
  }
  function keep(name, value) {
    var kept = JSON.parse(sessionStorage.getItem('matrix-outcomes') || '{}');
    kept[name] = value;
    sessionStorage.setItem('matrix-outcomes', JSON.stringify(kept));
    return kept;
  }

  window.matrix = (async function () {
    if (phase === 'frame') return runPairs();
    if (phase === 'first') {
      var outcomes = await runPairs();
      Object.keys(outcomes).forEach(function (name) { keep(name, outcomes[name]); });
      await leaveInFlight('matrix-navigation');
      sessionStorage.setItem('matrix-phase', 'navigated');
      location.reload();
    } else if (phase === 'navigated') {
      keep('the page going × navigation × durable both ways × bytes', await whatBecameOf('matrix-navigation'));
      photoAnswering = false;
      await leaveInFlight('matrix-termination');
      sessionStorage.setItem('matrix-phase', 'terminated');
      dsBridge.call('host.terminate');
    } else {
      return keep('the page going × web-process end × durable both ways × bytes', await whatBecameOf('matrix-termination'));
    }
    return new Promise(function () {});  // this document goes
  })();
})(window);
