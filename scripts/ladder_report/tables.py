"""The tables of one operator's ladder: per size and input, the targets, the inputs side by
side, fp16 against fp32, the hardware counters, the size sweep, the run's context."""
import glob
import os

from . import results
from .fmt import (
    dist_label, fmt_pct, fmt_pct_against, fmt_ratio, fmt_ratio_against, fmt_sig, fmt_time, is_rung,
    ladder_order, size_label)
from .results import LADDER_SIZE, LARGE_SIZE, LINK_OPS, baseline_slug, summary


# Benchmark targets, checked against the same run (the latest: issue 52's, "Close to the limit": sort
# 0.70x CUB on uniform keys, 0.75x on few, 0.50x on sorted; pairs 0.80x; scan and copy_if at 97% of
# the copy ceiling, set for the H200):
#   ("cub", n, dist, limit): the best rung's time <= limit x the library baseline's time;
#   ("vs", n, dist, limit, slug): the same against another baseline (for example cub_unfused);
#   ("ceiling", n, dist, pct): the best rung reaches at least pct % of the measured copy ceiling;
#   ("dist", n, dist, limit, base_dist): the rung that is best on base_dist takes <= limit x its
#   base_dist time on dist.
# A limit may differ by GPU: a dict from the GPU's slug (JSON context gpu_slug) to the limit, with
# "default" for the others.
TARGETS = {
    "reduce": [("cub", LARGE_SIZE, None, 1.0), ("cub", LADDER_SIZE, None, 1.0)],
    "row_sum": [t for d in ("square", "wide", "tall", "softmax")
                for t in (("ceiling", LARGE_SIZE, d, 90.0), ("cub", LARGE_SIZE, d, 1.0))],
    "col_sum": [t for d in ("square", "wide", "tall", "softmax")
                for t in (("ceiling", LARGE_SIZE, d, 90.0),
                          ("vs", LARGE_SIZE, d, 1.0, "cublas_gemv"))],
    "histogram": [("cub", LARGE_SIZE, "uniform", 0.5),
                  ("dist", LARGE_SIZE, "degenerate", 2.0, "uniform")],
    "histogram_u8": [("cub", LARGE_SIZE, "uniform", 0.7),
                     ("dist", LARGE_SIZE, "degenerate", 2.0, "uniform")],
    "scan": [("cub", LARGE_SIZE, None, 0.85), ("ceiling", LARGE_SIZE, None, 97.0)],
    "gelu_f32": [("ceiling", LARGE_SIZE, None, 95.0)],
    "gelu_f16": [("cub", LARGE_SIZE, None, 0.7)],
    "fused_f16": [("ceiling", LARGE_SIZE, "uniform", 90.0),
                  ("vs", LARGE_SIZE, "uniform", 1.0, "cub_unfused")],
    "sort": [("cub", LARGE_SIZE, "uniform", 0.70), ("cub", LARGE_SIZE, "few", 0.75),
             ("cub", LARGE_SIZE, "sorted", 0.50),
             ("dist", LARGE_SIZE, "few", 1.0, "uniform"),
             ("dist", LARGE_SIZE, "sorted", 1.0, "uniform")],
    "sort_pairs": [("cub", LARGE_SIZE, None, 0.80)],
    "copy_if": [("cub", LARGE_SIZE, "keep50", 0.8), ("ceiling", LARGE_SIZE, "keep50", 97.0),
                ("unordered", LARGE_SIZE, "keep50", 1.0)],
}
# Rungs that lose the input order (their headers and the registry say so: copy_if/copy_if.cu
# registers them kUnordered). Targets about "the best version" of such an operator mean the best
# order-preserving one; the "unordered" target compares the best of these with it.
UNORDERED = {"copy_if": {"v01_global_atomic", "v02_block_atomic", "v03_warp_aggregated",
                       "v07_pipelined_unordered"}}

# The size-sweep targets: the top rung's time over CUB's at every size of the sweep and at the
# ladder sizes, at most this (issue 52: within 1%; the sort issue: no slower than CUB).
SIZE_LIMIT = {"sort": 1.0, "sort_pairs": 1.0}
SIZE_LIMIT_DEFAULT = 1.01


