#!/usr/bin/env bash
# run.sh [HOST…] — the end-to-end suite: every page in Tests/E2E/pages runs in a real WebKit web view
# through each host, with the flags its `e2e-flags:` comment names (--bare, --call …): `gtk` is
# WebKitGTKHost (`keystone-demo --page`), `webkit` is WKWebViewHost on the Cocoa WebKit shim
# (`keystone-demo-webkit --page`); both by default. Through `webkit`, the Apple host's checks of what
# no page can show (Tests/AppleHostChecks) run too.
# A page with an `e2e-url:` comment is loaded from the suite's own loopback servers (serve.py: two
# HTTP origins that differ only by port, and an HTTPS one), its `{A}`, `{B}` and `{S}` standing for
# them in the URL and the flags. Prints each page's results and a closing "e2e: N passed, N failed"; exits
# non-zero on any failure, or when a page printed more than one summary (a frame forging one).
set -uo pipefail
cd "$(dirname "$0")/../.."
hosts=("$@")
[ ${#hosts[@]} -gt 0 ] || hosts=(gtk webkit)
bin="$(swift build --show-bin-path)"
ports_file=$(mktemp)
rm -f "$ports_file"
# The https origin's certificate, made for this run; the web views are told to trust it
# (--trust-certificate), as a device trusts a certificate its profile installs.
certificates=$(mktemp -d)
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$certificates/key.pem" -out "$certificates/certificate.pem" 2>/dev/null
python3 Tests/E2E/serve.py "$ports_file" 1800 "$certificates/certificate.pem" "$certificates/key.pem" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$certificates"' EXIT
for _ in $(seq 100); do [ -s "$ports_file" ] && break; sleep 0.1; done
read -r port_a port_b port_s <"$ports_file"
origin_a="http://127.0.0.1:$port_a"
origin_b="http://127.0.0.1:$port_b"
origin_s="https://127.0.0.1:$port_s"
passed=0
failed=0
# Runs one page (or the checks) as `name`: prints its results and adds them up.
run_one() {
    local name=$1
    shift
    local output status summaries summary page_passed page_failed
    output=$("$@" 2>&1)
    status=$?
    grep -E '^(ok|not ok) - |^# ' <<<"$output" | sed "s|^|$name: |"
    summaries=$(grep -cE '^e2e: [0-9]+ passed, [0-9]+ failed$' <<<"$output")
    summary=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed$' <<<"$output" | tail -1)
    if [ "$status" -ne 0 ] || [ -z "$summary" ] || [ "$summaries" -ne 1 ]; then
        echo "$name: not ok - the page did not finish with one summary (exit $status, $summaries summaries)"
        tail -5 <<<"$output" | sed "s|^|$name:   |"
        failed=$((failed + 1))
        return
    fi
    read -r page_passed page_failed < <(sed -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$summary")
    passed=$((passed + page_passed))
    failed=$((failed + page_failed))
}
substitute() { sed -e "s#{A}#$origin_a#g" -e "s#{B}#$origin_b#g" -e "s#{S}#$origin_s#g"; }
for host in "${hosts[@]}"; do
  case "$host" in
    gtk) demo="$bin/keystone-demo" ;;
    webkit) demo="$bin/keystone-demo-webkit" ;;
    *) echo "run.sh: unknown host $host (gtk or webkit)"; exit 1 ;;
  esac
  for page in Tests/E2E/pages/${E2E_ONLY:-*}.html; do  # E2E_ONLY=name runs one page
    read -r -a flags < <(sed -nE 's/.*e2e-flags: (.*) -->.*/\1/p' "$page" | head -1 | substitute)
    url=$(sed -nE 's/.*e2e-url: ([^ ]*) -->.*/\1/p' "$page" | head -1 | substitute)
    # The timeout is a guard against a hang, not a speed bar.
    run_one "$host/$(basename "$page" .html)" "$demo" --page "${url:-$page}" "${flags[@]}" \
        --trust-certificate "$certificates/certificate.pem" --timeout "${E2E_TIMEOUT:-300}"
  done
  # What no page can show of the Apple host: its delegates, a host let go, navigations the app starts.
  [ "$host" = webkit ] && [ -z "${E2E_ONLY:-}" ] && run_one "webkit/checks" timeout 300 "$bin/AppleHostChecks" "$origin_a"
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
