#!/usr/bin/env bash
# pictures.sh — the timeline pictures of the article "Seeing and replaying calls", made from a real
# run: keystone-demo traces its calls page, and two web views of the windows page, in WebKitGTK
# (under Xvfb); scripts/trace.sh draws each trace's timeline, and a small WebKitGTK program
# (scripts/snapshot.c) writes each timeline as a PNG into the DocC catalog's Resources.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/prepare.sh
command -v xvfb-run >/dev/null || install_packages xvfb xauth
swift build --product keystone-demo
bin="$(swift build --show-bin-path)"
out=Sources/Keystone/Keystone.docc/Resources
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -O1 -o "$work/snapshot" scripts/snapshot.c $(pkg-config --cflags --libs webkit2gtk-4.1)
python3 Tests/E2E/serve.py "$work/ports" 300 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/ports" ] && break; sleep 0.1; done
read -r port _ <"$work/ports" || true  # one line, without a newline
origin="http://127.0.0.1:$port"

xvfb-run -a "$bin/keystone-demo" --page Tests/E2E/pages/calls.html --trace "$work/calls.jsonl" --timeout 120 >/dev/null
xvfb-run -a "$bin/keystone-demo" --page "$origin/windows.html" --allow-origin "$origin" --windows 2 --trace "$work/windows.jsonl" --timeout 120 >/dev/null
mkdir -p "$out"
for run in calls windows; do
  scripts/trace.sh "$work/$run.jsonl" "$work/$run" >/dev/null
done
# The calls page's busiest stretch: 80 ms from its first call of the demo's methods.
zoom=$(python3 -c '
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
start = min(r["time"] - r.get("duration", 0) for r in records)
first = min(r["time"] - r.get("duration", 0) for r in records if r["kind"] == "call" and not r.get("name", "_dsb.").startswith("_dsb."))
print(f"from={first - start - 2:.3f}&to={first - start + 78:.3f}")' "$work/calls.jsonl")
snap() { xvfb-run -a -s "-screen 0 1280x1024x24" "$work/snapshot" "file://$work/$1/timeline.html$2" "$out/$3" 1100; }
snap calls "" timeline-calls.png
snap calls "#$zoom" timeline-calls-zoomed.png
snap windows "" timeline-windows.png
ls -l "$out"/timeline-*.png
