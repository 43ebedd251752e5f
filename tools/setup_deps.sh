#!/bin/sh
# tools/setup_deps.sh: installs the Debian 12 packages tilejit needs to build and test.
# Checks each package with dpkg first: on a machine that has them all it does no apt work
# and prints nothing. Needs root (or sudo) only when something is missing.
set -eu

PACKAGES="cmake ninja-build gcc g++ pkg-config llvm-19-dev check libzstd-dev zlib1g-dev valgrind"

missing=""
for p in $PACKAGES; do
    # "install ok installed" is the only state in which the package's files are all there.
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

fail() {
    echo "setup_deps: $*" >&2
    echo "setup_deps: install them by hand:  apt-get install$missing" >&2
    exit 1
}

if ! command -v apt-get >/dev/null 2>&1; then
    fail "missing packages:$missing, and apt-get is not available (tilejit expects Debian 12)"
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    fail "missing packages:$missing; not root and no sudo"
fi

echo "setup_deps: installing:$missing" >&2
log=$(mktemp "${TMPDIR:-/tmp}/tilejit-apt.XXXXXX")
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # $SUDO and $missing are deliberately split into words
if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1; then
    cat "$log" >&2
    fail "apt-get update failed"
fi
# shellcheck disable=SC2086
if ! $SUDO env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends $missing >"$log" 2>&1; then
    cat "$log" >&2
    fail "apt-get install failed"
fi
echo "setup_deps: done" >&2
