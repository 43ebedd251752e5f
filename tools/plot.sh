#!/bin/sh
# tools/plot.sh: renders the charts of a tilejit-bench run. tilejit-bench --csv FILE writes
# FILE and the gnuplot script FILE.gp (its data inline); this runs the script, which draws
# throughput_<figure>.png (GB/s against input size per implementation and thread count)
# and ratio_throughput.png, ratio_compile.png (each figure against its reference) into
# OUTDIR. For throughput against size, run the bench with several sizes, for example
#   tilejit-bench --device cpu --size 4M,16M,64M,256M --csv cpu.csv cpu/
# Usage: tools/plot.sh FILE.csv [OUTDIR]   (default OUTDIR: FILE's folder)
# Exit status: 0 charts written, 1 gnuplot failed or is not installed, 2 bad usage.
set -eu

case "${1:-}" in
-h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") echo "usage: tools/plot.sh FILE.csv [OUTDIR]" >&2; exit 2 ;;
esac
[ $# -le 2 ] || { echo "usage: tools/plot.sh FILE.csv [OUTDIR]" >&2; exit 2; }

csv=$1
script="$csv.gp"
outdir=${2:-$(dirname "$csv")}
if [ ! -f "$script" ]; then
    echo "plot.sh: no $script (write it with tilejit-bench --csv $csv)" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot.sh: gnuplot is not installed (apt-get install gnuplot-nox); the data is in $csv" >&2
    exit 1
fi
mkdir -p "$outdir"
case "$outdir" in
*"'"*) echo "plot.sh: OUTDIR must not contain a quote" >&2; exit 2 ;;
esac
before=$(date +%s)
gnuplot -e "outdir='$outdir'" "$script"
count=0
for f in "$outdir"/throughput_*.png "$outdir"/ratio_*.png; do
    [ -f "$f" ] || continue
    # only what this run wrote
    [ "$(date -r "$f" +%s)" -ge "$before" ] || continue
    echo "$f"
    count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
    echo "plot.sh: gnuplot wrote no chart (no figure with GB/s or a ratio?)" >&2
    exit 1
fi
