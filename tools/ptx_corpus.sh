#!/bin/sh
# tools/ptx_corpus.sh BUILD DIR: runs every check suite of BUILD (but check_cache) with the
# disk cache in DIR, so DIR gets one file per distinct kernel module the suites build: PTX
# (*.ptx) and CPU objects (*.o), named by the cache key. The key is computed before
# optimisation, so two corpora made with different pipelines pair up file by file:
# tools/sass_diff.py compares them. The key also holds the build-id of the library
# (jit/build_id.c): only corpora made by the same binary pair up, so compare pipelines
# chosen at run time, and do not rebuild while a corpus is made. GPU cases skip without a GPU; their PTX cases still
# build. About three minutes on two cores.
set -u
if [ $# -ne 2 ]; then
    echo "usage: tools/ptx_corpus.sh BUILD DIR" >&2
    exit 2
fi
build=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && dir=$(cd "$2" && pwd) || exit 2
for t in "$build"/tests/check_*; do
    [ -x "$t" ] || continue
    case $t in *check_cache*) continue ;; esac
    TILEJIT_CACHE=1 TILEJIT_CACHE_DIR="$dir" CK_FORK=no timeout 900 "$t" >/dev/null 2>&1 ||
        echo "note: $(basename "$t") failed with the cache on (its files are still there)"
done
echo "$(find "$dir" -name '*.ptx' | wc -l) PTX files, $(find "$dir" -name '*.o' | wc -l) objects in $dir"
