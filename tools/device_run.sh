#!/bin/sh
# tools/device_run.sh: runs the kit that tools/device_pack.sh made, on the GPU machine (run
# from the repository root; see DEVICE.md). Unpacks it into a temporary folder, then runs
# the whole test suite with TILEJIT_REQUIRE_GPU=1 (a GPU test that finds no GPU fails),
# every example with --device cuda (through the kit's tools/run.sh, which also compares the
# seeds' outputs), and tilejit-bench when the kit has it. Logs and summary.txt go to $OUT
# (default: out/). Exits 0 only when everything passed.
# Usage: [OUT=dir] tools/device_run.sh [KIT.tar.xz]   (default .device/tilejit-device.tar.xz;
#        the copy inside an unpacked kit runs that kit when given no argument)
# Environment: TILEJIT_CTEST_ARGS (extra ctest arguments, e.g. "-R scalar"),
#              TILEJIT_BENCH_ARGS (arguments for tilejit-bench), TILEJIT_KEEP=1 (keep the
#              unpacked folder), TILEJIT_STEPS (default "tests examples bench": which to
#              run, e.g. the bench alone in a second call), TILEJIT_LIMITS="T E B" (time
#              limits in seconds of the three, default "300 60 200": under 10 minutes).
set -u

case "${1:-}" in
-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
given=$#
pack=${1:-$root/.device/tilejit-device.tar.xz}
OUT=${OUT:-$root/out}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
summary="$OUT/summary.txt"
: >"$summary"

say() {
    echo "$*" | tee -a "$summary"
}
die() {
    say "FAIL: $*"
    exit 1
}
now() {
    date +%s
}
t_start=$(now)
# shellcheck disable=SC2086 # three numbers
set -- ${TILEJIT_LIMITS:-300 60 200}
limit_tests=$1 limit_examples=$2 limit_bench=$3
steps=" ${TILEJIT_STEPS:-tests examples bench} "
# step NAME: whether this run includes step NAME (else it says so in the summary).
step() {
    case "$steps" in *" $1 "*) return 0 ;; esac
    say "$1: not run (TILEJIT_STEPS)"
    return 1
}

# ---- unpack ----------------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/tilejit-device.XXXXXX") || die "mktemp failed"
if [ "${TILEJIT_KEEP:-0}" = 1 ]; then
    echo "keeping $work"
else
    trap 'rm -rf "$work"' EXIT
fi
if [ "$given" = 0 ] && [ -f "$root/MANIFEST" ] && [ -f "$root/tests/CTestTestfile.cmake.in" ]; then
    kit=$root    # the copy of this script inside an unpacked kit: run that kit in place
    pack="$root (unpacked)"
else
    [ -f "$pack" ] || die "no kit at $pack (make it with tools/device_pack.sh; carry .device)"
    tar -C "$work" -xJf "$pack" || die "cannot unpack $pack"
    kit="$work/tilejit-device"
    [ -f "$kit/MANIFEST" ] || die "$pack is not a tilejit device kit (no MANIFEST)"
fi
# The CTest files name the folder they run in: write in where it is now.
for t in CTestTestfile.cmake tests/CTestTestfile.cmake; do
    sed "s#@TJ_ROOT@#$kit#g" "$kit/$t.in" >"$kit/$t" || die "cannot write $kit/$t"
done

# ---- environment -----------------------------------------------------------------------------
# libdevice and ptxas come from the CUDA toolkit; the driver may sit outside the loader's path.
if [ -z "${CUDA_HOME:-}" ] && [ -d /usr/local/cuda ]; then
    export CUDA_HOME=/usr/local/cuda
fi
[ -n "${CUDA_HOME:-}" ] && PATH="$PATH:$CUDA_HOME/bin"
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    for d in /usr/local/nvidia/lib64 /usr/lib64 /usr/lib/x86_64-linux-gnu; do
        if [ -e "$d/libcuda.so.1" ]; then
            export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            break
        fi
    done
fi
export TILEJIT_REQUIRE_GPU=1
# Suites that read files of the source tree (examples/kernels/*.py) find them here: the
# checkout this script belongs to, else the current folder.
if [ -z "${TILEJIT_SOURCE_DIR:-}" ]; then
    for d in "$root" "$PWD"; do
        if [ -f "$d/include/tilejit.h" ]; then
            export TILEJIT_SOURCE_DIR="$d"
            break
        fi
    done
fi
{
    echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:    $(uname -a)"
    echo "kit:     $pack"
    sed -n '2,5p' "$kit/MANIFEST"
    echo "CUDA_HOME=${CUDA_HOME:-}"
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    echo "TILEJIT_SOURCE_DIR=${TILEJIT_SOURCE_DIR:-}"
    echo "ptxas:   $(command -v ptxas || echo none)"
    command -v nvidia-smi >/dev/null && nvidia-smi -L
    echo "--- ldd libtilejit.so"
    ldd "$kit/libtilejit.so.0"
} >"$OUT/env.txt" 2>&1

