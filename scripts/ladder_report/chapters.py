"""The markdown report.py writes besides RESULTS.md: README.md's headline, each chapter's
generated block, and the figure spans, counter blocks and captions of README.md, the
chapters and the lab notes."""
import glob
import os
import re

from . import results
from .fmt import fmt_pct, fmt_time
from .results import (
    CHAPTER, LARGE_SIZE, LINK_OPS, OPERATORS, baseline_slug, gpu_groups, merged_runs)
from .tables import (
    TARGETS, UNORDERED, best_rung, counters_table, kernels_table, op_table, operator_section,
    phases_table)
from .pictures import captions, picture, pictures, render_captions
from .figures import SIDECAR, figure_lookup, read_sidecar, render_figures
from .results_md import render_results


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


# A counters table of one named run anywhere in a chapter's prose (a size or commit other than the
# chapter's own table's): the prose writes
#     <!-- BEGIN generated counters: sort logs/ncu-nvidia-h200-sort-2e25-42c56ee -->
#     <!-- END generated counters -->
# and report.py fills the block with counters_table of that operator over that folder of
# scripts/ncu_counters.sh's CSVs (under results/).
COUNTER_BLOCK = re.compile(r"(<!-- BEGIN generated counters: ([a-z0-9_]+) ([^ >]+) -->)\n"
                           r"(.*?)(<!-- END generated counters -->)", re.S)


# Where each version's time goes, kernel by kernel (tables.kernels_table), from a folder of
# scripts/ncu_counters.sh's CSVs run at n elements:
#     <!-- BEGIN generated kernels: sort logs/ncu-nvidia-h100-sort-2e28-0123abc n=268435456 -->
#     <!-- END generated kernels -->
KERNEL_BLOCK = re.compile(r"(<!-- BEGIN generated kernels: ([a-z0-9_]+) ([^ >]+) n=(\d+) -->)\n"
                          r"(.*?)(<!-- END generated kernels -->)", re.S)


# Where one pass's warps spend their time, step by step (tables.phases_table), from Nsight
# Compute's source counters of one kernel per version; the spec may span lines:
#     <!-- BEGIN generated phases: v12_large_tiles=logs/a-sass.csv.gz v14_l2_prefetch=logs/b.csv.gz
#          | first step | second step | ... -->
#     <!-- END generated phases -->
PHASE_BLOCK = re.compile(r"(<!-- BEGIN generated phases:(.*?)-->)\n(.*?)(<!-- END generated phases -->)",
                         re.S)


def render_phase_blocks(text, errors):
    def one(m):
        spec = " ".join(m.group(2).split())
        files, _, steps = spec.partition(" | ")
        kernels = [tuple(x.split("=", 1)) for x in files.split()]
        if not steps or any(len(k) != 2 for k in kernels):
            errors.append(f"generated phases: want 'VERSION=PATH ... | STEP | ...', got {spec!r}")
            return m.group(0)
        try:
            table = phases_table(kernels, [s.strip() for s in steps.split(" | ")])
        except (OSError, ValueError) as e:
            errors.append(f"generated phases: {e}")
            return m.group(0)
        return f"{m.group(1)}\n{table}\n{m.group(4)}"
    return PHASE_BLOCK.sub(one, text)


def render_counter_blocks(text, errors):
    def one(m):
        op, folder = m.group(2), m.group(3)
        table = counters_table(op, None, folder)
        if table is None:
            errors.append(f"no counters of {op} in results/{folder}")
            return m.group(0)
        return f"{m.group(1)}\n{table}\n{m.group(5)}"

    def per_kernel(m):
        op, folder, n = m.group(2), m.group(3), int(m.group(4))
        table = kernels_table(op, folder, n)
        if table is None:
            errors.append(f"no counters of {op} in results/{folder}")
            return m.group(0)
        return f"{m.group(1)}\n{table}\n{m.group(6)}"
    return render_phase_blocks(KERNEL_BLOCK.sub(per_kernel, COUNTER_BLOCK.sub(one, text)), errors)


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
        body = (f"Measured on {ctx.get('gpu', '?')} "
                f"(copy ceiling {ctx.get('copy_ceiling_gbps', '?')} "
                f"GB/s{read}), from `results/{os.path.basename(hpath)}`; generated by "
                f"`scripts/report.py`, see RESULTS.md for the full context (the commit, the "
                "command, the software). " + about + pics
                + (operator_section(runs, op, "####", ctx.get("gpu_slug"))
                   or "No results for this operator yet.\n"))
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body.rstrip() + "\n" + end + tail


def lab_notes_files():
    """The operators' lab notes, <op>/lab/LAB_NOTES.md: rendered like the chapters (figure spans,
    counter blocks), never given a results block."""
    return sorted(glob.glob(os.path.join(results.ROOT, "*", "lab", "LAB_NOTES.md")))


def render_all(files, errors):
    """{path: text} of every file report.py writes: RESULTS.md, README.md's headline, each
    chapter's generated block, and the figure spans, counter blocks and caption spans of
    README.md, the chapters and the lab notes. Appends to `errors` what could not be rendered."""
    root = results.ROOT
    outputs = {os.path.join(root, "RESULTS.md"): render_results(files)}
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        outputs[readme] = render_readme(readme, files)
    for op in OPERATORS:
        chapter = os.path.join(root, CHAPTER.get(op, op), "README.md")
        if os.path.exists(chapter):
            outputs[chapter] = render_chapter(chapter, op, files, outputs.get(chapter))
    for path in lab_notes_files():
        with open(path) as f:
            outputs[path] = f.read()
    lookup = figure_lookup(files)
    # Each folder's figure names (its sidecar), and the names its files use.
    sidecars = {os.path.join(root, SIDECAR)} | set(glob.glob(os.path.join(root, "*", SIDECAR)))
    sidecars |= {os.path.join(os.path.dirname(p), SIDECAR) for p in outputs}
    defined, used = {}, {}
    for sidecar in sorted(sidecars):
        defined[sidecar], found = read_sidecar(sidecar)
        used[sidecar] = set()
        errors += found
    for path in list(outputs):
        if path != os.path.join(root, "RESULTS.md"):
            found, sidecar = [], os.path.join(os.path.dirname(path), SIDECAR)
            outputs[path] = render_figures(outputs[path], lookup, found, defined[sidecar],
                                           used[sidecar])
            outputs[path] = render_counter_blocks(outputs[path], found)
            outputs[path] = render_captions(outputs[path], found)
            errors += [f"{os.path.relpath(path, root)}: {e}" for e in found]
    for sidecar in sorted(sidecars):
        for name in sorted(set(defined[sidecar]) - used[sidecar]):
            errors.append(f"{os.path.relpath(sidecar, root)}: {name!r} is defined but no "
                          "file of its folder uses it")
    return outputs
