// engine.js — the real-engine benchmark's rounds, shared by the raw floor's page (floor.html) and
// Keystone's (engine.html), so both time exactly the same loop around their transport.
//
// `paths` maps a path's name to { calls, one(i) } (awaited one after another) or { burst, one(i) }
// (all started at once, then awaited together). Rounds are interleaved, in a rotated order each
// round; a path and its floor in the same web view ("here: " + its name) are timed back to back,
// in turn first, so the two figures of a round meet the same conditions. After a warm-up, every
// round's figure is reported as "sample<TAB>path<TAB>ms per call" (a burst: ms for all of it),
// then `done()` is called.
function benchEngine(paths, report, done) {
  var ROUNDS = 9;
  var names = Object.keys(paths);
  var units = names.filter(function (name) { return name.indexOf('here: ') !== 0; }).map(function (name) {
    return paths['here: ' + name] ? [name, 'here: ' + name] : [name];
  });
  var lines = [];
  async function time(name, scale) {
    var path = paths[name];
    var start = performance.now();
    if (path.burst) {
      var all = [];
      for (var b = 0; b < Math.max(1, Math.floor(path.burst * scale)); b++) all.push(path.one(b));
      await Promise.all(all);
      return performance.now() - start;
    }
    var count = Math.max(1, Math.floor(path.calls * scale));
    for (var i = 0; i < count; i++) await path.one(i);
    return (performance.now() - start) / count;
  }
  (async function () {
    for (var w = 0; w < names.length; w++) await time(names[w], 0.2); // warm-up, discarded
    for (var round = 0; round < ROUNDS; round++) {
      for (var k = 0; k < units.length; k++) {
        var unit = units[(k + round) % units.length];
        var order = round % 2 ? unit.slice().reverse() : unit;
        for (var n = 0; n < order.length; n++) {
          lines.push('sample\t' + order[n] + '\t' + (await time(order[n], 1)).toFixed(4));
        }
      }
    }
    lines.forEach(report);
    done();
  })().catch(function (error) { report('bench failed: ' + error.message); done(); });
}

// The raw floor's paths: WebKit's own transports, answered as floor.c answers them (and as
// keystone-engine-benchmark's SameViewFloor answers them in the bridge's web view):
// webkit.messageHandlers.floor (a message with a reply), floorAsync (a message in,
// __floorResult(i) evaluated out) and floorChain (a message in, __floorCall(i) out, whose
// prompt("answer", i) comes back as __floorResult(i)). The same names as the bridge's paths.
function floorPaths() {
  var handlers = window.webkit.messageHandlers;
  var waiting = {};
  window.__floorResult = function (value) { var resolve = waiting[value]; delete waiting[value]; if (resolve) resolve(value); };
  window.__floorCall = function (value) { prompt('answer', String(value)); };
  function answered(handler, i) {
    return new Promise(function (resolve) { waiting[i] = resolve; handler.postMessage(String(i)); });
  }
  function echo(i) { return handlers.floor.postMessage(String(i)).then(Number); }
  return {
    'sync call': { calls: 200, one: function (i) { return Number(prompt('echo', String(i))); } },
    'invoke of a sync method': { calls: 200, one: echo },
    'awaited async call': { calls: 100, one: function (i) { return answered(handlers.floorAsync, i); } },
    'awaited async call, answered by evaluation': { calls: 100, one: function (i) { return answered(handlers.floorAsync, i); } },
    'JS → Swift → JS': { calls: 50, one: function (i) { return answered(handlers.floorChain, i); } },
    'burst of 10,000 calls': { burst: 10000, one: echo }
  };
}
