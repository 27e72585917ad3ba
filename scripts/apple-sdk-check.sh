#!/usr/bin/env bash
# apple-sdk-check.sh — type-checks the Apple host (Sources/KeystoneWebKit) as iOS and as macOS, each
# at the package's minimum (Package.swift's platforms), with warnings as errors: on an Apple target
# `#if os(iOS)` and `#if os(macOS)` hold as on a device, and an API newer than the minimum used
# outside `if #available` fails, as Xcode would fail it.
#
# No Apple SDK exists on Linux, so the check makes what the host needs of one:
# - Swift's standard library for each Apple target, compiled from the toolchain's own textual
#   interfaces (the Linux toolchain ships them);
# - WebKit, UIKit and AppKit: the shim's declarations (Tests/WebKitShim/Shim), whose platform guards
#   and availability are WebKit's headers' own, recorded in Tests/WebKitShim/SDK/WebKit.tsv and
#   checked against it here first (sdk.py);
# - Foundation and Dispatch: declarations only, as far as the host names them
#   (Tests/WebKitShim/SDK/Check).
# The host's files are the primary files of one frontend job beside the sources of the package's
# modules it imports and of the shim: only the host's bodies are type-checked, and of the rest only
# the declarations the host reaches.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

python3 Tests/WebKitShim/SDK/sdk.py check

out=.build/apple-sdk
resource=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift
ios=$(sed -n 's/.*\.iOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | tr _ .)
macos=$(sed -n 's/.*\.macOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | tr _ .)
[ -n "$ios" ] && [ -n "$macos" ] || { echo "apple-sdk-check: no iOS or macOS minimum in Package.swift" >&2; exit 1; }
case "$ios" in *.*) ;; *) ios="$ios.0" ;; esac
case "$macos" in *.*) ;; *) macos="$macos.0" ;; esac

# The standard library's modules for Apple targets, from the Linux toolchain's interfaces: the same
# declarations with their Apple availability, rebuilt for the target they are loaded for. Two things
# in the text are not for that target: `@backDeployed` needs a body the interface leaves out, and the
# library's own availability is not what this check asks about.
make_sdk() { # make_sdk DIRECTORY MODULE-TRIPLE TARGET VERSION
    for module in Swift _Concurrency _StringProcessing _RegexParser SwiftOnoneSupport; do
        mkdir -p "$1/usr/lib/swift/$module.swiftmodule"
        made="$1/usr/lib/swift/$module.swiftmodule/$2.swiftinterface"
        sed -E -e "3s/-target x86_64-unknown-linux-gnu/-target $3 -disable-availability-checking/" -e '/^[[:space:]]*@backDeployed/d' \
            "$resource/linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" >"$made.new"
        if cmp -s "$made.new" "$made"; then rm "$made.new"; else mv "$made.new" "$made"; fi
    done
    printf '{"CanonicalName":"keystone-check","Version":"%s","MaximumDeploymentTarget":"%s.99"}\n' "$4" "$4" >"$1/SDKSettings.json"
}

host=$(find Sources/KeystoneWebKit -name '*.swift' | sort)
others=$(find Sources/Interfaces Sources/Evaluator Sources/Keystone Sources/KeystoneHost Tests/WebKitShim/Shim -name '*.swift' | sort)

# The host names the shim's flag only to be compiled at all: a platform's code is chosen by `os(…)`
# alone (with `os(Linux)` where the shim runs it), or the flag would make every platform's code
# compile on each.
if grep -n 'KEYSTONE_WEBKIT_SHIM' $host | grep -v ':#if canImport(WebKit) || KEYSTONE_WEBKIT_SHIM$'; then
    echo "apple-sdk-check: the host chooses platform code by KEYSTONE_WEBKIT_SHIM (above): use os(…)" >&2
    exit 1
fi

# typecheck NAME TARGET [FILE]: the host's files (and FILE) type-checked for TARGET.
typecheck() {
    local primaries=()
    for file in $host ${3:-}; do primaries+=(-primary-file "$file"); done
    # shellcheck disable=SC2086  # the file list is words
    swiftc -frontend -typecheck -target "$2" -sdk "$out/$1/sdk" -module-cache-path "$out/$1/cache" -I "$out/$1/modules" \
        -module-name KeystoneWebKit -package-name Keystone -swift-version 6 -warnings-as-errors -D KEYSTONE_WEBKIT_SHIM \
        "${primaries[@]}" $others
}

status=0
for platform in "iOS:x86_64-apple-ios$ios-simulator" "macOS:x86_64-apple-macos$macos"; do
    name=${platform%%:*}
    target=${platform#*:}
    modules="$out/$name/modules"
    case $name in
        iOS) make_sdk "$out/$name/sdk" x86_64-apple-ios-simulator x86_64-apple-ios13.0-simulator "$ios" ;;
        macOS) make_sdk "$out/$name/sdk" x86_64-apple-macos x86_64-apple-macos10.15 "$macos" ;;
    esac
    mkdir -p "$modules"
    common=(-target "$target" -sdk "$out/$name/sdk" -module-cache-path "$out/$name/cache" -I "$modules")
    # The package's modules the host imports are compiled into the job itself: these stand for them.
    for module in KeystoneInterfaces KeystoneEvaluator Keystone KeystoneHost CWebKitGTK FoundationNetworking; do
        swiftc "${common[@]}" -emit-module -module-name "$module" -o "$modules/$module.swiftmodule" Tests/WebKitShim/SDK/Check/Empty.swift
    done
    swiftc "${common[@]}" -parse-as-library -emit-module -module-name Dispatch -o "$modules/Dispatch.swiftmodule" Tests/WebKitShim/SDK/Check/Dispatch.swift
    swiftc "${common[@]}" -parse-as-library -emit-module -module-name Foundation -o "$modules/Foundation.swiftmodule" Tests/WebKitShim/SDK/Check/Foundation.swift
    if typecheck "$name" "$target"; then
        echo "apple-sdk-check: the Apple host type-checks as $name ($target)"
    else
        echo "apple-sdk-check: the Apple host does not type-check as $name ($target)" >&2
        status=1
    fi
    # The probes: a change each to the host that the check must pass or fail, as each says, so a
    # check that stopped seeing a platform's members or availability fails too.
    for probe in Tests/WebKitShim/SDK/Probes/*.swift; do
        expected=$(sed -n "1s/.*expects:.*$name \(passes\|fails\).*/\1/p" "$probe")
        if typecheck "$name" "$target" "$probe" >"$out/$name/probe.log" 2>&1; then got=passes; else got=fails; fi
        if [ "$got" = "$expected" ]; then
            echo "apple-sdk-check: $(basename "$probe" .swift) $got as $name, as it should"
        else
            cat "$out/$name/probe.log" >&2
            echo "apple-sdk-check: $(basename "$probe" .swift) $got as $name: it should have ${expected:-said what it expects}" >&2
            status=1
        fi
    done
done
exit $status
