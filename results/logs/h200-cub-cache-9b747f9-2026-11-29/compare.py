#!/usr/bin/env python3
"""CUB's DeviceTransform in the H200's elementwise size sweep, before and after the baseline's
size classes (elementwise/cub_baseline.cuh): the frozen sweep at f477d4d against this folder's
sweep at 9b747f9 (same H200 kind, SWEEP_TOP_ONLY=1, 3 repetitions). Prints, per operator and n,
CUB's median time in both runs, their ratio, and the top rung's time over CUB's in each run.
Run from the repository root: python3 results/logs/h200-cub-cache-9b747f9-2026-11-29/compare.py"""
import glob, gzip, json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def medians(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        data = json.load(f)
    return {b["name"].replace("/manual_time_median", ""): b["real_time"]
            for b in data["benchmarks"] if b["name"].endswith("manual_time_median")}


old = medians(glob.glob("results/nvidia-h200-sweep-gelu_f32-*.json")[0])
new = medians(os.path.join(HERE, "nvidia-h200-sweep-elementwise-9b747f9.json.gz"))
tops = {"gelu_f32": "v05_primitives", "gelu_f16": "v05_primitives", "add_f32": "v05_primitives",
        "fused_f32": "v07_fastdivmod_broadcast", "fused_f16": "v07_fastdivmod_broadcast"}
print("| operator | n | CUB f477d4d (µs) | CUB 9b747f9 (µs) | ratio | top/CUB f477d4d | top/CUB 9b747f9 |")
print("|---|--:|--:|--:|--:|--:|--:|")
for op, top in tops.items():
    keys = sorted((k for k in new if k.startswith(op + "/cub/")),
                  key=lambda k: int(k.split("/n:")[1].split("/")[0]))
    for k in keys:
        if k not in old:
            continue
        t = k.replace("/cub/", "/" + top + "/")
        n = k.split("/n:")[1].split("/")[0]
        print(f"| {op} | {n} | {old[k]:.2f} | {new[k]:.2f} | {new[k] / old[k]:.3f} | "
              f"{old[t] / old[k]:.3f} | {new[t] / new[k]:.3f} |")
