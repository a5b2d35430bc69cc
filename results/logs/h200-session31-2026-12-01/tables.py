#!/usr/bin/env python3
"""Session 31's tables, from the outputs in call-1 ... call-5: each call's two benchmark processes
(medians of 5, µs, and v10's percent of the copy ceiling, from the JSON the binary wrote), and
copy_if/lab/count_lookahead.cu's counts (calls 3 and 4). Asserts that every GPU test of each call
passed, that every benchmark entry was verified, that every counted launch was right and every
control mismatched. Standard library only."""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))

# Each call's registered forms (slug: what it was), as the call's build registered them.
FORMS = {
    1: {"v11_pipelined_lookahead": "overlap, own count from the reduce"},
    2: {"v11_pipelined_lookahead": "overlap, own count from the reduce",
        "v12_pipelined_own_status": "overlap, own tile's status"},
    3: {"v11_pipelined_lookahead": "overlap, own count from the reduce",
        "v12_pipelined_own_status": "overlap, own tile's status",
        "v13_lookahead_32bit": "no overlap (v10's look-ahead, 32-bit)"},
    4: {"v11_pipelined_lookahead": "overlap, own count from the reduce",
        "v12_wait_own": "first pass once the own tile is reduced",
        "v13_backoff": "300 ns asleep after a short pass",
        "v14_wait_own_backoff": "both"},
    5: {"v11_publish_first": "each tile's count published before its chunk scan",
        "v12_publish_first_wait_own": "published first, and the first pass once the own tile is reduced"},
}
INPUTS = [(268435456, "keep50"), (268435456, "keep1"), (268435456, "keep99"),
          (16777216, "keep50")]


def medians(path):
    """{(slug, n, dist): (median µs, pct_copy)} from one benchmark process's JSON."""
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        m = re.match(r"copy_if/(\w+)/n:(\d+)/dist:(\w+)/manual_time_median", b["name"])
        assert m, b["name"]
        out[(m.group(1), int(m.group(2)), m.group(3))] = (b["real_time"], b.get("pct_copy", 0.0))
    return out


def entries_verified(path):
    n = 0
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        n += 1
        assert b.get("verified") == 1.0, f"{path}: {b['name']} not verified"
    return n


def size(n):
    return "2^28" if n == 268435456 else "2^24"


def bench_table(call):
    forms = FORMS[call]
    slugs = ["v10_group_sums"] + list(forms) + ["cub"]
    runs = []
    for k in (1, 2):
        path = os.path.join(HERE, f"call-{call}/bench{k}/nvidia-h200.json")
        verified = entries_verified(path)
        runs.append(medians(path))
    head = " | ".join(f"{size(n)}, {d}" for n, d in INPUTS)
    print(f"| call-{call}, µs (median of 5; process 1 / process 2) | {head} |")
    print("|---|" + "--:|" * len(INPUTS))
    for slug in slugs:
        name = {"v10_group_sums": "v10", "cub": "CUB"}.get(slug, f"{slug} ({forms.get(slug)})")
        cells = " | ".join(" / ".join(f"{r[(slug, n, d)][0]:.1f}" for r in runs) for n, d in INPUTS)
        print(f"| {name} | {cells} |")
    pct = " / ".join(f"{r[('v10_group_sums', 268435456, 'keep50')][1]:.1f}" for r in runs)
    print(f"\nv10 at 2^28 and half kept, percent of the copy ceiling (process 1 / 2): {pct}; "
          f"{verified} timed repetitions in process 2, each verified\n")


def tests(call):
    text = open(os.path.join(HERE, f"call-{call}/tests.txt")).read()
    m = re.search(r"^\[==========\] (\d+) tests from .* ran\.", text, re.M)
    assert m and re.search(rf"^\[  PASSED  \] {m.group(1)} tests\.", text, re.M), call
    assert "FAILED" not in text, call
    print(f"call {call}: {m.group(1)} GPU tests passed")


def counts(call):
    text = open(os.path.join(HERE, f"call-{call}/count_lookahead.txt")).read()
    assert re.search(r"^summary: 0 failures$", text, re.M), call
    controls = re.findall(r"control (\w+)", text)
    assert controls and all(c == "mismatched" for c in controls), call
    blocks = re.split(r"^(2\^\d+, keep\d+): kept \d+; control mismatched\n", text, flags=re.M)[1:]
    rows = {}
    for label, body in zip(blocks[::2], blocks[1::2]):
        for m in re.finditer(r"^  (.+?) +(right|WRONG); claims (\d+), passes a claim ([\d.]+), "
                             r"early passes a claim ([\d.]+), early passes that reached their "
                             r"tile ([\d.]+)$", body, re.M):
            assert m.group(2) == "right", (call, label, m.group(1))
            rows.setdefault(m.group(1), {})[label] = (m.group(4), m.group(6))
    labels = list(dict.fromkeys(blocks[::2]))
    print(f"| call-{call}/count_lookahead.txt: passes a claim (early passes that reached their "
          f"tile) | " + " | ".join(labels) + " |")
    print("|---|" + "--:|" * len(labels))
    for form, cells in rows.items():
        print(f"| {form} | " + " | ".join(
            cells[l][0] + (f" ({cells[l][1]})" if float(cells[l][1]) else "") for l in labels) + " |")
    print()


if __name__ == "__main__":
    for call in (1, 2, 3, 4, 5):
        tests(call)
    print()
    for call in (1, 2, 3, 4, 5):
        bench_table(call)
    for call in (3, 4):
        counts(call)
