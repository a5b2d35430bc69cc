#!/usr/bin/env python3
"""Prints the scan lab notes' tables of "Who writes a polled line" (2026-11-30, twenty-third
session) from the probe's summary lines and the Nsight Compute report in this folder. Each time is
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


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


STEM = {1: "probe_v15_sep2", 2: "probe_v15_sep3", 3: "probe_v15_bulkpoll", 4: "probe_v15_partner"}


def runs(call, key, stem=None):
    """'pct% / pct%' over the call's two runs; '' if the form is not in the call."""
    cells = []
    for r in (1, 2):
        m = medians(f"call-{call}/{stem or STEM[call]}-run{r}.txt")
        if key not in m:
            return ""
        cells.append(f"{m[key][1]}%")
    return " / ".join(cells)


# 1. who writes the polled lines, how often, and by which path (calls 1 to 4)
P = "copy, Q THR 4, sep poll private"
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the copy, nothing polled", "copy, Q THR 4"),
    ("the block's own window, never written", P),
    ("the block's own window: status lines that the other blocks write", P + ", statuses written"),
    ("8 MiB past the statuses, the statuses written", P + " far, statuses written"),
    ("far: written by the poller itself once, in 8 warp stores (1 or 2 write requests a line)",
     P + " far, self-written mid"),
    ("... once, in 256 one-word stores (16 a line)",
     P + " far, self-written mid, 16 stores a line"),
    ("... a word each time its block claims a tile", P + " far, self-written a word a claim"),
    ("far: written by the previous block's poller once, in 8 warp stores", P + " far, next block writes mid"),
    ("... once, in 256 one-word stores", P + " far, next block writes mid, 16 stores a line"),
    ("... a word each time that block claims a tile", P + " far, next block writes a word a claim"),
    ("the block's own window, never written, polled by bulk copy", "copy, Q THR 4, sep bulk poll private"),
    ("status lines that the other blocks write, polled by bulk copy",
     "copy, Q THR 4, sep bulk poll private, statuses written"),
    ("far, the previous block a word a claim, polled by bulk copy",
     "copy, Q THR 4, sep bulk poll private far, next block writes a word a claim"),
]
out = []
for label, key in rows:
    cells = []
    for call in (1, 2, 3, 4):
        if key == "cudaMemcpy":
            cells.append(" / ".join(medians(f"call-{call}/{STEM[call]}-run{r}.txt")[key][0]
                                    for r in (1, 2)))
        else:
            cells.append(runs(call, key))
    out.append([label] + cells)
table(out, ["the copy beside one more warp polling 8 x 32 statuses (% of `cudaMemcpy`, run 1 / run 2)",
            "call 1", "call 2", "call 3", "call 4"])

# 2. where the writer runs (call 4; every form after the first pays for the table of SMs)
F = P + " far, a word a claim, table, writer: "
rows = [
    ("the previous block (no table)", P + " far, next block writes a word a claim"),
    ("the previous block", F + "next block"),
    ("the other block on the poller's SM", F + "same SM"),
    ("the block in the poller's slot on the SM paired with its own (rank r ^ 1)", F + "SM rank ^ 1"),
    ("the block in the poller's slot on the SM half the SMs away (rank (r + SMs / 2) mod SMs)", F + "SM half away"),
]
table([(label, runs(4, key)) for label, key in rows],
      ["far window written a word a claim by (call 4)", "% of `cudaMemcpy`, run 1 / run 2"])

# 3. clusters of 4 without a shared look-ahead (call 1, ./p c4)
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy"),
    ("the copy, 4 quarters in flight (264 blocks)", "copy, Q THR 4"),
    ("the same, launched in clusters of 4 (62 clusters, 248 blocks)",
     "copy, Q THR 4, launched in clusters of 4"),
    ("the scan, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("the scan launched in clusters of 2 (132 clusters), each block its own look-ahead",
     "scan, Q THR 4, launched in clusters of 2"),
    ("the same in clusters of 4", "scan, Q THR 4, launched in clusters of 4"),
    ("the same without its look-ahead (timing)",
     "scan, Q THR 4, no look, launched in clusters of 4 (timing)"),
    ("clusters of 2 sharing a streaming look-ahead, handed over once reduced",
     "stream 2, Q THR 4, hand late"),
    ("the same, clusters of 4", "stream 4, Q THR 4, hand late"),
]
out = []
for label, key in rows:
    if key == "cudaMemcpy":
        c = " / ".join(medians(f"call-1/probe_v15_c4-run{r}.txt")[key][0] for r in (1, 2))
    else:
        c = runs(1, key, "probe_v15_c4")
    out.append((label, c))
