#!/usr/bin/env bash
# bench.sh — prints the timed benchmarks, for reading only: they decide nothing, since wall time on
# a shared machine is noisy (the test command's bar counts instructions).
#  1. A sync call's time as a ratio to a bare JSONDecoder + JSONEncoder of the same payload, best
#     of interleaved rounds.
#  2. The transports side by side in a real WebKitGTK page: prompt, script message with reply, and
#     WebViewJavascriptBridge's navigation-plus-fetch, each as a ratio to WebKit's own prompt round
#     trip (the floor) measured in the same page, rounds interleaved; three runs of each page,
#     alternating.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
swift build -c release --product keystone-benchmark -Xswiftc -warnings-as-errors
.build/release/keystone-benchmark

swift build -c release --product keystone-demo -Xswiftc -warnings-as-errors
demo=.build/release/keystone-demo
echo
echo "Transports in WebKitGTK: median ms per synchronous echo, and its ratio to WebKit's own prompt round trip"
echo
lines=$(for run in 1 2 3; do
    xvfb-run -a "$demo" --page Tests/Benchmark/transports.html --timeout 300
    xvfb-run -a "$demo" --page Tests/Benchmark/transports-wvjb.html --bare --wire wvjb --timeout 300
done | grep -E '^bench	')
printf 'transport    runs (ms per call, ratio to floor)\n'
for name in floor prompt message wvjb; do
    printf '%-12s' "$name"
    grep -E "^bench	$name	" <<<"$lines" | awk -F'\t' '{ printf " %s (%s×)", $3, $4 } END { print "" }'
done

echo
echo "Chained calls (each awaits the one before): ms per call, the evaluator's two flush policies alternating"
echo
latency=$(for run in 1 2 3; do
    xvfb-run -a "$demo" --page Tests/Benchmark/latency.html --timeout 300 | sed 's/^latency/when idle/'
    xvfb-run -a "$demo" --page Tests/Benchmark/latency.html --fixed-window --timeout 300 | sed 's/^latency/fixed window/'
done | grep -E '^(when idle|fixed window)	')
for path in "awaited async invoke" "JS → Swift → JS"; do
    for policy in "when idle" "fixed window"; do
        printf '%-22s %-14s' "$path" "$policy"
        grep -F "$policy	$path	" <<<"$latency" | awk -F'\t' '{ printf " %s", $3 } END { print "" }'
    done
done
