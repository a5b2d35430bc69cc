#!/usr/bin/env python3
"""Draw the results as pictures (matplotlib), from the same JSON that report.py reads.

    python3 scripts/plots.py [FILE.json ...]      # default: the frozen runs -> results/plots/

By default the pictures come from the frozen runs that results/MANIFEST.json names; a reader's
own runs (results/*.json that it does not name) are drawn apart, into results/plots/yours/, so
that a run of your own never redraws the pictures the chapters embed.

Per GPU and operator:
  <gpu>-<op>-ladder.png  each version's time at the ladder size and at 2^28 (log scale), the
                         time the measured copy ceiling needs for the same bytes and CUB's time
                         as vertical lines, and the % of the copy ceiling written on each bar
                         (the host-transfer operators: the host link's measured bound instead);
  <gpu>-<op>-steps.png   each version's % of the measured copy ceiling at 2^28 on a linear axis
                         (CUB marked apart), and beside it the last rungs close up, each with the
                         points it gained over the rung before: the few-per-cent steps that a log
                         axis hides; where the file has the read ceiling's counter (pct_read),
                         the read-only operators show it as well;
  <gpu>-<op>-sweep.png   where a size sweep ran (four sizes or more): GB/s against n, both axes
                         logarithmic, for the versions the sweep measured, with the n at which
                         the bytes moved fill the L2 marked;
  (the ladder and steps pictures draw a rung of yours, one the results file's context lists
  under "yours" (README.md, "Write your own rung"), in its own colour, labelled "(yours)")
and per operator, across GPUs:
  <op>-vs-cub.png        the top rung's time over CUB's against n (report.ratio_to_cub), one
                         line per GPU and a line at 1.0: below it the rung is faster; where the
                         top rung dispatches by size (DISPATCH), the rungs it dispatches to or
                         replaced are marked at the two ladder sizes, from the ladder runs;
and, asked for with --closeup FILE --name NAME (a closeup kept in results/logs/, many sizes):
  NAME-<op>.png          each version's time over CUB's against n, one line per version and
                         input, from that one file (a chapter's picture of a crossover);
and across GPUs, where results of two or more GPUs exist:
  models-pct-copy.png    the best rung's % of each GPU model's own copy ceiling, per operator
                         both models ran at 2^28 (the ladder runs in results/);
  gpus-pct-copy.png      the same for scripts/run_per_gpu.sh's run (one process per card).

Every picture drawn gets a one-sentence caption (what it draws, the GPU, the input, the sizes,
the repetitions, the L2 flush) in captions.json beside the PNGs, {png name: caption}; a run
keeps the captions of pictures it did not draw (a closeup) while their PNGs exist.

Then run report.py: RESULTS.md shows every picture that exists. Nothing is measured here; every
value drawn is read from the JSON (report.load / report.summary).
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

try:
    import matplotlib  # noqa: E402
    HAVE_MATPLOTLIB = True
except ImportError:  # --help still works; drawing says what is missing (main)
    HAVE_MATPLOTLIB = False

if HAVE_MATPLOTLIB:
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
    from matplotlib.lines import Line2D  # noqa: E402
    from matplotlib.patches import Patch  # noqa: E402
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

PLOTS = os.path.join(report.ROOT, "results", "plots")
CAPTIONS = "captions.json"

RUNG, BASE = "#4c72b0", "#dd8452"  # bar colours: a rung, a library baseline
# A rung of yours (README.md, "Write your own rung"): one the results file's context lists under
# "yours" (cuda-ladder writes the rungs registered in <op>/mine.inc there), drawn in this colour
# and labelled "(yours)" until it is moved into the ladder and run again.
YOURS = "#2ca02c"
# The operators that only read their input (a sum or a count comes out): the copy ceiling,
# measured with a copy (read + write), is not their speed of light, and they can pass it.
READ_ONLY = {"reduce", "row_sum", "col_sum", "histogram", "histogram_u8"}
# An operator's input where its results carry no /dist: name: the first of its registered
# distributions (scan/scan_host.cpp: small_signed; the others' first is uniform).
DEFAULT_INPUT = {"scan": "small_signed"}
# Operators whose bytes counter adds up several passes over the data (sort.cu: 4 passes of an
# 8-bit-digit radix sort, each a read and a write of the keys, and of the values for pairs).
PASSES = {"sort": 4, "sort_pairs": 4}
# Top rungs that dispatch by size, and the rungs they dispatch to or replaced (by number): the
# vs-CUB picture marks those at the ladder sizes where the ladder run measured them.
DISPATCH = {"reduce": ("v12", ("v10", "v11")),
            "scan": ("v16", ("v13", "v14", "v15")),
            "copy_if": ("v08", ("v05", "v06", "v07")),
            "sort": ("v12", ("v06", "v10", "v11")),
            "sort_pairs": ("v12", ("v06", "v10", "v11"))}


def yours_slugs(ctx, op):
    """The slugs of op's rungs of yours, from the context's "yours" ("reduce/v13_x,scan/v17_y")."""
    names = [n.strip() for n in str((ctx or {}).get("yours", "")).split(",") if n.strip()]
    return {n.split("/", 1)[1] for n in names if n.split("/", 1)[0] == op and "/" in n}


def colour_of(slug, yours):
    """A bar's colour: yours, a rung of the ladder, or a library baseline."""
    if slug in yours:
        return YOURS
    return RUNG if report.is_rung(slug) else BASE


