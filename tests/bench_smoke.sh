#!/bin/sh
# tests/bench_smoke.sh: tilejit-bench as a program, in seconds (CTest's bench_smoke; label
# cpu). Timings are not checked (benchmarks print figures, they assert nothing about speed):
# what is checked is that the program runs and says what it did.
#   - --list lists the CPU, GPU and compile figures;
#   - a filter that names no figure is a usage error (exit status 2) naming the filter;
#   - every CPU figure and the compile figures of one seed, on 64 KiB and 2 timed runs, on
#     1 and 2 threads: exit status 0, no figure FAILED (each result is checked against its
#     reference before its time counts), every tilejit row has its ratio to a reference,
#     and the CSV, its gnuplot script and the JSON are written with every row, and --ir
#     makes its folder and writes the optimised IR of each CPU kernel, width-1 and
#     cooperative; an --ir that names a file is a usage error;
#   - the compile figures build without the disk cache and leave it on for the throughput
#     kernels after them (tools/cpu_annotate.py reads their objects there).
# The GPU figures need a GPU: the device script runs them (tools/device_run.sh).
# Usage: tests/bench_smoke.sh BENCH
set -eu

bench=${1:?usage: tests/bench_smoke.sh BENCH}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() {
    echo "bench_smoke: $*" >&2
    exit 1
}

"$bench" --list >"$dir/list" || fail "--list exited with $?"
for name in cpu/sum cpu/histogram cpu/compact cpu/copy cpu/launch gpu/sum gpu/compact \
    compile/ptx/compact_values compile/cpu/histogram; do
    grep -q "^$name " "$dir/list" || fail "--list does not list $name"
done

set +e
"$bench" --device cpu no_such_figure/ >"$dir/out" 2>"$dir/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "a filter that names no figure exited with $rc, not 2"
grep -q "no figure's name contains 'no_such_figure/'" "$dir/err" ||
    fail "a filter that names no figure: unexpected message: $(head -1 "$dir/err")"

: >"$dir/file"
set +e
"$bench" --device cpu --ir "$dir/file" cpu/sum >"$dir/out" 2>"$dir/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "--ir naming a file exited with $rc, not 2"
grep -q -- "--ir: '$dir/file' is not a folder" "$dir/err" ||
    fail "--ir naming a file: unexpected message: $(head -1 "$dir/err")"

"$bench" --device cpu --size 64K --repeat 2 --threads 1,2 --csv "$dir/b.csv" \
    --json "$dir/b.json" --ir "$dir/ir" cpu/ compile/ptx/histogram compile/cpu/histogram \
    >"$dir/out" 2>"$dir/err" || { cat "$dir/err" >&2; fail "the run exited with $?"; }
summary=$(tail -1 "$dir/err")
echo "$summary"
case "$summary" in
*" 0 failed"*) ;;
*) cat "$dir/out" >&2; fail "figures failed: $summary" ;;
esac
# TSV on stdout: name impl device threads size runs median min max gbps ref ref_median ratio
rows=$(grep -c "^cpu/\|^compile/" "$dir/out") || fail "no figures on stdout"
[ "$rows" -ge 30 ] || fail "$rows figures on stdout, expected at least 30"
awk -F'\t' '$2 ~ /^tilejit/ && $1 ~ /^cpu\/(sum|histogram|compact|copy)$/ && $13 == "-" {
    print "bench_smoke: no ratio for " $1 " " $2 " on " $4 " threads"; bad = 1 }
    END { exit bad }' "$dir/out" || fail "rows without a ratio"
for op in sum histogram compact copy; do
    for mode in "tilejit width-1" "tilejit cooperative"; do
        for t in 1 2; do
            awk -F'\t' -v op="cpu/$op" -v m="$mode" -v t="$t" \
                '$1 == op && $2 == m && $4 == t && $15 == "ok" { found = 1 }
                 END { exit !found }' "$dir/out" || fail "no $mode row of cpu/$op on $t threads"
        done
    done
done
csv_rows=$(($(wc -l <"$dir/b.csv") - 1))
[ "$csv_rows" = "$rows" ] || fail "the CSV has $csv_rows rows, stdout $rows"
[ -s "$dir/b.csv.gp" ] || fail "no gnuplot script beside the CSV"
json_rows=$(grep -c '"name": ' "$dir/b.json") || fail "no rows in the JSON"
[ "$json_rows" = "$rows" ] || fail "the JSON has $json_rows rows, stdout $rows"
for op in sum histogram compact copy; do
    for mode in width1 cooperative; do
        grep -q "^define .*@tj_[0-9a-f]*_bench_$op(" "$dir/ir/cpu-$op-$mode.ll" ||
            fail "--ir: no entry of bench_$op in cpu-$op-$mode.ll"
    done
done
mkdir "$dir/cache"
env -u TILEJIT_CACHE TILEJIT_CACHE_DIR="$dir/cache" "$bench" --device cpu --size 64K \
    --repeat 2 --threads 1 compile/cpu/histogram cpu/sum >/dev/null 2>"$dir/err" ||
    { cat "$dir/err" >&2; fail "the run with the disk cache exited with $?"; }
cached=$(ls "$dir/cache" | wc -l)
sums=$(grep -l "_bench_sum" "$dir/cache"/* 2>/dev/null | wc -l)
[ "$cached" = 2 ] && [ "$sums" = 2 ] ||
    fail "the disk cache holds $cached objects, $sums of bench_sum: expected the 2 sums only"
echo "bench_smoke: $rows figures checked"
