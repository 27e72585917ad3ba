#!/usr/bin/env bash
# docs.sh — builds the documentation: a DocC archive per public module (KeystoneInterfaces,
# KeystoneEvaluator, Keystone, KeystoneTesting, KeystoneGTK, KeystoneWebKit) from its catalog and its symbol graphs, with the
# toolchain's `docc convert --warnings-as-errors` (a broken symbol or article link fails), for static
# hosting in .build-docs/site/MODULE. Then checks that every public symbol has a doc comment and
# every top-level one is in a topic group of its module's landing page. The test command runs it,
# and compiles the articles' Swift snippets in the Examples package (Tests/Docs/snippets.py).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { source scripts/prepare.sh; install_packages python3; }
modules=(KeystoneInterfaces KeystoneEvaluator Keystone KeystoneHost KeystoneTesting KeystoneGTK)
# A build of its own: symbol graphs need no coverage, and must not unsettle the test build's flags.
mkdir -p .build-docs
# It also tries the test modules, which have no graph to give, and says so on failing: each module
# needed is checked for below instead.
swift package --scratch-path .build-docs dump-symbol-graph --minimum-access-level public >.build-docs/dump.log 2>&1 || true
graphs=$(find .build-docs -type d -name symbolgraph | head -1)
for module in "${modules[@]}"; do
    [ -f "$graphs/$module.symbols.json" ] || { tail -20 .build-docs/dump.log; echo "docs: no symbol graph for $module"; exit 1; }
done

rm -rf .build-docs/site .build-docs/graphs && mkdir -p .build-docs/site
# KeystoneWebKit builds only where WebKit is. Its graph comes from the target that type-checks the
# same files against the Cocoa WebKit shim (Tests/WebKitShim), without the shim.
python3 Tests/Docs/apple_host_graph.py "$graphs/WebKitShim.symbols.json" "$graphs/KeystoneWebKit.symbols.json"
modules+=(KeystoneWebKit)
for module in "${modules[@]}"; do
    mkdir -p ".build-docs/graphs/$module"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json ".build-docs/graphs/$module/" 2>/dev/null || true
    folder=${module#Keystone}  # KeystoneInterfaces and KeystoneEvaluator live in Sources/Interfaces and Sources/Evaluator
    [ -d "Sources/$module" ] && folder=$module
    docc convert "Sources/$folder/$module.docc" \
        --additional-symbol-graph-dir ".build-docs/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.keystone.$module" \
        --transform-for-static-hosting --hosting-base-path "$module" \
        --warnings-as-errors --output-path ".build-docs/site/$module" >".build-docs/$module.log" 2>&1 ||
        { grep -E "warning|error" ".build-docs/$module.log"; echo "docs: $module's documentation has the problems above"; exit 1; }
done
python3 Tests/Docs/check_symbols.py "$graphs" "${modules[@]}"
echo "docs: ${modules[*]} built into .build-docs/site"
