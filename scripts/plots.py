#!/usr/bin/env python3
"""Draw the results as pictures (matplotlib), from the same JSON that report.py reads.

    python3 scripts/plots.py [FILE.json ...]      # default: results/*.json -> results/plots/

Per GPU and operator:
  <gpu>-<op>-ladder.png  each version's time at the ladder size and at 2^28 (log scale), the
                         measured copy ceiling's time for the same bytes and CUB's time as
                         vertical lines, and the % of the copy ceiling written on each bar;
  <gpu>-<op>-sweep.png   where a size sweep ran (four sizes or more): GB/s against n, both axes
                         logarithmic, for the versions the sweep measured, with the n at which
                         the data fills the L2 marked;
and per operator, across GPUs:
  <op>-vs-cub.png        the top rung's time over CUB's against n (report.ratio_to_cub), one
                         line per GPU and a line at 1.0: below it the rung is faster;
and, asked for with --closeup FILE --name NAME (a closeup kept in results/logs/, many sizes):
  NAME-<op>.png          each version's time over CUB's against n, one line per version and
                         input, from that one file (a chapter's picture of a crossover);
and across GPUs, where results of two or more GPUs exist:
  models-pct-copy.png    the best rung's % of each GPU model's own copy ceiling, per operator
                         both models ran at 2^28 (the ladder runs in results/);
  gpus-pct-copy.png      the same for scripts/run_per_gpu.sh's run (one process per card).

Then run report.py: RESULTS.md shows every picture that exists. Nothing is measured here; every
value drawn is read from the JSON (report.load / report.summary).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

try:
    import matplotlib  # noqa: E402
except ImportError:
    sys.exit("plots.py: error: matplotlib is not installed (pip install matplotlib); "
             "report.py works without it, showing no pictures")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOTS = os.path.join(report.ROOT, "results", "plots")


def ladder_figure(runs, op, gpu, path):
    dist = report.primary_dist(runs, op)
    sizes = [n for n in (report.LADDER_SIZE, report.LARGE_SIZE)
             if any(k[0] == op and k[2] == n and k[3] == dist for k in runs)]
    if not sizes:
        return False
    fig, axes = plt.subplots(1, len(sizes), figsize=(6.5 * len(sizes), 0.45 * 16 + 1.5),
                             squeeze=False)
    for ax, n in zip(axes[0], sizes):
        _, figures = report.op_table(runs, op, n, dist)
        slugs = [s for s in sorted(figures, key=report.ladder_order) if figures[s]]
        times = [figures[s]["time_us"] for s in slugs]
        colors = ["#4c72b0" if report.is_rung(s) else "#dd8452" for s in slugs]
        y = range(len(slugs))
        ax.barh(y, times, color=colors)
        ax.set_yticks(list(y), slugs, fontsize=8)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("time (µs, log scale)")
        for yi, s in zip(y, slugs):
            ax.text(figures[s]["time_us"], yi, f" {report.fmt_pct(figures[s]['pct_copy'])}",
                    va="center", fontsize=7)
        ref = next((figures[s] for s in slugs if figures[s]["pct_copy"] > 0), None)
        if ref:  # the copy ceiling's time for these bytes: time x pct_copy / 100
            ax.axvline(ref["time_us"] * ref["pct_copy"] / 100, color="black", linestyle="--",
                       linewidth=1, label="copy ceiling")
        base = report.baseline_slug(op)
        if figures.get(base):
            ax.axvline(figures[base]["time_us"], color="#dd8452", linestyle=":", linewidth=1.5,
                       label=base)
        ax.legend(fontsize=8, loc="lower right")
        ax.set_title(f"{op}, n = {report.size_label(n)}{report.dist_label(dist)}", fontsize=10)
    fig.suptitle(f"{gpu}: {op} ladder (bar label: % of the measured copy ceiling)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def sweep_figure(runs, op, gpu, l2_bytes, path):
    dist = report.primary_dist(runs, op)
    sizes = sorted({k[2] for k in runs if k[0] == op and k[3] == dist})
    if len(sizes) < 4:
        return False
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
    for slug in dict.fromkeys(chosen):
        xs, ys = [], []
        for n in sizes:
            e = runs.get((op, slug, n, dist))
            f = report.summary(e) if e else None
            if f:
                xs.append(n)
                ys.append(f["gbps"])
        if xs:
            ax.plot(xs, ys, marker="o", markersize=3, label=slug)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s (minimal bytes moved, log scale)")
    if l2_bytes:  # n whose bytes fill the L2, from a benchmark's bytes counter
        e = next((runs[k] for k in runs if k[0] == op and k[3] == dist), None)
        f = e and (e["median"] or (e["reps"][0] if e["reps"] else None))
        if f and f.get("bytes") and f.get("n"):
            ax.axvline(l2_bytes / (f["bytes"] / f["n"]), color="gray", linestyle="--",
                       label="data = L2 size")
    ax.legend(fontsize=8)
    ax.set_title(f"{gpu}: {op} size sweep{report.dist_label(dist)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def finish_ratio_figure(fig, ax, title, path):
    """The axes every time-over-CUB's picture shares (log2 n, a line at 1.0), then saved."""
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("time ÷ CUB's time (below 1: faster than CUB)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def vs_cub_figure(lines, op, l2_lines, path):
    """lines: [(label, top rung slug, [(n, ratio)])], one per GPU."""
    lines = [ln for ln in lines if len(ln[2]) >= 4]
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, slug, points in lines:
        ax.plot([n for n, _ in points], [r for _, r in points], marker="o", markersize=3,
                label=f"{label}: {slug} ÷ cub")
    for label, n_l2 in l2_lines:
        ax.axvline(n_l2, color="gray", linestyle="--", linewidth=0.8,
                   label=f"{label}: data = L2 size")
    return finish_ratio_figure(fig, ax, f"{op}: top rung against CUB by size", path)


def closeup_figure(runs, op, gpu, path):
    """Each version's time over CUB's (same n, same input) against n, from one file; False
    where CUB or three common sizes are missing."""
    lines = []  # (label, version's index, input's index, points)
    slugs = list(dict.fromkeys(k[1] for k in runs if k[0] == op and k[1] != "cub"))
    dists = list(dict.fromkeys(k[3] for k in runs if k[0] == op))
    for slug in slugs:
        for dist in dict.fromkeys(k[3] for k in runs if k[0] == op and k[1] == slug):
            points = []
            for n in sorted({k[2] for k in runs if k[:2] == (op, slug) and k[3] == dist}):
                mine, cub = runs.get((op, slug, n, dist)), runs.get((op, "cub", n, dist))
                a, b = mine and report.summary(mine), cub and report.summary(cub)
                if a and b:
                    points.append((n, a["time_us"] / b["time_us"]))
            if len(points) >= 3:
                lines.append((slug + (f" ({dist})" if dist else ""), slugs.index(slug),
                              dists.index(dist), points))
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = ["-", "--", ":", "-."]  # one per version; one color per input
    for label, v, d, points in lines:
        ax.plot([n for n, _ in points], [r for _, r in points], marker="o", markersize=3,
                linestyle=styles[v % len(styles)], color=f"C{d}", label=f"{label} ÷ cub")
    return finish_ratio_figure(fig, ax, f"{gpu}: {op}, closeup", path)


def l2_size_n(runs, op, l2_bytes):
    """The n at which op's minimal bytes equal the L2's size, from a benchmark's counters."""
    dist = report.primary_dist(runs, op)
    e = next((runs[k] for k in runs if k[0] == op and k[3] == dist), None)
    f = e and (e["median"] or (e["reps"][0] if e["reps"] else None))
    if l2_bytes and f and f.get("bytes") and f.get("n"):
        return l2_bytes / (f["bytes"] / f["n"])
    return None


def gpus_figure(groups, path):
    if len(groups) < 2:
        return False
    ops = [op for op in report.OPERATORS
           if all(any(k[0] == op for k in report.merged_runs(g)) for g in groups.values())]
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(ops) * len(groups)), 5))
    width = 0.8 / len(groups)
    labels = report.device_labels(groups)  # two cards of one model: told apart by index
    for i, group in enumerate(groups.values()):
        runs = report.merged_runs(group)
        pcts = []
        for op in ops:
            _, figures = report.op_table(runs, op, report.LARGE_SIZE,
                                          report.primary_dist(runs, op))
            best = report.best_rung(figures, report.UNORDERED.get(op, set())) if figures else None
            pcts.append(figures[best[1]]["pct_copy"] if best else 0)
        ax.bar([j + i * width for j in range(len(ops))], pcts, width,
               label=labels[i])
    ax.set_xticks([j + width * (len(groups) - 1) / 2 for j in range(len(ops))], ops,
                  rotation=30, ha="right")
    ax.set_ylabel("best rung, % of the GPU's own copy ceiling (n = 2^28)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="results files (default: results/*.json)")
    ap.add_argument("--out", default=PLOTS, help="directory for the PNGs (results/plots)")
    ap.add_argument("--closeup", help="draw only NAME-<op>.png from this one results file")
    ap.add_argument("--name", help="with --closeup: the pictures' name before -<op>.png")
    args = ap.parse_args(argv)
    if args.closeup:
        if not args.name or not os.path.exists(args.closeup):
            print("plots.py: error: --closeup needs an existing file and --name", file=sys.stderr)
            return 1
        ctx, runs = report.load(args.closeup)
        os.makedirs(args.out, exist_ok=True)
        written = [p for op in report.OPERATORS
                   for p in [os.path.join(args.out, f"{args.name}-{op}.png")]
                   if any(k[0] == op for k in runs)
                   and closeup_figure(runs, op, ctx.get("gpu", "?"), p)]
        print(f"wrote {len(written)} pictures to {os.path.relpath(args.out, report.ROOT)}")
        return 0 if written else 1
    files = args.files or report.results_files()
    if not files:
        print("plots.py: error: no results files", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    written = []
    ratio_lines, l2_marks = {}, {}
    groups = report.gpu_groups(files)
    sweeps = report.gpu_groups(report.sweep_files()) if not args.files else {}
    for slug, group in groups.items():
        runs = report.merged_runs(group)
        gpu = group[0][1].get("gpu", slug)
        l2 = float(group[0][1].get("l2_bytes", 0) or 0)
        for op in report.OPERATORS:
            if not any(k[0] == op for k in runs):
                continue
            swept = report.swept_runs(runs, sweeps.get(slug, []), op)
            p = os.path.join(args.out, f"{slug}-{op}-ladder.png")
            if ladder_figure(runs, op, gpu, p):
                written.append(p)
            p = os.path.join(args.out, f"{slug}-{op}-sweep.png")
            if sweep_figure(swept, op, gpu, l2, p):
                written.append(p)
            top, points = report.ratio_to_cub(swept, op)
            if top:
                ratio_lines.setdefault(op, []).append((gpu, top, points))
                n_l2 = l2_size_n(swept, op, l2)
                if n_l2:
                    l2_marks.setdefault(op, []).append((gpu, n_l2))
    # top rung ÷ CUB against n: one picture per operator, one line per GPU
    for op, lines in ratio_lines.items():
        p = os.path.join(args.out, f"{op}-vs-cub.png")
        if vs_cub_figure(lines, op, l2_marks.get(op, []), p):
            written.append(p)
    # the GPU models of results/ side by side (report.models_section shows it)
    p = os.path.join(args.out, "models-pct-copy.png")
    models = {s: g for s, g in groups.items() if "-device" not in s}
    if not args.files and gpus_figure(models, p):
        written.append(p)
    # the across-GPU chart: the files given, or by default scripts/run_per_gpu.sh's
    p = os.path.join(args.out, "gpus-pct-copy.png")
    if gpus_figure(groups if args.files else report.gpu_groups(report.per_gpu_files()), p):
        written.append(p)
    print(f"wrote {len(written)} pictures to {os.path.relpath(args.out, report.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
