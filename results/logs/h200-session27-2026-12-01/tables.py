#!/usr/bin/env python3
"""Session 27's tables: call 1's epoch probe (probe_v06_epoch.txt, the summary lines' medians, µs,
and each control's mismatches), call 2's benchmark console (bench1/bench.txt: medians, µs), and
call 7's epoch probe at the middle sizes (probe_v06_epoch_mid.txt).
Asserts that every ordered check of the probe matched CUB's output, every count was right and
every control failed. Standard library only."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def probe(name="probe_v06_epoch.txt"):
    text = open(os.path.join(HERE, name)).read()
    rows = re.findall(r"round \d  (.{24}) +[\d.]+ us  count (\S+)  mismatches (\d+)", text)
    assert rows and all(c == "ok" and m == "0" for _, c, m in rows), "a probe check failed"
    controls = [int(x) for x in re.findall(r"-> mismatches (\d+) \(must be > 0\)", text)]
    assert controls and all(c > 0 for c in controls), "a control passed"
    counters = re.findall(r"epoch workspace: counter (\d+)", text)
    assert counters and all(c == "0" for c in counters), "the counter was not reset"
    blocks = re.findall(r"summary 2\^(\d+) keep(\d+).*?\n((?:  .*\n)+)", text)
    names, table = [], {}
    for lg, keep, body in blocks:
        col = f"2^{lg}, keep{keep}"
        for line in body.splitlines():
            m = re.match(r"  (.{24}) +([\d.]+) us", line)
            name = m.group(1).strip()
            if name not in names:
                names.append(name)
            table.setdefault(name, {})[col] = m.group(2)
    cols = [f"2^{lg}, keep{keep}" for lg, keep, _ in blocks]
    print("| µs (median of three rounds) | " + " | ".join(cols) + " |")
    print("|---|" + "--:|" * len(cols))
    for n in names:
        print(f"| {n} | " + " | ".join(table[n][c] for c in cols) + " |")
    print(f"\ncontrols: {len(controls)}, mismatches {min(controls):,} to {max(controls):,}; "
          f"{len(rows)} timed launches checked; counter 0 after every input")


def bench():
    text = open(os.path.join(HERE, "call-2", "bench1", "bench.txt")).read()
    med = {}
    for name, t in re.findall(r"^(copy_if/\S+)/manual_time_median\s+([\d.]+)", text, re.M):
        med[name] = float(t)
    sizes = sorted({int(re.search(r"n:(\d+)", k).group(1)) for k in med})
    print("\n| call 2, process 1, keep50, µs | " + " | ".join(f"2^{s.bit_length() - 1}" for s in sizes) + " |")
    print("|---|" + "--:|" * len(sizes))
    for v in ["v07_pipelined_unordered", "v08_size_dispatch", "v09_epoch_statuses", "cub"]:
        print(f"| {v} | " + " | ".join(f"{med[f'copy_if/{v}/n:{s}/dist:keep50']:g}" for s in sizes) + " |")


if __name__ == "__main__":
    probe()
    bench()
    print()
    probe("probe_v06_epoch_mid.txt")
    sys.exit(0)
