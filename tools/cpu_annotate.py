#!/usr/bin/env python3
"""tools/cpu_annotate.py: where a JIT-compiled CPU kernel spends its time, instruction by
instruction, from a `perf record` of the process that ran it.

perf cannot read the code of a JIT: TILEJIT_PERF_MAP=1 gives it the entries' names and
address ranges (/tmp/perf-PID.map), not their bytes. The bytes are in tilejit's disk cache
when the kernel was built with it on (the default): the object whose key begins as the
entry's name does (tj_<key>_<name>). Without it, the optimised IR of the kernel
(tilejit-bench --ir DIR, or tj_module_get_ir) compiled again by LLVM's llc for the host CPU,
position-independent at -O3, gives about the same code (not always the same: where the
prologue goes and which registers it uses can differ). Either way the script checks that
the symbol has the size the map gives, and then places each sample at its offset in that
code.

  TILEJIT_PERF_MAP=1 perf record -F 10000 -o perf.data \\
      build/tilejit-bench --device cpu --threads 1 --size 4M --ir /tmp/ir cpu/compact
  tools/cpu_annotate.py perf.data /tmp/ir/cpu-compact-cooperative.ll

prints the share of the kernel's samples in its hottest 64-byte windows, then those windows'
instructions with their sample counts (on a VM without hardware counters perf samples the
clock: a sample often lands an instruction or two after the one that waited).
Needs perf, objdump and llc (LLVM 19: llc-19, or llvm-config-19 --bindir).
"""
import argparse
import collections
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile


def die(msg):
    sys.exit("cpu_annotate: " + msg)


def entry_name(ir_path):
    """The name of the first function the IR defines (a tilejit entry: tj_<key>_<name>)."""
    with open(ir_path) as f:
        for line in f:
            m = re.match(r'define [^@]*@"?([^"(\s]+)"?\(', line)
            if m:
                return m.group(1)
    die(f"{ir_path} defines no function")


def map_entry(name, map_path):
    """(address, size) of 'name' in the perf map given, or in the newest /tmp/perf-*.map
    that has it."""
    paths = [map_path] if map_path else sorted(glob.glob("/tmp/perf-*.map"),
                                               key=os.path.getmtime, reverse=True)
    for p in paths:
        with open(p) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[2] == name:
                    return int(parts[0], 16), int(parts[1], 16), p
    die(f"no perf map names {name} (run the kernel with TILEJIT_PERF_MAP=1)")


def find_llc(given):
    if given:
        return given
    if shutil.which("llc-19"):
        return shutil.which("llc-19")
    try:
        bindir = subprocess.run(["llvm-config-19", "--bindir"], capture_output=True,
                                text=True, check=True).stdout.strip()
        if os.path.exists(os.path.join(bindir, "llc")):
            return os.path.join(bindir, "llc")
    except (OSError, subprocess.CalledProcessError):
        pass
    die("no llc of LLVM 19 (llc-19, or llvm-config-19 --bindir); name one with --llc")


def host_cpu(llc):
    out = subprocess.run([llc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"Host CPU:\s*(\S+)", out)
    return m.group(1) if m else "native"


def compile_ir(llc, ir_path, name, obj):
    cpu = host_cpu(llc)
    subprocess.run([llc, "-O3", f"-mcpu={cpu}", "-relocation-model=pic", "-filetype=obj",
                    ir_path, "-o", obj], check=True)
    size = symbol_size(obj, name)
    if size is None:
        die(f"llc's object has no {name}")
    return size, f"llc -mcpu={cpu}"


def cached_object(name, cache_dir, tmp):
    """The object of entry 'name' from tilejit's disk cache, as a file in 'tmp', or None."""
    m = re.match(r"tj_([0-9a-f]{16})_", name)
    if not m:
        return None
    dirs = [cache_dir] if cache_dir else [
        os.environ.get("TILEJIT_CACHE_DIR"),
        os.path.join(os.environ["XDG_CACHE_HOME"], "tilejit")
        if os.environ.get("XDG_CACHE_HOME") else None,
        os.path.expanduser("~/.cache/tilejit")]
    for d in filter(None, dirs):
        for path in glob.glob(os.path.join(d, m.group(1) + "*.o")):
            with open(path, "rb") as f:
                data = f.read()
            elf = data.find(b"\x7fELF")  # after the cache's header (jit/disk_cache.c)
            if elf < 0:
                continue
            obj = os.path.join(tmp, "cached.o")
            with open(obj, "wb") as f:
                f.write(data[elf:])
            return obj, path
    return None


def symbol_size(obj, name):
    out = subprocess.run(["nm", "-S", obj], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == name:
            return int(parts[1], 16)
    return None


def disassemble(obj):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True,
                         text=True, check=True).stdout
    code = []
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if m:
            code.append((int(m.group(1), 16), m.group(2).strip()))
    return code


def samples(perf_data, lo, size):
    out = subprocess.run(["perf", "script", "-i", perf_data, "-F", "ip"], capture_output=True,
                         text=True, check=True).stdout
    hits, total = collections.Counter(), 0
    for line in out.split():
        total += 1
        ip = int(line, 16)
        if lo <= ip < lo + size:
            hits[ip - lo] += 1
    return hits, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("perf_data")
    ap.add_argument("ir")
    ap.add_argument("--map", help="the perf map (default: the newest /tmp/perf-*.map)")
    ap.add_argument("--llc", help="llc of LLVM 19")
    ap.add_argument("--cache", help="tilejit's disk cache (default: $TILEJIT_CACHE_DIR, "
                    "$XDG_CACHE_HOME/tilejit, ~/.cache/tilejit)")
    ap.add_argument("--top", type=int, default=6, help="windows shown (default 6)")
    a = ap.parse_args()
    name = entry_name(a.ir)
    lo, size, map_path = map_entry(name, a.map)
    with tempfile.TemporaryDirectory() as tmp:
        found = cached_object(name, a.cache, tmp)
        osize = symbol_size(found[0], name) if found else None
        if osize is not None:
            obj, src = found[0], f"the disk cache's {found[1]}"
        else:
            obj = os.path.join(tmp, "k.o")
            osize, src = compile_ir(find_llc(a.llc), a.ir, name, obj)
        code = disassemble(obj)
    hits, total = samples(a.perf_data, lo, size)
    n = sum(hits.values())
    print(f"{name}: {n} samples of {total} ({100.0 * n / max(total, 1):.1f}%), "
          f"{size:#x} bytes at {lo:#x} ({map_path}); code from {src}: {osize:#x} bytes")
    if osize != size:
        print("warning: the sizes differ: this code is not the JIT's, the offsets below "
              "are approximate")
    if not n:
        return
    windows = collections.Counter()
    for off, c in hits.items():
        windows[off // 64] += c
    top = [w for w, _ in windows.most_common(a.top)]
    for w in top:
        print(f"  {w * 64:#06x}-{w * 64 + 63:#06x}: {windows[w]:6d} "
              f"({100.0 * windows[w] / n:.1f}%)")
    for w in sorted(top):
        print(f"\n--- {w * 64:#06x} ({100.0 * windows[w] / n:.1f}%)")
        for off, text in code:
            if w * 64 - 16 <= off < w * 64 + 64:
                print(f"{hits.get(off, 0):6d}  {off:6x}:  {text}")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
    try:
        main()
    except FileNotFoundError as e:
        die(f"{e.filename}: not found")
    except subprocess.CalledProcessError as e:
        die(f"{' '.join(map(str, e.cmd))} exited with {e.returncode}: "
            f"{(e.stderr or '').strip()[:400]}")
