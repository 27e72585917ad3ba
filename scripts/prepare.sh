# prepare.sh — sourced by demo.sh and test.sh: puts Swift on PATH and installs what is missing.
# Swift 6 comes with the machine image (/opt/swift); Node, TypeScript, WebKitGTK and Xvfb come
# from Debian's packages.

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

# install_packages PACKAGE…: installs Debian packages (updating the package lists once).
install_packages() {
    echo "Installing $* from Debian's packages…"
    if [ -z "${apt_updated:-}" ]; then as_root apt-get update -qq; apt_updated=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

command -v node >/dev/null || install_packages nodejs

# WebKitGTK for the Linux host, and Xvfb to run it without a display.
if ! pkg-config --exists webkit2gtk-4.1 2>/dev/null || ! command -v xvfb-run >/dev/null || ! command -v xauth >/dev/null; then
    install_packages pkg-config libwebkit2gtk-4.1-dev xvfb xauth
fi

