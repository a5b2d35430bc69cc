#!/usr/bin/env python3
"""Session 25's table of copy_if's PROBE_AGE=1 probe, run twice (call-1/ and call-5/
probe_v06_age.txt): each case's % of cudaMemcpy (median of the three rounds, as the probe's summary
prints it) for each input, run 1 / run 2, after asserting in each run that every check matched
CUB's output (count ok, no mismatch, no error) and that every control saw its one flipped element.
Standard library only."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def read(call):
    text = open(os.path.join(HERE, call, "probe_v06_age.txt")).read()
    checks = re.findall(r"^check (.+?) out\+(\d): (.*)$", text, re.M)
    assert checks, "no check lines"
    for name, off, rest in checks:
        assert rest.startswith("count ok, mismatches 0") and "no error" in rest, (call, name, off, rest)
    controls = re.findall(r"^control \(one element flipped\): mismatches (\d+) \(want 1\)$", text, re.M)
    assert controls and all(c == "1" for c in controls), (call, controls)
    tables, order = {}, []
    for block in re.split(r"^summary ", text, flags=re.M)[1:]:
        head, *lines = block.splitlines()
        size, keep = re.match(r"(\S+) (\S+) \(median of the three rounds\)", head).groups()
        for line in lines:
            r = re.match(r"^  (.+?)\s+([\d.]+) us\s+([\d.]+)% of cudaMemcpy$", line)
            if not r:
                break
            if r.group(1) not in order:
                order.append(r.group(1))
            tables.setdefault(r.group(1), {})[f"{size}, {keep}"] = r.group(3)
    print(f"{call}: {len(checks)} checks matched CUB, {len(controls)} controls failed as they should")
    return tables, order


runs = [read("call-1"), read("call-5")]
order = runs[0][1]
cols = list(dict.fromkeys(c for t in runs[0][0].values() for c in t))
print("| copy_if, % of `cudaMemcpy`, run 1 / run 2 | " + " | ".join(cols) + " |")
print("|---|" + "--:|" * len(cols))
for name in order:
    cells = []
    for c in cols:
        a = runs[0][0].get(name, {}).get(c)
        b = runs[1][0].get(name, {}).get(c)
        cells.append(f"{a}% / {b}%" if a and b else f"{a}% / —" if a else "—")
    print(f"| {name} | " + " | ".join(cells) + " |")
