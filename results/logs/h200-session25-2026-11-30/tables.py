#!/usr/bin/env python3
"""Session 25's table of copy_if's PROBE_AGE=1 probe (call-1/probe_v06_age.txt): each case's % of
cudaMemcpy (median of the three rounds, as the probe's summary prints it) for each input, after
asserting that every check matched CUB's output (count ok, no mismatch, no error) and that every
control saw its one flipped element. Standard library only."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(HERE, "call-1", "probe_v06_age.txt")).read()

checks = re.findall(r"^check (.+?) out\+(\d): (.*)$", text, re.M)
assert checks, "no check lines"
for name, off, rest in checks:
    assert rest.startswith("count ok, mismatches 0") and "no error" in rest, (name, off, rest)
controls = re.findall(r"^control \(one element flipped\): mismatches (\d+) \(want 1\)$", text, re.M)
assert controls and all(c == "1" for c in controls), controls

tables = {}
order = []
for block in re.split(r"^summary ", text, flags=re.M)[1:]:
    head, *lines = block.splitlines()
    m = re.match(r"(\S+) (\S+) \(median of the three rounds\)", head)
    size, keep = m.groups()
    col = f"{size}, {keep}"
    for line in lines:
        r = re.match(r"^  (.+?)\s+([\d.]+) us\s+([\d.]+)% of cudaMemcpy$", line)
        if not r:
            break
        name = r.group(1)
        if name not in order:
            order.append(name)
        tables.setdefault(name, {})[col] = r.group(3)
cols = list(dict.fromkeys(c for t in tables.values() for c in t))
print(f"{len(checks)} checks matched CUB, {len(controls)} controls failed as they should")
print("| copy_if, % of `cudaMemcpy` | " + " | ".join(cols) + " |")
print("|---|" + "--:|" * len(cols))
for name in order:
    print(f"| {name} | " + " | ".join(tables[name].get(c, "—") + "%" for c in cols) + " |")
