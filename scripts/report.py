#!/usr/bin/env python3
"""Generate RESULTS.md and the chapter tables from the JSON that cuda-ladder wrote.

    python3 scripts/plots.py             # (matplotlib) draw results/plots/*.png first
    python3 scripts/report.py            # rewrite RESULTS.md and <op>/README.md tables
    python3 scripts/report.py --check    # exit 1 if either differs from what the JSON gives
    python3 scripts/report.py --check --lessons   # and on lab talk in a chapter or header,
                                                  # or a line of 160+ characters with a figure

Reads every results/*.json (Google Benchmark's JSON output, written by
`cuda-ladder --results_dir=results`). It never measures and never invents a number: every
figure printed is taken from, or computed from, those files. Where a benchmark ran with
repetitions, the median aggregate is used.

Standard library only, so CI can run it anywhere.
"""
import argparse
import glob
import gzip
import json
import os
import re
import sys

from ladder_report import lessons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPERATORS = ["reduce", "row_sum", "col_sum", "scan", "sort", "sort_pairs", "gelu_f32", "gelu_f16",
             "fused_f32", "fused_f16", "add_f32", "h2d", "d2h", "host_sum", "pipeline_gelu",
             "copy_if", "histogram", "histogram_u8"]
# The chapter README each operator's tables go into, where it is not <op>/README.md.
CHAPTER = {"row_sum": "reduce", "col_sum": "reduce", "h2d": "elementwise", "d2h": "elementwise",
           "host_sum": "elementwise", "pipeline_gelu": "elementwise", "sort_pairs": "sort", "histogram_u8": "histogram", "gelu_f32": "elementwise", "gelu_f16": "elementwise",
           "fused_f32": "elementwise", "fused_f16": "elementwise", "add_f32": "elementwise"}
# The library baseline's slug, where it is not `cub` (CUB has no column reduction).
BASELINE = {"col_sum": "cublas_gemv", "h2d": "cuda_memcpy", "d2h": "cuda_memcpy"}


def baseline_slug(op):
    return BASELINE.get(op, "cub")


LADDER_SIZE = 25_600_000
LARGE_SIZE = 1 << 28

# Benchmark targets from the issues, checked against the same run:
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
    "scan": [("cub", LARGE_SIZE, None, 0.85)],
    "gelu_f32": [("ceiling", LARGE_SIZE, None, 95.0)],
    "gelu_f16": [("cub", LARGE_SIZE, None, 0.7)],
    "fused_f16": [("ceiling", LARGE_SIZE, "uniform", 90.0),
                  ("vs", LARGE_SIZE, "uniform", 1.0, "cub_unfused")],
    "sort": [("cub", LARGE_SIZE, "uniform", {"nvidia-h200": 0.95, "default": 1.0}),
             ("cub", LARGE_SIZE, "few", 1.0), ("cub", LARGE_SIZE, "sorted", 1.0),
             ("dist", LARGE_SIZE, "few", 1.0, "uniform"),
             ("dist", LARGE_SIZE, "sorted", 1.0, "uniform")],
    "sort_pairs": [("cub", LARGE_SIZE, None, 1.0)],
    "copy_if": [("cub", LARGE_SIZE, "keep50", 0.8), ("unordered", LARGE_SIZE, "keep50", 1.0)],
}
# Rungs that lose the input order (their headers and the registry say so: copy_if/copy_if.cu
# registers them kUnordered). Targets about "the best version" of such an operator mean the best
# order-preserving one; the "unordered" target compares the best of these with it.
UNORDERED = {"copy_if": {"v01_global_atomic", "v02_block_atomic", "v03_warp_aggregated",
                       "v07_pipelined_unordered"}}


