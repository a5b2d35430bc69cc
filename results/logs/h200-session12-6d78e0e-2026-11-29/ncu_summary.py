#!/usr/bin/env python3
"""Per-kernel summary of ncu-raw.csv (Nsight Compute, --csv --page raw): v17 at 2^28 on uniform keys
(v16's road: the launches whose count is v16::count16_kernel) and on few keys (the third road:
v17::count32_kernel). For each road and kernel in launch order: the median duration over the
sorts profiled, and DRAM bytes read and written, with the per cent of a copy's rate that those
bytes make at that duration (copy: the rate given by --copy-gbs, GB/s)."""
import csv, statistics, sys, argparse
ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("--copy-gbs", type=float, required=True)
ap.add_argument("--read-gbs", type=float, required=True)
a = ap.parse_args()
rows = list(csv.reader(open(a.csv)))
h = {k: i for i, k in enumerate(rows[0])}
units = rows[1]
assert units[h["gpu__time_duration.sum"]] == "ms" and units[h["dram__bytes_read.sum"]] == "Gbyte"
sorts, cur = [], None
for r in rows[2:]:
    name = r[h["Kernel Name"]].split("(")[0].replace("ladder::sort::", "").replace("void ", "")
    name = name.split("<")[0] + ("<...>" if "<" in name else "")
    if name == "v17::sample_kernel":
        cur = []
        sorts.append(cur)
    cur.append((name, float(r[h["gpu__time_duration.sum"]]) * 1000,
                float(r[h["dram__bytes_read.sum"]]), float(r[h["dram__bytes_write.sum"]])))
roads = {}
for s in sorts:
    road = "third road (few)" if any(k[0] == "v17::count32_kernel" for k in s) else "v16's road (uniform)"
    roads.setdefault(road, []).append(s)
for road, ss in roads.items():
    print(f"{road}: {len(ss)} sorts profiled; median us, GB read, GB written, % of copy rate"
          " [% of read ceiling]")
    total = 0.0
    for i in range(len(ss[0])):
        name = ss[0][i][0]
        us = statistics.median(s[i][1] for s in ss)
        rd = statistics.median(s[i][2] for s in ss)
        wr = statistics.median(s[i][3] for s in ss)
        pct = 100 * (rd + wr) * 1e9 / (us * 1e-6) / (a.copy_gbs * 1e9)
        total += us
        rpct = f"  [{100 * rd * 1e9 / (us * 1e-6) / (a.read_gbs * 1e9):5.1f}%]" if wr < 0.01 * rd else ""
        print(f"  {i:2d} {name:34s} {us:9.1f} us  rd {rd:6.3f}  wr {wr:6.3f}  {pct:5.1f}%{rpct}")
    print(f"  sum of the medians {total:9.1f} us")
