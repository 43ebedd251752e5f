#!/bin/sh
# fuzz/run_fuzz.sh LIBFUZZER DRIVER CORPUS WORKDIR: fuzzes the kernel language for
# $TILEJIT_FUZZ_SECONDS seconds (default 60) with the libFuzzer binary LIBFUZZER, or with
# the deterministic DRIVER when LIBFUZZER is "-". New inputs go to WORKDIR/new (the corpus
# in the sources is not touched). A crash fails the run; keep the input it wrote (a
# crash-* file in WORKDIR) in CORPUS/regressions so that every later run replays it.
set -u
libfuzzer=$1
driver=$2
corpus=$3
work=$4
secs=${TILEJIT_FUZZ_SECONDS:-60}
abs() { case "$1" in /* | -) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
libfuzzer=$(abs "$libfuzzer")
driver=$(abs "$driver")
corpus=$(abs "$corpus")
work=$(abs "$work")
here=$(cd "$(dirname "$0")" && pwd) # before the cd below: $0 may be relative
mkdir -p "$work/new"
cd "$work" || exit 1
if [ "$libfuzzer" != "-" ] && [ -x "$libfuzzer" ]; then
    echo "fuzz_lang: libFuzzer for $secs s"
    "$libfuzzer" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -max_len=8192 \
        -print_final_stats=1 -dict="$here/lang.dict" -artifact_prefix="$work/" \
        "$work/new" "$corpus/seeds" "$corpus/regressions"
else
    echo "fuzz_lang: the deterministic driver for $secs s (no libFuzzer)"
    "$driver" --seconds "$secs" "$corpus/seeds" "$corpus/regressions"
fi
status=$?
if [ "$status" -ne 0 ]; then
    echo "fuzz_lang: FAILED; keep the crashing input as a regression:" >&2
    ls "$work"/crash-* 2>/dev/null | sed "s|^|    cp |; s|\$| $corpus/regressions/|" >&2
fi
exit "$status"