def label_of(slug, yours):
    return f"{slug} (yours)" if slug in yours else slug


# --- words for the captions --------------------------------------------------------------------

def input_name(op, dist):
    return f"{dist or DEFAULT_INPUT.get(op, 'uniform')} input"


def input_words(op, dists, runs, keys, ctx):
    """The input, the repetitions and the L2 flush, for a caption's brackets."""
    names = [input_name(op, d) for d in dists]
    if len(names) > 1:
        names = [and_list([n.removesuffix(" input") for n in names]) + " inputs"]
    return "; ".join([names[0],
                      reps_words(reps_by_size(runs, keys)), flush_words(ctx or {})])


def sizes_words(sizes):
    sizes = sorted(sizes)
    if len(sizes) <= 2:
        return " and ".join(report.size_label(n) for n in sizes)
    first, last = report.size_label(sizes[0]), report.size_label(sizes[-1])
    return f"{len(sizes)} sizes from {first} to {last}"


def reps_words(reps_by_n):
    """'median of 5 repetitions', or where sizes differ, the usual count and the exceptions."""
    counts = {}
    for n, r in reps_by_n.items():
        counts.setdefault(r, []).append(n)
    if not counts:
        return "median of the repetitions"
    common = max(counts, key=lambda r: (len(counts[r]), r))
    words = f"median of {common} repetitions" if common != 1 else "one run"
    for r, ns in sorted(counts.items()):
        if r != common:
            words += f", {r} at {' and '.join(report.size_label(n) for n in sorted(ns))}"
    return words


def reps_by_size(runs, keys):
    return {k[2]: max(len(runs[k]["reps"]), 1) for k in keys if k in runs}


def flush_words(ctx):
    flush = ctx.get("l2_flush")
    return f"L2 flushed: {flush}" if flush else "L2 flush not recorded"


def per_gpu_words(by_gpu):
    """{gpu: words} as one phrase: the words once where every GPU's are the same, else each
    GPU's own, named ('<gpu>: <words>; <gpu>: <words>')."""
    if len(set(by_gpu.values())) <= 1:
        return next(iter(by_gpu.values()), "")
    return "; ".join(f"{gpu}: {w}" for gpu, w in by_gpu.items())


def and_list(names):
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- shared drawing ----------------------------------------------------------------------------

def time_label(us, _pos=None):
    """A time in µs as a tick label: 200 µs, 1.5 ms, 2 s."""
    for scale, unit in ((1e6, "s"), (1e3, "ms"), (1.0, "µs")):
        if us >= scale or unit == "µs":
            return f"{us / scale:g} {unit}"


def time_axis(ax):
    """A log time axis whose tick labels never crowd: major ticks only (at powers of ten, or at
    1 and 3, or 1, 2 and 5 times them as the axis spans fewer decades), labelled as times (µs,
    ms, s)."""
    lo, hi = ax.get_xlim()
    decades = math.log10(hi / lo) if lo > 0 and hi > lo else 1
    subs = ((1.0,) if decades > 3 else (1.0, 3.0) if decades > 1.8 else (1.0, 2.0, 5.0)
            if decades > 0.6 else (1.0, 1.5, 2.0, 3.0, 5.0, 7.0))
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=subs))
    ax.xaxis.set_major_formatter(FuncFormatter(time_label))
    ax.xaxis.set_minor_formatter(NullFormatter())


def ceiling_words(op):
    if op in READ_ONLY:
        return ("copy ceiling: the same bytes at the measured copy's GB/s (read + write); "
                "a read-only rung can pass it")
    return "copy ceiling: the same bytes at the measured copy's GB/s (read + write)"


