#!/usr/bin/env python3
"""The elementwise operators on the H200 at 28d04af (the CUB baseline's size classes) against the
frozen run at f477d4d: the ladder (25.6M and 2^28) and the size sweep (top rungs and CUB). Prints,
for every benchmark both runs hold, the two medians, their ratio, and for CUB's rows the top
rung's time over CUB's in each run. Run from the repository root."""
import glob, gzip, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
TOPS = {"gelu_f32": "v05_primitives", "gelu_f16": "v05_primitives", "add_f32": "v05_primitives",
        "fused_f32": "v07_fastdivmod_broadcast", "fused_f16": "v07_fastdivmod_broadcast"}


def medians(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        data = json.load(f)
    return {b["name"].replace("/manual_time_median", ""): b["real_time"]
            for b in data["benchmarks"] if b["name"].endswith("manual_time_median")}


def table(title, old, new):
    print(f"## {title}\n")
    print("| benchmark | f477d4d (µs) | 28d04af (µs) | ratio | top/CUB f477d4d | top/CUB 28d04af |")
    print("|---|--:|--:|--:|--:|--:|")
    for k in sorted(new, key=lambda k: (k.split("/")[0], k.split("/")[1],
                                        int(k.split("/n:")[1].split("/")[0]))):
        if k not in old or "/cub/" not in k:
            continue
        op = k.split("/")[0]
        t = k.replace("/cub/", "/" + TOPS[op] + "/")
        tr = (f"{old[t] / old[k]:.3f} | {new[t] / new[k]:.3f}" if t in old and t in new
              else "— | —")
        print(f"| `{k}` | {old[k]:.2f} | {new[k]:.2f} | {new[k] / old[k]:.3f} | {tr} |")
    print()


table("Ladder (CUB rows; the first call of each process is at 25.6M)",
      medians("results/nvidia-h200-elementwise.json"),
      medians(os.path.join(HERE, "nvidia-h200-elementwise-28d04af.json.gz")))
table("Size sweep (the first call of each process is at 2^10)",
      medians(glob.glob("results/nvidia-h200-sweep-gelu_f32-*.json")[0]),
      medians(os.path.join(HERE, "nvidia-h200-sweep-elementwise-28d04af.json.gz")))