def load(path, offsets=False):
    """Returns (context, {(op, slug, n, dist): entry}) for one results file (plain or gzipped
    JSON): the benchmarks on aligned inputs, or with offsets=True those on unaligned views
    (`cuda-ladder --offset=K`, names ending in /offset:K), keyed (op, slug, n, dist, K)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        name = re.sub(r"/manual_time$", "", b.get("run_name", b["name"]))
        m = re.fullmatch(r"([a-z0-9_]+)/([A-Za-z0-9_]+)/n:(\d+)(?:/dist:([a-z0-9_]+))?"
                         r"(?:/offset:(\d+))?", name)
        if not m or (m.group(5) is not None) != offsets:
            continue
        key = (m.group(1), m.group(2), int(m.group(3)), m.group(4))
        if offsets:
            key += (int(m.group(5)),)
        e = runs.setdefault(key, {"reps": [], "median": None, "errors": [],
                                  "link": link_bound_gbps(key[0], data.get("context", {}))})
        if b.get("error_occurred"):
            e["errors"].append(b.get("error_message", "error"))
        elif b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                e["median"] = b
        else:
            e["reps"].append(b)
    return data.get("context", {}), runs


# The host-transfer operators are bound by the host link, not by the GPU's memory: their tables
# show GB/s as a percentage of the link's pinned bandwidth that the same run measured (JSON
# context link_h2d_pinned_gbps, link_d2h_pinned_gbps). pipeline_gelu moves 8 bytes an element
# (4 in, 4 out); with a copy engine per direction its bound is the slower direction carrying 4
# bytes while the other carries its 4 at the same time: 2 x the slower link, in its GB/s.
LINK_OPS = {"h2d": "h2d", "d2h": "d2h", "host_sum": "h2d", "pipeline_gelu": "duplex"}

# The size-sweep targets: the top rung's time over CUB's at every size of the sweep and at the
# ladder sizes, at most this (issue "Every size, every Hopper": within 2%; the sort issue: no
# slower than CUB).
SIZE_LIMIT = {"sort": 1.0, "sort_pairs": 1.0}
SIZE_LIMIT_DEFAULT = 1.02


def link_bound_gbps(op, ctx):
    kind = LINK_OPS.get(op)
    try:
        up, down = float(ctx["link_h2d_pinned_gbps"]), float(ctx["link_d2h_pinned_gbps"])
    except (KeyError, ValueError):
        return None
    if kind is None or up <= 0 or down <= 0:
        return None
    return {"h2d": up, "d2h": down, "duplex": 2 * min(up, down)}[kind]


def summary(entry):
    """The figures quoted for one benchmark: its median run, or its only run."""
    if entry["errors"]:
        return None
    b = entry["median"] or (entry["reps"][0] if len(entry["reps"]) == 1 else None)
    if b is None and entry["reps"]:  # several runs but no aggregate: median by time
        reps = sorted(entry["reps"], key=lambda r: r["real_time"])
        b = reps[len(reps) // 2]
    if b is None:
        return None
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
    return {
        "time_us": b["real_time"] * scale,
        "gbps": b.get("GB/s", 0.0),
        "pct_copy": b.get("pct_copy", 0.0),
        # % of the read ceiling (a streaming read timed at start-up), where the run measured it
        "pct_read": b.get("pct_read"),
        "pct_peak": b.get("pct_peak", 0.0),
        "verified": b.get("verified", 0.0) >= 1.0,
        "max_err": b.get("max_err", 0.0),
        "reps": len(entry["reps"]),
        # % of the host link's bound for the transfer operators (LINK_OPS), else None
        "pct_link": 100 * b.get("GB/s", 0.0) / entry["link"] if entry.get("link") else None,
    }


def fmt_time(us):
    return f"{us:,.0f}" if us >= 10_000 else f"{us:,.1f}" if us >= 10 else f"{us:.2f}"


def fmt_sig(x, digits=3):
    """Large values with thousands separators, small ones with `digits` significant digits."""
    if x >= 10 ** (digits - 1):
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def fmt_ratio(x):
    if x is None:
        return "—"
    return f"{x:,.0f}×" if x >= 100 else f"{x:.2f}×" if x >= 0.01 else f"{x:.2g}×"


def fmt_pct(x):
    return f"{x:.1f}%" if x >= 1 else f"{x:.2g}%"


def size_label(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 and n > 0 else f"{n:,}"


def ladder_order(slug):
    m = re.match(r"v(\d+)_", slug)
    return (0, int(m.group(1)), slug) if m else (1, 0, slug)


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


def is_rung(slug):
    """Rungs are vNN_<name>; anything else (cub, cub_unfused, ...) is a library baseline."""
    return re.match(r"v\d\d_", slug) is not None


def best_rung(figures, exclude=(), only=None):
    rungs = [(f["time_us"], s) for s, f in figures.items()
             if is_rung(s) and f and f["verified"] and s not in exclude
             and (only is None or s in only)]
    return min(rungs) if rungs else None


def dist_label(dist):
    return f", {dist}" if dist else ""


def targets_table(runs, op, gpu_slug=None):
    lines = []
    unordered = UNORDERED.get(op, set())
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
            measured = "`{}`: {} µs vs `{}` {} µs = {:.3f}×".format(
                u[1], fmt_time(u[0]), o[1], fmt_time(o[0]), ratio)
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
            measured = "`{}`: {} µs vs `{}` {} µs = {:.3f}× (`{}` at {}, best at {} of the copy ceiling)".format(
                slug, fmt_time(t), base, fmt_time(figures[base]["time_us"]), ratio, base,
                fmt_pct(figures[base]["pct_copy"]), fmt_pct(figures[slug]["pct_copy"]))
        elif kind == "ceiling":
            goal = f"best ≥ {limit:g}% of the copy ceiling"
            _, figures = op_table(runs, op, n, dist)
            if not figures or not best_rung(figures):
                lines.append(f"| {where} | {goal} | not measured | — |")
                continue
            t, slug = best_rung(figures)
            pct = figures[slug]["pct_copy"]
            measured = "`{}`: {} µs, {}".format(slug, fmt_time(t), fmt_pct(pct))
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
            measured = "`{}`: {} µs vs {} µs = {:.3f}×".format(
                best[1], fmt_time(f["time_us"]), fmt_time(best[0]), ratio)
        lines.append(f"| {where} | {goal} | {measured} | {'met' if ratio <= limit else '**missed**'} |")
    if not lines:
        return None
    return "\n".join(["| where | target | measured (median) | |", "|---|---|---|---|"] + lines)


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
# "L2 write": bytes the kernel stored, counted where they enter the L2; at this size much of
# what it writes is still in the 60 MB L2 when it ends, so "DRAM write" falls short of it.
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
    files = sorted(glob.glob(os.path.join(ROOT, "results", folder, f"{op}__*.csv")))
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
        parts += [f"{heading} Hardware counters (Nsight Compute, `scripts/ncu_counters.sh`, the "
                  "timed launch at its moderate size)", "",
                  "n = 4,194,304 (2^22) or the version's largest; L2 flushed before the kernel; time is "
                  "ncu's duration of the profiled launch (its kernels summed). "
                  "Threads / instr counts active lanes, pred-on threads only those not predicated off. "
                  "Atomics are warp-level instructions; \"L2 write\" is what the kernel stored, "
                  "counted where it enters the L2 (at this size much of it is still in the L2 "
                  "when the kernel ends, so DRAM writes fall short of it).", "", ct, ""]
    return "\n".join(parts).rstrip() + "\n"


# The pictures scripts/plots.py draws per GPU and operator, in the order they are shown.
PICTURES = ("ladder", "steps", "sweep")
# The captions scripts/plots.py writes beside them: {"NAME.png": "what it draws, its GPU, its
# input"}. Shown in italics under each picture report.py embeds, and in a chapter's caption spans
#     <!--caption:sort-vs-cub.png-->…<!--/caption-->
# (a name captions.json lacks is an error there; a missing file means no captions).
CAPTIONS = "results/plots/captions.json"
CAPTION = re.compile(r"<!--caption:([^>\s]+)-->(.*?)<!--/caption-->", re.S)


def captions():
    path = os.path.join(ROOT, CAPTIONS)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def caption_text(text):
    """A caption as one line of markdown in italics."""
    return "*" + " ".join(text.split()).replace("*", "\\*") + "*"


def picture(png, alt, prefix=""):
    """Markdown lines of one embedded picture (a path from the root; `prefix` leads the link
    from the file that embeds it) and its caption in italics under it, where captions.json has
    one."""
    lines = [f"![{alt}]({prefix}{png})", ""]
    text = captions().get(os.path.basename(png))
    if text:
        lines += [caption_text(text), ""]
    return lines


def render_captions(text, errors):
    """text with each caption span filled from captions.json."""
    known = None

    def one(m):
        nonlocal known
        if known is None:
            known = captions()
        if m.group(1) not in known:
            errors.append(f"no caption for {m.group(1)!r} in {CAPTIONS}")
            return m.group(0)
        return (f"<!--caption:{m.group(1)}-->{' '.join(known[m.group(1)].split())}"
                "<!--/caption-->")
    return CAPTION.sub(one, text)


def pictures(gpu_slug, op):
    """The pictures of op that exist, as paths from the repository root: the GPU's ladder and
    sweep, then the top rung ÷ CUB against n (one picture for every GPU)."""
    paths = [f"results/plots/{gpu_slug}-{op}-{kind}.png" for kind in PICTURES]
    paths.append(f"results/plots/{op}-vs-cub.png")
    return [p for p in paths if os.path.exists(os.path.join(ROOT, p))]

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


def results_files():
    """The ladder runs: results/<gpu>[-<group>].json (size sweeps and unaligned runs are kept
    apart)."""
    return sorted(p for p in glob.glob(os.path.join(ROOT, "results", "*.json"))
                  if not is_sweep_file(p) and not is_unaligned_file(p))


def is_unaligned_file(path):
    return "-unaligned" in os.path.basename(path)


def unaligned_files():
    """Runs on unaligned views: results/<gpu>-unaligned*.json (`cuda-ladder --offset=K`)."""
    return sorted(p for p in glob.glob(os.path.join(ROOT, "results", "*.json"))
                  if is_unaligned_file(p))


def unaligned_section(runs, group):
    """Markdown: each version run on an unaligned view beside its time on the aligned input of
    the same size in `runs`, or None."""
    rows = []
    for path, ctx, _ in group:
        _, off = load(path, offsets=True)
        for (op, slug, n, dist, k), entry in sorted(off.items(), key=lambda kv: (
                OPERATORS.index(kv[0][0]) if kv[0][0] in OPERATORS else 99, ladder_order(kv[0][1]),
                kv[0][2], str(kv[0][3]))):
            f = summary(entry)
            a = runs.get((op, slug, n, dist))
            fa = summary(a) if a else None
            ratio = f["time_us"] / fa["time_us"] if f and fa else None
            rows.append("| {} | `{}` | {}{} | {} | {} | {} | {} |".format(
                op, slug, size_label(n), dist_label(dist), k,
                fmt_time(fa["time_us"]) if fa else "—", fmt_time(f["time_us"]) if f else "✗",
                f"{ratio:.3f}" if ratio else "—"))
        first = (path, ctx)
    if not rows:
        return None
    path, ctx = first
    return "\n".join([
        "#### Unaligned input", "",
        f"`results/{os.path.basename(path)}`: commit `{ctx.get('git_commit', '?')}`, command "
        f"`{ctx.get('command_line', '?')}`. The input starts K elements past a 16-byte boundary "
        "(the output stays aligned); the aligned time is the ladder run's above.", "",
        "| operator | version | n | K | aligned (µs) | unaligned (µs) | unaligned ÷ aligned |",
        "|---|---|---|--:|--:|--:|--:|"] + rows) + "\n"


def is_sweep_file(path):
    return "-sweep" in os.path.basename(path)


def sweep_files():
    """Size sweeps: results/<gpu>-sweep*.json (many sizes, few versions; drawn and tabulated,
    not given a table per size)."""
    return sorted(p for p in glob.glob(os.path.join(ROOT, "results", "*.json")) if is_sweep_file(p))


SWEEP_ROWS_MAX = 8  # versions per sweep table


def sweep_for(sweeps, op):
    """The sweep file of one GPU that speaks for `op`: of the files that hold it, the newest run
    (the context's date), so that a later sweep supersedes an earlier one operator by operator.
    Returns (path, context, runs) or None."""
    holding = [g for g in sweeps if any(k[0] == op for k in g[2])]
    return max(holding, key=lambda g: g[1].get("date", "")) if holding else None


def swept_runs(runs, sweeps, op):
    """The ladder runs with op's benchmarks from its sweep file (sweep_for) added: GB/s and the
    ratio to CUB against n."""
    merged = dict(runs)
    g = sweep_for(sweeps, op)
    if g:
        merged.update({k: e for k, e in g[2].items() if k[0] == op})
    return merged


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


def gpu_groups(files):
    """Results files grouped by GPU: {gpu_slug: [(path, context, runs), ...]}, in file-name order.

    One GPU's results may be split over several files (results/nvidia-h200.json,
    results/nvidia-h200-scan.json, ...): a device session runs a few operators per call. Where
    two files hold the same benchmark, the later file name wins."""
    groups = {}
    for path in files:
        ctx, runs = load(path)
        slug = ctx.get("gpu_slug") or os.path.basename(path).split(".")[0]
        if ctx.get("device_index", "0") != "0":  # two cards of one model stay apart
            slug += f"-device{ctx['device_index']}"
        groups.setdefault(slug, []).append((path, ctx, runs))
    return groups


def merged_runs(group):
    runs = {}
    for _, _, r in group:
        runs.update(r)
    return runs


def render_results(files):
    out = ["# Results", "",
           "Generated by `scripts/report.py` from the raw JSON in `results/` that `cuda-ladder` "
           "wrote on each GPU. Do not edit by hand: rerun the benchmark and the script.", "",
           "Time is the median over repetitions of the mean event-timed kernel time per run, L2 "
           "flushed before every iteration. GB/s counts the operator's minimal bytes moved. "
           "\"× previous\" and \"× v00\" are speedups (old time / new time); \"speed vs CUB\" is "
           "CUB's time over the version's (above 1: faster than CUB).", ""]
    sanitizer = sorted(glob.glob(os.path.join(ROOT, "results", "sanitizer-*.md")))
    if sanitizer:
        out += ["compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over the "
                "registered versions: " + ", ".join(
                    f"[results/{os.path.basename(p)}](results/{os.path.basename(p)})"
                    for p in sanitizer)
                + "; versions added after that run are covered by the logs that "
                "[results/README.md](results/README.md) lists.", ""]
    if not files:
        out += ["No results yet: run the benchmark command from README.md on a GPU.", ""]
    sweep_groups = gpu_groups(sweep_files())
    unaligned_groups = gpu_groups(unaligned_files())
    # The GPU with the most operators measured first (the fullest picture), then by name.
    groups = sorted(gpu_groups(files).items(),
                    key=lambda kv: (-len({k[0] for g in kv[1] for k in g[2]}), kv[0]))
    summary_by_size = every_size_section(groups, sweep_groups)
    if summary_by_size:
        out += [summary_by_size]
    for slug, group in groups:
        first_ctx = group[0][1]
        out += [f"## {first_ctx.get('gpu', slug)}", ""]
        if len(group) > 1:
            out += ["The files below are read in name order; where two hold the same benchmark, "
                    "the tables show the later file's (a rerun of some rungs beside a whole "
                    "ladder's run).", ""]
        for path, ctx, runs in group:
            reps = max((len(e["reps"]) for e in runs.values()), default=0)
            ops = sorted({k[0] for k in runs}, key=lambda o: OPERATORS.index(o)
                         if o in OPERATORS else len(OPERATORS))
            out += [f"`results/{os.path.basename(path)}`: " + ", ".join(ops), "",
                    context_table(ctx, reps), ""]
        runs = merged_runs(group)
        sweeps = sweep_groups.get(slug, [])
        for path, ctx, r in sweeps:
            used = [op for op in OPERATORS if (sweep_for(sweeps, op) or (None,))[0] == path]
            out += [f"`results/{os.path.basename(path)}` (size sweep): commit "
                    f"`{ctx.get('git_commit', '?')}`, command `{ctx.get('command_line', '?')}`; "
                    f"timing: {ctx.get('timing', '?')}; shown for: "
                    + (", ".join(used) or "nothing (a later sweep holds its operators)"), ""]
        for op in OPERATORS:
            section = operator_section(runs, op, gpu_slug=slug)
            if section:
                out += [f"### {op}", ""]
                for png in pictures(slug, op):  # drawn by scripts/plots.py
                    out += picture(png, os.path.basename(png)[:-4])
                out += [section.replace("### ", "#### ")]
                swept = swept_runs(runs, sweeps, op)
                st = sweep_table(swept, op) if sweeps else None
                if st:
                    g = sweep_for(sweeps, op)
                    ladder_sizes = sorted({k[2] for k in runs if k[0] == op})
                    out += [f"#### Size sweep: GB/s against n{dist_label(primary_dist(swept, op))}",
                            "", "Rows at " + " and ".join(f"{n:,}" for n in ladder_sizes)
                            + f" come from the ladder run above ({reps_of(runs, op)} repetitions), "
                            f"the others from `results/{os.path.basename(g[0])}` "
                            f"({reps_of(g[2], op)} repetitions, commit "
                            f"`{g[1].get('git_commit', '?')}`): two runs, so a step between "
                            "neighbouring rows can be run-to-run variation.", "", st, ""]
        ua = unaligned_section(runs, unaligned_groups.get(slug, []))
        if ua:
            out += [ua]
    models = models_section(groups)
    if models:
        out += [models]
    across = across_gpus_section(per_gpu_files())
    if across:
        out += [across]
    return "\n".join(out).rstrip() + "\n"


def every_size_section(groups, sweep_groups):
    """Markdown: per GPU and operator with a size sweep, the top rung's time over CUB's at every
    size measured (sweep and ladder runs merged): the worst size and the sizes over the limit."""
    out = ["## Every size: the top rung against CUB", "",
           "From each GPU's size sweep and ladder runs together: the top rung's time over CUB's "
           "at every size measured, on the operator's headline input. Limit: "
           + ", ".join(f"{op} {lim:.2f}×" for op, lim in SIZE_LIMIT.items())
           + f", the others {SIZE_LIMIT_DEFAULT:.2f}×. The top rung is the highest rung the sweep "
           "measured, which can be older than the ladder's best where the sweep predates it "
           "(each section's sweep table names its file and commit).", ""]
    rows = 0
    for slug, group in groups:
        sweeps = sweep_groups.get(slug, [])
        if not sweeps:
            continue
        runs = merged_runs(group)
        gpu = group[0][1].get("gpu", slug)
        table = [f"| {gpu} | top rung | sizes | worst (n) | over the limit |",
                 "|---|---|--:|---|---|"]
        for op in OPERATORS:
            if not sweep_for(sweeps, op):
                continue
            top, ratios = ratio_to_cub(swept_runs(runs, sweeps, op), op)
            if not ratios:
                continue
            limit = SIZE_LIMIT.get(op, SIZE_LIMIT_DEFAULT)
            n_worst, worst = max(ratios, key=lambda nr: nr[1])
            over = [f"{n:,} ({r:.3f}×)" for n, r in ratios if r > limit]
            table.append(f"| {op} | `{top}` | {len(ratios)} | {worst:.3f}× ({n_worst:,}) | "
                         + (", ".join(over) if over else "none") + " |")
            rows += 1
        out += table + [""]
    return "\n".join(out) if rows else ""


def models_section(groups):
    """Markdown: the GPU models of results/ side by side (issue 24): each model's card, each
    operator's best rung and library baseline at 2^28 on its headline input (time and % of that
    card's own copy ceiling), and compare.py's geometric mean of every benchmark both ran, per
    operator. `groups`: [(gpu_slug, group)] as render_results orders them (the fullest first,
    which is the reference). None when fewer than two models have ladder runs."""
    groups = [(slug, g) for slug, g in groups if "-device" not in slug]
    if len(groups) < 2:
        return None
    import compare  # scripts/, beside this file
    names = [g[0][1].get("gpu", slug) for slug, g in groups]
    short = [n.replace("NVIDIA ", "") for n in names]
    out = [f"## GPU models side by side: " + " and ".join(names), "",
           "Each model's ladder runs above (the files its section lists), at "
           f"n = {size_label(LARGE_SIZE)} on each operator's headline input, as time and as % of "
           "that card's own measured copy ceiling. Where the models' files come from different "
           "commits, a row compares the code of those commits (each file's commit is in its "
           "context table above).", ""]
    commits = [sorted({c.get("git_commit", "?") for _, c, _ in g}) for _, g in groups]
    out += ["| | " + " | ".join(short) + " |", "|---|" + "--:|" * len(groups)]
    rows = [("copy ceiling (GB/s)", "copy_ceiling_gbps"), ("theoretical peak (GB/s)", "peak_gbps"),
            ("SMs", "sm_count"), ("L2 (MB)", "l2_bytes"), ("SM clock (MHz)", "sm_clock_mhz"),
            ("memory clock (MHz)", "mem_clock_mhz")]
    for label, key in rows:
        cells = []
        for _, g in groups:
            v = g[0][1].get(key, "?")
            if key == "l2_bytes" and v != "?":
                v = f"{int(v) / 2**20:.0f}"
            cells.append(str(v))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("| commits of its files | " + " | ".join(
        ", ".join(f"`{c}`" for c in cs) for cs in commits) + " |")
    out += [""]
    png = "results/plots/models-pct-copy.png"
    if os.path.exists(os.path.join(ROOT, png)):
        out += picture(png, "best rung, % of each model's copy ceiling")
    merged = [merged_runs(g) for _, g in groups]
    table = ["| operator | version | " + " | ".join(f"{s}: µs (% ceiling)" for s in short) + " | "
             + " | ".join(f"{s} ÷ {short[0]}" for s in short[1:]) + " |",
             "|---|---|" + "--:|" * (2 * len(groups) - 1)]
    shown = 0
    for op in OPERATORS:
        dists = [primary_dist(r, op) for r in merged]
        figs = [op_table(r, op, LARGE_SIZE, d)[1] or {} for r, d in zip(merged, dists)]
        if not all(figs) or len(set(dists)) > 1:
            continue
        slugs = []
        for f in figs:  # each model's own best rung, then the library baseline
            best = best_rung(f, UNORDERED.get(op, set()))
            if best and best[1] not in slugs:
                slugs.append(best[1])
        slugs.append(baseline_slug(op))
        for slug in slugs:
            fs = [f.get(slug) for f in figs]
            cells = [f"{fmt_time(x['time_us'])} ({x['pct_copy']:.1f}%)" if x else "—" for x in fs]
            ratios = [f"{x['time_us'] / fs[0]['time_us']:.3f}×" if x and fs[0] else "—"
                      for x in fs[1:]]
            table.append(f"| {op} | `{slug}` | " + " | ".join(cells + ratios) + " |")
        shown += 1
    if shown:
        out += table + [""]
    # Each model's ladder runs, sweeps and unaligned runs: every results/*.json whose context
    # names the model (a file-name glob could catch another model whose name extends this one's).
    everything = gpu_groups(sorted(glob.glob(os.path.join(ROOT, "results", "*.json"))))

    def every_file(slug):
        return ",".join(p for p, _, _ in everything.get(slug, []))
    _, base, _ = compare.load_many(every_file(groups[0][0]))
    summary_rows = []
    for (slug, _), name in list(zip(groups, short))[1:]:
        _, other, _ = compare.load_many(every_file(slug))
        rows, _ = compare.compare(base, other)
        for op, count, gm in sorted(compare.by_operator(rows), key=lambda r: OPERATORS.index(
                r[0]) if r[0] in OPERATORS else len(OPERATORS)):
            summary_rows.append(f"| {name} ÷ {short[0]} | {op} | {count} | {gm:.3f} |")
    if summary_rows:
        out += ["`scripts/compare.py` over every benchmark both models ran, at every size and "
                "input (each model's ladder runs, sweeps and unaligned runs, later files replacing "
                "earlier ones' benchmarks; by hand: `python3 scripts/compare.py "
                f"'results/{groups[0][0]}-*.json' 'results/{groups[1][0]}-*.json' --by-op`): the "
                "geometric mean of the time ratio per operator (below 1: the second model is "
                "faster).", "",
                "| models | operator | benchmarks | geomean time ratio |",
                "|---|---|--:|--:|"] + summary_rows + [""]
    return "\n".join(out)


def per_gpu_files():
    """The JSON of scripts/run_per_gpu.sh: results/per-gpu/device<N>/<gpu>.json."""
    return sorted(glob.glob(os.path.join(ROOT, "results", "per-gpu", "device*", "*.json")))


def primary_dist(runs, op):
    """The input an operator's targets are stated on (else its first): its headline figure."""
    dists = sorted({k[3] for k in runs if k[0] == op}, key=lambda d: (d is not None, str(d)))
    for t in TARGETS.get(op, []):
        if t[2] in dists:
            return t[2]
    if "uniform" in dists:  # the suite's headline input, where an operator has it
        return "uniform"
    return dists[0] if dists else None


