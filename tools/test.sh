#!/bin/sh
# tools/test.sh: installs what is missing (tools/setup_deps.sh), builds build/ with warnings
# as errors and runs the Check suites through CTest: labels cpu and cuda (the cuda tests exit
# 77, skipped, without a GPU; set TILEJIT_REQUIRE_GPU=1 to make that a failure), then the
# kernel-language fuzzer briefly (label fuzz, TILEJIT_FUZZ_SECONDS, default 20).
# Usage: tools/test.sh [--valgrind]   --valgrind also runs ctest -L valgrind (slow)
set -eu

usage() {
    echo "usage: tools/test.sh [--valgrind]"
    echo "  --valgrind  also run the CPU suites, the command and the examples under valgrind"
    echo "              (ctest -L valgrind; slow)"
}

valgrind=0
for arg in "$@"; do
    case "$arg" in
    --valgrind) valgrind=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
jobs=$(nproc 2>/dev/null || echo 2)

"$root/tools/setup_deps.sh"

echo "==> configuring $build (TILEJIT_WERROR=ON)"
generator=""
[ -f "$build/CMakeCache.txt" ] || generator="-G Ninja"
mkdir -p "$build"
log="$build/configure.log"
# shellcheck disable=SC2086 # $generator is empty or two words
if ! cmake -S "$root" -B "$build" $generator -DTILEJIT_WERROR=ON >"$log" 2>&1; then
    cat "$log" >&2
    echo "test.sh: cmake configure failed" >&2
    exit 1
fi
rm -f "$log"

echo "==> building"
cmake --build "$build" -- -j"$jobs" || { echo "test.sh: the build failed" >&2; exit 1; }

cd "$build"
status=0
echo "==> ctest -L 'cpu|cuda'"
ctest --output-on-failure -j"$jobs" -L 'cpu|cuda' || status=1
# The kernel-language fuzzer, briefly (fuzz/run_fuzz.sh; TILEJIT_FUZZ_SECONDS to change it).
fuzz_secs=${TILEJIT_FUZZ_SECONDS:-20}
echo "==> ctest -L fuzz (${fuzz_secs} s)"
TILEJIT_FUZZ_SECONDS=$fuzz_secs ctest --output-on-failure -L fuzz || status=1
if [ "$valgrind" = 1 ]; then
    echo "==> ctest -L valgrind"
    ctest --output-on-failure -j"$jobs" -L valgrind || status=1
fi
[ "$status" = 0 ] || echo "test.sh: some tests failed (see above)" >&2
exit "$status"
