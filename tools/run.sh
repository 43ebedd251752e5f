#!/bin/sh
# tools/run.sh: the main job. Installs what is missing (tools/setup_deps.sh), builds the
# library and the examples in build-release/ (Release; the tests are tools/test.sh's), then
# runs every example on the best device present (each uses the GPU when there is one, else
# the CPU), printing its output next to the seed's expected output. Exits 1 if an example
# fails or prints something else than expected.
# Usage: tools/run.sh
#        tools/run.sh --examples DIR [ARG...]   only run the examples in DIR, adding ARGs
#                                               (tools/device_run.sh: --device cuda)

# The expected outputs (the seeds' outputs, shared/seeds/*.txt) are in tests/examples.expected,
# which CTest's example_* tests also use; tests/run_example.sh runs one program and compares.
# Each program runs with --cpu-blocks (on the CPU, every lane of a block, as the GPU does: the
# seeds' outputs are the GPU's; it changes nothing on a GPU) and the ARGs, and must print the
# table's "gpu" answer. Programs built but not listed there still run, and only their exit
# status counts.

set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-release"
bindir="$build/examples"
build_first=1

case "${1:-}" in
-h | --help)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
--examples)
    [ $# -ge 2 ] || { echo "usage: tools/run.sh --examples DIR [ARG...]" >&2; exit 2; }
    bindir=$2
    build_first=0
    shift 2 ;;
"") ;;
*)
    echo "usage: tools/run.sh | tools/run.sh --examples DIR [ARG...]" >&2
    exit 2 ;;
esac
# What is left in "$@": arguments added to every example.

if [ "$build_first" = 1 ]; then
    "$root/tools/setup_deps.sh"
    echo "==> configuring $build (Release)"
    generator=""
    [ -f "$build/CMakeCache.txt" ] || generator="-G Ninja"
    mkdir -p "$build"
    log="$build/configure.log"
    # shellcheck disable=SC2086 # $generator is empty or two words
    # No tests and no nvcc-built bench references: the examples need neither.
    if ! cmake -S "$root" -B "$build" $generator -DCMAKE_BUILD_TYPE=Release \
            -DTILEJIT_TESTS=OFF -DTILEJIT_BENCH_REFERENCES=OFF >"$log" 2>&1; then
        cat "$log" >&2
        echo "run.sh: cmake configure failed" >&2
        exit 1
    fi
    echo "==> building"
    cmake --build "$build" -- -j"$(nproc)" || { echo "run.sh: the build failed" >&2; exit 1; }
fi

# The runner and its table: in this checkout, else (the device kit's copy of this script,
# which tools/device_run.sh runs) in the sources that $TILEJIT_SOURCE_DIR names.
runner="$root/tests/run_example.sh"
[ -f "$runner" ] || runner="${TILEJIT_SOURCE_DIR:-.}/tests/run_example.sh"
[ -f "$runner" ] || { echo "run.sh: no tests/run_example.sh (set TILEJIT_SOURCE_DIR)" >&2; exit 1; }

failed=""
count=0
# run_example NAME ARG...: runs one program through tests/run_example.sh, which prints its
# output, the expected one and a line "==> NAME: OK" or "==> NAME: FAILED (why)".
run_example() {
    count=$((count + 1))
    name=$1
    shift
    sh "$runner" default "$bindir/$name" "$@" || failed="$failed $name"
}

# The listed programs in the table's order, then those built but not listed (say so, so a
# new example gets listed).
listed=" "
for name in $(sh "$runner" --names); do
    listed="$listed$name "
    run_example "$name" "$@"
done
for exe in "$bindir"/*; do
    if [ ! -f "$exe" ] || [ ! -x "$exe" ]; then continue; fi
    name=$(basename "$exe")
    case "$listed" in *" $name "*) continue ;; esac
    echo "run.sh: note: examples/$name is not listed in tests/examples.expected" >&2
    run_example "$name" "$@"
done

if [ -n "$failed" ]; then
    echo "==> FAILED:$failed" >&2
    exit 1
fi
echo "==> all $count examples passed"
