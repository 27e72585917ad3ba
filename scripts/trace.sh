#!/usr/bin/env bash
# trace.sh TRACE DIR — writes DIR/trace.json (the Trace Event format, for Perfetto or
# chrome://tracing) and DIR/timeline.html (the same timeline, drawn by a page that needs no network)
# from a Keystone trace: the JSON lines `keystone-demo --trace FILE` writes, or an app's
# `TraceFileWriter`.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/trace.sh TRACE DIR" >&2; exit 1; }
exec python3 "$(dirname "$0")/trace.py" "$1" "$2"
