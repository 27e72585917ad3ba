// transports.js — times bridge transports in a real page, rounds interleaved, and prints one
// console line per transport: "bench<TAB>name<TAB>median ms per call<TAB>ratio to the floor".
// The floor is WebKit's own prompt round trip, answered by the app without any bridge.
function benchTransports(transports, done) {
  var ROUNDS = 7, CALLS = 200;
  var names = Object.keys(transports);
  var samples = {};
  names.forEach(function (name) { samples[name] = []; });
  function median(list) { var s = list.slice().sort(function (a, b) { return a - b; }); return s[Math.floor(s.length / 2)]; }
  async function time(name) {
    var start = performance.now();
    for (var i = 0; i < CALLS; i++) await transports[name](i);
    samples[name].push((performance.now() - start) / CALLS);
  }
  (async function () {
    for (var w = 0; w < names.length; w++) await time(names[w]); // warm-up, discarded
    names.forEach(function (name) { samples[name] = []; });
    for (var round = 0; round < ROUNDS; round++) {
      // Interleaved, in a rotated order each round, so no transport always runs first.
      for (var k = 0; k < names.length; k++) await time(names[(k + round) % names.length]);
    }
    var floor = median(samples.floor);
    names.forEach(function (name) {
      console.log('bench\t' + name + '\t' + median(samples[name]).toFixed(4) + '\t' + (median(samples[name]) / floor).toFixed(2));
    });
    done();
  })().catch(function (error) { console.log('bench failed: ' + error.message); done(); });
}