# The read-only operators: their tables show each version's % of the read ceiling (JSON context
# read_ceiling_gbps, counter pct_read) beside its % of the copy ceiling, where the run has it.
READ_OPS = {"reduce", "row_sum", "col_sum", "histogram", "histogram_u8"}


def op_table(runs, op, n, dist=None):
    """Markdown table of one operator's ladder at one size (and input distribution), or None if
    it did not run there."""
    rows = sorted((k[1] for k in runs if k[0] == op and k[2] == n and k[3] == dist),
                  key=ladder_order)
    if not rows:
        return None, None
    figures = {slug: summary(runs[(op, slug, n, dist)]) for slug in rows}
    cub = figures.get(baseline_slug(op))
    v00 = figures.get("v00_serial")
    # the "× v00" column only where the serial baseline ran at this size
    link = op in LINK_OPS
    # the "% read ceiling" column only where the run measured it (read-only operators)
    read = op in READ_OPS and any(f and f["pct_read"] is not None for f in figures.values())
    out = ["| version | time (µs) | GB/s | " + ("% link bound" if link else "% copy ceiling")
           + (" | % read ceiling" if read else "") + " | × previous |"
           + (" × v00 |" if v00 else "") + " speed vs CUB | verified |",
           "|---|--:|--:|--:|" + ("--:|" if read else "") + "--:|" + ("--:|" if v00 else "")
           + "--:|:-:|"]
    prev = None
    for slug in rows:
        f = figures[slug]
        if f is None:
            msg = "; ".join(runs[(op, slug, n, dist)]["errors"])[:120] or "no data"
            out.append(f"| `{slug}` | — | — | — | — |" + (" — |" if read else "")
                       + (" — |" if v00 else "") + f" — | ✗ {msg} |")
            continue
        rung = is_rung(slug)
        t = f["time_us"]
        pct = f["pct_link"] if link and f["pct_link"] is not None else f["pct_copy"]
        cells = [f"`{slug}`", fmt_time(t), fmt_sig(f["gbps"]), fmt_pct(pct)]
        if read:
            cells.append(fmt_pct(f["pct_read"]) if f["pct_read"] is not None else "—")
        cells += [fmt_ratio(prev / t if prev and rung else None)]
        if v00:
            cells.append(fmt_ratio(v00["time_us"] / t if rung else None))
        cells += [fmt_ratio(cub["time_us"] / t if cub else None), "✓" if f["verified"] else "✗"]
        out.append("| " + " | ".join(cells) + " |")
        if rung:
            prev = t
    return "\n".join(out), figures


def best_rung(figures, exclude=(), only=None):
    rungs = [(f["time_us"], s) for s, f in figures.items()
             if is_rung(s) and f and f["verified"] and s not in exclude
             and (only is None or s in only)]
    return min(rungs) if rungs else None


