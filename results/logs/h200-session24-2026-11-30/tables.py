#!/usr/bin/env python3
"""Prints the scan lab notes' tables of "A look-ahead that waits for its statuses to age"
(2026-11-30, twenty-fourth session) from the probe's summary lines in this folder. Each time is
the median of a form's three rounds and its per cent that of cudaMemcpy's median in the same run,
as the probe printed them (the median recomputed here from the round lines is checked against each).
Run from anywhere; nothing is typed by hand."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def lines(path):
    return open(os.path.join(HERE, path)).read().splitlines()


def medians(path):
    """{form: (median us, per cent of cudaMemcpy's median)} from the summary lines."""
    rounds, summ, on = {}, {}, False
    for line in lines(path):
        m = re.match(r"^round \d+\s+(.*?)\s+([\d.]+) us\s+[\d.]+ GB/s", line)
        if m:
            rounds.setdefault(m.group(1).strip(), []).append(float(m.group(2)))
        if line.startswith("summary"):
            on = True
            continue
        m = re.match(r"^(.*?)\s+([\d.]+) us\s+([\d.]+)%$", line.rstrip())
        if on and m:
            summ[m.group(1).strip()] = (m.group(2), m.group(3))
    for k, v in summ.items():
        med = sorted(rounds[k])[1] if k in rounds else None
        assert med is None or f"{med:.2f}" == v[0], (path, k, med, v)
    return summ


def mismatched(path):
    """Forms whose check found a mismatch (any round)."""
    bad = set()
    for line in lines(path):
        m = re.match(r"^round \d+\s+(.*?)\s+[\d.]+ us.*mismatches (\d+)", line)
        if m and int(m.group(2)) != 0:
            bad.add(m.group(1).strip())
    return bad


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


STEM = {1: "probe_v15_mirror", 2: "probe_v15_mirror2", 3: "probe_v15_mirror3",
        4: "probe_v15_mirror3", 5: "probe_v15_mirror3", 6: "probe_v15_mirror4",
        7: "probe_v15_delay", 8: "probe_v15_delay2", 9: "probe_v15_delay3"}


def cell(call, key, run, us=False):
    f = f"call-{call}/{STEM[call]}-{run}.txt"
    m = medians(f)
    if key not in m:
        return None
    return m[key][0] if us else f"{m[key][1]}%"


def runs(call, key, us=False):
    """'a / b' over the call's two runs; '' if the form is not in the call."""
    cells = [cell(call, key, f"run{r}", us) for r in (1, 2)]
    return "" if None in cells else " / ".join(cells)


# every checked form matched in every file; the timing forms mismatched
for call, stem in STEM.items():
    for f in sorted(os.listdir(os.path.join(HERE, f"call-{call}"))):
        if f.startswith(stem + "-"):
            bad = mismatched(f"call-{call}/{f}")
            assert bad <= {"scan, Q THR 4, no look (timing)"}, (call, f, bad)
            assert "scan, Q THR 4, no look (timing)" in bad, (call, f)

# 1. the mirror (calls 1 to 6)
M = "scan, Q THR 4, mirror warp"
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy", True),
    ("the scan, 4 quarters in flight", "scan, Q THR 4", False),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)", False),
    ("the mirror warp, taking its ring's entries only", M + " bare (ring only), statuses read", False),
    ("... and waiting for each group's last tile to be reduced",
     M + " late bare (ring, reduce count), statuses read", False),
    ("the mirror warp, polling from the claim, storing the mirror", M + ", statuses read", False),
    ("... its polls only", M + ", polls only, statuses read", False),
    ("... its stores only", M + ", stores only, statuses read", False),
    ("the mirror warp, polling once the group's last tile is reduced", M + " late, statuses read", False),
    ("... its polls only", M + " late, polls only, statuses read", False),
    ("... its stores only", M + " late, stores only, statuses read", False),
    ("... polls of all but its own tile's status", M + " late, polls only, all but its own tile's status", False),
    ("... one poll of its own tile's status (one lane)", M + " late, polls only, its own tile's status alone", False),
    ("... polls of the group's first line alone", M + " late, polls only, the group's first line alone", False),
    ("the one poll of its own status, every other group", "scan, Q THR 4, the same, every other group", False),
    ("... every group, 500 ns after the reduce", "scan, Q THR 4, the same, every group, 500 ns after the reduce", False),
    ("... 2,000 ns after the reduce", "scan, Q THR 4, the same, 2000 ns after the reduce", False),
    ("the look-ahead reading the mirror (polled from the claim)", "scan, Q THR 4, mirror", False),
    ("the look-ahead reading the mirror (polled once reduced)", "scan, Q THR 4, mirror late", False),
]
print("Table 1: the mirror (the look-ahead reads the statuses unless the row says otherwise)\n")
table([(label, *[runs(c, key, us) for c in range(1, 7)]) for label, key, us in rows],
      ["form (2^28, % of `cudaMemcpy`, run 1 / run 2)", "call 1", "call 2", "call 3", "call 4",
       "call 5", "call 6"])

