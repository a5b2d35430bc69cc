#!/usr/bin/env python3
"""Session 28's tables, from the probes' outputs in call-1 ... call-5 (medians of three rounds, µs,
the summary lines): copy_if/lab/probe_v06_oracle.cu's first run (call 1), `seq` (call 2), `stages`
(call 3) and `prepub` (call 5); copy_if/lab/probe_v06_epoch.cu's `sizes` (calls 1 and 2); call 6's
benchmark of v08, v09 (from nine tiles per SM) and CUB around v09's bound.
Asserts that every timed launch's output was checked and right (ordered: against CUB's; unordered:
count and digest), that the claim counters were 0 after every input, and that every control failed,
except call 1's epoch probe, whose control could not fail from its second size on (one seed for
every size; mended for call 2): its control lines are printed. Standard library only."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse(path, controls_must_fail=True):
    text = open(os.path.join(HERE, path)).read()
    rows = re.findall(r"^round \d  (.+?) +[\d.]+ us  count (\S+)  mismatches (\d+)", text, re.M)
    assert rows and all(c == "ok" and m == "0" for _, c, m in rows), f"{path}: a check failed"
    controls = [int(x) for x in re.findall(r"-> mismatches (\d+) \(must be > 0", text)]
    if controls_must_fail:
        assert controls and all(c > 0 for c in controls), f"{path}: a control passed"
    for line in re.findall(r"^claim counters after the rounds: (.*)$", text, re.M):
        assert all(v == "0" for v in re.findall(r" (\d+)(?:,|\s\()", line + " (")), f"{path}: {line}"
    for line in re.findall(r"^epoch workspace: counter (\d+)", text, re.M):
        assert line == "0", f"{path}: counter {line}"
    blocks = re.findall(r"^summary (\S+) keep(\d+).*\n((?:  .*\n)+)", text, re.M)
    names, table, cols = [], {}, []
    for size, keep, body in blocks:
        col = f"{size}, keep{keep}"
        cols.append(col)
        for line in body.splitlines():
            m = re.match(r"  (.+?) +([\d.]+) us +[\d.]+ GB/s", line)
            name = m.group(1).strip()
            if name not in names:
                names.append(name)
            table.setdefault(name, {})[col] = m.group(2)
    print(f"| µs (median of three rounds), {path} | " + " | ".join(cols) + " |")
    print("|---|" + "--:|" * len(cols))
    for n in names:
        print(f"| {n} | " + " | ".join(table[n].get(c, "") for c in cols) + " |")
    print(f"\n{len(rows)} timed launches checked; controls: {len(controls)}, mismatches "
          f"{min(controls):,} to {max(controls):,}")
    return text


def bench(path):
    """The benchmark console's keep50 medians (µs) of v08, v09 and CUB at each size."""
    text = open(os.path.join(HERE, path)).read()
    med = {}
    for name, t in re.findall(r"^(copy_if/\S+)/manual_time_median\s+([\d.]+)", text, re.M):
        med[name] = t
    sizes = sorted({int(re.search(r"n:(\d+)", k).group(1)) for k in med})
    print(f"| {path}, keep50, µs | " + " | ".join(f"{s:,}" for s in sizes) + " |")
    print("|---|" + "--:|" * len(sizes))
    for v in ["v08_size_dispatch", "v09_epoch_statuses", "cub"]:
        print(f"| {v} | " + " | ".join(med[f"copy_if/{v}/n:{s}/dist:keep50"] for s in sizes) + " |")


if __name__ == "__main__":
    parse("call-1/probe_v06_oracle.txt")
    print()
    parse("call-2/probe_v06_oracle_seq.txt")
    print()
    parse("call-3/probe_v06_oracle_stages.txt")
    print()
    text = parse("call-5/probe_v06_oracle_prepub.txt")
    fills = re.findall(r"^prepub: filled under epoch \d+ \([^)]*mismatches (\d+)\)", text, re.M)
    print("the fills' own outputs, mismatches (the first run's shared epoch; not timed): "
          + ", ".join(f"{int(f):,}" for f in fills))
    print()
    text = parse("call-1/probe_v06_epoch_sizes.txt", controls_must_fail=False)
    print("its controls (one seed for every size):",
          ", ".join(re.findall(r"-> mismatches (\d+) \(must", text)))
    print()
    parse("call-2/probe_v06_epoch_sizes.txt")
    print()
    bench("call-6/bench/bench.txt")
    sys.exit(0)
