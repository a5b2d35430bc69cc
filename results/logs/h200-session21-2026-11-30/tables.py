#!/usr/bin/env python3
"""Prints the scan lab notes' tables of "One reader for every status: a sequencer" (2026-11-30,
twenty-first session) from the summary, round and trace lines of the files in this folder, and
the kinds of load instruction that cuobjdump found. Run from anywhere; nothing is typed by hand."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def lines(path):
    return open(os.path.join(HERE, path)).read().splitlines()


def summary(path):
    """{form: (us, percent)} from the summary lines after 'summary (median ...'."""
    out, on = {}, False
    for line in lines(path):
        if line.startswith("summary"):
            on = True
            continue
        if line.startswith("traces"):
            break
        m = re.match(r"^(.*?)\s+([\d.]+) us\s+([\d.]+)%$", line.rstrip())
        if on and m:
            out[m.group(1).strip()] = (m.group(2), m.group(3))
    return out


def round0(path):
    """{form: us} from the 'round 0' lines (call 4, whose runs never reached a summary)."""
    out = {}
    for line in lines(path):
        m = re.match(r"^round 0\s+(.*?)\s+([\d.]+) us\s", line)
        if m:
            out[m.group(1).strip()] = m.group(2)
    return out


def traces(path):
    """{form: (last scan-store end, last look-ahead end, median lag)} from the 'traces' lines."""
    out = {}
    for line in lines(path):
        m = re.match(
            r"^trace: (.*?): \d+ blocks; last scan-store end ([\d.]+) us, last look-ahead end "
            r"([\d.]+) us; .*median (-?[\d.]+),", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    return out


def table(rows, header):
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


def two(call, stem, key):
    """'us (pct%) / us (pct%)' over the call's two runs."""
    cells = []
    for r in (1, 2):
        s = summary(f"call-{call}/{stem}-run{r}.txt")
        cells.append(f"{s[key][0]} ({s[key][1]}%)")
    return " / ".join(cells)


# 1. the sequencer against v15's look-ahead (calls 1, 2, 3, 7)
rows = [
    ("`cudaMemcpy`", 1, "probe_v15_seq", "cudaMemcpy"),
    ("v15 as shipped (whole tiles)", 1, "probe_v15_seq", "v15 shipped (16 KB x 6, 2/SM)"),
    ("the scan, 4 quarters in flight (v15's look-ahead)", 1, "probe_v15_seq", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", 1, "probe_v15_seq",
     "scan, Q THR 4, no look (timing)"),
    ("sequencer, windows of 8 x 32", 1, "probe_v15_seq", "seq, Q THR 4"),
    ("sequencer, windows of 16 x 32", 1, "probe_v15_seq", "seq, Q THR 4, window 16"),
    ("sequencer, 200 ns between a look-ahead's polls", 1, "probe_v15_seq",
     "seq, Q THR 4, poll sleep 200"),
    ("sequencer, 6 quarters in flight", 1, "probe_v15_seq", "seq, Q THR 6"),
    ("the scan on whole tiles (v15's look-ahead)", 1, "probe_v15_seq",
     "scan (aligned, plain stores, whole tiles)"),
    ("sequencer on whole tiles", 1, "probe_v15_seq", "seq, whole tiles"),
    ("sequencer, windows of 16 x 32", 2, "probe_v15_seq2", "seq, Q THR 4, window 16"),
    ("sequencer, windows of 32 x 32 (132 blocks, one an SM)", 2, "probe_v15_seq2",
     "seq, Q THR 4, window 32"),
    ("v15's look-ahead, nothing waiting (timing)", 2, "probe_v15_seq2",
     "scan, Q THR 4, no wait (timing)"),
    ("sequencer, windows of 16 x 32, nothing waiting (timing)", 2, "probe_v15_seq2",
     "seq, Q THR 4, window 16, no wait (timing)"),
    ("sequencer, windows of 16 x 32", 3, "probe_v15_seq3", "seq, Q THR 4, window 16 (strided)"),
    ("blocked sequencer, windows of 4 x 32", 3, "probe_v15_seq3", "seqb, Q THR 4, window 4"),
    ("blocked sequencer, windows of 8 x 32", 3, "probe_v15_seq3", "seqb, Q THR 4, window 8"),
    ("blocked sequencer, windows of 16 x 32", 3, "probe_v15_seq3", "seqb, Q THR 4, window 16"),
    ("blocked sequencer, windows of 16 x 32, nothing waiting (timing)", 3, "probe_v15_seq3",
     "seqb, Q THR 4, window 16, no wait (timing)"),
    ("sequencer, windows of 16 x 32 (traced)", 7, "probe_v15_seqilp",
     "trace: seq, Q THR 4, window 16"),
    ("independent windows, 8 x 32 (traced)", 7, "probe_v15_seqilp",
     "trace: seqilp, Q THR 4, window 8"),
    ("independent windows, 16 x 32 (traced)", 7, "probe_v15_seqilp",
     "trace: seqilp, Q THR 4, window 16"),
    ("independent windows, 8 x 32, 6 quarters in flight (traced)", 7, "probe_v15_seqilp",
     "trace: seqilp, Q THR 6, window 8"),
    ("independent windows, 8 x 32, nothing waiting (timing, traced)", 7, "probe_v15_seqilp",
     "trace: seqilp, Q THR 4, window 8, no wait (timing)"),
]
table([(d, str(c), two(c, stem, k)) for d, c, stem, k in rows],
      ["form (2^28)", "call", "µs (% of `cudaMemcpy`), run 1 / run 2"])
