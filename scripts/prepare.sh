# prepare.sh — sourced by demo.sh and test.sh: puts Swift on PATH and installs Node when missing.
# Swift 6 comes with the machine image (/opt/swift); Node comes from Debian's packages.

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "needs root (or sudo) to run: $*" >&2; return 1
    fi
}

if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null; then
    echo "Swift 6 is required: install a Swift 6 toolchain for Linux and put it on PATH." >&2
    exit 1
fi

if ! command -v node >/dev/null; then
    echo "Installing Node.js from Debian's packages…"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs
fi
