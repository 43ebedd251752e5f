#!/usr/bin/env python3
"""tools/sass_diff.py A B: the PTX files of corpus A (tools/ptx_corpus.sh) that differ in
corpus B, assembled by ptxas (for the .target of each) and compared by their SASS: how
many are identical, how many have more or fewer instructions, and the largest growths.
Instructions are counted in the cubin's .text.* sections: 16 bytes each from sm_70 on,
NOPs (opcode 0x918 in the low 12 bits) left out; no nvdisasm needed."""
import concurrent.futures
import hashlib
import os
import struct
import subprocess
import sys
import tempfile

PTXAS = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")


def sass_count(cubin):
    d = open(cubin, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    n, h = 0, hashlib.md5()
    for s in secs:
        name = d[names + s[0]:d.index(b"\0", names + s[0])]
        if not name.startswith(b".text."):
            continue
        body = d[s[4]:s[4] + s[5]]
        for i in range(0, len(body), 16):
            word = body[i:i + 16]
            if struct.unpack_from("<Q", word, 0)[0] & 0xFFF == 0x918:
                continue
            n += 1
            h.update(word)
    return n, h.hexdigest()


def assemble(path, tmp):
    text = open(path, "rb").read()
    text = text[text.index(b"//"):]  # after the cache file's header
    target = [l for l in text.decode(errors="replace").splitlines() if l.startswith(".target")]
    arch = target[0].split()[1].rstrip(",")
    base = os.path.join(tmp, os.path.basename(path))
    open(base, "wb").write(text)
    r = subprocess.run([PTXAS, "-arch=" + arch, base, "-o", base + ".cubin"],
                       capture_output=True)
    return sass_count(base + ".cubin") if r.returncode == 0 else None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tools/sass_diff.py CORPUS_A CORPUS_B")
    a, b = sys.argv[1:]
    names = sorted(f for f in os.listdir(a) if f.endswith(".ptx"))
    missing = [f for f in names if not os.path.exists(os.path.join(b, f))]
    differ = [f for f in names if f not in missing and
              open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read()]
    print(f"{len(names)} PTX files in {a}: {len(differ)} differ in {b}, {len(missing)} missing")
    same = equal = fewer = more = failed = total = 0
    grown = []
    with tempfile.TemporaryDirectory() as ta, tempfile.TemporaryDirectory() as tb, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        jobs = [(f, ex.submit(assemble, os.path.join(a, f), ta),
                 ex.submit(assemble, os.path.join(b, f), tb)) for f in differ]
        for f, ja, jb in jobs:
            ra, rb = ja.result(), jb.result()
            if ra is None or rb is None:
                failed += 1
            elif ra[1] == rb[1]:
                same += 1
            else:
                d = rb[0] - ra[0]
                total += d
                equal += d == 0
                fewer += d < 0
                more += d > 0
                if d > 0:
                    grown.append((d, f, ra[0], rb[0]))
    print(f"SASS of the differing files: identical {same}, same count {equal}, fewer {fewer}, "
          f"more {more}, ptxas failed {failed}; instructions {total:+d} in all")
    for d, f, x, y in sorted(grown, reverse=True)[:10]:
        print(f"  {f}: {x} -> {y} (+{d})")


if __name__ == "__main__":
    main()
