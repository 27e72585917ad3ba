#!/usr/bin/env bash
# coverage.sh — prints line coverage per module, from the last coverage build's runs: the Swift
# suites (`swift test --enable-code-coverage`) and, when the test command ran them, the real-engine
# pages and the demo's command line (their profiles are written to .build/coverage/). Run after
# `scripts/test.sh`, or after `swift test --enable-code-coverage` alone for the Swift suites only.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
tools=$(dirname "$(readlink -f "$(command -v swift)")")  # the toolchain's llvm-cov reads its profiles
mkdir -p .build/coverage
shopt -s nullglob
"$tools/llvm-profdata" merge -sparse "$bin/codecov/default.profdata" .build/coverage/*.profraw -o .build/coverage/all.profdata
objects=("$bin/KeystonePackageTests.xctest")
[ -x "$bin/keystone-demo" ] && objects+=(-object "$bin/keystone-demo")
# Columns of llvm-cov's report: file, regions, missed, cover, functions, missed, cover, lines,
# missed, cover, …; a file is named from Sources/, so its first path component is its module.
"$tools/llvm-cov" report "${objects[@]}" -instr-profile=.build/coverage/all.profdata \
    -ignore-filename-regex='/(\.build|Tests)/' |
    awk '$1 ~ /\.swift$/ { split($1, path, "/"); lines[path[1]] += $8; missed[path[1]] += $9 }
         END {
             printf "%-18s %8s %8s %8s\n", "module", "lines", "missed", "covered"
             for (module in lines) printf "%-18s %8d %8d %7.1f%%\n", module, lines[module], missed[module], 100 * (lines[module] - missed[module]) / lines[module]
         }' | { read -r header; echo "$header"; sort; }