def targets_table(runs, op, gpu_slug=None):
    lines = []
    unordered = UNORDERED.get(op, set())

    def best_pct(pct):
        # beside a ceiling target of the same operator, as that target's row writes it
        for other in TARGETS.get(op, []):
            if other[0] == "ceiling":
                limit = other[3]
                if isinstance(limit, dict):
                    limit = limit.get(gpu_slug, limit["default"])
                return fmt_pct_against(pct, limit)
        return fmt_pct(pct)

    for target in TARGETS.get(op, []):
        kind, n, dist, limit = target[:4]
        if isinstance(limit, dict):
            limit = limit.get(gpu_slug, limit["default"])
        where = f"n = {size_label(n)}{dist_label(dist)}"
        if kind == "unordered":
            goal = "best unordered ≤ best order-preserving time"
            _, figures = op_table(runs, op, n, dist)
            u = best_rung(figures, only=unordered) if figures else None
            o = best_rung(figures, exclude=unordered) if figures else None
            if not u or not o:
                lines.append(f"| {where} | {goal} | not measured | — |")
                continue
            ratio = u[0] / o[0]
            measured = "`{}`: {} µs vs `{}` {} µs = {}×".format(
                u[1], fmt_time(u[0]), o[1], fmt_time(o[0]), fmt_ratio_against(ratio, limit))
            lines.append(f"| {where} | {goal} | {measured} | {'met' if ratio <= limit else '**missed**'} |")
            continue
        if kind in ("cub", "vs"):
            base = "cub" if kind == "cub" else target[4]
            goal = f"best ≤ {limit:g}× `{base}` time"
            _, figures = op_table(runs, op, n, dist)
            if unordered:
                goal = goal.replace("best", "best order-preserving", 1)
            if not figures or not figures.get(base) or not best_rung(figures, unordered):
                lines.append(f"| {where} | {goal} | not measured | — |")
                continue
            t, slug = best_rung(figures, unordered)
            ratio = t / figures[base]["time_us"]
            measured = "`{}`: {} µs vs `{}` {} µs = {}× (`{}` at {}, best at {} of the copy ceiling)".format(
                slug, fmt_time(t), base, fmt_time(figures[base]["time_us"]), fmt_ratio_against(ratio, limit), base,
                fmt_pct(figures[base]["pct_copy"]), best_pct(figures[slug]["pct_copy"]))
        elif kind == "ceiling":
            goal = f"best ≥ {limit:g}% of the copy ceiling"
            if unordered:
                goal = goal.replace("best", "best order-preserving", 1)
            _, figures = op_table(runs, op, n, dist)
            if not figures or not best_rung(figures, unordered):
                lines.append(f"| {where} | {goal} | not measured | — |")
                continue
            t, slug = best_rung(figures, unordered)
            pct = figures[slug]["pct_copy"]
            measured = "`{}`: {} µs, {}".format(slug, fmt_time(t), fmt_pct_against(pct, limit))
            lines.append(f"| {where} | {goal} | {measured} | {'met' if pct >= limit else '**missed**'} |")
            continue
        else:
            base = target[4]
            goal = f"best on {base}: {dist} ≤ {limit:g}× its {base} time"
            _, base_fig = op_table(runs, op, n, base)
            _, figures = op_table(runs, op, n, dist)
            best = best_rung(base_fig) if base_fig else None
            f = figures.get(best[1]) if figures and best else None
            if not best or not f or not f["verified"]:
                lines.append(f"| {where} | {goal} | not measured | — |")
                continue
            ratio = f["time_us"] / best[0]
            measured = "`{}`: {} µs vs {} µs = {}×".format(
                best[1], fmt_time(f["time_us"]), fmt_time(best[0]), fmt_ratio_against(ratio, limit))
        lines.append(f"| {where} | {goal} | {measured} | {'met' if ratio <= limit else '**missed**'} |")
    if not lines:
        return None
    return "\n".join(["| where | target | measured (median) | |", "|---|---|---|---|"] + lines)


# What the tables' derived columns mean (RESULTS.md's header and each chapter's "Measured" say it).
COLUMNS = ("\"× previous\" and \"× v00\" are speedups (old time / new time); \"speed vs CUB\" is "
           "CUB's time over the version's (above 1: faster than CUB); \"worst ÷ <input>\" is a "
           "version's slowest time over its time on that input.")


def side_by_side(runs, op, n, dists):
    """One row per version: its time on each input distribution, and the worst over the first."""
    slugs = sorted({k[1] for k in runs if k[0] == op and k[2] == n}, key=ladder_order)
    head = "| version | " + " | ".join(f"{d} (µs)" for d in dists) + f" | worst ÷ {dists[0]} |"
    out = [head, "|---|" + "--:|" * (len(dists) + 1)]
    for slug in slugs:
        figs = [summary(runs[(op, slug, n, d)]) if (op, slug, n, d) in runs else None
                for d in dists]
        cells = [fmt_time(f["time_us"]) if f else "—" for f in figs]
        worst = (max(f["time_us"] for f in figs) / figs[0]["time_us"]
                 if all(figs) else None)
        out.append(f"| `{slug}` | " + " | ".join(cells) + f" | {fmt_ratio(worst)} |")
    return "\n".join(out)


# Operators whose fp16 and fp32 forms are compared (elementwise chapter): (fp16, fp32, bytes per
# element of each, as the operators' bytes_moved counts them).
FP16_PAIRS = [("gelu_f16", "gelu_f32", 4, 8), ("fused_f16", "fused_f32", 7, 13)]