rows = []
for c, stem in ((2, "probe_v15_seq2"), (3, "probe_v15_seq3"), (6, "probe_v15_seqtrace"),
                (7, "probe_v15_seqilp")):
    rows.append((str(c), two(c, stem, "scan, Q THR 4"), two(c, stem, "scan, Q THR 4, no look (timing)")))
table(rows, ["the later calls' own base rows: call", "the scan, 4 quarters in flight",
             "the same without its look-ahead (timing)"])

# 2. the traces (calls 6 and 7)
rows = []
for c, stem, keys in (
    (6, "probe_v15_seqtrace", ["seq, Q THR 4, window 16", "seq, Q THR 4, window 16, no wait (timing)",
                               "scan, Q THR 4, no wait (timing)", "scan, Q THR 4, no look (timing)"]),
    (7, "probe_v15_seqilp", ["seqilp, Q THR 4, window 8", "seqilp, Q THR 4, window 8, no wait (timing)"]),
):
    for k in keys:
        cells = [[], [], [], []]
        for r in (1, 2):
            f = f"call-{c}/{stem}-run{r}.txt"
            s, t = summary(f), traces(f)
            cells[0].append(s["trace: " + k][0])
            cells[1].append(t[k][0])
            cells[2].append(t[k][1])
            cells[3].append(t[k][2])
        rows.append([k, str(c)] + [" / ".join(x) for x in cells])
table(rows, ["traced form (2^28)", "call", "timed µs", "last scan-store loop ends, µs",
             "last look-ahead ends, µs", "median lag of a block's look-ahead, µs"])

