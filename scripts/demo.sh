#!/usr/bin/env bash
# demo.sh — runs the demo: every kind of call between a page and Swift, with timings.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh

swift run keystone-demo "$@"
