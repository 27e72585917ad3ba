#!/usr/bin/env bash
# test.sh — runs every test: the formatting lint, the Swift suites (built with warnings as errors
# and coverage, which is printed per module after the real-engine suite), the demo's command line,
# the documentation (DocC, with its articles' snippets compiled in the examples package), the Apple host
# type-checked as iOS and as macOS against WebKit's headers' facts, the page-side
# JavaScript suites, the examples package (parts written outside the package, public API only),
# the type check of the page API's declarations, the Linux host's WebKitGTK declarations checked
# against the real headers, the end-to-end suite in a real WebKit web view (under Xvfb) through
# both hosts (WebKitGTKHost, and WKWebViewHost on the Cocoa WebKit shim), the speed bars counted in instructions (valgrind), never in
# time, so nothing here passes or fails on how busy the machine is; a downstream app built, tested
# and run with nothing but Debian's WebKitGTK; and a minute of fuzzing
# (libFuzzer with AddressSanitizer), which fails on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prepare.sh
command -v tsc >/dev/null || install_packages node-typescript
command -v valgrind >/dev/null || install_packages valgrind

command -v python3 >/dev/null || install_packages python3
command -v openssl >/dev/null || install_packages openssl  # the end-to-end suite's https certificate
swift format lint --strict --recursive Package.swift Sources Tests Examples/Package.swift Examples/Sources Examples/ArticleSnippets/*/Context.swift
# The articles' snippets, written into the examples package and (Apple ones) the Apple host's build on the shim.
python3 Tests/Docs/snippets.py
# No two rooms of Sources/Keystone refer to each other.
python3 scripts/rooms.py
# The Apple host type-checked as iOS and as macOS at the package's minimums, against the SDK facts
# the shim's declarations are held to (Tests/WebKitShim/SDK).
bash scripts/apple-sdk-check.sh
# The Linux host's own declarations of WebKitGTK, and its web-process extension's, compiled after the
# real headers: any difference fails.
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $(pkg-config --cflags webkit2gtk-4.1) Tests/Declarations/check.c
# shellcheck disable=SC2046
cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $(pkg-config --cflags webkit2gtk-web-extension-4.1) Tests/Declarations/check-extension.c
# shellcheck disable=SC2046
cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $(pkg-config --cflags javascriptcoregtk-4.1) Tests/Declarations/check-jsc.c
# The same functions as Apple's JavaScriptCore declares them: the in-memory page's Swift compiles alike there.
python3 Tests/Declarations/jsc-apple.py
swift build --build-tests --enable-code-coverage -Xswiftc -warnings-as-errors
swift test --skip-build --enable-code-coverage
# The demo and the real-engine pages run instrumented binaries too: their profiles count.
rm -rf .build/coverage
export LLVM_PROFILE_FILE="$PWD/.build/coverage/run-%p.profraw"
bash Tests/Demo/cli.sh
# The seams, proven from outside: a package that sees only Keystone's public API. It also
# compiles every Swift snippet of the DocC articles, written into it above.
# SwiftPM reuses its build plan while the examples' manifest is unchanged, even when Keystone gained
# a file since: drop the plan (not the compiled products), so it is made again from the sources.
rm -f Examples/.build/debug.yaml Examples/.build/*/debug/description.json
swift build --package-path Examples -Xswiftc -warnings-as-errors
swift run --skip-build --package-path Examples ExamplesCheck
node --test Tests/JavaScript/
tsc -p Tests/JavaScript/types
tsc -p Tests/JavaScript/types/page-side
# The demo's interfaces as TypeScript (keystone-demo --emit-types), beside the runtime's own
# declarations: a page written against them compiles, and each misuse it marks is caught.
rm -rf .build/types && mkdir -p .build/types
cp Sources/Keystone/Resources/keystone-bridge.d.ts Tests/JavaScript/typed/usage.ts .build/types/
"$(swift build --show-bin-path)/keystone-demo" --emit-types .build/types/demo-interfaces.d.ts
tsc --noEmit --strict --target es2019 --lib es2019,es2018.asynciterable,dom .build/types/demo-interfaces.d.ts .build/types/usage.ts
xvfb-run -a Tests/E2E/run.sh
# A trace of a real-engine run through each host: converted, held to the Trace Event format, and its
# timeline drawn in the real engine.
xvfb-run -a bash Tests/Trace/trace.sh
# An app built on Keystone as a stranger builds one (Tests/Downstream), where nothing of Keystone's
# own is installed: its tests, and its GTK executable run in a real web view.
bash scripts/downstream.sh
bash scripts/coverage.sh
# The DocC catalogs, built with warnings as errors; every public symbol documented and curated.
bash scripts/docs.sh
swift build -c release --product keystone-benchmark -Xswiftc -warnings-as-errors
.build/release/keystone-benchmark --gate
bash scripts/fuzz.sh 60