def fp16_table(runs, n):
    """The best rung of each fp16 operator against the best of its fp32 twin at size n."""
    out = ["| operation | best fp32 (µs) | best fp16 (µs) | fp16 ÷ fp32 time | fp16 ÷ fp32 bytes |",
           "|---|--:|--:|--:|--:|"]
    rows = 0
    for f16, f32, b16, b32 in FP16_PAIRS:
        # each operator on its headline input (the fused ones also run a second bias length)
        _, fig16 = op_table(runs, f16, n, primary_dist(runs, f16))
        _, fig32 = op_table(runs, f32, n, primary_dist(runs, f32))
        a, b = (best_rung(fig32) if fig32 else None), (best_rung(fig16) if fig16 else None)
        if not a or not b:
            continue
        rows += 1
        out.append(f"| {f16[:-4]} | `{a[1]}` {fmt_time(a[0])} | `{b[1]}` {fmt_time(b[0])} | "
                   f"{b[0] / a[0]:.2f} | {b16 / b32:.2f} |")
    return "\n".join(out) if rows else None


# The hardware counters each chapter cites next to its rungs (scripts/ncu_counters.sh writes
# results/ncu-<gpu>/<op>__<slug>.csv; scripts/ncu_summary.parse reads them).
# "L2 write": the 32-byte sectors the kernel's stores wrote (lts__t_sectors_srcunit_tex_op_write),
# counted where they enter the L2; a partial sector counts whole. At this size much of what it
# writes is still in the 60 MB L2 when it ends, so "DRAM write" falls short of it.
_EW = ["DRAM read (MB)", "L2 write (MB)", "instructions (M)", "occupancy %"]
COUNTERS = {
    "reduce": ["bank conflicts ld", "threads / instr", "pred-on threads / instr", "occupancy %",
               "DRAM read (MB)", "instructions (M)"],
    "scan": ["bank conflicts ld", "bank conflicts st", "threads / instr",
             "pred-on threads / instr", "DRAM read (MB)",
             "L2 write (MB)", "instructions (M)"],
    "copy_if": ["global atom", "global red", "shared atom", "bank conflicts atom",
                "DRAM read (MB)", "L2 write (MB)"],
    "histogram": ["shared atom", "bank conflicts atom", "global atom", "global red",
                  "bank conflicts ld", "DRAM read (MB)", "instructions (M)"],
    "sort": ["DRAM read (MB)", "L2 write (MB)", "instructions (M)", "shared atom",
             "bank conflicts atom", "bank conflicts st", "occupancy %"],
}
for _op in ("gelu_f32", "gelu_f16", "fused_f32", "fused_f16", "add_f32"):
    COUNTERS[_op] = _EW
COUNTERS["histogram_u8"] = COUNTERS["histogram"]
COUNTERS["sort_pairs"] = COUNTERS["sort"]
COUNTERS["row_sum"] = COUNTERS["col_sum"] = COUNTERS["reduce"]


def counters_table(op, gpu_slug, directory=None):
    """The Nsight Compute counters of each version of op on this GPU (results/ncu-<gpu>/), or in
    `directory` (a path under results/) where given; None if there are none."""
    folder = directory or f"ncu-{gpu_slug}"
    files = sorted(glob.glob(os.path.join(results.ROOT, "results", folder, f"{op}__*.csv")))
    if not files:
        return None
    import ncu_summary  # scripts/, beside this file
    # the kernel time ncu measured comes first, so each counter stands next to a time
    labels = ["time (µs)"] + COUNTERS.get(op, ["DRAM read (MB)", "DRAM write (MB)",
                                              "instructions (M)"])
    out = ["| version | kernels | " + " | ".join(labels) + " |", "|---|--:|" + "--:|" * len(labels)]
    rows = []
    for path in files:
        slug = os.path.basename(path)[len(op) + 2:-4]
        got = ncu_summary.parse(path)
        cells = ([f"{got[0][l]:,.3g}" if l in got[0] else "—" for l in labels] if got
                 else ["—"] * len(labels))
        rows.append((ladder_order(slug), f"| `{slug}` | {got[1] if got else '—'} | "
                     + " | ".join(cells) + " |"))
    return "\n".join(out + [r for _, r in sorted(rows)])


