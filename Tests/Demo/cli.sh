#!/usr/bin/env bash
# cli.sh — the demo's command line as a newcomer meets it: --help lists every flag with an example;
# an unknown flag, a flag without its value, a bad value or a missing page file is one line on
# standard error and exit status 1, never a stack trace or a hang; the bundled demo prints every
# row with what it proves; a page that never closes ends at --timeout with exit status 2; a page that
# keeps crashing is loaded again once after the host gives up, never without end.
set -uo pipefail
cd "$(dirname "$0")/../.."
demo="$(swift build --show-bin-path)/keystone-demo"
failed=0
fail() { echo "not ok - $1"; failed=1; }

help=$(timeout 20 "$demo" --help)
[ $? -eq 0 ] || fail "--help exits 0"
# Every flag the demo knows is listed, each followed by an example line.
for flag in $(sed -nE 's/.*name: "(--[a-z-]+)".*/\1/p' Sources/KeystoneDemo/DemoCommandLine.swift); do
    grep -A1 -E "^  $flag( |$)" <<<"$help" | grep -q "e.g. keystone-demo " || fail "--help lists $flag with an example"
done
# Docs/Demo.md shows the help as the demo prints it.
python3 -c 'import sys; sys.exit(0 if sys.argv[1] in open("Docs/Demo.md").read() else 1)' "$help" || fail "Docs/Demo.md shows --help as the demo prints it"

refused() {  # refused WHAT EXPECTED-TEXT ARGUMENTS…
    local what=$1 expected=$2
    shift 2
    local out err status
    err=$(mktemp)
    out=$(timeout 20 "$demo" "$@" 2>"$err")
    status=$?
    [ "$status" -eq 1 ] || fail "$what: exit status 1, got $status"
    [ -z "$out" ] || fail "$what: nothing on standard output"
    [ "$(wc -l <"$err")" -eq 1 ] || fail "$what: one line on standard error, got: $(cat "$err")"
    grep -q "^keystone-demo: $expected" "$err" || fail "$what: says '$expected', got: $(cat "$err")"
    rm -f "$err"
}
refused "an unknown flag" "unknown flag --colour" --colour
refused "a stray argument" "unexpected argument page.html" page.html
refused "a missing page file" "no page file at Tests/none.html" --page Tests/none.html
refused "a flag without its value" "--page needs a value" --page
refused "a value where a flag follows" "--timeout needs a value" --timeout --bare
refused "a bad timeout" "--timeout takes a number" --timeout soon
refused "a missing app folder" "no folder at Tests/none" --app Tests/none

# The demo's access file in the docs is what the demo allows, written again here.
access=$(mktemp)
timeout 20 "$demo" --app Examples/WebApp --emit-policy "$access" || fail "--emit-policy writes the demo's access file"
grep -q '^app://localhost, main frame:$' "$access" || fail "the access file describes the app origin's main frame"
diff -u Docs/DemoAccess.txt "$access" || fail "Docs/DemoAccess.txt is what keystone-demo --app Examples/WebApp --emit-policy writes"
rm -f "$access"
refused "a bad wire" "--wire takes dsbridge or wvjb" --wire morse

# The bundled demo, in a real web view: every row of the transcript says what it proves.
transcript=$(timeout 120 xvfb-run -a "$demo")
status=$?
[ "$status" -eq 0 ] || fail "the demo exits 0, got $status"
rows=$(grep -c " ms$" <<<"$transcript")
proves=$(grep -c "^ *proves: ." <<<"$transcript")
[ "$rows" -eq 11 ] || fail "the demo prints 11 rows, got $rows: $transcript"
[ "$proves" -eq "$rows" ] || fail "each of the demo's $rows rows says what it proves, $proves do"
grep -q "→ code 2: invalid argument" <<<"$transcript" || fail "the demo's error row shows the coded error"

# A page that never closes: the timeout ends the run with exit status 2, not a hang.
output=$(timeout 120 xvfb-run -a "$demo" --page Tests/Demo/never-closes.html --timeout 1)
status=$?
[ "$status" -eq 2 ] || fail "--timeout ends a page that never closes with exit status 2, got $status"
grep -q "^timed out$" <<<"$output" || fail "--timeout says it timed out, got: $output"

# A page that ends its web process on every load, the demo's own reload after the host gives up
# included: the demo loads it again once, never more, and the run ends at its timeout (a slow
# machine that reaches fewer terminations in that time passes too: only a further reload fails).
output=$(timeout 120 xvfb-run -a "$demo" --page Tests/Demo/crashes-again.html --timeout 30)
status=$?
[ "$status" -eq 2 ] || fail "a page that crashes after the demo's own reload is not loaded again (exit 2 at the timeout), got $status: $output"
grep -q "^e2e: " <<<"$output" && fail "the demo loaded a crashing page again after the host gave up twice"

if [ "$failed" -eq 0 ]; then echo "demo command line: ok"; fi
exit "$failed"
