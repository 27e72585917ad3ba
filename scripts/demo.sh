#!/usr/bin/env bash
# demo.sh — runs the demo: a real WebKitGTK page and Swift calling each other, with timings.
# Arguments go to keystone-demo (`--page FILE` etc.); paths are taken from where it is run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/prepare.sh"

swift run --package-path "$root" keystone-demo "$@"
