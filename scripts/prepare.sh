# prepare.sh — sourced by demo.sh and test.sh: puts Swift on PATH and installs what is missing.
# Swift 6 comes with the machine image (/opt/swift); Node and TypeScript come from Debian's packages.

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

# apt_install COMMAND PACKAGE: installs PACKAGE from Debian's packages when COMMAND is missing.
apt_install() {
    command -v "$1" >/dev/null && return 0
    echo "Installing $2 from Debian's packages…"
    if [ -z "${apt_updated:-}" ]; then as_root apt-get update -qq; apt_updated=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2"
}

apt_install node nodejs
