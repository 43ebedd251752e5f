#!/bin/sh
# tools/run.sh: the main job. Installs what is missing (tools/setup_deps.sh), builds the
# library and the examples in build-release/ (Release; the tests are tools/test.sh's), then
# runs every example on the best device present (each uses the GPU when there is one, else
# the CPU), printing its output next to the seed's expected output. Exits 1 if an example
# fails or prints something else than expected.
# Usage: tools/run.sh
#        tools/run.sh --examples DIR [ARG...]   only run the examples in DIR, adding ARGs
#                                               (tools/device_run.sh: --device cuda)

# The examples, in order. A line "name [arguments]" names a program in examples/; the lines
# under it indented by four spaces are its expected stdout, exactly (the output printed in
# the seed, shared/seeds/*.txt); an example without them checks its own results. Programs
# built but not listed here still run, and only their exit status counts.
# --cpu-blocks: on the CPU, run every lane of a block, as the GPU does (the seeds' outputs
# are the GPU's); it changes nothing on a GPU.
EXAMPLES='
scalar_demo
store_doubled_thread_indices --cpu-blocks
    [ 0  2  4  6  8 10 12 14 16 18 20 22 24 26 28 30]
replace_rows --cpu-blocks
    [[  0.   1.   2.   3.]
     [  4.   5.   6.   7.]
     [100. 101. 102. 103.]
     [104. 105. 106. 107.]]
multiply_elements --cpu-blocks
    [756]
row_products --cpu-blocks
    [   6. 6000.]
histogram --cpu-blocks
    [1. 2. 3. 2.]
compact_values --cpu-blocks
    [6, 7, 8, 9]
'

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

failed=""
count=0

# run_example NAME ARGS EXPECTED: runs one program (stdin from /dev/null, stderr as it is)
# and checks its exit status and, when EXPECTED is not empty, its stdout.
run_example() {
    count=$((count + 1))
    name=$1 args=$2 expected=$3
    shift 3
    exe="$bindir/$name"
    echo "==> $name${args:+ $args}${*:+ $*}"
    if [ ! -x "$exe" ]; then
        echo "==> $name: FAILED (not built: is examples/$name.c there?)"
        failed="$failed $name"
        return
    fi
    rc=0
    # shellcheck disable=SC2086 # the listed arguments are split into words on purpose
    out=$("$exe" $args "$@" </dev/null) || rc=$?
    [ -z "$out" ] || printf '%s\n' "$out"
    if [ "$rc" != 0 ]; then
        echo "==> $name: FAILED (exit $rc)"
        failed="$failed $name"
    elif [ -z "$expected" ]; then
        echo "==> $name: OK"
    elif [ "$out" = "$expected" ]; then
        printf '%s\n' "$expected" | sed 's/^/    expected: /'
        echo "==> $name: OK (the seed's output)"
    else
        printf '%s\n' "$expected" | sed 's/^/    expected: /'
        echo "==> $name: FAILED (the output differs from the seed's)"
        failed="$failed $name"
    fi
}

# Read the list: a name line, then its indented expected lines.
listed=" "
name="" args="" expected=""
nl='
'
while IFS= read -r line; do
    case "$line" in
    "") continue ;;
    "    "*)
        expected="$expected${expected:+$nl}${line#    }"
        continue ;;
    esac
    [ -z "$name" ] || run_example "$name" "$args" "$expected" "$@"
    name=${line%% *}
    args=""
    [ "$name" = "$line" ] || args=${line#* }
    expected=""
    listed="$listed$name "
done <<EOF
$EXAMPLES
EOF
[ -z "$name" ] || run_example "$name" "$args" "$expected" "$@"

# Programs built but not listed: run them too, and say so, so a new example gets listed.
for exe in "$bindir"/*; do
    if [ ! -f "$exe" ] || [ ! -x "$exe" ]; then continue; fi
    name=$(basename "$exe")
    case "$listed" in *" $name "*) continue ;; esac
    echo "run.sh: note: examples/$name is not listed in EXAMPLES in tools/run.sh" >&2
    run_example "$name" "" "" "$@"
done

if [ -n "$failed" ]; then
    echo "==> FAILED:$failed" >&2
    exit 1
fi
echo "==> all $count examples passed"
