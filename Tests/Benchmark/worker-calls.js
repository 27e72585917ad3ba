// worker-calls.js — the worker's half of worker.html: makes `calls` async calls with its own
// dsBridge, one after another, and posts how long they took in all, in milliseconds (one call is
// shorter than the engine's clock resolves).
addEventListener('message', async function (event) {
  var start = performance.now();
  for (var i = 0; i < event.data.calls; i++) await dsBridge.invoke('bench.echoAsync', i);
  postMessage(performance.now() - start);
});
