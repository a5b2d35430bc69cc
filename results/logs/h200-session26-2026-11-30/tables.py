#!/usr/bin/env python3
"""Session 26, call 1: scan v16, v17, v18 and CUB at 2^24, 2^26 and 2^28 in two benchmark
processes (bench1/, bench2/): each repetition's % of the copy ceiling, the median's time and %.
Asserts that every repetition was verified. Standard library only."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RUNGS = ["v16_size_dispatch", "v17_aged_lookahead", "v18_epoch_statuses", "cub"]

for run in ("bench1", "bench2"):
    data = json.load(open(os.path.join(HERE, "call-1", run, "nvidia-h200.json")))
    print(f"{run}: copy ceiling {data['context']['copy_ceiling_gbps']} GB/s")
    print("| n | rung | repetitions (% copy ceiling) | median µs | median % |")
    print("|---|---|---|--:|--:|")
    for n in (2**24, 2**26, 2**28):
        for rung in RUNGS:
            name = f"scan/{rung}/n:{n}/manual_time"
            reps = [b for b in data["benchmarks"]
                    if b["name"] == name and b.get("run_type") == "iteration"]
            assert reps and all(b["verified"] == 1 for b in reps), name
            med = next(b for b in data["benchmarks"] if b["name"] == name + "_median")
            pcts = ", ".join(f"{b['pct_copy']:.2f}" for b in reps)
            print(f"| 2^{n.bit_length() - 1} | {rung} | {pcts} | {med['real_time']:.1f} | "
                  f"{med['pct_copy']:.2f} |")
    print()

# The lab notes' summary ("Statuses that name their launch"): medians of the two processes.
print("| rung | 2^24 | 2^26 | 2^28 |")
print("|---|--:|--:|--:|")
runs = [json.load(open(os.path.join(HERE, "call-1", r, "nvidia-h200.json")))
        for r in ("bench1", "bench2")]


def median(data, rung, n):
    name = f"scan/{rung}/n:{n}/manual_time_median"
    return next(b for b in data["benchmarks"] if b["name"] == name)


for rung in RUNGS:
    label = "CUB" if rung == "cub" else rung.split("_")[0]
    cells = [", ".join(f"{median(d, rung, n)['pct_copy']:.2f}" for d in runs)
             for n in (2**24, 2**26, 2**28)]
    print(f"| {label} | " + " | ".join(cells) + " |")
for d, r in zip(runs, ("bench1", "bench2")):
    t17 = median(d, "v17_aged_lookahead", 2**28)["real_time"]
    t18 = median(d, "v18_epoch_statuses", 2**28)["real_time"]
    print(f"{r}: 2^28 v18 {t18:.1f} µs, v17 {t17:.1f} µs, v17 - v18 = {t17 - t18:.1f} µs")