def device_labels(groups):
    """One label per GPU group: the GPU's name, with its device index where two cards of one
    model ran."""
    names = [g[0][1].get("gpu", slug) for slug, g in groups.items()]
    return [f"{name} (device {g[0][1].get('device_index', '0')})" if names.count(name) > 1
            else name for name, g in zip(names, groups.values())]


def across_gpus_section(files):
    """Markdown: the per-GPU run (one process per visible GPU) side by side: per operator, the
    best rung and the library baseline at 2^28 on each device, as time and as % of that device's
    own copy ceiling; then compare.py's ratios of each device against the first. None when fewer
    than two devices ran."""
    groups = gpu_groups(files)
    if len(groups) < 2:
        return None
    import compare  # scripts/, beside this file
    labels = device_labels(groups)
    first_ctx = next(iter(groups.values()))[0][1]
    out = ["## Across GPUs", "",
           "`scripts/run_per_gpu.sh` ran the benchmark once per visible GPU, one process each "
           f"(`cuda-ladder --device=N`), commit `{first_ctx.get('git_commit', '?')}`; raw JSON "
           "in `results/per-gpu/`. Command of the first device: "
           f"`{first_ctx.get('command_line', '?')}`.", ""]
    if os.path.exists(os.path.join(ROOT, "results/plots/gpus-pct-copy.png")):
        out += picture("results/plots/gpus-pct-copy.png", "% of each GPU's copy ceiling")
    out += ["| device | copy ceiling (GB/s) | SMs | SM clock (MHz) |", "|---|--:|--:|--:|"]
    for (slug, group), label in zip(groups.items(), labels):
        c = group[0][1]
        out.append(f"| {label} | {c.get('copy_ceiling_gbps', '?')} | {c.get('sm_count', '?')} | "
                   f"{c.get('sm_clock_mhz', '?')} |")
    out += ["", f"n = {size_label(LARGE_SIZE)}, each operator's headline input; % of the "
            "device's own measured copy ceiling.", "",
            "| operator | version | " + " | ".join(labels) + " |",
            "|---|---|" + "--:|" * len(labels)]
    merged = [merged_runs(g) for g in groups.values()]
    for op in OPERATORS:
        if not all(any(k[0] == op for k in r) for r in merged):
            continue
        figs = [op_table(r, op, LARGE_SIZE, primary_dist(r, op))[1] or {} for r in merged]
        best = best_rung(figs[0], UNORDERED.get(op, set())) if figs[0] else None
        for slug in ([best[1]] if best else []) + [s for s in figs[0] if not is_rung(s)]:
            cells = [f"{fmt_time(f[slug]['time_us'])} ({f[slug]['pct_copy']:.1f}%)"
                     if slug in f and f[slug] else "—" for f in figs]
            out.append(f"| {op} | `{slug}` | " + " | ".join(cells) + " |")
    paths = [g[0][0] for g in groups.values()]
    _, base = compare.load(paths[0])
    out += ["", "`scripts/compare.py` against the first device (every benchmark both ran; "
            "geometric mean of new/old time, and the benchmarks whose change is significant, "
            "two-sided Mann-Whitney U over the repetitions, p < 0.05):", "",
            "| device | benchmarks | geomean change | significant |", "|---|--:|--:|--:|"]
    for path, label in list(zip(paths, labels))[1:]:
        _, other = compare.load(path)
        rows, geomean = compare.compare(base, other)
        if rows:
            out.append(f"| {label} | {len(rows)} | {geomean - 1:+.4f} | "
                       f"{sum(1 for r in rows if r[5])} |")
    return "\n".join(out) + "\n"


