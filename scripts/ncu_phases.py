#!/usr/bin/env python3
"""Where one kernel's instructions and waits go, barrier to barrier, from Nsight Compute's
source counters.

    ncu --section SourceCounters --section WarpStateStats -k regex:NAME -c 1 -o rep BINARY ...
    ncu -i rep.ncu-rep --page source --csv --print-source sass > kernel-sass.csv
    python3 scripts/ncu_phases.py kernel-sass.csv [more.csv ...]   # or .csv.gz (results/logs)

The CSV holds one row per SASS instruction: how many times warps executed it ("Instructions
Executed", warp-level) and how many of the profiler's periodic warp samples found a warp at it
("Warp Stall Sampling (All Samples)"), split by stall reason. A sample lands on a warp that is
resident, issuing or waiting, so a segment's share of the samples is its share of the warps' time
on the SM; its share of the instructions is its share of the work issued.

The kernel's SASS is cut after every BAR.SYNC (a block-wide barrier) and EXIT, and each segment
that executed anything is printed as a Markdown row: its SASS index range, its most frequent
executed opcodes (to tell which step of the source it is), its share of the executed
instructions and of the samples, and its three largest stall reasons as shares of all samples
(`barrier`: waiting at a barrier for the block's other warps; `long_sb`: for a global or local
memory load; `short_sb`: for shared memory or a shuffle; `wait`: a fixed-latency dependency;
`mio`: the memory-instruction queue full). Standard library only.
"""
import collections
import csv
import gzip
import sys

INSTR = "Instructions Executed"
SAMPLES = "Warp Stall Sampling (All Samples)"


def read(path):
    """The kernel's name and its rows as (source, executed, samples, {reason: samples})."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 3 or not rows[0] or rows[0][0] != "Kernel Name":
        raise ValueError(f"{path}: not an ncu --page source --csv file (no 'Kernel Name' line)")
    name, header = rows[0][1], rows[1]
    col = {k: i for i, k in enumerate(header)}
    for k in ("Source", INSTR, SAMPLES):
        if k not in col:
            raise ValueError(f"{path}: no column {k!r}")
    reasons = [k for k in header if k.startswith("stall_") and "(Not Issued)" not in k]
    out = []
    for r in rows[2:]:
        if len(r) < len(header):
            continue

        def num(k):
            return int(r[col[k]] or 0)

        out.append((r[col["Source"]].strip(), num(INSTR), num(SAMPLES),
                    {k[len("stall_"):]: num(k) for k in reasons}))
    return name, out


def opcode(source):
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def segments(rows):
    """[start, end) index ranges, cut after each BAR.SYNC and EXIT."""
    cuts, start = [], 0
    for i, (source, *_rest) in enumerate(rows):
        op = opcode(source)
        if op.startswith("BAR.SYNC") or op == "EXIT":
            cuts.append((start, i + 1))
            start = i + 1
    if start < len(rows):
        cuts.append((start, len(rows)))
    return cuts


def table(path):
    name, rows = read(path)
    total_i = sum(r[1] for r in rows) or 1
    total_s = sum(r[2] for r in rows) or 1
    lines = [f"`{path}`: {name}", "",
             f"{sum(r[1] for r in rows):,} warp instructions executed, "
             f"{sum(r[2] for r in rows):,} warp samples.", "",
             "| SASS | opcodes (executed) | instructions | samples | largest stall reasons |",
             "|---|---|--:|--:|---|"]
    for a, b in segments(rows):
        part = rows[a:b]
        ins, smp = sum(r[1] for r in part), sum(r[2] for r in part)
        if ins == 0 and smp == 0:
            continue
        ops = collections.Counter(opcode(r[0]) for r in part if r[1])
        why = collections.Counter()
        for r in part:
            why.update(r[3])
        lines.append(
            f"| {a}-{b - 1} | {', '.join(f'{o} {c}' for o, c in ops.most_common(4))} "
            f"| {100 * ins / total_i:.1f}% | {100 * smp / total_s:.1f}% | "
            + ", ".join(f"{k} {100 * v / total_s:.1f}%" for k, v in why.most_common(3) if v)
            + " |")
    why = collections.Counter()
    for r in rows:
        why.update(r[3])
    lines += ["", "All samples by stall reason: " +
              ", ".join(f"{k} {100 * v / total_s:.1f}%" for k, v in why.most_common(8) if v) + "."]
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: ncu_phases.py KERNEL-SASS.csv [...]", file=sys.stderr)
        return 2
    try:
        print("\n\n".join(table(p) for p in argv[1:]))
    except (OSError, ValueError, EOFError) as e:
        print(f"ncu_phases.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
