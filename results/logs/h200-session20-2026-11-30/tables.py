#!/usr/bin/env python3
"""Prints the scan lab notes' tables of "Sharing one look-ahead" (2026-11-30), then the copy_if
lab notes' table of quarter-tile copies, from the summary lines and Nsight Compute reports in this
folder. Run from anywhere; nothing is typed by hand."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def summary(path):
    """{form: (us, percent)} from the summary lines after 'summary (median ...'."""
    out, on = {}, False
    for line in open(os.path.join(HERE, path)):
        if line.startswith("summary"):
            on = True
            continue
        m = re.match(r"^(.*?)\s+([\d.]+) us\s+([\d.]+)%$", line.rstrip())
        if on and m:
            out[m.group(1).strip()] = (m.group(2), m.group(3))
    return out


def ncu(path):
    """{form: {metric: value}} from one file of '=== form' sections."""
    out, form = {}, None
    for line in open(os.path.join(HERE, path)):
        if line.startswith("=== "):
            form = line[4:].strip()
            out[form] = {}
        m = re.match(r"^\s+(\S+)\s+(\S+)\s+([\d.,]+)$", line.rstrip())
        if form and m:
            out[form][m.group(1)] = (m.group(3), m.group(2))
    return out


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


# 1. duo (call 1)
s = summary("call-1/probe_v15_duo.txt")
rows = [
    ("`cudaMemcpy`", "cudaMemcpy"),
    ("the scan, 4 quarters in flight (two blocks an SM)", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("duo: one block an SM, two pipelines, 8 quarters in flight", "duo, 12 stages, THR 8"),
    ("duo without its look-ahead (timing)", "duo, 12 stages, THR 8, no look (timing)"),
    ("duo, 12 quarters in flight", "duo, 12 stages, THR 12"),
    ("duo as a copy, 8 quarters in flight", "duo, copy, THR 8"),
]
table([(d, "1", s[k][0], s[k][1] + "%") for d, k in rows], ["form (2^28)", "call", "µs", "% of `cudaMemcpy`"])

# 2. clusters (call 3; one row of call 4)
s3 = summary("call-3/probe_v15_cluster.txt")
s4 = summary("call-4/probe_v15_stream.txt")
rows = [
    ("`cudaMemcpy`", "3", s3, "cudaMemcpy"),
    ("the scan, 4 quarters in flight", "3", s3, "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "3", s3, "scan, Q THR 4, no look (timing)"),
    ("clusters of 2, store and release.cluster arrive", "3", s3, "cluster 2, Q THR 4"),
    ("clusters of 4, the same", "3", s3, "cluster 4, Q THR 4"),
    ("clusters of 8, the same", "3", s3, "cluster 8, Q THR 4"),
    ("clusters of 4, the same, without the look-ahead (timing)", "3", s3,
     "cluster 4, Q THR 4, no look (timing)"),
    ("clusters of 2, `st.async`", "3", s3, "cluster 2, Q THR 4, st.async"),
    ("clusters of 2, `st.async`, without the look-ahead (timing)", "3", s3,
     "cluster 2, Q THR 4, st.async, no look (timing)"),
    ("clusters of 4, `st.async`", "3", s3, "cluster 4, Q THR 4, st.async"),
    ("clusters of 4, `st.async`, without the look-ahead (timing)", "4", s4,
     "cluster 4, Q THR 4, st.async, no look (timing)"),
]
table([(d, c, f[k][0], f[k][1] + "%") for d, c, f, k in rows], ["form (2^28)", "call", "µs", "% of `cudaMemcpy`"])

# 3. the streaming look-ahead (calls 4, 5, 6 twice): per cent of cudaMemcpy
runs = [("4", summary("call-4/probe_v15_stream.txt")), ("5", summary("call-5/probe_v15_stream.txt")),
        ("6a", summary("call-6/probe_v15_stream-run1.txt")),
        ("6b", summary("call-6/probe_v15_stream-run2.txt"))]
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("clusters of 2, `st.async`, without the look-ahead (timing)",
     "cluster 2, Q THR 4, st.async, no look (timing)"),
    ("clusters of 2, `st.async`, one claim at a time", "cluster 2, Q THR 4, st.async"),
    ("**clusters of 2, `st.async`, streaming look-ahead (`kStream`)**", "stream 2, Q THR 4"),
    ("the bold row, claims handed over once reduced", "stream 2, Q THR 4, hand late"),
    ("the bold row, 6 quarters in flight", "stream 2, Q THR 6"),
    ("the bold row on whole tiles", "stream 2, whole tiles"),
    ("the bold row, the tile held in registers", "stream 2, Q THR 4, hold"),
    ("the bold row, held and handed over once reduced", "stream 2, Q THR 4, hold, hand late"),
    ("the bold row, held, 5 stages", "stream 2, Q THR 4, hold, 5 stages"),
    ("the bold row, windows of 4 x 32 statuses", "stream 2, Q THR 4, window 4"),
    ("clusters of 4, streaming look-ahead", "stream 4, Q THR 4"),
]
out = []
for d, k in rows:
    cells = []
    for _, r in runs:
        if k not in r:
            cells.append("")
        elif k == "cudaMemcpy":
            cells.append(r[k][0])
        else:
            cells.append(r[k][1] + "%")
    out.append((d,) + tuple(cells))
table(out, ["form (2^28)"] + ["call " + c for c, _ in runs])

# 4. Nsight Compute: one launch each
rows = [
    ("the scan, 4 quarters in flight", "call-2/ncu_cluster.txt", "scan, Q THR 4", "2"),
    ("clusters of 2, `st.async`, one claim at a time", "call-3/ncu_cluster.txt",
     "cluster 2, Q THR 4, st.async", "3"),
    ("clusters of 2, streaming look-ahead", "call-4/ncu_stream.txt", "stream 2, Q THR 4",
     "4"),
    ("the same, the tile held in registers", "call-5/ncu_stream.txt", "stream 2, Q THR 4, hold", "5"),
    ("clusters of 4, store and release.cluster arrive", "call-2/ncu_cluster.txt", "cluster 4, Q THR 4",
     "2"),
    ("clusters of 4, `st.async`, one claim at a time", "call-3/ncu_cluster.txt",
     "cluster 4, Q THR 4, st.async", "3"),
    ("clusters of 4, streaming look-ahead", "call-4/ncu_stream.txt", "stream 4, Q THR 4",
     "4"),
]
out = []
for d, f, k, c in rows:
    m = ncu(f)[k]
    t, unit = m["gpu__time_duration.sum"]
    out.append((d, c, t + " " + unit, m["lts__t_sectors_srcunit_tex_op_read.sum"][0],
                m["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"][0]))
table(out, ["form (one launch at 2^28)", "call", "time", "L2 read sectors", "of them hits"])


# 3b. kStream with kHandLate: back-off, more quarters, wider windows (call 7)
s7 = summary("call-7/probe_v15_late.txt")
rows = [
    ("`cudaMemcpy`", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("clusters of 2, `st.async`, without the look-ahead (timing)",
     "cluster 2, Q THR 4, st.async, no look (timing)"),
    ("clusters of 2, streaming look-ahead, claims handed over once reduced",
     "stream 2, Q THR 4, hand late"),
    ("the same, `__nanosleep(100)` after a window that stops short", "stream 2, Q THR 4, hand late, sleep 100"),
    ("the same, `__nanosleep(400)`", "stream 2, Q THR 4, hand late, sleep 400"),
    ("handed over once reduced, 6 quarters in flight", "stream 2, Q THR 6, hand late"),
    ("handed over once reduced, windows of 16 x 32 statuses", "stream 2, Q THR 4, hand late, window 16"),
]
table([(d, "7", s7[k][0], s7[k][1] + "%") for d, k in rows], ["form (2^28)", "call", "µs", "% of `cudaMemcpy`"])

# 4b. Nsight Compute's memory-throughput breakdown, one launch each (call 7)
n7 = ncu("call-7/ncu_late.txt")
forms = [("the scan, 4 quarters in flight", "scan, Q THR 4"),
         ("without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
         ("clusters of 2, streaming, handed over once reduced", "stream 2, Q THR 4, hand late")]
mets = [("time (µs)", "gpu__time_duration.sum"),
        ("DRAM cycles active %", "dram__cycles_active.avg.pct_of_peak_sustained_elapsed"),
        ("L2 tag lookups (`lts__t_sectors`) %", "lts__t_sectors.avg.pct_of_peak_sustained_elapsed"),
        ("L2 data banks (`lts__d_sectors`) %", "lts__d_sectors.avg.pct_of_peak_sustained_elapsed"),
        ("crossbar into L2 %", "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"),
        ("L2 into crossbar %", "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"),
        ("L2 read requests from the SMs", "lts__t_requests_srcunit_tex_op_read.sum"),
        ("L2 sectors over the fabric between its halves", "lts__t_sectors_srcunit_ltcfabric.sum")]
out = [(m,) + tuple(n7[k][key][0] for _, k in forms) for m, key in mets]
table(out, ["metric (one launch at 2^28, call 7)"] + [d for d, _ in forms])


# 3c. copies of the statuses (call 8)
s8 = summary("call-8/probe_v15_reps.txt")
rows = [
    ("`cudaMemcpy`", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("the same with its look-ahead, 4 copies of each status", "scan, Q THR 4, 4 copies"),
    ("16 copies", "scan, Q THR 4, 16 copies"),
    ("16 copies, whole tiles", "scan, 16 copies"),
    ("clusters of 2, streaming look-ahead, claims handed over once reduced",
     "stream 2, Q THR 4, hand late"),
]
table([(d, "8", s8[k][0], s8[k][1] + "%") for d, k in rows], ["form (2^28)", "call", "µs", "% of `cudaMemcpy`"])

# 4c. the busiest L2 slice against the mean, one launch each (call 8)
n8 = ncu("call-8/ncu_reps.txt")
forms = [("the scan, 4 quarters in flight", "scan, Q THR 4"),
         ("without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
         ("16 copies of each status", "scan, Q THR 4, 16 copies")]
mets = [("time (µs)", "gpu__time_duration.sum", None)]
for d, u in [("L2 tag lookups (`lts__t_sectors`)", "lts__t_sectors"),
             ("L2 tag requests (`lts__t_tag_requests`)", "lts__t_tag_requests"),
             ("L2 data banks (`lts__d_sectors`)", "lts__d_sectors"),
             ("crossbar into L2", "lts__xbar2lts_cycles_active"),
             ("L2 into crossbar", "lts__lts2xbar_cycles_active")]:
    mets.append((d + " %, mean / busiest slice", u + ".avg.pct_of_peak_sustained_elapsed",
                 u + ".max.pct_of_peak_sustained_elapsed"))
mets.append(("L2 read hits (sectors)", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", None))
out = []
for d, a_, b_ in mets:
    cells = []
    for _, k in forms:
        m = n8[k]
        cells.append(m[a_][0] if b_ is None else m[a_][0] + " / " + m[b_][0])
    out.append((d,) + tuple(cells))
table(out, ["metric (one launch at 2^28, call 8)"] + [d for d, _ in forms])


# 3d. stores not held by the look-ahead's prefix (call 9, two runs)
runs = [("9a", summary("call-9/probe_v15_first-run1.txt")), ("9b", summary("call-9/probe_v15_first-run2.txt"))]
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("the scan with its look-ahead, stores first (timing)", "scan, Q THR 4, store first (timing)"),
    ("the scan on whole tiles (aligned, plain stores)", "scan (aligned, plain stores, whole tiles)"),
    ("the same without its look-ahead (timing)", "scan, no look (timing)"),
    ("the scan with its look-ahead, stores first (timing)", "scan, store first (timing)"),
]
out = []
for d, k in rows:
    out.append((d,) + tuple(r[k][0] if k == "cudaMemcpy" else r[k][1] + "%" for _, r in runs))
table(out, ["form (2^28)"] + ["call " + c for c, _ in runs])


# 3e. the look-ahead reads, nothing waits for it (call 10, two runs)
runs = [("10a", summary("call-10/probe_v15_nowait-run1.txt")),
        ("10b", summary("call-10/probe_v15_nowait-run2.txt"))]
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("the scan with its look-ahead, nothing waiting for it (timing)", "scan, Q THR 4, no wait (timing)"),
    ("the scan with its look-ahead, stores first (timing)", "scan, Q THR 4, store first (timing)"),
    ("the scan on whole tiles (aligned, plain stores)", "scan (aligned, plain stores, whole tiles)"),
    ("the same without its look-ahead (timing)", "scan, no look (timing)"),
    ("the scan with its look-ahead, nothing waiting for it (timing)", "scan, no wait (timing)"),
]
out = []
for d, k in rows:
    out.append((d,) + tuple(r[k][0] if k == "cudaMemcpy" else r[k][1] + "%" for _, r in runs))
table(out, ["form (2^28)"] + ["call " + c for c, _ in runs])


# 3f. per-block traces (call 11, two runs): the traces' lines, split into a table
import re as _re
rows = []
for run, f in (("11a", "call-11/probe_v15_trace-run1.txt"), ("11b", "call-11/probe_v15_trace-run2.txt")):
    summ = summary(f)
    for line in open(os.path.join(HERE, f)):
        m = _re.match(r"^trace: (.*?): (\d+) blocks; last scan-store end ([\d.]+) us, last look-ahead end "
                      r"([\d.]+) us; look-ahead ends after the block's scan-store in (\d+) blocks \(its lag, "
                      r"us: median (-?[\d.]+), max (-?[\d.]+)\); ([\d.]+) round trips a claim, ([\d.]+) us "
                      r"a round trip, ([\d.]+) us in round trips a claim", line)
        if m:
            name = "trace: " + m.group(1)
            rows.append((run, m.group(1), summ[name][1] + "%", m.group(3), m.group(4), m.group(5),
                         m.group(6), m.group(7), m.group(8), m.group(9), m.group(10)))
table(rows, ["run", "form (2^28)", "% of `cudaMemcpy` (timed)", "last scan-store loop end (µs)",
             "last look-ahead end (µs)", "blocks whose look-ahead ends after their scan-store",
             "its lag, median (µs)", "its lag, max (µs)", "round trips a claim",
             "µs a round trip", "µs in round trips a claim"])


# 5. copy_if: quarter-tile copies (call 1)
def summ(path):
    blocks, cur = [], None
    for line in open(path):
        if line.startswith("summary"):
            m = re.search(r"summary (\S+) (\S+) .*cudaMemcpy of \d+ bytes ([\d.]+) us", line)
            cur = {"_": (m.group(1), m.group(2), m.group(3))}
            blocks.append(cur)
            continue
        m = re.match(r"^  (.*?)\s+([\d.]+) us\s+([\d.]+)% of cudaMemcpy$", line.rstrip())
        if cur is not None and m:
            cur[m.group(1)] = (m.group(2), m.group(3))
    return blocks
b = summ(os.path.join(HERE, "call-1/probe_v06_quarters.txt"))
rows = [("`cudaMemcpy` of the same bytes", None),
        ("v06 as shipped", "v06 shipped"),
        ("the probe's copy of v06, whole tiles", "s64 w16 vec plain pad 0 (=v06)"),
        ("the same in quarter tiles, at most 4 in flight a block", "s64 w16 vec plain pad 0 Q THR 4"),
        ("the same, at most 6", "s64 w16 vec plain pad 0 Q THR 6"),
        ("the same, at most 8", "s64 w16 vec plain pad 0 Q THR 8"),
        ("v07 as shipped (unordered)", "v07 shipped (unordered)"),
        ("the probe's copy of v07, whole tiles", "atomic scalar stcs pad 0"),
        ("the same in quarter tiles, at most 4", "atomic scalar stcs pad 0 Q THR 4"),
        ("the same, at most 6", "atomic scalar stcs pad 0 Q THR 6")]
print("| µs (% of `cudaMemcpy`) | " + " | ".join(f"{x['_'][0]}, {x['_'][1]}" for x in b) + " |")
print("|---|" + "--:|" * len(b))
for d, k in rows:
    cells = [f"{x['_'][2]} (100.0%)" if k is None else f"{x[k][0]} ({x[k][1]}%)" for x in b]
    print("| " + d + " | " + " | ".join(cells) + " |")