def headline(files):
    """Markdown table: per operator, the best rung against CUB and the copy ceiling at 2^28, on
    the H200 where there are H200 results (else the first GPU)."""
    groups = gpu_groups(files)
    group = groups.get("nvidia-h200") or next(iter(groups.values()), None)
    if not group:
        return "No results yet."
    runs = merged_runs(group)
    gpu = group[0][1].get("gpu", "?")
    out = [f"| operator ({gpu}, n = 2^28) | best rung | time (µs) | % copy ceiling | CUB (µs) "
           "| CUB % copy | best ÷ CUB time |", "|---|---|--:|--:|--:|--:|--:|"]
    for op in OPERATORS:
        if op in LINK_OPS:  # bound by the host link, not the GPU's memory: their own section
            continue
        dists = [k[3] for k in runs if k[0] == op and k[2] == LARGE_SIZE]
        if not dists:
            continue
        dist = next((t[2] for t in TARGETS.get(op, []) if t[2] in dists), dists[0])
        _, figures = op_table(runs, op, LARGE_SIZE, dist)
        best = best_rung(figures, UNORDERED.get(op, set())) if figures else None
        cub = figures.get(baseline_slug(op)) if figures else None
        if not best or not cub:
            continue
        t, slug = best
        label = op + (f" ({dist})" if dist else "")
        out.append(f"| [{label}]({CHAPTER.get(op, op)}/README.md) | `{slug}` | {fmt_time(t)} | "
                   f"{fmt_pct(figures[slug]['pct_copy'])} | {fmt_time(cub['time_us'])} | "
                   f"{fmt_pct(cub['pct_copy'])} | {t / cub['time_us']:.3f} |")
    return "\n".join(out)


