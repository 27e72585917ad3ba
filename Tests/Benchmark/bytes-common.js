// bytes-common.js — what bytes.html (the raw floor) and bytes-keystone.html (Keystone) share: the
// pattern both sides check (byte i is i % 251), base64 as a page writes it today, and the rounds
// each way is timed in.
function pattern(count) { var bytes = new Uint8Array(count); for (var i = 0; i < count; i++) bytes[i] = i % 251; return bytes; }
function exact(bytes, count) {
  if (bytes.length !== count) return false;
  for (var i = 0; i < count; i++) if (bytes[i] !== i % 251) return false;
  return true;
}
function toBase64(bytes) {
  var text = '';
  for (var i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
function fromBase64(text) {
  var raw = atob(text), bytes = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
/** Times each of `ways` (name -> function (bytes) resolving the byte count it moved, or the bytes
 *  it received, which are checked byte for byte once the clock has stopped) at 1, 8 and 64 MB, 7
 *  rounds each (3 at 64 MB), and reports one row per way and size: `way\tN MB\tmedian … ms\tbest
 *  … ms`, or WRONG when a round moved the wrong bytes. `skips(name, megabytes)` leaves a row out.
 *  A way's `prepare(count)`, when it has one, runs before each round's clock starts. */
async function timeWays(ways, report, skips) {
  for (var megabytes of [1, 8, 64]) {
    var count = megabytes << 20, bytes = pattern(count);
    for (var name in ways) {
      if (skips && skips(name, megabytes)) continue;
      var times = [];
      for (var round = 0; round < (megabytes === 64 ? 3 : 7); round++) {
        if (ways[name].prepare) ways[name].prepare(count);
        var start = performance.now(), got = await ways[name](bytes), time = performance.now() - start;
        if (got instanceof Uint8Array) got = exact(got, count) ? got.length : -1;
        if (got !== count) { report(name + '\t' + megabytes + ' MB\tWRONG: ' + got); break; }
        times.push(time);
      }
      if (!times.length) continue;
      times.sort(function (a, b) { return a - b; });
      report(name + '\t' + megabytes + ' MB\tmedian ' + times[times.length >> 1].toFixed(1) + ' ms\tbest ' + times[0].toFixed(1) + ' ms');
    }
  }
}
