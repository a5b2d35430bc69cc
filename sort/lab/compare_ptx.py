#!/usr/bin/env python3
"""compare_ptx.py OLD.ptx NEW.ptx: which kernels and device functions of two `nvcc -ptx` outputs
of one translation unit differ, once the per-file names (`_INTERNAL_<hash>_...`), the numbering of
labels and temporaries, `.loc` lines and comments are set aside (they move with any edit above a
function). Prints the functions only in one file and those whose bodies differ.

Used on sort/sort.cu before and after the road past 2^32 - 1 keys (2026-11-30):
  nvcc -O3 -DNDEBUG -I. -arch=compute_90 -ptx --expt-relaxed-constexpr -lineinfo -std=c++17 \\
       -x cu sort/sort.cu -o new.ptx      (and the same in a worktree of the older commit)
"""
import re
import sys


def functions(path):
    text = open(path).read()
    text = re.sub(r"_INTERNAL_[0-9a-f]+_\d+_\w+?_cu_[0-9a-f]+", "_INTERNAL_", text)
    text = re.sub(r"\$L__BB\d+_", "$L__BB_", text)
    text = re.sub(r"\$L__tmp\d+", "$L__tmp", text)
    out = {}
    for m in re.finditer(r"\.(?:visible|weak|extern)?\s*\.(entry|func)\s+(\S+?)\((.*?)\n\}", text, re.S):
        out[m.group(2)] = [l for l in m.group(0).split("\n") if not re.match(r"\s*(\.loc|//)", l)]
    return out


old, new = functions(sys.argv[1]), functions(sys.argv[2])
print(f"functions: {len(old)} in {sys.argv[1]}, {len(new)} in {sys.argv[2]}")
print("only in the new:", sorted(k for k in new if k not in old))
print("only in the old:", sorted(k for k in old if k not in new))
print("in both, different:", sorted(k for k in old if k in new and old[k] != new[k]))
