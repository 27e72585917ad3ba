#!/usr/bin/env bash
# Tests/Trace/trace.sh — a real-engine run of the demo writes a trace through each host
# (keystone-demo --trace, keystone-demo-webkit --trace): one web view's calls page, and two web
# views on one Keystone; each trace converts (scripts/trace.sh), its Trace Event file passes the
# format's checks with one track per page, and its HTML timeline, opened in the real engine, draws
# one slice per call and a section per page. The calls page's traces keep values: each is replayed
# in memory against the demo's interfaces (Tests/MatrixTests/ReplayTests.swift), which reproduces
# every answer and code; KEYSTONE_WRITE_FIXTURES=1 keeps them as the suite's committed recordings
# (Tests/Trace/calls-*.jsonl). Prints "ok - …" lines; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "not ok - $1"; failed=1; }
# The conversion of what no demo page records (durable calls, a mark never ended).
python3 Tests/Trace/convert_test.py || fail "trace.py converts durable calls and marks"
ports="$work/ports"
python3 Tests/E2E/serve.py "$ports" 600 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$ports" ] && break; sleep 0.1; done
read -r port_a _ <"$ports"
origin="http://127.0.0.1:$port_a"
for demo in keystone-demo keystone-demo-webkit; do
  for run in calls windows; do
    case $run in
      calls) flags=(--page Tests/E2E/pages/calls.html --trace-values); pages=1 ;;
      windows) flags=(--page "$origin/windows.html" --allow-origin "$origin" --windows 2); pages=2 ;;
    esac
    name="$demo $run"
    trace="$work/$demo-$run.jsonl"
    out="$work/$demo-$run"
    timeout 300 "$bin/$demo" "${flags[@]}" --trace "$trace" --timeout 240 >"$work/run.log" 2>&1 \
      || { fail "$name: the demo ran its page (exit $?)"; tail -3 "$work/run.log"; continue; }
    grep -q '^e2e: [0-9]* passed, 0 failed$' "$work/run.log" || fail "$name: the page's own checks passed"
    if [ "$run" = calls ]; then
      mkdir -p "$work/recorded"
      host=gtk && [ "$demo" = keystone-demo-webkit ] && host=webkit
      cp "$trace" "$work/recorded/calls-$host.jsonl"
      [ "${KEYSTONE_WRITE_FIXTURES:-}" = 1 ] && cp "$trace" "Tests/Trace/calls-$host.jsonl"
    fi
    scripts/trace.sh "$trace" "$out" >/dev/null || { fail "$name: the trace converts"; continue; }
    python3 scripts/trace.py --check "$out/trace.json" >/dev/null && echo "ok - $name: the trace is a Trace Event file" \
      || fail "$name: the trace is a Trace Event file"
    if [ "$run" = calls ]; then
      python3 -c 'import json,sys; sys.exit(0 if sorted(e["name"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "mark" and e["ph"] == "X") == ["calls page", "two sums"] else 1)' \
        "$out/trace.json" && echo "ok - $name: the page's marks are slices of their own track" || fail "$name: the page's marks are slices of their own track"
    fi
    named=$(python3 -c 'import json,sys; print(len({e["pid"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("name") == "process_name"}))' "$out/trace.json")
    [ "$named" = "$pages" ] && echo "ok - $name: one track per page ($pages)" || fail "$name: one track per page ($named of $pages)"
    python3 - "$trace" "$run" "$demo" <<'PY' && echo "ok - $name: every call has its record, every page load its start, values only where asked, the page's marks, what carried each transfer" || fail "$name: every call has its record"
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
calls = [r for r in records if r["kind"] == "call"]
assert calls and all(("name" in r or r.get("code") == 12) and "outcome" in r and r.get("duration", -1) >= 0 for r in calls)
assert any(r["kind"] == "pageLoad" and r.get("step") == "initialized" for r in records)
# Values only where asked for (the calls page's runs).
values = [r for r in records if r.get("value") is not None]
assert values if sys.argv[2] == "calls" else not values
# The windows page moves bytes: each transfer says what carried it, the GTK host's web-process
# extension (in shared memory) or the custom scheme.
if sys.argv[2] == "windows":
    carriers = {r.get("transport") for r in records if r["kind"] == "transfer"}
    assert carriers and carriers <= {"scheme", "webProcess"}, carriers
    assert ("webProcess" in carriers) == (sys.argv[3] == "keystone-demo"), carriers
# The calls page marks two spans of its own work, each begun and ended.
if sys.argv[2] == "calls":
    marks = sorted((r["name"], r["step"]) for r in records if r["kind"] == "mark")
    assert marks == [("calls page", "begin"), ("calls page", "end"), ("two sums", "begin"), ("two sums", "end")], marks
PY
    timeout 120 "$bin/$demo" --page "$out/timeline.html" --timeout 60 >"$work/timeline.log" 2>&1
    grep -E '^(ok|not ok) - ' "$work/timeline.log" | sed "s|^ok - |ok - $name: |; s|^not ok - |not ok - $name: |"
    grep -q '^e2e: 2 passed, 0 failed$' "$work/timeline.log" || fail "$name: the timeline opened in the real engine and checked itself"
  done
done
# Each calls page's trace, just recorded with values, replayed in memory against the demo's interfaces.
KEYSTONE_REPLAY_TRACES="$work/recorded" timeout 300 "$bin/KeystonePackageTests.xctest" --testing-library swift-testing \
  --filter ReplayTests >"$work/replay.log" 2>&1
count=$(grep -c "recording → file://$work/recorded/" "$work/replay.log")
if grep -q "Test run with .* passed" "$work/replay.log" && [ "$count" -ge 4 ]; then
  echo "ok - each host's calls trace, replayed in memory, reproduces every answer and code"
else
  fail "each host's calls trace, replayed in memory, reproduces every answer and code"
  grep -E "✘|recorded" "$work/replay.log" | head -20
fi
[ "$failed" -eq 0 ] && echo "trace: ok"
exit "$failed"