def chosen_run(entry):
    """The benchmark run report.summary quotes (median, only run, or middle run by time)."""
    if entry["errors"]:
        return None
    b = entry["median"] or (entry["reps"][0] if len(entry["reps"]) == 1 else None)
    if b is None and entry["reps"]:
        b = sorted(entry["reps"], key=lambda r: r["real_time"])[len(entry["reps"]) // 2]
    return b


def pct_read(runs, key):
    """The % of the read ceiling (counter pct_read) of one benchmark, or None where the run
    has no such counter (files written before the harness measured a read ceiling)."""
    e = runs.get(key)
    b = e and chosen_run(e)
    return b.get("pct_read") if b else None


# --- the pictures ------------------------------------------------------------------------------

def ladder_figure(runs, op, gpu, path, ctx=None):
    """Each version's time at the two ladder sizes; returns the caption, or None if not drawn."""
    dist = report.primary_dist(runs, op)
    sizes = [n for n in (report.LADDER_SIZE, report.LARGE_SIZE)
             if any(k[0] == op and k[2] == n and k[3] == dist for k in runs)]
    if not sizes:
        return None
    link = op in report.LINK_OPS
    rows = max(len({k[1] for k in runs if k[0] == op and k[2] == n and k[3] == dist})
               for n in sizes)
    fig, axes = plt.subplots(1, len(sizes), squeeze=False,
                             figsize=(max(8.5, 6.5 * len(sizes)), 0.42 * rows + 2.4))
    handles = {}
    read_drawn = False
    yours = yours_slugs(ctx, op)
    for ax, n in zip(axes[0], sizes):
        _, figures = report.op_table(runs, op, n, dist)
        slugs = [s for s in sorted(figures, key=report.ladder_order) if figures[s]]
        times = [figures[s]["time_us"] for s in slugs]
        pcts = [(figures[s]["pct_link"] or 0) if link else figures[s]["pct_copy"] for s in slugs]
        colors = [colour_of(s, yours) for s in slugs]
        y = range(len(slugs))
        ax.barh(y, times, color=colors)
        ax.set_yticks(list(y), [label_of(s, yours) for s in slugs], fontsize=8)
        if yours & set(slugs):
            handles["your rung (scripts/new_rung.py)"] = Patch(color=YOURS)
        ax.invert_yaxis()
        ax.set_xscale("log")
        for yi, t, p in zip(y, times, pcts):
            ax.text(t, yi, f" {report.fmt_pct(p)}", va="center", fontsize=7,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
        # the bound's time for these bytes: time x pct / 100 (every version moves the same bytes)
        ref = next(((t, p) for t, p in zip(times, pcts) if p > 0), None)
        if ref:
            h = ax.axvline(ref[0] * ref[1] / 100, color="black", linestyle="--", linewidth=1)
            handles["host link's measured pinned bound for the same bytes" if link
                    else ceiling_words(op)] = h
        reads = [(figures[s]["time_us"], pct_read(runs, (op, s, n, dist))) for s in slugs]
        ref = next(((t, p) for t, p in reads if p), None)
        if ref and op in READ_ONLY:
            read_drawn = True
            h = ax.axvline(ref[0] * ref[1] / 100, color="#555555", linestyle="-.", linewidth=1)
            handles["read ceiling: the same bytes at the measured streaming read's GB/s"] = h
        base = report.baseline_slug(op)
        if figures.get(base):
            h = ax.axvline(figures[base]["time_us"], color=BASE, linestyle=":", linewidth=1.5)
            handles[f"{base}'s time"] = h
        lo = min(times + [ref_line.get_xdata()[0] for ref_line in ax.get_lines()])
        ax.set_xlim(lo / 1.3, max(times) * 2.2)  # room for the bar labels
        time_axis(ax)
        ax.set_xlabel("time (log scale)")
        ax.set_title(f"n = {report.size_label(n)}{report.dist_label(dist)}", fontsize=10)
    what = "% of the host link's measured bound" if link else "% of the measured copy ceiling"
    fig.suptitle(f"{gpu}: {op} ladder (bar label: {what})", fontsize=11)
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=1, fontsize=8,
               frameon=False)
    fig.tight_layout(rect=(0, (0.17 * len(handles) + 0.1) / fig.get_figheight(), 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    keys = [k for k in runs if k[0] == op and k[2] in sizes and k[3] == dist]
    bound = ("the time the host link's measured pinned bandwidth needs for the same bytes"
             if link else "the time the measured copy ceiling needs for the same bytes")
    if read_drawn:
        bound += " and the time the measured streaming read needs for them (the read ceiling)"
    return (f"{gpu}, {op}: each version's time at n = {sizes_words(sizes)} on a log axis, beside "
            f"{report.baseline_slug(op)}'s time and {bound}, each bar labelled with its {what} "
            f"({input_words(op, [dist], runs, keys, ctx)}).")


def steps_figure(runs, op, gpu, path, ctx=None):
    """Each version's % of the copy ceiling at 2^28 on a linear axis, and the last rungs close
    up; returns the caption, or None where 2^28 did not run (or the operator is a transfer)."""
    if op in report.LINK_OPS:
        return None
    n = report.LARGE_SIZE
    dist = report.primary_dist(runs, op)
    _, figures = report.op_table(runs, op, n, dist)
    if not figures:
        return None
    slugs = [s for s in sorted(figures, key=report.ladder_order)
             if figures[s] and figures[s]["pct_copy"] > 0]
    rungs = [s for s in slugs if report.is_rung(s)]
    if not rungs:
        return None
    pct = {s: figures[s]["pct_copy"] for s in slugs}
    reads = ({s: pct_read(runs, (op, s, n, dist)) for s in slugs} if op in READ_ONLY else {})
    reads = {s: r for s, r in reads.items() if r}
    base = report.baseline_slug(op)
    best = max(pct[s] for s in rungs)
    # the close-up: the rungs within a quarter of the best one's figure, and the baseline
    close = [s for s in slugs if pct[s] >= 0.75 * best and (report.is_rung(s) or s == base)]
    if base in pct and base not in close:
        close.append(base)
    close.sort(key=report.ladder_order)
    yours = yours_slugs(ctx, op)
    fig, (ax, az) = plt.subplots(1, 2, figsize=(13, 0.34 * len(slugs) + 2.6),
                                 gridspec_kw={"width_ratios": [1.15, 1]})
    # left: every version, bars from zero
    y = list(range(len(slugs)))
    h = 0.38 if reads else 0.75
    ax.barh([yi - (h / 2 if reads else 0) for yi in y], [pct[s] for s in slugs], h,
            color=[colour_of(s, yours) for s in slugs],
            hatch=None, edgecolor="white")
    for yi, s in zip(y, slugs):
        if not report.is_rung(s):
            ax.patches[yi].set_hatch("//")
        ax.text(pct[s], yi - (h / 2 if reads else 0), f" {report.fmt_pct(pct[s])}", va="center",
                fontsize=7, bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
    if reads:
        ax.barh([yi + h / 2 for yi in y if slugs[yi] in reads],
                [reads[s] for s in slugs if s in reads], h, color="#8fa8d6")
    ax.axvline(100, color="black", linestyle="--", linewidth=1)
    ax.set_yticks(y, [label_of(s, yours) for s in slugs], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(max(pct.values()), max(reads.values(), default=0), 100) * 1.15)
    ax.set_xlabel("% of the measured copy ceiling (linear)")
    ax.set_title(f"every version, n = {report.size_label(n)}{report.dist_label(dist)}",
                 fontsize=10)
    # right: the last rungs as dots, with the points each gained over the rung before
    prev_of = {}
    for a, b in zip(rungs, rungs[1:]):
        prev_of[b] = a
    yz = list(range(len(close)))
    for yi, s in zip(yz, close):
        rung = report.is_rung(s)
        az.plot([pct[s]], [yi], marker="o" if rung else "D", markersize=7,
                color=colour_of(s, yours), linestyle="none")
        label = f"  {report.fmt_pct(pct[s])}"
        if rung and s in prev_of:
            # the difference of the figures as printed, so that the labels add up
            step = round(pct[s], 1) - round(pct[prev_of[s]], 1)
            # a true minus sign, on white: a hyphen under the 100% line reads as a plus
            label += f"  ({step:+.1f} over {prev_of[s].split('_')[0]})".replace("-", "\u2212")
        az.annotate(label.strip(), (pct[s], yi), xytext=(7, 0), textcoords="offset points",
                    va="center", fontsize=8, zorder=3,
                    bbox=dict(facecolor="white", edgecolor="none", pad=0.5))
        if s in reads:
            az.plot([reads[s]], [yi], marker="o", markersize=7, markerfacecolor="none",
                    color="#8fa8d6", linestyle="none")
    if base in close:
        az.axvline(pct[base], color=BASE, linestyle=":", linewidth=1.2)
    values = [pct[s] for s in close] + [reads[s] for s in close if s in reads]
    lo, hi = min(values), max(values)
    pad = max(1.0, 0.08 * (hi - lo))
    right = hi + pad + 0.5 * max(hi - lo, 4)  # room for the dots' labels
    az.set_xlim(lo - pad, right)
    if lo - pad < 100 < right:
        az.axvline(100, color="black", linestyle="--", linewidth=1)
    az.set_yticks(yz, [label_of(s, yours) for s in close], fontsize=8)
    az.set_ylim(len(close) - 0.5, -0.5)
    az.grid(axis="x", color="#dddddd", linewidth=0.6)
    az.set_axisbelow(True)
    az.set_xlabel("% of the measured copy ceiling (linear, not from 0)")
    az.set_title("the last rungs close up\n(in brackets: points gained over the rung before)",
                 fontsize=10)
    handles = [Patch(color=RUNG, label="rung"),
               Patch(facecolor=BASE, hatch="//", edgecolor="white", label="library baseline")]
    if yours & set(slugs):
        handles.append(Patch(color=YOURS, label="your rung (scripts/new_rung.py)"))
    if reads:
        handles.append(Patch(color="#8fa8d6", label="% of the measured read ceiling"))
    handles.append(Line2D([], [], color="black", linestyle="--", label=ceiling_words(op)))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8,
               frameon=False)
    fig.suptitle(f"{gpu}: {op}, each version's % of the copy ceiling at n = "
                 f"{report.size_label(n)}", fontsize=11)
    fig.tight_layout(rect=(0, 0.35 / fig.get_figheight(), 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    keys = [(op, s, n, dist) for s in slugs]
    also = " and of the measured read ceiling" if reads else ""
    return (f"{gpu}, {op}: each version's % of the measured copy ceiling{also} at n = "
            f"{report.size_label(n)} on a linear axis, library baselines hatched, and beside it "
            f"the rungs within a quarter of the best with {base}, each with the points it gained "
            f"over the rung before ({input_words(op, [dist], runs, keys, ctx)}).")


def l2_size_n(runs, op, l2_bytes):
    """The n at which the bytes one pass of op reads and writes (its bytes counter over PASSES)
    equal the L2's size: for a read-only operator its input, for a one-pass one input and output
    together."""
    dist = report.primary_dist(runs, op)
    e = next((runs[k] for k in runs if k[0] == op and k[3] == dist), None)
    f = e and (e["median"] or (e["reps"][0] if e["reps"] else None))
    if l2_bytes and f and f.get("bytes") and f.get("n"):
        return l2_bytes / (f["bytes"] / f["n"] / PASSES.get(op, 1))
    return None


def l2_moved(op):
    return ("input bytes" if op in READ_ONLY else "bytes one pass reads + writes"
            if op in PASSES else "bytes read + written")


def l2_words(l2_bytes, op):
    return f"{l2_moved(op)} = its L2 size ({l2_bytes / 2**20:.0f} MiB)"


def sweep_figure(runs, op, gpu, l2_bytes, path, ctx=None):
    dist = report.primary_dist(runs, op)
    sizes = sorted({k[2] for k in runs if k[0] == op and k[3] == dist})
    if len(sizes) < 4:
        return None
    _, large = report.op_table(runs, op, max(sizes), dist)
    best = report.best_rung(large, report.UNORDERED.get(op, set())) if large else None
    # the versions measured at most sizes (the sweep's), in ladder order, CUB last
    counts = {}
    for k in runs:
        if k[0] == op and k[3] == dist:
            counts[k[1]] = counts.get(k[1], 0) + 1
    base = report.baseline_slug(op)
    chosen = sorted((s for s, c in counts.items() if c >= len(sizes) - 2 and s != base),
                    key=report.ladder_order) + ([base] if base in counts else [])
    if best and best[1] not in chosen:
        chosen.insert(-1, best[1])
    fig, ax = plt.subplots(figsize=(8, 5))
    drawn, keys = [], []
    for slug in dict.fromkeys(chosen):
        xs, ys = [], []
        for n in sizes:
            e = runs.get((op, slug, n, dist))
            f = report.summary(e) if e else None
            if f:
                xs.append(n)
                ys.append(f["gbps"])
                keys.append((op, slug, n, dist))
        if xs:
            ax.plot(xs, ys, marker="o", markersize=3, label=slug)
            drawn.append(slug)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s (minimal bytes moved, log scale)")
    n_l2 = l2_size_n(runs, op, l2_bytes)
    if n_l2:
        ax.axvline(n_l2, color="gray", linestyle="--", label=f"{gpu}: {l2_words(l2_bytes, op)}")
    ax.legend(fontsize=8)
    ax.set_title(f"{gpu}: {op} size sweep{report.dist_label(dist)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    l2 = (f", with a dashed line at the n whose {l2_moved(op).replace(' + ', ' and ')} equal "
          f"the GPU's {l2_bytes / 2**20:.0f} MiB L2" if n_l2 else "")
    partial = {s: [n for n in sizes if (op, s, n, dist) in keys] for s in drawn}
    drawn = [s if len(ns) >= len(sizes) - 2
             else f"{s} (at {and_list([report.size_label(n) for n in ns])} only)"
             for s, ns in partial.items()]
    return (f"{gpu}, {op}: GB/s against n ({sizes_words(sizes)}) for "
            f"{and_list(drawn)}{l2} ({input_words(op, [dist], runs, keys, ctx)}).")


def finish_ratio_figure(fig, ax, title, path, legend_below=False):
    """The axes every time-over-CUB's picture shares (log2 n, a line at 1.0), then saved."""
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("time ÷ CUB's time (below 1: faster than CUB)")
    ax.set_title(title, fontsize=10)
    if legend_below:
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2,
                  frameon=False)
    else:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90, bbox_inches="tight")  # the whole legend, however long its labels
    plt.close(fig)
    return True


def vs_cub_figure(lines, op, l2_lines, path, marks=(), words=None):
    """lines: [(gpu, top rung slug, [(n, ratio)])], one per GPU; l2_lines: [(gpu, n, L2
    bytes)]; marks: [(gpu, rung slug, [(n, ratio)])] from the ladder runs, the rungs a
    dispatching top rung dispatches to or replaced; words: {gpu: the input's words} for the
    caption (only the GPUs drawn are named)."""
    lines = [ln for ln in lines if len(ln[2]) >= 4]
    if not lines:
        return None
    gpus = list(dict.fromkeys([ln[0] for ln in lines]))
    words = per_gpu_words({g: w for g, w in (words or {}).items() if g in gpus})
    color = {g: f"C{i}" for i, g in enumerate(gpus)}
    fig, ax = plt.subplots(figsize=(8.5, 5.6 if marks else 5))
    for gpu, slug, points in lines:
        ax.plot([n for n, _ in points], [r for _, r in points], marker="o", markersize=3,
                color=color[gpu], label=f"{gpu}: {slug} ÷ cub")
    for gpu, n_l2, l2_bytes in l2_lines:
        if gpu in color:
            ax.axvline(n_l2, color=color[gpu], linestyle="--", linewidth=0.9,
                       label=f"{gpu}: {l2_words(l2_bytes, op)}")
    shapes = ["s", "^", "D", "v", "P"]
    rungs = list(dict.fromkeys(s for _, s, _ in marks))
    for gpu, slug, points in marks:
        if gpu not in color:
            continue
        i = rungs.index(slug)
        shift = 2 ** (0.07 * (i - (len(rungs) - 1) / 2))  # set apart along n, not hiding
        ax.plot([n * shift for n, _ in points], [r for _, r in points], marker=shapes[i % 5],
                markersize=6, linestyle="none", color=color[gpu], markeredgecolor="black",
                markeredgewidth=0.5)
    for i, slug in enumerate(rungs):  # one legend entry per rung, in a neutral colour
        ax.plot([], [], marker=shapes[i % 5], markersize=6, linestyle="none", color="#bbbbbb",
                markeredgecolor="black", markeredgewidth=0.5,
                label=f"{slug} ÷ cub (ladder run; colour: GPU"
                + ("; loses the order)" if slug in report.UNORDERED.get(op, ()) else ")"))
    title = f"{op}: top rung against CUB by size"
    finish_ratio_figure(fig, ax, title, path, legend_below=True)
    top = and_list([ln[1] for ln in lines])
    sizes = per_gpu_words({gpu: sizes_words([n for n, _ in pts]) for gpu, _, pts in lines})
    also = ""
    if rungs:
        also = (f", and {and_list(rungs)} (the rungs it dispatches to or replaced) at n = "
                f"{sizes_words([report.LADDER_SIZE, report.LARGE_SIZE])} from the ladder runs, "
                "set a little apart along n")
    l2_drawn = [g for g, _, _ in l2_lines if g in gpus]
    l2 = (f", with a dashed line at the n whose {l2_moved(op).replace(' + ', ' and ')} equal "
          + ("each GPU's L2 size" if len(l2_drawn) > 1 else "the GPU's L2 size")
          if l2_drawn else "")
    return (f"{and_list(gpus)}, {op}: {top}'s time over {report.baseline_slug(op)}'s against n "
            f"({sizes}){also}{l2} ({words or input_name(op, None)}).")


def closeup_figure(runs, op, gpu, path, ctx=None):
    """Each version's time over CUB's (same n, same input) against n, from one file; None
    where CUB or three common sizes are missing, else the caption."""
    lines = []  # (label, version's index, input's index, points)
    slugs = list(dict.fromkeys(k[1] for k in runs if k[0] == op and k[1] != "cub"))
    dists = list(dict.fromkeys(k[3] for k in runs if k[0] == op))
    keys = []
    for slug in slugs:
        for dist in dict.fromkeys(k[3] for k in runs if k[0] == op and k[1] == slug):
            points = []
            for n in sorted({k[2] for k in runs if k[:2] == (op, slug) and k[3] == dist}):
                mine, cub = runs.get((op, slug, n, dist)), runs.get((op, "cub", n, dist))
                a, b = mine and report.summary(mine), cub and report.summary(cub)
                if a and b:
                    points.append((n, a["time_us"] / b["time_us"]))
                    keys += [(op, slug, n, dist), (op, "cub", n, dist)]
            if len(points) >= 3:
                lines.append((slug + (f" ({dist})" if dist else ""), slugs.index(slug),
                              dists.index(dist), points))
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = ["-", "--", ":", "-."]  # one per version; one color per input
    for label, v, d, points in lines:
        ax.plot([n for n, _ in points], [r for _, r in points], marker="o", markersize=3,
                linestyle=styles[v % len(styles)], color=f"C{d}", label=f"{label} ÷ cub")
    finish_ratio_figure(fig, ax, f"{gpu}: {op}, closeup", path)
    drawn = list(dict.fromkeys(slugs[v] for _, v, _, _ in lines))
    inputs = list(dict.fromkeys(dists[d] for _, _, d, _ in lines))
    sizes = {k[2] for k in keys}
    return (f"{gpu}, {op}, closeup: {and_list(drawn)} each over cub's time against n "
            f"({sizes_words(sizes)}) from one kept run, one line per version and input "
            f"({input_words(op, inputs, runs, keys, ctx)}).")


def gpus_figure(groups, path):
    if len(groups) < 2:
        return None
    ops = [op for op in report.OPERATORS
           if all(any(k[0] == op for k in report.merged_runs(g)) for g in groups.values())]
    ops = [op for op in ops if op not in report.LINK_OPS]  # bound by the host link, not HBM
    fig, ax = plt.subplots(figsize=(min(14, max(6, 0.4 * len(ops) * len(groups) + 1.5)), 5.5))
    width = 0.8 / len(groups)
    labels = report.device_labels(groups)  # two cards of one model: told apart by index
    reps = set()
    for i, group in enumerate(groups.values()):
        runs = report.merged_runs(group)
        pcts = []
        for op in ops:
            dist = report.primary_dist(runs, op)
            _, figures = report.op_table(runs, op, report.LARGE_SIZE, dist)
            best = report.best_rung(figures, report.UNORDERED.get(op, set())) if figures else None
            pcts.append(figures[best[1]]["pct_copy"] if best else 0)
            if best:
                reps.add(max(len(runs[(op, best[1], report.LARGE_SIZE, dist)]["reps"]), 1))
        ax.bar([j + i * width for j in range(len(ops))], pcts, width,
               label=labels[i])
    ax.axhline(100, color="black", linestyle="--", linewidth=1,
               label="100%: the copy ceiling (read + write); read-only operators can pass it")
    ax.set_xticks([j + width * (len(groups) - 1) / 2 for j in range(len(ops))], ops,
                  rotation=30, ha="right")
    ax.set_ylabel("best rung, % of the GPU's own copy ceiling")
    ax.set_title(f"Each operator's best rung at n = {report.size_label(report.LARGE_SIZE)}, "
                 "on each GPU", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8, frameon=False,
              ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    ctx = next(iter(groups.values()))[0][1]
    rep = "/".join(str(r) for r in sorted(reps))
    return (f"{and_list(labels)}: each operator's best rung as % of that GPU's own measured "
            f"copy ceiling at n = {report.size_label(report.LARGE_SIZE)} (each operator's "
            f"headline input; median of {rep} repetitions; {flush_words(ctx)}).")


def write_captions(out, captions):
    """captions.json in `out`: these captions, and those of earlier runs whose PNGs are still
    there (a closeup drawn by another call), sorted by name."""
    path = os.path.join(out, CAPTIONS)
    kept = {}
    if os.path.exists(path):
        with open(path) as f:
            kept = json.load(f)
    kept = {k: v for k, v in kept.items() if os.path.exists(os.path.join(out, k))}
    kept.update(captions)
    with open(path, "w") as f:
        json.dump(dict(sorted(kept.items())), f, indent=1, ensure_ascii=False)
        f.write("\n")


def ladder_marks(runs, op, gpu):
    """[(gpu, slug, [(n, ratio to the baseline)])] for the rungs DISPATCH names, at the ladder
    sizes, from one GPU's ladder runs (each ratio within one run's file)."""
    top, others = DISPATCH.get(op, (None, ()))
    dist = report.primary_dist(runs, op)
    base = report.baseline_slug(op)
    slugs = sorted({k[1] for k in runs if k[0] == op}, key=report.ladder_order)
    if top is None or not any(s.startswith(top + "_") for s in slugs):
        return []
    marks = []
    for num in others:
        slug = next((s for s in slugs if s.startswith(num + "_")), None)
        points = []
        for n in (report.LADDER_SIZE, report.LARGE_SIZE):
            a, c = runs.get((op, slug, n, dist)), runs.get((op, base, n, dist))
            fa, fc = (a and report.summary(a)), (c and report.summary(c))
            if fa and fc:
                points.append((n, fa["time_us"] / fc["time_us"]))
        if points:
            marks.append((gpu, slug, points))
    return marks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="results files (default: the frozen runs of "
                    "results/MANIFEST.json; a reader's own runs go to <out>/yours/)")
    ap.add_argument("--out", default=PLOTS, help="directory for the PNGs (results/plots)")
    ap.add_argument("--closeup", help="draw only NAME-<op>.png from this one results file")
    ap.add_argument("--name", help="with --closeup: the pictures' name before -<op>.png")
    args = ap.parse_args(argv)
    if not HAVE_MATPLOTLIB:
        sys.exit("plots.py: error: matplotlib is not installed (pip install matplotlib); "
                 "report.py works without it, showing no pictures")
    captions = {}

    def keep(path, caption):
        if caption:
            captions[os.path.basename(path)] = caption
        return bool(caption)

    if args.closeup:
        if not args.name or not os.path.exists(args.closeup):
            print("plots.py: error: --closeup needs an existing file and --name", file=sys.stderr)
            return 1
        ctx, runs = report.load(args.closeup)
        os.makedirs(args.out, exist_ok=True)
        written = [p for op in report.OPERATORS
                   for p in [os.path.join(args.out, f"{args.name}-{op}.png")]
                   if any(k[0] == op for k in runs)
                   and keep(p, closeup_figure(runs, op, ctx.get("gpu", "?"), p, ctx))]
        write_captions(args.out, captions)
        print(f"wrote {len(written)} pictures to {os.path.relpath(args.out, report.ROOT)}")
        return 0 if written else 1
    if args.files:
        return draw_all(args.files, {}, args.out, keep_models=False)
    # By default the committed pictures come from the frozen runs that results/MANIFEST.json
    # names, so that a reader's own run never redraws them; a reader's runs (results/*.json that
    # the manifest does not name) are drawn apart, under <out>/yours/ (RESULTS.md's "Your run").
    rc = draw_all(report.results_files(report.FROZEN),
                  report.gpu_groups(report.sweep_files(report.FROZEN)), args.out, keep_models=True)
    mine = report.results_files(report.READER)
    if rc == 0 and mine:
        rc = draw_all(mine, report.gpu_groups(report.sweep_files(report.READER)),
                      os.path.join(args.out, "yours"), keep_models=False)
    return rc


def draw_all(files, sweeps, out, keep_models):
    """Draws every picture of `files` (ladder runs) and `sweeps` ({gpu_slug: sweep group}) into
    `out`, with its captions file. keep_models: also the GPU models' and the across-GPU pictures
    (the frozen runs'). Returns the exit status."""
    captions = {}

    def keep(path, caption):
        if caption:
            captions[os.path.basename(path)] = caption
        return bool(caption)

    if not files:
        print("plots.py: error: no results files", file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    written = []
    ratio_lines, l2_marks, marks, ratio_words = {}, {}, {}, {}
    groups = report.gpu_groups(files)
    for slug, group in groups.items():
        runs = report.merged_runs(group)
        ctx = dict(group[0][1])
        # the rungs of yours that any of the GPU's files lists
        ctx["yours"] = ",".join(sorted({n for g in group
                                        for n in str(g[1].get("yours", "")).split(",") if n}))
        gpu = ctx.get("gpu", slug)
        l2 = float(ctx.get("l2_bytes", 0) or 0)
        for op in report.OPERATORS:
            if not any(k[0] == op for k in runs):
                continue
            swept = report.swept_runs(runs, sweeps.get(slug, []), op)
            for kind, draw in (("ladder", lambda p: ladder_figure(runs, op, gpu, p, ctx)),
                               ("steps", lambda p: steps_figure(runs, op, gpu, p, ctx)),
                               ("sweep", lambda p: sweep_figure(swept, op, gpu, l2, p, ctx))):
                p = os.path.join(out, f"{slug}-{op}-{kind}.png")
                if keep(p, draw(p)):
                    written.append(p)
            top, points = report.ratio_to_cub(swept, op)
            if top:
                ratio_lines.setdefault(op, []).append((gpu, top, points))
                n_l2 = l2_size_n(swept, op, l2)
                if n_l2:
                    l2_marks.setdefault(op, []).append((gpu, n_l2, l2))
                marks.setdefault(op, []).extend(ladder_marks(runs, op, gpu))
                dist = report.primary_dist(swept, op)
                keys = [k for k in swept if k[0] == op and k[3] == dist
                        and k[1] in (top, report.baseline_slug(op))]
                ratio_words.setdefault(op, {})[gpu] = input_words(op, [dist], swept, keys, ctx)
    # top rung ÷ CUB against n: one picture per operator, one line per GPU
    for op, lines in ratio_lines.items():
        p = os.path.join(out, f"{op}-vs-cub.png")
        words = ratio_words.get(op, {})
        if keep(p, vs_cub_figure(lines, op, l2_marks.get(op, []), p, marks.get(op, []), words)):
            written.append(p)
    # the GPU models of results/ side by side (report.models_section shows it)
    p = os.path.join(out, "models-pct-copy.png")
    models = {s: g for s, g in groups.items() if "-device" not in s}
    if keep_models and keep(p, gpus_figure(models, p)):
        written.append(p)
    # the across-GPU chart: the files given, or by default scripts/run_per_gpu.sh's
    p = os.path.join(out, "gpus-pct-copy.png")
    if keep(p, gpus_figure(report.gpu_groups(report.per_gpu_files()) if keep_models else groups,
                           p)):
        written.append(p)
    write_captions(out, captions)
    print(f"wrote {len(written)} pictures to {os.path.relpath(out, report.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
