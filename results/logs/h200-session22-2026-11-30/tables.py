#!/usr/bin/env python3
"""Prints the scan lab notes' tables of "What the look-ahead's polls cost: lines other blocks
write" (2026-11-30, twenty-second session) from the round lines and Nsight Compute reports of the
files in this folder. Each time is the median of a form's three rounds and its per cent that of
cudaMemcpy's median in the same run: the probe's summary lines where it printed them (the median
recomputed here from the rounds is checked against each), and for call 3, whose runs were stopped
before their summary with their rounds complete, computed here from the rounds' printed times (so
a per cent may differ from the probe's own in its last digit). Run from anywhere; nothing is typed by hand."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def lines(path):
    return open(os.path.join(HERE, path)).read().splitlines()


def medians(path):
    """{form: (median us, per cent of cudaMemcpy's median)} from the 'round N' lines."""
    rounds, summ, on = {}, {}, False
    for line in lines(path):
        m = re.match(r"^round \d+\s+(.*?)\s+([\d.]+) us\s+[\d.]+ GB/s", line)
        if m:
            rounds.setdefault(m.group(1).strip(), []).append(float(m.group(2)))
        if line.startswith("summary"):
            on = True
            continue
        if line.startswith("escape") or line.startswith("traces"):
            on = False
        m = re.match(r"^(.*?)\s+([\d.]+) us\s+([\d.]+)%$", line.rstrip())
        if on and m:
            summ[m.group(1).strip()] = (m.group(2), m.group(3))
    med = {k: sorted(v)[len(v) // 2] for k, v in rounds.items() if len(v) == 3}
    out = {k: (f"{v:.2f}", f"{100.0 * med['cudaMemcpy'] / v:.1f}") for k, v in med.items()}
    for k, v in summ.items():  # the probe's own figures where it printed them
        assert out[k][0] == v[0], (path, k, out[k], v)  # the same median
        out[k] = v  # its per cent, from unrounded times (may differ in the last digit)
    return out


def ncu(path):
    """{form: {metric: value}} from a file of '=== form' headers and Nsight Compute reports."""
    out, form = {}, None
    for line in lines(path):
        if line.startswith("=== "):
            form = line[4:].strip()
            out[form] = {}
            continue
        m = re.match(r"^\s+(\S+)\s+\S+\s+([\d,.]+)$", line)
        if form and m and "__" in m.group(1):
            out[form][m.group(1)] = m.group(2)
    return out


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


def runs(call, stem, key, pct_only=True):
    """'pct% / pct%' (or 'us (pct%) / ...') over the call's two runs; '' if absent."""
    cells = []
    for r in (1, 2):
        m = medians(f"call-{call}/{stem}-run{r}.txt")
        if key not in m:
            return ""
        us, pct = m[key]
        cells.append(f"{pct}%" if pct_only else f"{us} ({pct}%)")
    return " / ".join(cells)


# 1. 4-byte statuses (calls 1 and 3)
S1, S3 = "probe_v15_stat32", "probe_v15_stat32lazy"
rows = [
    ("`cudaMemcpy` (µs)", "cudaMemcpy", "cudaMemcpy"),
    ("v15 as shipped", "v15 shipped (16 KB x 6, 2/SM)", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight (8-byte statuses)", "scan, Q THR 4", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)",
     "scan, Q THR 4, no look (timing)"),
    ("4-byte statuses, escape words read every round trip", "stat32, Q THR 4", "stat32, Q THR 4"),
    ("the same, windows of 16 x 32", "stat32, Q THR 4, window 16", None),
    ("the same, windows of 4 x 32", "stat32, Q THR 4, window 4", None),
    ("4-byte statuses, escape words read only when stuck", None, "stat32 lazy, Q THR 4"),
    ("the same, windows of 16 x 32", None, "stat32 lazy, Q THR 4, window 16"),
    ("whole tiles (8-byte statuses)", "scan (aligned, plain stores, whole tiles)",
     "scan (aligned, plain stores, whole tiles)"),
    ("whole tiles, 4-byte statuses (call 1: escape words every round trip; call 3: when stuck)",
     "stat32, whole tiles", "stat32 lazy, whole tiles"),
    ("clusters of 2, streaming look-ahead, claims handed over once reduced",
     "stream 2, Q THR 4, hand late", "stream 2, Q THR 4, hand late"),
    ("the same, 4-byte statuses (call 1: escape words every round trip; call 3: none read)",
     "stream 2, Q THR 4, hand late, stat32", "stream 2, Q THR 4, hand late, stat32 lazy"),
    ("the same, windows of 16 x 32 (none read)", None,
     "stream 2, Q THR 4, hand late, stat32 lazy, window 16"),
]
out = []
for label, k1, k3 in rows:
    c1 = runs(1, S1, k1) if k1 else ""
    c3 = runs(3, S3, k3) if k3 else ""
    if label.startswith("`cudaMemcpy`"):
        c1 = " / ".join(medians(f"call-1/{S1}-run{r}.txt")[k1][0] for r in (1, 2))
        c3 = " / ".join(medians(f"call-3/{S3}-run{r}.txt")[k3][0] for r in (1, 2))
    out.append((label, c1, c3))
table(out, ["form (2^28), % of `cudaMemcpy`, run 1 / run 2", "call 1", "call 3"])

# 2. the look-ahead's L2 reads with 4-byte statuses (calls 1 and 3, one launch each)
n1, n3 = ncu("call-1/ncu_stat32.txt"), ncu("call-3/ncu_stat32lazy.txt")
rows = [
    ("the scan, 4 quarters in flight (8-byte statuses)", 1, "scan, Q THR 4"),
    ("4-byte statuses, escape words read every round trip", 1, "stat32, Q THR 4"),
    ("the scan, 4 quarters in flight (8-byte statuses)", 3, "scan, Q THR 4"),
    ("4-byte statuses, escape words read only when stuck", 3, "stat32 lazy, Q THR 4"),
    ("clusters of 2, streaming, handed over once reduced", 1, "stream 2, Q THR 4, hand late"),
    ("the same, 4-byte statuses (escape words every round trip)", 1,
     "stream 2, Q THR 4, hand late, stat32"),
    ("the same, 4-byte statuses (no escape words read)", 3,
     "stream 2, Q THR 4, hand late, stat32 lazy"),
]
out = []
for label, call, key in rows:
    r = (n1 if call == 1 else n3)[key]
    out.append((label, str(call), r["gpu__time_duration.sum"],
                r["lts__t_requests_srcunit_tex_op_read.sum"],
                r["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]))
table(out, ["form (one launch at 2^28)", "call", "µs", "L2 read requests", "L2 read hits (sectors)"])

# 3. the copy beside a warp that only polls (calls 2, 4, 5, 6)
P2, P4, P5, P6 = "probe_v15_poll", "probe_v15_pollw", "probe_v15_probe", "probe_v15_sep"
rows = [
    ("nothing polled", [(2, P2, "copy, Q THR 4"), (4, P4, "copy, Q THR 4"),
                        (5, P5, "copy, Q THR 4")], (6, P6, "copy, Q THR 4")),
    ("nothing polled, each tile's status written", [(4, P4, "copy, Q THR 4, statuses written")],
     None),
    ("the same 17 lines for every block (statuses 0 to 255, the tile counter's line first)",
     [(2, P2, "copy, Q THR 4, poll shared")], (6, P6, "copy, Q THR 4, sep poll shared")),
    ("the block's own 2 KiB (17 lines), never written",
     [(2, P2, "copy, Q THR 4, poll private"), (5, P5, "copy, Q THR 4, poll private")],
     (6, P6, "copy, Q THR 4, sep poll private")),
    ("the block's own lines, written by the block once, first",
     [(5, P5, "copy, Q THR 4, poll private, written first")], None),
    ("the block's own lines, status lines that other blocks write",
     [(4, P4, "copy, Q THR 4, poll private, statuses written"),
      (5, P5, "copy, Q THR 4, poll private, statuses written")],
     (6, P6, "copy, Q THR 4, sep poll private, statuses written")),
    ("the block's own 17 lines 8 MiB past the statuses (never written), the statuses written",
     [(5, P5, "copy, Q THR 4, poll private far, statuses written")], None),
    ("near the front: 256 statuses from the block's newest claim up, never written",
     [(2, P2, "copy, Q THR 4, poll moving"), (4, P4, "copy, Q THR 4, poll moving")],
     (6, P6, "copy, Q THR 4, sep poll moving")),
    ("near the front, the statuses written",
     [(4, P4, "copy, Q THR 4, poll moving, statuses written")],
     (6, P6, "copy, Q THR 4, sep poll moving, statuses written")),
    ("near the front, the statuses written after the `reduced` arrive", [],
     (6, P6, "copy, Q THR 4, sep poll moving, written after")),
]
out = []
for label, inloop, sep in rows:
    c = "; ".join(f"{runs(call, stem, key)} (call {call})" for call, stem, key in inloop)
    s = f"{runs(*sep)} (call {sep[0]})" if sep else ""
    out.append((label, c, s))
table(out, ["the copy (4 quarters in flight) beside a warp polling 8 x 32 statuses",
            "the look-ahead warp polls, until its next claim (run 1 / run 2)",
            "one more warp polls, gating nothing (run 1 / run 2)"])

# 4. the busiest L2 slice and the fabric (calls 2 and 7, one launch each)
n2, n7 = ncu("call-2/ncu_poll.txt"), ncu("call-7/ncu_sep.txt")
rows = [
    ("the copy, nothing polled", n2["copy, Q THR 4"]),
    ("the look-ahead warp polls 17 lines every block shares", n2["copy, Q THR 4, poll shared"]),
    ("... the block's own 17 lines", n2["copy, Q THR 4, poll private"]),
    ("... near the front", n2["copy, Q THR 4, poll moving"]),
]
out = []
for label, r in rows:
    out.append((label, r["gpu__time_duration.sum"],
                r["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"],
                f'{r["lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"]} / '
                f'{r["lts__t_tag_requests.max.pct_of_peak_sustained_elapsed"]}',
                f'{r["lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"]} / '
                f'{r["lts__lts2xbar_cycles_active.max.pct_of_peak_sustained_elapsed"]}'))
table(out, ["one launch at 2^28 (call 2)", "µs", "L2 read hits (sectors)",
            "L2 tag requests %, mean / busiest slice", "L2 into crossbar %, mean / busiest slice"])
rows = [
    ("one more warp polls the block's own 17 lines, never written",
     n7["copy, Q THR 4, sep poll private"]),
    ("... status lines that other blocks write",
     n7["copy, Q THR 4, sep poll private, statuses written"]),
]
out = []
for label, r in rows:
    out.append((label, r["gpu__time_duration.sum"], r["lts__t_sectors_srcunit_ltcfabric.sum"],
                r["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"],
                f'{r["lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"]} / '
                f'{r["lts__lts2xbar_cycles_active.max.pct_of_peak_sustained_elapsed"]}'))
table(out, ["the copy, one launch at 2^28 (call 7)", "µs", "L2 sectors over the fabric",
            "L2 read hits (sectors)", "L2 into crossbar %, mean / busiest slice"])

# 5. look-aheads that read the front less, or publish later (calls 2, 5, 6)
rows = [
    ("the scan, 4 quarters in flight (base)", [(2, P2, "scan, Q THR 4"), (5, P5, "scan, Q THR 4"),
                                               (6, P6, "scan, Q THR 4")]),
    ("status t - 1 polled alone until published, then the run read",
     [(5, P5, "scan, Q THR 4, probe last")]),
    ("the same, 100 ns between its polls", [(5, P5, "scan, Q THR 4, probe last, nap 100")]),
    ("the same (no sleep), starting once the tile has landed",
     [(5, P5, "scan, Q THR 4, late, probe last")]),
    ("the same (from the claim), windows of 16 x 32",
     [(5, P5, "scan, Q THR 4, probe last, window 16")]),
    ("each status published after the `reduced` arrive",
     [(6, P6, "scan, Q THR 4, publish after")]),
    ("4 copies of each status (a quarter of the readers a copy)",
     [(2, P2, "scan, Q THR 4, 4 copies")]),
    ("the same, the copies a skewed stride apart", [(2, P2, "scan, Q THR 4, 4 copies, skewed")]),
    ("16 copies, skewed", [(2, P2, "scan, Q THR 4, 16 copies, skewed")]),
    ("clusters of 2, streaming, handed over once reduced",
     [(5, P5, "stream 2, Q THR 4, hand late")]),
]
out = []
for label, cells in rows:
    out.append((label, "; ".join(f"{runs(call, stem, key)} (call {call})"
                                 for call, stem, key in cells)))
table(out, ["form (2^28)", "% of `cudaMemcpy`, run 1 / run 2"])