# 3. 32 KB tiles (call 5)
rows = [
    ("the scan, 16 KB x 6, 4 quarters in flight", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("32 KB x 3 (v15's look-ahead), 2 quarters in flight", "32 KB x 3, Q THR 2"),
    ("the same without its look-ahead (timing)", "32 KB x 3, Q THR 2, no look (timing)"),
    ("32 KB x 3, 3 quarters", "32 KB x 3, Q THR 3"),
    ("32 KB x 3, 4 quarters", "32 KB x 3, Q THR 4"),
    ("the same without its look-ahead (timing)", "32 KB x 3, Q THR 4, no look (timing)"),
    ("32 KB x 3, 8-warp squads, 2 quarters", "32 KB (8w) x 3, Q THR 2"),
    ("32 KB x 3, 8-warp squads, 4 quarters", "32 KB (8w) x 3, Q THR 4"),
    ("the same without its look-ahead (timing)", "32 KB (8w) x 3, Q THR 4, no look (timing)"),
]
table([(d, two(5, "probe_v15_big", k)) for d, k in rows],
      ["form (2^28, two blocks an SM)", "µs (% of `cudaMemcpy`), run 1 / run 2"])

# 4. the look-ahead's loads (call 4: round 0 of each run; both runs stopped in the no_allocate form)
r1, r2 = round0("call-4/probe_v15_loads-run1.txt"), round0("call-4/probe_v15_loads-run2.txt")
kinds = {}
for line in lines("call-4/ld_kinds_by_kernel.txt"):
    n, fn, kind = line.split()
    mode = re.search(r"ELj8ELj(\d+)ELj4ELj0ELj1ELj1E", fn)
    if mode and kind.startswith("LDG") and ".64" in kind:
        kinds[int(mode.group(1))] = kind
modes = {"": 16777313, ", .cg": 285212769, ", volatile": 553648225, ", no_allocate": 1090519137}
rows = []
for suffix, mode in modes.items():
    k = f"scan, Q THR 4, no wait{suffix} (timing)"
    rows.append((f"nothing waiting{suffix or ', .relaxed.gpu'}", f"`{kinds.get(mode, '?')}`",
                 f"{r1.get(k, 'never ended')} / {r2.get(k, 'never ended')}"))
base = "scan, Q THR 4, no look (timing)"
rows.append(("without a look-ahead (timing)", "none", f"{r1[base]} / {r2[base]}"))
table(rows, ["form (2^28, 4 quarters in flight)", "the status load (SASS)",
             "round 0 µs, run 1 / run 2"])

# 5. group words read with the statuses (call 8)
rows = [
    ("the scan, 4 quarters in flight (v15's look-ahead)", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("v15's look-ahead starting once its own tile has landed (late)", "scan, Q THR 4, late"),
    ("group words, `advance_grouped2`", "group2, Q THR 4"),
    ("the same, late", "group2, Q THR 4, late"),
    ("group words, `advance_grouped` (the earlier reader), late", "group (advance_grouped), Q THR 4, late"),
    ("group words, `advance_grouped2`, late, 6 quarters in flight", "group2, Q THR 6, late"),
]
table([(d, two(8, "probe_v15_group2", k)) for d, k in rows],
      ["form (2^28)", "µs (% of `cudaMemcpy`), run 1 / run 2"])

# 6. more tiles waiting for the sequencer (call 9)
rows = [
    ("the scan, 4 quarters in flight (v15's look-ahead)", "scan, Q THR 4"),
    ("the same without its look-ahead (timing)", "scan, Q THR 4, no look (timing)"),
    ("sequencer, windows of 16 x 32", "seq, Q THR 4, window 16"),
    ("v15's look-ahead, the tile held in registers (kHold)", "scan, Q THR 4, hold"),
    ("sequencer, windows of 16, the tile held, polls 100 ns apart from the claim",
     "seq, Q THR 4, window 16, hold, poll sleep 100"),
    ("v15's look-ahead, two scan-store squads (kTwo)", "scan, Q THR 4, two squads"),
    ("sequencer, windows of 16, two scan-store squads", "seq, Q THR 4, window 16, two squads"),
    ("the same, 6 quarters in flight", "seq, Q THR 6, window 16, two squads"),
]
rows.insert(5, ("sequencer, windows of 16, polls 100 ns apart from the claim (call 10 only)",
                "seq, Q THR 4, window 16, polls from the claim, sleep 100"))


def two_or_dash(call, stem, key):
    try:
        return two(call, stem, key)
    except KeyError:
        return "—"


table([(d, two_or_dash(9, "probe_v15_seqhold", k), two_or_dash(10, "probe_v15_seqhold", k))
       for d, k in rows],
      ["form (2^28)", "call 9: µs (%), run 1 / run 2", "call 10: µs (%), run 1 / run 2"])