# A library missing here would fail every test in the same way: say it once and stop.
missing=""
for f in "$kit"/libtilejit.so.0 "$kit"/tests/check_* "$kit"/examples/* "$kit"/tilejit-bench; do
    [ -f "$f" ] || continue
    absent=$(ldd "$f" 2>&1 | awk '/not found/ {print $1}' | tr '\n' ' ')
    [ -z "$absent" ] || missing="$missing $(basename "$f"): $absent"
done
[ -z "$missing" ] || die "libraries not found on this machine:$missing (see $OUT/env.txt)"

say "tilejit device run, $(date -u '+%Y-%m-%d %H:%M UTC'), $(sed -n 2p "$kit/MANIFEST")"
gpu=$(nvidia-smi -L 2>/dev/null | head -1)
say "gpu: ${gpu:-none found by nvidia-smi}"
status=0

# ---- tests -----------------------------------------------------------------------------------
t0=$(now)
jobs=$(nproc 2>/dev/null || echo 4)
rc=0
if ! step tests; then
    :
elif command -v ctest >/dev/null; then
    junit=""
    ctest --help 2>/dev/null | grep -q -- --output-junit && junit="--output-junit $OUT/ctest.xml"
    # shellcheck disable=SC2086 # the extra arguments are split on purpose
    (cd "$kit" && timeout "$limit_tests" \
        ctest --output-on-failure -j"$jobs" $junit ${TILEJIT_CTEST_ARGS:-}) \
        >"$OUT/ctest.log" 2>&1
    rc=$?
    cp "$kit/Testing/Temporary/LastTest.log" "$OUT/ctest-full.log" 2>/dev/null
    [ "$rc" != 124 ] || say "tests: stopped after $limit_tests s (TILEJIT_LIMITS)"
    # "100% tests passed, 0 tests failed out of 23", or without the failures where none
    # failed (the CTest of the GPU machine's Ubuntu 24.04)
    line=$(grep -E 'tests passed(, [0-9]+ tests? failed)? out of' "$OUT/ctest.log" | tail -1)
    skipped=$(grep -c '\*\*\*Skipped' "$OUT/ctest.log")
    # Each finished test has a line "n/N Test #k: name ....***Failed  1.00 sec".
    failed=$(grep -E 'Test +#[0-9]+: .*\*\*\*' "$OUT/ctest.log" | grep -v '\*\*\*Skipped' |
        sed 's/.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*\([A-Za-z ]*[A-Za-z]\).*/\1 (\2)/' |
        tr '\n' ';')
    # No summary line: ctest stopped, or found no tests (a filter that matches none exits 0).
    if [ -z "$line" ]; then
        grep -q 'No tests were found' "$OUT/ctest.log" && line="no tests matched" ||
            line="ctest did not finish (exit $rc)"
        [ "$rc" != 0 ] || rc=1
    fi
    say "tests: $line; $skipped skipped ($(($(now) - t0)) s; log: ctest.log)"
    [ -z "$failed" ] || say "  failed: $failed"
else
    # No ctest: run the commands of the CTest files directly (exit 77 means skipped).
    pass=0 fail=0 skip=0 failed=""
    grep '^add_test(' "$kit/tests/CTestTestfile.cmake" |
        sed 's/^add_test(\[=\[\([^]]*\)\]=\] \(.*\))$/\1 \2/' >"$work/tests.txt"
    while read -r name cmd; do
        eval "set -- $cmd"
        echo "=== $name: $*" >>"$OUT/ctest.log"
        (cd "$kit/tests" && timeout "$limit_tests" "$@") >>"$OUT/ctest.log" 2>&1 </dev/null
        case $? in
        0) pass=$((pass + 1)) ;;
        77) skip=$((skip + 1)) ;;
        *) fail=$((fail + 1)); failed="$failed$name;" ;;
        esac
    done <"$work/tests.txt"
    [ $((pass + fail + skip)) -gt 0 ] || fail=1
    rc=$fail
    say "tests (no ctest here): $pass passed, $fail failed, $skip skipped ($(($(now) - t0)) s)"
    [ -z "$failed" ] || say "  failed: $failed"
fi
[ "$rc" = 0 ] || status=1

# ---- examples --------------------------------------------------------------------------------
# The kit's copy of tools/run.sh runs them: it knows each example's arguments and the seeds'
# expected outputs, and also runs programs it does not list.
if step examples; then
    t0=$(now)
    timeout "$limit_examples" "$kit/tools/run.sh" --examples "$kit/examples" --device cuda \
        >"$OUT/examples.log" 2>&1
    rc=$?
    [ "$rc" != 124 ] || say "examples: stopped after $limit_examples s (TILEJIT_LIMITS)"
    grep -E '^==> [^ ]+: (OK|FAILED)' "$OUT/examples.log" | sed 's/^==> /example /' |
        tee -a "$summary"
    verdict=OK
    [ "$rc" = 0 ] || { verdict="FAILED, exit $rc"; status=1; }
    say "examples: $verdict ($(($(now) - t0)) s; log: examples.log)"
fi

# ---- benchmarks ------------------------------------------------------------------------------
if ! step bench; then
    :
elif [ -x "$kit/tilejit-bench" ]; then
    t0=$(now)
    # shellcheck disable=SC2086
    timeout "$limit_bench" "$kit/tilejit-bench" ${TILEJIT_BENCH_ARGS:-} >"$OUT/bench.tsv" \
        2>"$OUT/bench.log" </dev/null
    rc=$?
    if [ "$rc" = 0 ]; then
        say "bench: OK, $(grep -c . "$OUT/bench.tsv") lines in bench.tsv ($(($(now) - t0)) s)"
    else
        say "bench: FAILED, exit $rc ($(($(now) - t0)) s; see bench.log)"
        status=1
    fi
else
    say "bench: none in this kit"
fi

if [ "$status" = 0 ]; then
    say "RESULT: PASS ($(($(now) - t_start)) s)"
else
    say "RESULT: FAIL ($(($(now) - t_start)) s)"
fi
exit "$status"