def kernels_table(op, directory, n):
    """Where a version's time goes, kernel by kernel: the timed launch of each version of op in
    `directory` (a folder of scripts/ncu_counters.sh's CSVs under results/, run at n elements),
    with the bytes each kernel moved across the DRAM interface per element, the bandwidth that
    is, its instructions and how often its schedulers issued; a kernel launched more than once
    is numbered (#1, #2, ...); a last row per version sums its kernels. None if
    the folder has no CSVs of op."""
    files = sorted(glob.glob(os.path.join(results.ROOT, "results", directory, f"{op}__*.csv")))
    if not files:
        return None
    import ncu_summary  # scripts/, beside this file
    out = ["| version | kernel | time (µs) | DRAM read (MB) | DRAM write (MB) | bytes / element "
           "| DRAM GB/s | instructions (M) | issue active % | warps / scheduler |",
           "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    rows = []
    for path in files:
        slug = os.path.basename(path)[len(op) + 2:-4]
        got = ncu_summary.kernels(path) or []
        lines = []

        def row(version, kernel, v):
            t = v.get("time (µs)", 0.0)
            moved = v.get("DRAM read (MB)", 0.0) + v.get("DRAM write (MB)", 0.0)  # MB = 1e6 B
            cells = [f"{t:,.1f}", f"{v.get('DRAM read (MB)', 0.0):,.1f}",
                     f"{v.get('DRAM write (MB)', 0.0):,.1f}", f"{moved * 1e6 / n:.2f}",
                     f"{moved / t * 1e3:,.0f}" if t else "—"]  # MB / µs = 1e3 GB/s
            cells.append(f"{v['instructions (M)']:,.1f}" if "instructions (M)" in v else "—")
            cells += [f"{v[k]:.1f}" if k in v else "—"
                      for k in ("issue active %", "warps / scheduler")]
            first = f" {version} " if version else " "  # the sum row leaves the version blank
            return f"|{first}| {kernel} | " + " | ".join(cells) + " |"
        # a kernel launched more than once (a pass per digit) is numbered in launch order
        names = [k for k, _ in got]
        seen = {}
        for kernel, v in got:
            seen[kernel] = seen.get(kernel, 0) + 1
            lines.append(row(f"`{slug}`",
                             f"{kernel} #{seen[kernel]}" if names.count(kernel) > 1 else kernel, v))
        if got:
            total = {k: sum(v.get(k, 0.0) for _, v in got)
                     for k in ("time (µs)", "DRAM read (MB)", "DRAM write (MB)")}
            if all("instructions (M)" in v for _, v in got):
                total["instructions (M)"] = sum(v["instructions (M)"] for _, v in got)
            lines.append(row("", f"all {len(got)}", total))
        rows.append((ladder_order(slug), lines))
    return "\n".join(out + [line for _, lines in sorted(rows) for line in lines])


def operator_section(runs, op, heading="###", gpu_slug=None):
    sizes = sorted({k[2] for k in runs if k[0] == op})
    if not sizes:
        return None
    dists = []
    for k in runs:
        if k[0] == op and k[3] not in dists:
            dists.append(k[3])
    parts = []
    tt = targets_table(runs, op, gpu_slug)
    if tt:
        parts += [f"{heading} Targets", "", tt, ""]
    if op == "fused_f16":
        for n in sizes:
            t = fp16_table(runs, n)
            if t:
                parts += [f"{heading} fp16 against fp32, n = {size_label(n)}", "", t, ""]
    for n in sizes:
        if len(dists) > 1:
            label = f"{size_label(n)} ({n:,} elements)" if n & (n - 1) == 0 else f"{n:,}"
            parts += [f"{heading} n = {label}: every input side by side", "",
                      side_by_side(runs, op, n, dists), ""]
        for dist in dists:
            table, _ = op_table(runs, op, n, dist)
            if table is None:
                continue
            label = f"{size_label(n)} ({n:,} elements)" if n & (n - 1) == 0 else f"{n:,}"
            parts += [f"{heading} n = {label}{dist_label(dist)}", "", table, ""]
    ct = counters_table(op, gpu_slug) if gpu_slug else None
    if ct:
        # The caption explains only the columns this operator's table has.
        header = ct.splitlines()[0].lower()
        caption = ("n = 4,194,304 (2^22) or the version's largest; L2 flushed before the kernel; "
                   "time is ncu's duration of the profiled launch (its kernels summed).")
        if "threads / instr" in header:
            caption += (" Threads / instr counts active lanes, pred-on threads only those not "
                        "predicated off.")
        if "atom" in header or " red " in header:
            caption += " Atomics are warp-level instructions."
        if "l2 write" in header:
            caption += (" \"L2 write\" is the 32-byte sectors the kernel's stores wrote, counted "
                        "where they enter the L2: a store that covers part of a sector counts the "
                        "whole sector, so a store that does not combine with others counts up to 32 "
                        "bytes for one 4-byte element; at this size much of it is still in "
                        "the L2 when the kernel ends, so DRAM writes fall short of it.")
        parts += [f"{heading} Hardware counters (Nsight Compute, `scripts/ncu_counters.sh`, the "
                  "timed launch at its moderate size)", "", caption, "", ct, ""]
    return "\n".join(parts).rstrip() + "\n"

CONTEXT_ROWS = [
    ("GPU", "gpu"), ("compute capability", "compute_capability"), ("SMs", "sm_count"),
    ("L2 bytes", "l2_bytes"), ("SM clock (MHz)", "sm_clock_mhz"),
    ("memory clock (MHz)", "mem_clock_mhz"), ("bus width (bits)", "bus_width_bits"),
    ("theoretical peak (GB/s)", "peak_gbps"), ("measured copy ceiling (GB/s)", "copy_ceiling_gbps"),
    ("copy ceiling method", "copy_ceiling_method"),
    ("measured read ceiling (GB/s)", "read_ceiling_gbps"),
    ("read ceiling method", "read_ceiling_method"),
    ("host link, host to GPU, pinned (GB/s)", "link_h2d_pinned_gbps"),
    ("host link, GPU to host, pinned (GB/s)", "link_d2h_pinned_gbps"),
    ("host link method", "link_method"), ("L2 flush", "l2_flush"),
    ("driver", "driver_version"), ("CUDA runtime", "runtime_version"), ("CUB", "cub_version"),
    ("git commit", "git_commit"), ("build", "build_type"),
    ("CUDA architectures built", "cuda_architectures"), ("device code run", "device_code"),
    ("timing", "timing"),
    ("Google Benchmark library build", "library_build_type"), ("date", "date"),
    ("host", "host_name"), ("command", "command_line"),
]


def context_table(ctx, reps):
    rows = ["| | |", "|---|---|"]
    for label, key in CONTEXT_ROWS:
        if key in ctx:
            value = f"`{ctx[key]}`" if key == "command_line" else ctx[key]
            rows.append(f"| {label} | {value} |")
    rows.append(f"| repetitions per benchmark | {reps} (the median is quoted) |")
    return "\n".join(rows)


SWEEP_ROWS_MAX = 8  # versions per sweep table


def top_rung(runs, op, dist):
    """The rung a user would call: the highest-numbered rung measured at most sizes of the
    sweep (for copy_if, the highest that keeps the order)."""
    keys = [k for k in runs if k[0] == op and k[3] == dist and is_rung(k[1])
            and k[1] not in UNORDERED.get(op, set())]
    sizes = {k[2] for k in keys}
    counts = {}
    for k in keys:
        counts[k[1]] = counts.get(k[1], 0) + 1
    rungs = sorted((s for s, c in counts.items() if c >= len(sizes) - 2), key=ladder_order)
    return rungs[-1] if rungs else None


def ratio_to_cub(runs, op):
    """[(n, top rung time / CUB time)] over every size both ran at, on the headline input."""
    dist = primary_dist(runs, op)
    top = top_rung(runs, op, dist)
    out = []
    for n in sorted({k[2] for k in runs if k[0] == op and k[3] == dist}):
        a, c = runs.get((op, top, n, dist)), runs.get((op, baseline_slug(op), n, dist))
        fa, fc = (summary(a) if a else None), (summary(c) if c else None)
        if fa and fc:
            out.append((n, fa["time_us"] / fc["time_us"]))
    return top, out


def reps_of(runs, op):
    """The most repetitions any of op's benchmarks in runs has."""
    return max((len(e["reps"]) for k, e in runs.items() if k[0] == op), default=0)


def sweep_table(runs, op):
    """Markdown: GB/s (minimal bytes moved) against n for the versions the sweep ran, at the
    operator's headline input, or None. `runs` holds the sweep and the ladder runs merged, so
    the ladder sizes appear as well."""
    dist = primary_dist(runs, op)
    keys = [k for k in runs if k[0] == op and k[3] == dist]
    sizes = sorted({k[2] for k in keys})
    if len(sizes) < 4:
        return None
    # the versions measured at most sizes (the sweep's), in ladder order
    counts = {}
    for k in keys:
        counts[k[1]] = counts.get(k[1], 0) + 1
    slugs = sorted((s for s, c in counts.items() if c >= len(sizes) - 2), key=ladder_order)
    slugs = slugs[:SWEEP_ROWS_MAX]
    if not slugs:
        return None
    # The last column: the top rung's time over CUB's (bold where the top rung is slower).
    top, cub = top_rung(runs, op, dist), baseline_slug(op)
    ratio_col = top is not None and cub in slugs
    out = ["| n | " + " | ".join(f"`{s}`" for s in slugs)
           + (f" | `{top}` ÷ `{cub}` time" if ratio_col else "") + " |",
           "|--:|" + "--:|" * (len(slugs) + ratio_col)]
    for n in sizes:
        cells = []
        for s in slugs:
            e = runs.get((op, s, n, dist))
            f = summary(e) if e else None
            cells.append(f"{f['gbps']:,.0f}" if f else "—")
        if ratio_col:
            a, c = runs.get((op, top, n, dist)), runs.get((op, cub, n, dist))
            fa, fc = (summary(a) if a else None), (summary(c) if c else None)
            r = fa["time_us"] / fc["time_us"] if fa and fc else None
            cells.append("—" if r is None else f"**{r:.3f}×**" if r > 1 else f"{r:.3f}×")
        out.append(f"| {n:,} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def primary_dist(runs, op):
    """The input an operator's targets are stated on (else its first): its headline figure."""
    dists = sorted({k[3] for k in runs if k[0] == op}, key=lambda d: (d is not None, str(d)))
    for t in TARGETS.get(op, []):
        if t[2] in dists:
            return t[2]
    if "uniform" in dists:  # the suite's headline input, where an operator has it
        return "uniform"
    return dists[0] if dists else None


def phases_table(kernels, steps):
    """Where one pass's warps spend their time, step by step, for several versions side by side:
    `kernels` is a list of (version, path under results/) of `ncu --page source --csv
    --print-source sass` files (scripts/ncu_phases.py; .csv or .csv.gz), `steps` the names of the
    kernel's segments between barriers that executed anything, in order. Each cell is the
    segment's share of the warp instructions executed and of the profiler's warp samples; the
    last rows give, over the whole kernel, the samples of the instruction that waited longest on
    a global load, and the samples by the three stall reasons the chapters discuss. Raises
    ValueError where a kernel's segments do not match `steps`."""
    import collections
    import ncu_phases  # scripts/, beside this package
    cols = []
    for version, path in kernels:
        _, rows = ncu_phases.read(os.path.join(results.ROOT, "results", path))
        total_i = sum(r[1] for r in rows) or 1
        total_s = sum(r[2] for r in rows) or 1
        cells = []
        for a, b in ncu_phases.segments(rows):
            part = rows[a:b]
            ins, smp = sum(r[1] for r in part), sum(r[2] for r in part)
            if ins or smp:
                cells.append(f"{100 * ins / total_i:.1f}% / {100 * smp / total_s:.1f}%")
        if len(cells) != len(steps):
            raise ValueError(f"{path}: {len(cells)} segments that executed, {len(steps)} steps named")
        why = collections.Counter()
        for r in rows:
            why.update(r[3])
        worst = max(r[3].get("long_sb", 0) for r in rows)
        cells.append(f"{100 * worst / total_s:.1f}%")
        cells.append(f"{100 * why['long_sb'] / total_s:.1f}%")
        cells.append(f"{100 * (why['wait'] + why['short_sb']) / total_s:.1f}%")
        cells.append(f"{100 * why['barrier'] / total_s:.1f}%")
        cols.append((version, cells))
    labels = list(steps) + [
        "the one instruction that waited longest on a load (samples)",
        "all steps: waiting on a global load, *long scoreboard* (samples)",
        "all steps: waiting on a dependent instruction or shared memory, *wait* + *short "
        "scoreboard* (samples)",
        "all steps: waiting at a barrier (samples)"]
    out = ["| step: instructions / samples | " + " | ".join(f"`{v}`" for v, _ in cols) + " |",
           "|---|" + "--:|" * len(cols)]
    for i, label in enumerate(labels):
        out.append(f"| {label} | " + " | ".join(c[i] for _, c in cols) + " |")
    return "\n".join(out)
