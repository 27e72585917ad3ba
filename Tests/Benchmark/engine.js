// engine.js — the real-engine benchmark's rounds, shared by the raw floor's page (floor.html) and
// Keystone's (engine.html), so both time exactly the same loop around their transport.
//
// `paths` maps a path's name to { calls, one(i) } (awaited one after another) or { burst, one(i) }
// (all started at once, then awaited together). Rounds are interleaved, in a rotated order each
// round; after a warm-up, every round's figure is reported as
// "sample<TAB>path<TAB>ms per call" (a burst: ms for all of it), then `done()` is called.
function benchEngine(paths, report, done) {
  var ROUNDS = 5;
  var names = Object.keys(paths);
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
      for (var k = 0; k < names.length; k++) {
        var name = names[(k + round) % names.length];
        lines.push('sample\t' + name + '\t' + (await time(name, 1)).toFixed(4));
      }
    }
    lines.forEach(report);
    done();
  })().catch(function (error) { report('bench failed: ' + error.message); done(); });
}
