#!/bin/sh
# tests/run_example.sh: runs one example program (stdin from /dev/null) and checks its exit
# status and its exact stdout against its entry in examples.expected (beside this script).
# CTest runs it for every example (tests/CMakeLists.txt: example_*), and so does tools/run.sh.
# Usage: tests/run_example.sh MODE EXE [ARG...]
#        tests/run_example.sh --names      the programs examples.expected lists, in order
# MODE        runs EXE with                         and expects the answer
# cpu-blocks  --device cpu --cpu-blocks             gpu (the seed's output)
# cpu         --device cpu                          width1
# cuda        --device cuda                         gpu
# default     --cpu-blocks (the GPU when present)   gpu
# ARGs follow those. A program that examples.expected does not list runs too, and then only
# its exit status counts. Exit status: 0 passed, 1 failed, 2 bad usage, 77 skipped (MODE
# cuda and no CUDA device: the program fails with TJ_ERR_NO_DEVICE), but a missing device
# is a failure when TILEJIT_REQUIRE_GPU is set to anything but 0. $TILEJIT_EXAMPLE_WRAPPER
# (words) runs EXE under another program (CTest's valgrind_example_*: valgrind).
set -euf

here=$(cd "$(dirname "$0")" && pwd)
table="$here/examples.expected"

usage() {
    echo "usage: tests/run_example.sh cpu-blocks|cpu|cuda|default EXE [ARG...]"
    echo "       tests/run_example.sh --names"
}

[ -r "$table" ] || { echo "run_example.sh: cannot read $table" >&2; exit 2; }

case "${1:-}" in
-h | --help)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
--names)
    # The first word of every entry line, once each, in order.
    awk '/^[^# ]/ && !seen[$1]++ { print $1 }' "$table"
    exit 0 ;;
esac
[ $# -ge 2 ] || { usage >&2; exit 2; }
mode=$1 exe=$2
shift 2
case "$mode" in
cpu-blocks) set -- --device cpu --cpu-blocks "$@"; answer=gpu ;;
cpu) set -- --device cpu "$@"; answer=width1 ;;
cuda) set -- --device cuda "$@"; answer=gpu ;;
default) set -- --cpu-blocks "$@"; answer=gpu ;;
*) usage >&2; exit 2 ;;
esac
name=$(basename "$exe")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tj-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# NAME's entry for this answer: its expected lines go to $tmp/expected. The exit status
# says what was found: 0 the entry, 3 entries for NAME but none for this answer, 4 no entry
# for NAME, 5 two entries for this answer.
found=0
awk -v name="$name" -v answer="$answer" '
    /^#/ || /^$/ { next }
    /^    / { if (take) print substr($0, 5); next }
    {
        take = 0
        if ($1 != name) next
        listed = 1
        for (i = 2; i <= NF; i++)
            if ($i == answer) { dup += found; found = 1; take = 1 }
    }
    END { exit dup ? 5 : found ? 0 : listed ? 3 : 4 }
' "$table" >"$tmp/expected" || found=$?

echo "==> $name $*"
if [ ! -x "$exe" ]; then
    echo "==> $name: FAILED (not built: $exe; is examples/$name.c there?)"
    exit 1
fi
case "$found" in
0) ;;
3)
    echo "==> $name: FAILED (tests/examples.expected has no '$answer' entry for $name)"
    exit 1 ;;
4) echo "run_example.sh: note: tests/examples.expected does not list $name: only its exit status counts" >&2 ;;
*)
    echo "==> $name: FAILED (tests/examples.expected has two '$answer' entries for $name, or awk failed)"
    exit 1 ;;
esac

rc=0
# shellcheck disable=SC2086 # the wrapper's words
${TILEJIT_EXAMPLE_WRAPPER:-} "$exe" "$@" </dev/null >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
cat "$tmp/stderr" >&2
cat "$tmp/stdout"
# (a last line without its newline still ends the line here; the comparison sees it)
if [ -n "$(tail -c 1 "$tmp/stdout")" ]; then echo; fi

if [ "$rc" != 0 ]; then
    if [ "$mode" = cuda ] && grep -q 'TJ_ERR_NO_DEVICE' "$tmp/stderr"; then
        v=${TILEJIT_REQUIRE_GPU:-}
        if [ -n "$v" ] && [ "$v" != 0 ]; then
            echo "==> $name: FAILED (TILEJIT_REQUIRE_GPU=$v but no CUDA device was found)"
            exit 1
        fi
        echo "SKIP: no CUDA device (no libcuda.so.1, a stub driver, or no GPU); set TILEJIT_REQUIRE_GPU=1 to make this a failure"
        exit 77
    fi
    echo "==> $name: FAILED (exit $rc)"
    exit 1
fi
if [ ! -s "$tmp/expected" ]; then
    echo "==> $name: OK"
    exit 0
fi

# Lines "~ REGEX" stand for the output line in the same place when it matches REGEX.
: >"$tmp/want"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    case "$line" in
    "~ "*)
        got=$(sed -n "${n}p" "$tmp/stdout")
        if printf '%s\n' "$got" | grep -Eqx -e "${line#\~ }"; then
            printf '%s\n' "$got" >>"$tmp/want"
            continue
        fi ;;
    esac
    printf '%s\n' "$line" >>"$tmp/want"
done <"$tmp/expected"
sed 's/^/    expected: /' "$tmp/expected"
if cmp -s "$tmp/want" "$tmp/stdout"; then
    echo "==> $name: OK (the expected '$answer' output)"
    exit 0
fi
echo "==> $name: FAILED (the output differs from the expected '$answer' output in tests/examples.expected)"
diff "$tmp/want" "$tmp/stdout" | sed 's/^/    diff: /' || true
exit 1
