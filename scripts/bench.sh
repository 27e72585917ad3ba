#!/usr/bin/env bash
# bench.sh — prints one table of Keystone's per-call cost beside its floors, every row measured in
# this run, and writes the charts Docs/performance.svg and Docs/bytes.svg. For reading only: it
# decides nothing, since wall time on a shared machine is noisy (the test command's bar counts
# instructions).
#  - In process: a tiny sync call, an async call until its script is handed on, an untyped echo,
#    each timed beside a bare JSONDecoder + JSONEncoder of the same payload, rounds interleaved.
#  - In a real WebKitGTK page: the same rounds (Tests/Benchmark/engine.js) through Keystone
#    (keystone-engine-benchmark) and through WebKit's own transports with nothing else
#    (Tests/Benchmark/floor.c), the two programs alternating, in turn first, five runs each (the
#    best run's median counts: a busy neighbour slows a whole process, never speeds it); the chained calls
#    also under the fixed 50 ms window; and a flood of 100,000 results, counted.
#  - The app's own pages: 1,000 small files cold-loaded from the app origin beside file://, and a
#    1 GB file read through ranges, the app's memory around it.
#  - Workers: an async call from a page's dedicated worker beside the same call from its document.
#  - Several web views: an event to 16 pages of one Keystone beside the same event to one.
#  - Bytes: a Data argument and result at 1, 8 and 64 MB through the byte channel (the GTK host's
#    web-process extension, and its byte scheme as a host without the extension uses it), beside
#    the floor's custom scheme and, Swift to page, the floor's use of Keystone's web-process
#    extension (Tests/Benchmark/bytes.html), and Keystone's JSON path.
#
#   scripts/bench.sh [RUNS]      RUNS: runs of each side (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
runs=${1:-5}

swift build -c release --product keystone-benchmark -Xswiftc -warnings-as-errors
swift build -c release --product keystone-engine-benchmark -Xswiftc -warnings-as-errors
bin=$(swift build -c release --show-bin-path)
mkdir -p .build/bench
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -O2 -Wall -Wextra -Werror -Wno-deprecated-declarations -o .build/bench/floor Tests/Benchmark/floor.c $(pkg-config --cflags --libs webkit2gtk-4.1)

samples=.build/bench/engine-samples.tsv
: >"$samples"
floor_run() { xvfb-run -a .build/bench/floor Tests/Benchmark/floor.html 300 | sed "s/^/floor:$1\t/" >>"$samples"; }
keystone_run() { xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/engine.html 300 | sed "s/^/keystone:$1\t/" >>"$samples"; }
for run in $(seq "$runs"); do
    echo "real engine: run $run of $runs" >&2
    # The order alternates, so neither side always runs first.
    if [ $((run % 2)) -eq 1 ]; then floor_run "$run"; keystone_run "$run"; else keystone_run "$run"; floor_run "$run"; fi
    xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/engine.html 300 --fixed-window | sed "s/^/fixed:$run\t/" >>"$samples"
done

echo
echo "Keystone beside its floors: best of $runs runs, each the median of its rounds; ratio = Keystone / floor"
echo
"$bin/keystone-benchmark" --report --engine-samples "$samples" --chart Docs/performance.svg

# Bytes as bytes: a Data argument and result through Keystone's byte channel, beside the floor's
# custom scheme and Keystone's JSON path (base64 in JSON), three runs each, alternating.
bytes_samples=.build/bench/bytes-samples.tsv
: >"$bytes_samples"
# The floor moves bytes to the page through Keystone's own web-process extension too: a folder
# holding only it, as the GTK host makes one.
extensions=$(mktemp -d)
cp "$bin/Keystone_KeystoneGTK.resources/keystone-web-process-extension.so" "$extensions/"
for run in 1 2 3; do
    echo "bytes: run $run of 3" >&2
    FLOOR_EXTENSIONS="$extensions" xvfb-run -a .build/bench/floor Tests/Benchmark/bytes.html 600 | sed "s/^/floor:$run\t/" >>"$bytes_samples"
    xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/bytes-keystone.html 600 | sed "s/^/keystone:$run\t/" >>"$bytes_samples"
    # The same page through the byte scheme, as a host without the extension moves the bytes.
    xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/bytes-keystone.html 600 --no-web-process-extension | sed "s/^/scheme:$run\t/" >>"$bytes_samples"
done
echo
echo "Bytes: best of 3 runs, each the median of its rounds; ratio = Keystone / floor"
echo
rm -rf "$extensions"
python3 Tests/Benchmark/bytes-table.py "$bytes_samples" Docs/bytes.svg

# What a page load holding its whole byte budget (BridgeLimits.pageLoadBytes) costs the app, in a
# process of its own, through the extension and through the scheme.
echo
xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/budget.html 120 | sed "s/^/extension: /"
xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/budget.html 120 --no-web-process-extension | sed "s/^/scheme: /"

# The app's own pages (AppOrigin): a single-page app of 1,000 small files cold-loaded from the app
# origin and from file://, alternating, five fresh processes each (the median counts); and a 1 GB
# file read through ranges, ten 1 MB ranges and then the whole file, in a process of its own.
appfiles=$(mktemp -d)
python3 Tests/Benchmark/app-files.py "$appfiles"
: >.build/bench/app-loads.tsv
for run in 1 2 3 4 5; do
    xvfb-run -a "$bin/keystone-engine-benchmark" index.html 120 --app "$appfiles" | grep 'cold load' >>.build/bench/app-loads.tsv
    xvfb-run -a "$bin/keystone-engine-benchmark" "$appfiles/index.html" 120 | grep 'cold load' >>.build/bench/app-loads.tsv
done
echo
python3 - .build/bench/app-loads.tsv <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    _, scheme, ms, _ = line.rstrip("\n").split("\t")
    times.setdefault(scheme, []).append(float(ms.split()[0]))
app, file = statistics.median(times["app:"]), statistics.median(times["file:"])
print(f"cold load of 1,000 files\tapp origin {app:.0f} ms\tfile:// {file:.0f} ms\tratio {app / file:.2f} (bar 1.2)")
PY
xvfb-run -a "$bin/keystone-engine-benchmark" big.html 300 --app "$appfiles" | grep -E '1 GB|error'
rm -rf "$appfiles"

# An async call from a page's dedicated worker (dsBridge.worker) beside the same call from its
# document, alternating in one page.
echo
xvfb-run -a "$bin/keystone-engine-benchmark" Tests/Benchmark/worker.html 120 | grep -E 'worker|error'

# An event to every page of a Keystone with 16 web views, beside the same event to one of them,
# and beside the raw floor of the same (16 bare web views, each told by an evaluation and telling
# the program with a prompt), alternating, three runs each.
echo
for run in 1 2 3; do
  xvfb-run -a .build/bench/floor --broadcast 16 | grep -E 'pages|timed out'
  xvfb-run -a "$bin/keystone-engine-benchmark" --broadcast 16 | grep -E 'pages|error|timed out'
done

# What a test's call costs in memory (KeystoneTesting's page), beside Keystone's part of it.
echo
"$bin/keystone-engine-benchmark" --in-memory
