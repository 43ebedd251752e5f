#!/usr/bin/env python3
"""tools/sass_loops.py FILE.ptx...: the loops of each PTX file's SASS and their sizes, to judge
a change to a GPU kernel's hot loop without a GPU. Each file is assembled for sm_90 with
$PTXAS and disassembled with $NVDISASM, which must come from one CUDA toolkit (an nvdisasm
cannot read the cubins of a newer ptxas). A loop is a backward branch; printed: the SASS
instructions from its target to it, and how many of them are global loads (LDG) and shared
atomics (ATOMS). Only loops that load from global memory are listed."""
import os
import re
import subprocess
import sys
import tempfile

PTXAS = os.environ.get("PTXAS", "ptxas")
NVDISASM = os.environ.get("NVDISASM", "nvdisasm")


def loops(sass):
    labels, ins = {}, []
    for line in sass.splitlines():
        line = re.sub(r"/\*.*?\*/", "", line).rstrip()
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = len(ins)
        elif re.match(r"^\s+[@A-Z]", line):
            ins.append(line.strip())
    for i, text in enumerate(ins):
        m = re.search(r"BRA `\((\.L_x_\d+)\)", text)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            body = ins[labels[m.group(1)]:i + 1]
            ldg = sum("LDG" in x for x in body)
            if ldg:
                yield m.group(1), len(body), ldg, sum("ATOMS" in x for x in body)


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        for path in paths:
            subprocess.run([PTXAS, "-arch=sm_90", "-O3", path, "-o", cubin], check=True)
            sass = subprocess.run([NVDISASM, "-c", cubin], check=True, capture_output=True,
                                  text=True).stdout
            for label, n, ldg, atoms in loops(sass):
                print(f"{path}: loop at {label}: {n} instructions, {ldg} LDG, {atoms} ATOMS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