# 2. the aged look-ahead (calls 7 to 9)
L = "scan, Q THR 4, late reduced"
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy", True),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)", False),
    ("the scan, 4 quarters in flight", "scan, Q THR 4", False),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)", False),
    ("the look-ahead once its tile is reduced", L, False),
    ("... then 500 ns more, counted from when it got there", L + " + 500 ns", False),
    ("... 1,000 ns", L + " + 1000 ns", False),
    ("... 2,000 ns", L + " + 2000 ns", False),
    ("... until 250 ns after the tile was reduced", L + ", 250 ns from the reduce", False),
    ("... 500 ns", L + ", 500 ns from the reduce", False),
    ("... 1,000 ns", L + ", 1000 ns from the reduce", False),
    ("... 2,000 ns", L + ", 2000 ns from the reduce", False),
    ("... 3,000 ns", L + ", 3000 ns from the reduce", False),
    ("... 4,000 ns", L + ", 4000 ns from the reduce", False),
    ("... 6,000 ns", L + ", 6000 ns from the reduce", False),
    ("whole tiles, the look-ahead once its tile is reduced", "scan, whole tiles, late reduced", False),
    ("... until 2,000 ns after", "scan, whole tiles, late reduced, 2000 ns from the reduce", False),
    ("... until 4,000 ns after", "scan, whole tiles, late reduced, 4000 ns from the reduce", False),
]
print("Table 2: the look-ahead waits for its statuses to age (2^28)\n")
table([(label, *[runs(c, key, us) for c in (7, 8, 9)]) for label, key, us in rows],
      ["form (2^28, % of `cudaMemcpy`, run 1 / run 2)", "call 7", "call 8", "call 9"])

print("Table 3: the same at 2^26 and 2^24 (call 9, one run each)\n")
rows3 = [
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("the look-ahead once its tile is reduced", L),
    ("... until 2,000 ns after the tile was reduced", L + ", 2000 ns from the reduce"),
    ("... until 3,000 ns after", L + ", 3000 ns from the reduce"),
    ("... until 4,000 ns after", L + ", 4000 ns from the reduce"),
    ("... until 6,000 ns after", L + ", 6000 ns from the reduce"),
    ("whole tiles, the look-ahead once its tile is reduced", "scan, whole tiles, late reduced"),
    ("... until 2,000 ns after", "scan, whole tiles, late reduced, 2000 ns from the reduce"),
    ("... until 4,000 ns after", "scan, whole tiles, late reduced, 4000 ns from the reduce"),
]
table([("`cudaMemcpy` (µs)", cell(9, "cudaMemcpy", "2e26", True),
        cell(9, "cudaMemcpy", "2e24", True))] +
      [(label, cell(9, key, "2e26"), cell(9, key, "2e24")) for label, key in rows3],
      ["form (% of `cudaMemcpy`)", "2^26", "2^24"])

# 4. the rung (call 10): the benchmark's JSON, medians of 5 repetitions
import json  # noqa: E402

bench = json.load(open(os.path.join(HERE, "call-10", "nvidia-h200.json")))
med = {b["run_name"]: b for b in bench["benchmarks"] if b.get("aggregate_name") == "median"}
sizes = [("2^24", 1 << 24), ("2^26", 1 << 26), ("2^28", 1 << 28)]
names = [("v15_warp_specialized", "v15"), ("v16_size_dispatch", "v16"),
         ("v17_aged_lookahead", "v17"), ("cub", "CUB `InclusiveSum`")]
print("Table 4: the benchmark (call 10; % of the copy ceiling, µs in brackets; median of 5)\n")
rows = []
for name, label in names:
    cells = []
    for _, n in sizes:
        b = med[f"scan/{name}/n:{n}/manual_time"]
        assert b["verified"] == 1 and b["max_err"] == 0, b
        cells.append(f"{b['pct_copy']:.2f}% ({b['real_time']:.1f})")
    rows.append((label, *cells))
table(rows, ["rung (benchmark, H200)"] + [s for s, _ in sizes])
print("copy ceiling (GB/s):", bench["context"]["copy_ceiling_gbps"])
for name, label in names[:3]:
    reps = [b["pct_copy"] for b in bench["benchmarks"]
            if b["name"] == f"scan/{name}/n:{1 << 28}/manual_time" and "aggregate_name" not in b]
    print(f"{label} at 2^28, each repetition: " + ", ".join(f"{p:.3f}%" for p in reps))