table(out, ["form (2^28, call 1)", "% of `cudaMemcpy`, run 1 / run 2"])

# 4. Nsight Compute's warp states (call 2, one launch each)
def ncu_stalls(path):
    out, form = {}, None
    for line in lines(path):
        if line.startswith("=== "):
            form = line[4:].strip()
            out[form] = {}
            continue
        m = re.match(r"^\s+(Stall [A-Za-z ]+?|Warp Cycles Per Issued Instruction|No Eligible"
                     r"|L2 Hit Rate For Loads|L2 Throughput|DRAM Throughput)\s+\S+\s+([\d.]+)$", line)
        if form and m and m.group(1) not in out[form]:
            out[form][m.group(1)] = m.group(2)
    return out


n = ncu_stalls("call-2/ncu_sep3.txt")
a, b = n[P], n[P + ", statuses written"]
keys = ["Warp Cycles Per Issued Instruction", "Stall Long Scoreboard", "Stall Wait",
        "Stall Short Scoreboard", "No Eligible", "L2 Throughput", "DRAM Throughput"]
table([(k, a[k], b[k]) for k in keys],
      ["one launch at 2^28 (call 2)", "own window, never written", "status lines others write"])

# 5. the scan's look-ahead started once its tile is reduced (call 5); statuses published by one
# more warp (call 6)
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy", 5), ("the scan, 4 quarters in flight", "scan, Q THR 4", 5),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)", 5),
    ("the look-ahead started once its tile has landed", "scan, Q THR 4, late", 5),
    ("... once its tile is reduced", "scan, Q THR 4, late reduced", 5),
    ("... reduced, windows of 16 x 32", "scan, Q THR 4, late reduced, window 16", 5),
    ("... reduced, windows of 4 x 32", "scan, Q THR 4, late reduced, window 4", 5),
    ("... reduced, 6 quarters in flight", "scan, Q THR 6, late reduced", 5),
    ("clusters of 2 sharing a streaming look-ahead, handed over once reduced",
     "stream 2, Q THR 4, hand late", 5),
    ("`cudaMemcpy` (µs)", "cudaMemcpy", 6),
    ("the copy, nothing polled", "copy, Q THR 4", 6),
    ("the copy beside a poller of its own window, never written",
     "copy, Q THR 4, sep poll private", 6),
    ("... status lines that the other blocks' reduce squads write",
     P + ", statuses written", 6),
    ("... status lines that the other blocks' publisher warps write",
     P + ", statuses written by a publisher warp", 6),
    ("the copy, no poller, statuses written by a publisher warp",
     "copy, Q THR 4, statuses written by a publisher warp", 6),
    ("the scan, 4 quarters in flight", "scan, Q THR 4", 6),
    ("the same, statuses published by a publisher warp", "scan, Q THR 4, publisher warp", 6),
    ("the scan, the look-ahead started once its tile has landed", "scan, Q THR 4, late", 6),
    ("the same, statuses published by a publisher warp", "scan, Q THR 4, late, publisher warp", 6),
]
STEM.update({5: "probe_v15_latered", 6: "probe_v15_pubwarp"})
out = []
for label, key, call in rows:
    if key == "cudaMemcpy":
        c = " / ".join(medians(f"call-{call}/{STEM[call]}-run{r}.txt")[key][0] for r in (1, 2))
    else:
        c = runs(call, key)
    out.append((label, str(call), c))
table(out, ["form (2^28)", "call", "% of `cudaMemcpy`, run 1 / run 2"])

