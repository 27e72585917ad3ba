#!/usr/bin/env bash
# fuzz.sh — fuzzes the inbound path and the call wrapper's split with libFuzzer and AddressSanitizer
# for a bounded time (default 60 s; `scripts/fuzz.sh SECONDS`), starting from the checked-in corpus
# in Tests/Fuzz/corpus with the wire's dictionary. Exits non-zero on any finding (a crash, a broken
# property, a memory error, a leak, an input that hangs); the input is left in .build-fuzz/findings.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
seconds="${1:-60}"

# libFuzzer's runtime without its main (the fuzz target's own main hands it the harness), and the
# C++ library it needs.
[ -f "$(clang -print-file-name=libstdc++.so)" ] || install_packages libstdc++-12-dev
runtime=$(ls "$(dirname "$(dirname "$(command -v swift)")")"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
swift build -c release --scratch-path .build-fuzz --product keystone-fuzz \
    -Xswiftc -D -Xswiftc KEYSTONE_FUZZ \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,indirect-calls,inline-8bit-counters,pc-table \
    -Xlinker "$runtime" -Xlinker -lstdc++ -Xswiftc -use-ld=lld  # the toolchain's lld: gold warns on ASan's runtime

# New inputs go to a scratch corpus; the checked-in one is only read. The fuzzer's output goes to a
# file, not a pipe, and Swift's own crash reporter stays out of the way (libFuzzer and
# AddressSanitizer report a crash themselves): nothing can keep this script waiting once the fuzzer
# has ended.
work=.build-fuzz/corpus
findings=.build-fuzz/findings
log=.build-fuzz/fuzz.log
rm -rf "$work" "$findings"
mkdir -p "$work" "$findings"
status=0
SWIFT_BACKTRACE=enable=no .build-fuzz/release/keystone-fuzz "$work" Tests/Fuzz/corpus \
    -dict=Tests/Fuzz/keystone.dict -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 </dev/null || status=$?
grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$log" | tail -40
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$findings")" ]; then
    echo "FAIL: the fuzzer found an input Keystone mishandles (exit $status): $(ls "$findings")"
    exit 1
fi
echo "fuzz: no findings in ${seconds} s"
