#!/usr/bin/env python3
"""app-files.py DIR — writes the app origin's benchmark folder into DIR:
- a single-page app of 1,000 small files (index.html and 999 scripts it loads), whose page prints
  how long its cold load took (from the navigation's start to its load event) and closes;
- big.html, which reads a 1 GB file (big.bin, sparse) through range requests, ten 1 MB ranges and
  then the whole file once in 4 MiB ranges, and then in one response, and prints how much the app's
  peak memory grew for each (bench.resetPeak and bench.peak, keystone-engine-benchmark's interface).
scripts/bench.sh loads the first from the app origin and from file://, the second from the app origin."""
import os
import sys

folder = sys.argv[1]
os.makedirs(os.path.join(folder, "f"), exist_ok=True)
scripts = "".join(f'<script src="f/{n:03}.js"></script>\n' for n in range(999))
for n in range(999):
    with open(os.path.join(folder, "f", f"{n:03}.js"), "w") as out:
        out.write(f"window.loaded = (window.loaded || 0) + 1; // file {n:03} of the app's 999 scripts\n")
with open(os.path.join(folder, "index.html"), "w") as out:
    out.write(f"""<!doctype html>
<meta charset="utf-8">
<title>1,000 files</title>
{scripts}<script>
window.addEventListener('load', function () {{
  setTimeout(function () {{
    var navigation = performance.getEntriesByType('navigation')[0];
    console.log('cold load of 1,000 files\\t' + location.protocol + '\\t' + navigation.loadEventStart.toFixed(1) + ' ms\\t' + window.loaded + ' scripts ran');
    window.close();
  }}, 0);
}});
</script>
""")
with open(os.path.join(folder, "big.bin"), "wb") as out:
    out.truncate(1 << 30)
with open(os.path.join(folder, "big.html"), "w") as out:
    out.write("""<!doctype html>
<meta charset="utf-8">
<title>1 GB through ranges</title>
<script>
window.addEventListener('load', function () { setTimeout(async function () {
  try {
    var before = dsBridge.call('bench.resetPeak'), size = 1 << 30, read = 0;
    for (var i = 0; i < 10; i++) {
      var start = Math.floor(size / 10 * i), response = await fetch('big.bin', { headers: { Range: 'bytes=' + start + '-' + (start + (1 << 20) - 1) } });
      if (response.status !== 206) throw new Error('range ' + i + ' answered ' + response.status);
      read += (await response.arrayBuffer()).byteLength;
    }
    // Then the whole file once, in ranges of 4 MiB one after another, as a media player reads.
    for (var at = 0; at < size; at += 4 << 20) {
      var part = await fetch('big.bin', { headers: { Range: 'bytes=' + at + '-' + (at + (4 << 20) - 1) } });
      if (part.status !== 206) throw new Error('the range at ' + at + ' answered ' + part.status);
      read += (await part.arrayBuffer()).byteLength;
    }
    var growth = dsBridge.call('bench.peak') - before;
    // And once in one response, which on WebKitGTK passes through the app without waiting for the page.
    var before1 = dsBridge.call('bench.resetPeak'), whole = 0, reader = (await fetch('big.bin')).body.getReader();
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      whole += chunk.value.byteLength;
    }
    var wholeGrowth = dsBridge.call('bench.peak') - before1;
    console.log('1 GB file through ranges\\t' + (read >> 20) + ' MB read\\tthe app grew ' + (growth / (1 << 20)).toFixed(1) + ' MiB at its peak');
    console.log('1 GB file in one response\\t' + (whole >> 20) + ' MB read\\tthe app grew ' + (wholeGrowth / (1 << 20)).toFixed(1) + ' MiB at its peak');
  } catch (error) { console.log('error: ' + error); }
  window.close();
}, 100); });
</script>
""")
