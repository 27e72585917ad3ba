#!/usr/bin/env bash
# downstream.sh — builds, tests and runs Tests/Downstream (an app that depends on Keystone by path)
# as a stranger's machine would: with Debian's WebKitGTK package and nothing of Keystone's own.
# Where it can (as root), it runs in a private mount namespace that hides pkg-config and
# /usr/local/lib/pkgconfig, so nothing an earlier setup wrote there can help the build.
# Usage: bash scripts/downstream.sh  (sourced prepare.sh has put swift on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."

steps='
set -euo pipefail
cd Tests/Downstream
swift build -Xswiftc -warnings-as-errors 2>&1 | tee .build-log
if grep -q "warning:" .build-log; then echo "downstream: the build warned"; exit 1; fi
rm -f .build-log
# The GTK host'"'"'s web-process extension came with KeystoneGTK, built by its plugin: nothing of the app'"'"'s.
extension=.build/debug/Keystone_KeystoneGTK.resources/keystone-web-process-extension.so
grep -q webkit_web_extension_initialize_with_user_data "$extension" || { echo "downstream: no web-process extension in $extension"; exit 1; }
echo "downstream: the app got the web-process extension ($extension)"
swift test
xvfb-run -a .build/debug/GreeterApp
'
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    echo "downstream: in a mount namespace without pkg-config or /usr/local/lib/pkgconfig"
    unshare -m bash -c '
        set -e
        mount --make-rprivate /
        [ -d /usr/local/lib/pkgconfig ] && mount -t tmpfs tmpfs /usr/local/lib/pkgconfig
        pc=$(command -v pkg-config || true)
        [ -n "$pc" ] && mount --bind /dev/null "$pc"
        '"$steps"
else
    echo "downstream: not root, so run as is (Keystone itself writes nothing outside its repository)"
    bash -c "$steps"
fi