# Measured figures in the chapters' prose are generated too, so that they cannot drift from the
# JSON: the prose writes
#     <!--fig:time histogram/cub/n:2^28/dist:uniform-->276.0 µs<!--/fig-->
# and report.py rewrites the text between the markers from the results (`--check` fails when it
# differs, so a figure changed by hand fails CI). Kinds: time (µs), pct (of the measured copy
# ceiling), pctread (of the measured read ceiling, where the run has one), gbps, ratio KEY1 KEY2
# (time of the first over the second). A key is a benchmark name
# without /manual_time; n may be written 2^k; /offset:K names a run on an unaligned view. The
# figures come from the H200's results where there are any (else the first GPU's): its ladder
# runs, its size sweeps (report.sweep_for) and its unaligned runs; a key written GPU@key (the
# GPU's slug, as in the results' file names) takes that GPU's instead, and one written FILE@key
# (a path under results/ ending in .json or .json.gz, e.g. a retired run kept in results/logs/)
# takes that one file's, so prose can cite a run of another commit without RESULTS.md using it.
# A span may also name its figure: <!--fig v11_cub_2e10-->1.272×<!--/fig-->, the name defined
# once in the sidecar file figures.txt of the markdown file's folder, one line per name:
#     v11_cub_2e10 = ratio reduce/v11_tiled_loads/n:2^10 reduce/cub/n:2^10
# (`#` starts a comment line). A name used but not defined, defined twice, or defined but used
# by no file of the folder is an error. scripts/figkeys.py turns long spans into named ones.
FIGURE = re.compile(r"<!--fig(?::(\w+) ([^>]*?)| ([A-Za-z0-9_.+]+))-->(.*?)<!--/fig-->")
SIDECAR = "figures.txt"
FIGURE_NAME = re.compile(r"[A-Za-z0-9_.+]+")
FIGURE_KINDS = {"time": 1, "pct": 1, "pctread": 1, "gbps": 1, "ratio": 2}


