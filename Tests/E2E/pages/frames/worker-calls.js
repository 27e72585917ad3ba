// worker-calls.js — a dedicated worker started with dsBridge.worker: each request the page posts
// is one call made with the worker's own dsBridge, and its outcome posted back.
addEventListener('message', async function (event) {
  var ask = event.data, outcome;
  try {
    if (ask.kind === 'invoke') outcome = { value: await dsBridge.invoke(ask.method, ask.data) };
    else if (ask.kind === 'stream') {
      var seen = [];
      for await (var item of dsBridge.stream(ask.method, ask.data)) seen.push(item);
      outcome = { value: seen };
    } else if (ask.kind === 'bytes') {
      var bytes = new Uint8Array(ask.count).map(function (_, i) { return i % 251; });
      var back = await dsBridge.invoke('binary.echo', bytes);
      var same = back.length === ask.count && back.every(function (b, i) { return b === i % 251; });
      outcome = { value: { isBytes: back instanceof Uint8Array, same: same, movedAway: bytes.byteLength === 0 } };
    } else if (ask.kind === 'cancelStream') {
      var first = null;
      for await (var tick of dsBridge.stream('stream.ticks', { count: 1000, intervalMs: 20 })) { first = tick; break; }
      outcome = { value: first };
    } else if (ask.kind === 'abort') {
      var controller = new AbortController(), got = 0;
      try {
        for await (var each of dsBridge.stream('stream.ticks', { count: 1000, intervalMs: 20 }, { signal: controller.signal })) {
          if (++got === 2) controller.abort();
        }
        outcome = { value: 'not cancelled' };
      } catch (e) {
        outcome = { value: e.code };
      }
    } else if (ask.kind === 'durable') {
      // The same key twice at once: the method runs once, and both calls have its outcome.
      var both = await Promise.all([
        dsBridge.invoke('durable.increment', ask.key, { durable: ask.key }),
        dsBridge.invoke('durable.increment', ask.key, { durable: ask.key })
      ]);
      outcome = { value: both };
    } else if (ask.kind === 'sync') {
      try { dsBridge.call('math.add', [1, 2]); outcome = { value: 'answered' }; } catch (e) { outcome = { value: 'refused' }; }
    }
  } catch (error) {
    outcome = { error: { code: error.code, message: String(error.message) } };
  }
  postMessage({ id: ask.id, outcome: outcome });
});
