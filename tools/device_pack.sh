#!/bin/sh
# tools/device_pack.sh: builds the kit for the GPU machine (see DEVICE.md), which has no
# LLVM 19 and no Check. Configures build-device/ with LLVM and Check linked statically
# (Release), builds it, strips the library, tests, examples and benchmarks, checks that they
# need only glibc, libstdc++, libgcc, zlib and zstd with $ORIGIN rpaths, and packs them with
# relocatable CTest files, tools/device_run.sh and tools/run.sh (which runs the examples)
# into .device/tilejit-device.tar.xz.
# Usage: tools/device_pack.sh        then on the GPU machine: tools/device_run.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-device"
stage="$build/pack"
kit="tilejit-device"
out="$root/.device/$kit.tar.xz"
max_bytes=$((48 * 1024 * 1024))   # the carry limit is 64 MiB in all; keep a margin

fail() {
    echo "device_pack: $*" >&2
    exit 1
}

case "${1:-}" in
-h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) echo "usage: tools/device_pack.sh" >&2; exit 2 ;;
esac

"$root/tools/setup_deps.sh"

echo "==> configuring $build (static LLVM and Check, Release)"
generator=""
[ -f "$build/CMakeCache.txt" ] || generator="-G Ninja"
mkdir -p "$build"
# shellcheck disable=SC2086 # $generator is empty or two words
cmake -S "$root" -B "$build" $generator -DCMAKE_BUILD_TYPE=Release \
    -DTILEJIT_STATIC_LLVM=ON -DTILEJIT_STATIC_CHECK=ON -DTILEJIT_TESTS=ON \
    -DTILEJIT_SANITIZE=OFF >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; fail "cmake configure failed"; }
echo "==> building"
cmake --build "$build" -- -j"$(nproc)" || fail "the build failed"

