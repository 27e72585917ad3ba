#!/usr/bin/env bash
# run.sh — the end-to-end suite: every page in Tests/E2E/pages runs in a real WebKitGTK web view
# through `keystone-demo --page`, with the flags its `e2e-flags:` comment names (--bare, --call …).
# Prints each page's results and a closing "e2e: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
demo="$(swift build --show-bin-path)/keystone-demo"
passed=0
failed=0
for page in Tests/E2E/pages/*.html; do
    name=$(basename "$page" .html)
    read -r -a flags < <(sed -nE 's/.*e2e-flags: (.*) -->.*/\1/p' "$page" | head -1)
    output=$("$demo" --page "$page" "${flags[@]}" --timeout 300 2>&1)  # a guard against a hang, not a speed bar
    status=$?
    grep -E '^(ok|not ok) - |^# ' <<<"$output" | sed "s/^/$name: /"
    summary=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed$' <<<"$output" | tail -1)
    if [ "$status" -ne 0 ] || [ -z "$summary" ]; then
        echo "$name: not ok - the page did not finish (exit $status)"
        tail -5 <<<"$output" | sed "s/^/$name:   /"
        failed=$((failed + 1))
        continue
    fi
    read -r page_passed page_failed < <(sed -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$summary")
    passed=$((passed + page_passed))
    failed=$((failed + page_failed))
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