def figure_key(text):
    m = re.fullmatch(r"([a-z0-9_]+)/([A-Za-z0-9_]+)/n:(2\^\d+|\d+)(?:/dist:([a-z0-9_]+))?"
                     r"(?:/offset:(\d+))?", text)
    if not m:
        raise ValueError(f"not a benchmark key: {text!r}")
    n = 1 << int(m.group(3)[2:]) if m.group(3).startswith("2^") else int(m.group(3))
    key = (m.group(1), m.group(2), n, m.group(4))
    return key + (int(m.group(5)),) if m.group(5) else key


def figure_lookup(files):
    """A function from (figure key, GPU slug or None) to its summary: the named GPU's results, or
    the chapter GPU's (the H200 where there are any, else the first)."""
    groups = gpu_groups(files)
    default = "nvidia-h200" if "nvidia-h200" in groups else next(iter(groups), None)
    cache = {}

    def data(slug):
        if slug not in cache:
            runs = merged_runs(groups[slug]) if slug in groups else {}
            sweeps = gpu_groups(sweep_files()).get(slug, [])
            offsets = {}
            for path, _, _ in gpu_groups(unaligned_files()).get(slug, []):
                offsets.update(load(path, offsets=True)[1])
            cache[slug] = (runs, sweeps, offsets)
        return cache[slug]

    def lookup(key, slug=None):
        if slug and re.search(r"\.json(\.gz)?$", slug):
            path = os.path.join(ROOT, "results", slug)
            if not os.path.exists(path):
                raise ValueError(f"no such results file: results/{slug}")
            e = load(path, offsets=len(key) == 5)[1].get(key)
            return summary(e) if e else None
        runs, sweeps, offsets = data(slug or default)
        e = offsets.get(key) if len(key) == 5 else runs.get(key)
        if e is None and len(key) == 4:
            e = swept_runs({}, sweeps, key[0]).get(key)
        return summary(e) if e else None
    return lookup