hits = {}
form = None
for line in lines("call-5/ncu_latered.txt"):
    if line.startswith("=== "):
        form = line[4:].strip()
    m = re.match(r"^\s+(gpu__time_duration.sum|lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum)"
                 r"\s+\S+\s+([\d,.]+)$", line)
    if form and m:
        hits.setdefault(form, {})[m.group(1)] = m.group(2)
rows = [("the scan, 4 quarters in flight", "scan, Q THR 4"),
        ("the look-ahead started once its tile has landed", "scan, Q THR 4, late"),
        ("... once its tile is reduced", "scan, Q THR 4, late reduced")]
table([(label, hits[k]["gpu__time_duration.sum"],
        hits[k]["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]) for label, k in rows],
      ["one launch at 2^28 (call 5)", "µs", "L2 read hits (sectors)"])


# 6. copy_if: one look-ahead for each cluster of two blocks (calls 7 and 8; the copy_if lab notes)
def copyif_summary(path):
    """{(input, form): per cent of cudaMemcpy} from the copy_if probe's summary lines."""
    out, inp = {}, None
    for line in lines(path):
        m = re.match(r"^summary 2\^(\d+) keep(\d+)", line)
        if m:
            inp = f"2^{m.group(1)}, keep{m.group(2)}"
            continue
        m = re.match(r"^  (.*?)\s+([\d.]+) us\s+([\d.]+)% of cudaMemcpy$", line)
        if inp and m:
            out[(inp, m.group(1).strip())] = m.group(3)
    return out


INPUTS = ["2^28, keep50", "2^28, keep1", "2^28, keep99", "2^26, keep50", "2^24, keep50"]
ROWS = [
    ("v06 as shipped (whole tiles, windows of 16 x 32)", "v06 shipped"),
    ("the probe's copy of v06", "s64 w16 vec plain pad 0 (=v06)"),
    ("the same, windows of 8 x 32", "s64 w8 vec plain pad 0"),
    ("clusters of 2, one streaming look-ahead, windows of 8 x 32", "cluster 2 w8 vec plain pad 0"),
    ("clusters of 2, one streaming look-ahead, windows of 16 x 32", "cluster 2 w16 vec plain pad 0"),
    ("the same, 100 ns sleeps when idle or stopped short", "cluster 2 w16 nap vec plain pad 0"),
    ("the same (no sleep) on quarter tiles, at most 6 in flight",
     "cluster 2 w16 vec plain pad 0 Q THR 6"),
    ("the probe's copy of v06 on quarter tiles, at most 6 in flight",
     "s64 w16 vec plain pad 0 Q THR 6"),
    ("clusters of 2 on quarter tiles, at most 4 in flight (windows of 16 x 32)",
     "cluster 2 w16 vec plain pad 0 Q THR 4"),
    ("the probe's copy of v06 on quarter tiles, at most 4 in flight",
     "s64 w16 vec plain pad 0 Q THR 4"),
    ("v07 as shipped (unordered, no look-ahead)", "v07 shipped (unordered)"),
]
for call, stem in ((7, "probe_v06_cluster"), (8, "probe_v06_cluster2"), (9, "probe_v06_cluster_q4")):
    runs2 = [copyif_summary(f"call-{call}/{stem}-run{r}.txt") for r in (1, 2)]
    out = []
    for label, key in ROWS:
        if (INPUTS[0], key) not in runs2[0]:
            continue
        out.append([label] + [" / ".join(f"{x[(i, key)]}%" for x in runs2) for i in INPUTS])
    table(out, [f"copy_if, % of `cudaMemcpy`, run 1 / run 2 (call {call})"] + INPUTS)
# the cluster form's loss (windows of 16 x 32) against the probe's v06 in the same run, in points
for inp in INPUTS:
    loss = []
    for call, stem in ((7, "probe_v06_cluster"), (8, "probe_v06_cluster2"),
                       (9, "probe_v06_cluster_q4")):
        for r in (1, 2):
            m = copyif_summary(f"call-{call}/{stem}-run{r}.txt")
            loss.append(float(m[(inp, "s64 w16 vec plain pad 0 (=v06)")]) -
                        float(m[(inp, "cluster 2 w16 vec plain pad 0")]))
    print(f"cluster 2 w16 against the probe's v06, {inp}: {min(loss):.1f} to {max(loss):.1f} points")
