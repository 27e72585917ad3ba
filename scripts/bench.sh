#!/usr/bin/env bash
# bench.sh — prints the timed benchmark: a sync call's time as a ratio to a bare JSONDecoder +
# JSONEncoder of the same payload, best of interleaved rounds. For reading only: it decides
# nothing, since wall time on a shared machine is noisy (the test command's bar counts instructions).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
swift build -c release --product keystone-benchmark -Xswiftc -warnings-as-errors
.build/release/keystone-benchmark