# A counters table of one named run anywhere in a chapter's prose (a size or commit other than the
# chapter's own table's): the prose writes
#     <!-- BEGIN generated counters: sort logs/ncu-nvidia-h200-sort-2e25-42c56ee -->
#     <!-- END generated counters -->
# and report.py fills the block with counters_table of that operator over that folder of
# scripts/ncu_counters.sh's CSVs (under results/).
COUNTER_BLOCK = re.compile(r"(<!-- BEGIN generated counters: ([a-z0-9_]+) ([^ >]+) -->)\n"
                           r"(.*?)(<!-- END generated counters -->)", re.S)


def render_counter_blocks(text, errors):
    def one(m):
        op, folder = m.group(2), m.group(3)
        table = counters_table(op, None, folder)
        if table is None:
            errors.append(f"no counters of {op} in results/{folder}")
            return m.group(0)
        return f"{m.group(1)}\n{table}\n{m.group(5)}"
    return COUNTER_BLOCK.sub(one, text)


def read_sidecar(path, label=None):
    """The figure names a folder's sidecar defines: ({name: (kind, "key [key]")}, errors), each
    error naming the file (as `label`, else its path from the root) and line. A missing file
    defines nothing."""
    names, errors, lines = {}, [], {}
    if not os.path.exists(path):
        return names, errors
    rel = label or os.path.relpath(path, ROOT)
    with open(path) as f:
        for i, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"(\S+)\s*=\s*(\w+)\s+(.+)", line)
            if not m or not FIGURE_NAME.fullmatch(m.group(1)):
                errors.append(f"{rel}:{i}: not a figure definition (NAME = KIND KEY [KEY]): "
                              f"{line[:80]!r}")
                continue
            name, kind, keys = m.group(1), m.group(2), " ".join(m.group(3).split())
            if name in names:
                errors.append(f"{rel}:{i}: {name!r} defined twice (first at line {lines[name]})")
                continue
            if FIGURE_KINDS.get(kind) != len(keys.split()):
                errors.append(f"{rel}:{i}: {name!r}: kind {kind!r} with {len(keys.split())} "
                              "key(s) (time, pct, pctread, gbps take one; ratio two)")
            names[name], lines[name] = (kind, keys), i
    return names, errors


def figure_value(kind, keys, lookup):
    """The text a figure span shows: kind (time, pct, pctread, gbps, ratio) of the benchmarks that `keys`
    (a string of one or two keys, each optionally GPU@ or FILE@) name. Raises ValueError."""
    args = keys.split()
    # A key may name its GPU: nvidia-h100-80gb-hbm3@sort/v10_narrow_status/n:2^12/...
    figs = [lookup(figure_key(a.split("@", 1)[-1]), a.split("@", 1)[0] if "@" in a else None)
            for a in args]
    if not all(figs):
        raise ValueError(f"no result for {keys!r}")
    f = figs[0]
    if kind == "time" and len(figs) == 1:
        return f"{fmt_time(f['time_us'])} µs"
    if kind == "pct" and len(figs) == 1:
        return fmt_pct(f["pct_copy"])
    if kind == "pctread" and len(figs) == 1:
        if f["pct_read"] is None:
            raise ValueError(f"no read ceiling in the run of {keys!r}")
        return fmt_pct(f["pct_read"])
    if kind == "gbps" and len(figs) == 1:
        return f"{fmt_sig(f['gbps'])} GB/s"
    if kind == "ratio" and len(figs) == 2:
        return f"{f['time_us'] / figs[1]['time_us']:.3f}×"
    raise ValueError(f"unknown figure {kind} {keys}")


def render_figures(text, lookup, errors, names=None, used=None):
    """text with every figure span's value rendered from the results. A named span
    (<!--fig NAME-->) takes its definition from `names` ({name: (kind, keys)}, read_sidecar);
    the names it uses are added to the set `used` where given."""
    def one(m):
        if m.group(3):  # a named span
            name = m.group(3)
            if used is not None:
                used.add(name)
            if not names or name not in names:
                errors.append(f"figure name {name!r} is not defined (in the folder's {SIDECAR})")
                return m.group(0)
            kind, keys = names[name]
            head = f"<!--fig {name}-->"
        else:
            kind, keys = m.group(1), m.group(2)
            head = f"<!--fig:{kind} {keys}-->"
        try:
            value = figure_value(kind, keys, lookup)
        except ValueError as e:
            msg = str(e)
            if msg.startswith("unknown figure") and not m.group(3):
                msg = f"unknown figure {m.group(0)[:80]!r}"
            errors.append(msg + (f" (figure {m.group(3)!r})" if m.group(3) else ""))
            return m.group(0)
        return f"{head}{value}<!--/fig-->"
    return FIGURE.sub(one, text)


def render_readme(path, files, text=None):
    if text is None:
        with open(path) as f:
            text = f.read()
    begin, end = "<!-- BEGIN generated headline -->", "<!-- END generated headline -->"
    if begin not in text or end not in text:
        return text
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + headline(files) + "\n" + end + tail