# ---- stage ---------------------------------------------------------------------------------
echo "==> staging $stage/$kit"
rm -rf "$stage"
dest="$stage/$kit"
mkdir -p "$dest/tests" "$dest/examples" "$dest/tools"
# The library and the shared objects beside it (libtjref.so: the bench's GPU references).
cp -P "$build"/*.so* "$dest/"
for f in "$build"/tests/check_* "$build"/examples/* "$build/tilejit-bench" "$build/tilejit"; do
    if [ -f "$f" ] && [ -x "$f" ]; then
        case "$f" in
        "$build"/tests/*) cp "$f" "$dest/tests/" ;;
        "$build"/examples/*) cp "$f" "$dest/examples/" ;;
        *) cp "$f" "$dest/" ;;
        esac
    fi
done
cp "$root/tools/device_run.sh" "$root/tools/run.sh" "$dest/tools/"
# fuzz/diff_kernels, for its GPU test (diff_kernels_cuda: random kernels on the GPU against
# the CPU's fibers), beside the suites.
cp "$build/fuzz/diff_kernels" "$dest/tests/"
# The suites' stand-in libdevice (tests/fake_libdevice.ll): they look beside themselves too.
[ ! -f "$build/tests/fake_libdevice.bc" ] || cp "$build/tests/fake_libdevice.bc" "$dest/tests/"

# CTest files hold absolute paths: put a placeholder where the build folder was (device_run.sh
# writes the unpacked folder there) and leave out the valgrind tests (no valgrind there; they
# name files of this checkout). The kit holds the Check suites and, of fuzz/, the GPU test
# of diff_kernels (its binary in tests/).
t="$build/tests/CTestTestfile.cmake"
[ -f "$t" ] || fail "$t is missing (TILEJIT_TESTS off?)"
fz="$build/fuzz/CTestTestfile.cmake"
grep -q 'diff_kernels_cuda' "$fz" || fail "$fz has no diff_kernels_cuda"
{
    grep -v '^add_test(\[=\[valgrind_\|^set_tests_properties(\[=\[valgrind_' "$t"
    grep -E '^(add_test|set_tests_properties)\(\[=\[diff_kernels_cuda\]=\]' "$fz" |
        sed "s#$build/fuzz#$build/tests#g"
} | sed "s#$build#@TJ_ROOT@#g" >"$dest/tests/CTestTestfile.cmake.in"
printf '# tilejit device kit: the Check suites\nsubdirs("tests")\n' >"$dest/CTestTestfile.cmake.in"

# ---- strip and check -------------------------------------------------------------------------
elfs=$(find "$dest" -type f -exec sh -c 'head -c 4 "$1" | grep -q "ELF"' _ {} \; -print)
[ -n "$elfs" ] || fail "nothing was built"
for f in $elfs; do
    case "$f" in
    *.so*) strip --strip-unneeded "$f" ;;
    *) strip --strip-all "$f" ;;
    esac
done

# What the GPU machine has (DEVICE.md): glibc (libc, libm, libdl, librt, libpthread, the
# loader), libstdc++, libgcc_s, zlib, zstd; and our own library.
allowed='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|librt\.so\.1|libpthread\.so\.0'
allowed="$allowed|ld-linux-x86-64\.so\.2|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libz\.so\.1"
allowed="$allowed|libzstd\.so\.1|libtilejit\.so\.0)\$"
bad=""
for f in $elfs; do
    rel=${f#"$dest"/}
    needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for lib in $needed; do
        printf '%s\n' "$lib" | grep -Eq "$allowed" || bad="$bad\n  $rel needs $lib"
    done
    # Every run path must be relative to the file itself.
    paths=$(readelf -d "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' | tr ':' ' ')
    for p in $paths; do
        # shellcheck disable=SC2016 # the literal text $ORIGIN
        case "$p" in
        '$ORIGIN'*) ;;
        *) bad="$bad\n  $rel has the run path $p" ;;
        esac
    done
    worse=$(ldd "$f" 2>&1 | grep -E 'not found|libLLVM|libcheck|libsubunit' | tr -s ' \t' ' ')
    [ -z "$worse" ] || bad="$bad\n  $rel: $worse"
done
# The library exports the tj_ API and nothing else (no LLVM, no libstdc++ symbols).
exports=$(nm -D --defined-only "$dest/libtilejit.so.0" | awk '{print $3}' |
    grep -Ev '^(tj_|_init$|_fini$|_edata$|_end$|__bss_start$)' || true)
[ -z "$exports" ] || bad="$bad\n  libtilejit.so exports: $(echo "$exports" | head -5 | tr '\n' ' ')"
[ -z "$bad" ] || fail "the kit would not run on the GPU machine:$(printf '%b' "$bad")"

# ---- manifest and archive --------------------------------------------------------------------
{
    echo "tilejit device kit"
    echo "commit:  $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
        git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo ' (with local changes)')"
    echo "built:   $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n)"
    echo "options: CMAKE_BUILD_TYPE=Release TILEJIT_STATIC_LLVM=ON TILEJIT_STATIC_CHECK=ON"
    echo "glibc:   needs at most $(for f in $elfs; do objdump -T "$f"; done |
        grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
    echo "files:"
    (cd "$dest" && find . -type f ! -name MANIFEST | sort | while read -r f; do
        printf '  %10d  %s\n' "$(wc -c <"$f")" "${f#./}"
    done)
} >"$dest/MANIFEST"

mkdir -p "$root/.device"
echo "==> packing $out"
tar -C "$stage" -cf - "$kit" | xz -T0 -6 >"$out.tmp"
mv "$out.tmp" "$out"
bytes=$(wc -c <"$out")
[ "$bytes" -le "$max_bytes" ] || fail "$out is $bytes bytes, over $max_bytes"
echo "==> $out: $((bytes / 1024)) KiB ($(du -sk "$dest" | cut -f1) KiB unpacked)"
echo "    run it there with: carry [\".device\"], command \"tools/device_run.sh\" (logs in \$OUT)"