def render_chapter(path, op, files, text=None):
    """The chapter README (or `text`, its version so far) with op's generated block replaced."""
    if text is None:
        with open(path) as f:
            text = f.read()
    begin, end = f"<!-- BEGIN generated results: {op} -->", f"<!-- END generated results: {op} -->"
    if begin not in text or end not in text:
        return text
    groups = gpu_groups(files)
    # The H200's results where there are any, otherwise the first GPU's; within that GPU, the
    # file that holds this operator.
    group = groups.get("nvidia-h200") or next(iter(groups.values()), None)
    holder = None
    if group:
        holder = next((g for g in reversed(group) if any(k[0] == op for k in g[2])), None)
    if holder is None:
        body = "No results for this operator yet."
    else:
        hpath, ctx, runs = holder
        shown = pictures(ctx.get("gpu_slug", ""), op)
        pics = "".join(line + "\n" for p in shown
                       for line in picture(p, os.path.basename(p)[:-4], "../"))
        known = captions()
        if any(os.path.basename(p) in known for p in shown):
            about = "The pictures (`scripts/plots.py`) say under each what they draw.\n\n"
        else:
            about = ("The pictures (`scripts/plots.py`): each version's time at the two ladder "
                     "sizes; GB/s against n for the versions the size sweep measured (both axes "
                     "logarithmic); the top rung's time over CUB's against n.\n\n")
        read = (f", read ceiling {ctx['read_ceiling_gbps']} GB/s" if "read_ceiling_gbps" in ctx
                else "")
        body = (f"Measured on {ctx.get('gpu', '?')} (copy ceiling {ctx.get('copy_ceiling_gbps', '?')} "
                f"GB/s{read}), from `results/{os.path.basename(hpath)}`; generated by "
                f"`scripts/report.py`, see RESULTS.md for the full context (the commit, the "
                "command, the software). " + about + pics
                + (operator_section(runs, op, "####", ctx.get("gpu_slug"))
                   or "No results for this operator yet.\n"))
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body.rstrip() + "\n" + end + tail


def lab_notes_files():
    """The operators' lab notes, <op>/LAB_NOTES.md: rendered like the chapters (figure spans,
    counter blocks), never given a results block."""
    return sorted(glob.glob(os.path.join(ROOT, "*", "LAB_NOTES.md")))


def render_all(files, errors):
    """{path: text} of every file report.py writes: RESULTS.md, README.md's headline, each
    chapter's generated block, and the figure spans and counter blocks of README.md, the chapters
    and the lab notes. Appends to `errors` what could not be rendered."""
    outputs = {os.path.join(ROOT, "RESULTS.md"): render_results(files)}
    readme = os.path.join(ROOT, "README.md")
    if os.path.exists(readme):
        outputs[readme] = render_readme(readme, files)
    for op in OPERATORS:
        chapter = os.path.join(ROOT, CHAPTER.get(op, op), "README.md")
        if os.path.exists(chapter):
            outputs[chapter] = render_chapter(chapter, op, files, outputs.get(chapter))
    for path in lab_notes_files():
        with open(path) as f:
            outputs[path] = f.read()
    lookup = figure_lookup(files)
    # Each folder's figure names (its sidecar), and the names its files use.
    sidecars = {os.path.join(ROOT, SIDECAR)} | set(glob.glob(os.path.join(ROOT, "*", SIDECAR)))
    sidecars |= {os.path.join(os.path.dirname(p), SIDECAR) for p in outputs}
    defined, used = {}, {}
    for sidecar in sorted(sidecars):
        defined[sidecar], found = read_sidecar(sidecar)
        used[sidecar] = set()
        errors += found
    for path in list(outputs):
        if path != os.path.join(ROOT, "RESULTS.md"):
            found, sidecar = [], os.path.join(os.path.dirname(path), SIDECAR)
            outputs[path] = render_figures(outputs[path], lookup, found, defined[sidecar],
                                           used[sidecar])
            outputs[path] = render_counter_blocks(outputs[path], found)
            outputs[path] = render_captions(outputs[path], found)
            errors += [f"{os.path.relpath(path, ROOT)}: {e}" for e in found]
    for sidecar in sorted(sidecars):
        for name in sorted(set(defined[sidecar]) - used[sidecar]):
            errors.append(f"{os.path.relpath(sidecar, ROOT)}: {name!r} is defined but no file "
                          "of its folder uses it")
    return outputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if RESULTS.md or a chapter table is out of date")
    ap.add_argument("--lessons", action="store_true",
                    help="fail when a chapter or version header holds lab talk (a commit hash, a "
                    "probe file name, 'session', 'seed 00N') or a line with a figure span is "
                    "160 characters or longer; also on with LADDER_LESSONS=1. Without it the "
                    "findings are only counted")
    args = ap.parse_args()
    files, errors = results_files(), []
    outputs = render_all(files, errors)
    if errors:
        print("report.py: error: " + "; ".join(errors), file=sys.stderr)
        return 1
    stale = []
    for path, text in outputs.items():
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(os.path.relpath(path, ROOT))
            if not args.check:
                with open(path, "w") as f:
                    f.write(text)
    # The lesson check reads the files as they now are (written above unless --check); the
    # line-length check reads what report.py makes of them.
    found = lessons.check_lessons(ROOT)
    long_lines = lessons.long_span_lines({os.path.relpath(p, ROOT): t for p, t in outputs.items()
                                          if p != os.path.join(ROOT, "RESULTS.md")})
    enforce = lessons.enforced(args.lessons)
    if found and enforce:
        print("lab talk in the lesson (move it to the operator's LAB_NOTES.md):")
        for line in lessons.format_findings(found):
            print("  " + line)
    if long_lines and enforce:
        print(f"lines with a figure span of {lessons.LINE_LIMIT} characters or more (rewrap; "
              "scripts/figkeys.py names long spans):")
        for line in lessons.format_findings(long_lines):
            print("  " + line)
    if (found or long_lines) and not enforce:
        print(f"lessons: {len(found)} findings of lab talk in chapters and version headers, "
              f"{len(long_lines)} lines with a figure span of {lessons.LINE_LIMIT} characters or "
              "more (not enforced; --lessons or LADDER_LESSONS=1 lists them and fails)")
    failed_lessons = bool(found or long_lines) and enforce
    if args.check:
        if stale:
            print("out of date (run python3 scripts/report.py): " + ", ".join(stale))
            for path, text in outputs.items():  # the first line that differs, per file
                old = open(path).read().splitlines() if os.path.exists(path) else []
                for i, (a, b) in enumerate(zip(old + [""] * len(text), text.splitlines())):
                    if a != b:
                        print(f"  {os.path.relpath(path, ROOT)}:{i + 1}: has {a[:110]!r}\n"
                              f"  {' ' * len(os.path.relpath(path, ROOT))}  want {b[:110]!r}")
                        break
        if stale or failed_lessons:
            print("0 passed, 1 failed")
            return 1
        print("1 passed, 0 failed")
    else:
        print("wrote " + (", ".join(stale) if stale else "nothing (already up to date)"))
    return 1 if failed_lessons else 0


if __name__ == "__main__":
    sys.exit(main())
