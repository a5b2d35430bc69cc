"""The markdown report.py writes besides RESULTS.md: README.md's headline, each chapter's
generated block, and the figure spans, counter blocks and captions of README.md, the
chapters and the lab notes."""
import glob
import os
import re

from . import lessons, results, tables
from .fmt import fmt_pct, fmt_time, is_rung, ladder_order, size_label
from .results import (
    CHAPTER, LARGE_SIZE, LINK_OPS, OPERATORS, baseline_slug, gpu_groups, merged_runs,
    sweep_files, sweep_for, summary, swept_runs)
from .tables import (
    TARGETS, UNORDERED, best_rung, counters_table, kernels_table, op_table, operator_section,
    phases_table, primary_dist, ratio_to_cub)
from .pictures import captions, picture, pictures, render_captions
from .figures import FIGURE, SIDECAR, figure_lookup, read_sidecar, render_figures
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


# README.md's chapter table is generated too: per chapter, its rungs (from the vNN_*.cuh files of
# the chapter's folder and of its sub-folders, and the library baseline files beside them), its
# top rung (the highest-numbered file), the top rung's time over the library baseline's on each
# frozen GPU, and a status sentence kept in the chapter's folder, in CHAPTER_ROW:
#     # a comment
#     chapter: 6
#     operator: uint32 keys; stable key-value pairs
#     headline: sort                 (the operator whose top rung the row measures; default: the folder)
#     names: sort_pairs=pairs        (how the row names an operator or sub-folder; default: its own)
#     top: v07_fastdivmod_broadcast  (the headline operator's top rung, where a higher-numbered
#                                     file serves other operators only; default: the highest)
#     status: From v12 on, ... (at most STATUS_WORDS words; a measured number only as a figure span)
# between <!-- BEGIN generated chapters --> and <!-- END generated chapters --> in README.md.
CHAPTER_ROW = "chapter_row.txt"
STATUS_WORDS = 40
CHAPTER_FOLDERS = ("reduce", "elementwise", "scan", "copy_if", "histogram", "sort")
BASELINE_FILES = (("cub_baseline.cuh", "CUB"), ("cublas_baseline.cuh", "cuBLAS"))
# A measured number typed by hand in a status: digits with a unit, outside a figure span.
TYPED_FIGURE = re.compile(r"\d[\d.,]*\s*(µs|us|ms|×|%|GB/s)")


def read_chapter_row(path):
    """{field: value} of one chapter's CHAPTER_ROW file (`field: value` lines, `#` comments; a
    line that starts with a space continues the field before it)."""
    fields, last = {}, None
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            if line[0] in " \t" and last:
                fields[last] += " " + line.strip()
                continue
            key, _, value = line.partition(":")
            last = key.strip()
            fields[last] = value.strip()
    return fields


def readers_rungs():
    """The rung files a reader wrote (scripts/new_rung.py): those that an <op>/mine.inc includes,
    as absolute paths. They are the reader's, not the ladder's, so the chapter table skips them."""
    found = set()
    for inc in glob.glob(os.path.join(results.ROOT, "*", "mine.inc")):
        with open(inc) as f:
            found |= {os.path.join(results.ROOT, p)
                      for p in re.findall(r'#include\s+"([^"]+\.cuh)"', f.read())}
    return found


def rung_files(folder):
    """The rungs of one ladder folder, vNN_<name> from its vNN_<name>.cuh files, in ladder order;
    a reader's own rungs (readers_rungs) aside."""
    yours = readers_rungs()
    return sorted((os.path.basename(p)[:-4] for p in glob.glob(os.path.join(folder, "v[0-9][0-9]_*.cuh"))
                   if os.path.abspath(p) not in yours), key=ladder_order)


def ladder_folders(chapter):
    """The chapter's folder and its sub-folders that hold rungs (reduce/rows, reduce/cols), the
    lab aside."""
    root = os.path.join(results.ROOT, chapter)
    subs = sorted(d for d in glob.glob(os.path.join(root, "*")) if os.path.isdir(d)
                  and os.path.basename(d) != "lab" and rung_files(d))
    return [root] + subs


def ordered_folders(chapter, names):
    """ladder_folders, the sub-folders in the order the row's names give them (rows before
    cols), the others after them by name."""
    folders = ladder_folders(chapter)
    order = list(names)
    return folders[:1] + sorted(folders[1:], key=lambda d: (
        order.index(os.path.basename(d)) if os.path.basename(d) in order else len(order), d))


def and_list(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rungs_cell(chapter, names, groups):
    """'v00–v12 + CUB; rows v00–v05 + CUB; ...', and where an operator of the chapter was measured
    only up to a lower rung than its folder's top, '(pairs to v12)'."""
    parts, folders = [], ordered_folders(chapter, names)
    for folder in folders:
        rungs = rung_files(folder)
        if not rungs:
            continue
        sub = os.path.relpath(folder, os.path.join(results.ROOT, chapter))
        label = "" if sub == "." else names.get(sub, sub) + " "
        bases = [name for f, name in BASELINE_FILES if os.path.exists(os.path.join(folder, f))]
        parts.append(f"{label}{rungs[0][:3]}–{rungs[-1][:3]}" + "".join(f" + {b}" for b in bases))
    short = {}  # top rung measured -> the operators that stop there
    for op in OPERATORS:
        if CHAPTER.get(op, op) != chapter or op in LINK_OPS:
            continue
        measured = {k[1] for g in groups.values() for _, _, r in g for k in r
                    if k[0] == op and is_rung(k[1])}
        if not measured:
            continue
        top = max(measured, key=ladder_order)
        folder = next((f for f in folders if top in rung_files(f)), None)
        if folder and top != rung_files(folder)[-1]:
            label = names.get(op, op)
            if label not in short.setdefault(top[:3], []):
                short[top[:3]].append(label)
    notes = "; ".join(f"{and_list(ops)} to {v}" for v, ops in sorted(short.items()))
    return "; ".join(parts) + (f" ({notes})" if notes else "")


def gpu_short(ctx, slug):
    """H200, H100: the GPU's name less NVIDIA and the memory."""
    name = ctx.get("gpu", slug).replace("NVIDIA ", "")
    return name.split()[0] if name else slug


def versus_cell(op, top, groups, sweeps):
    """Per GPU: the top rung's time over the library baseline's at 2^28 on the operator's
    headline input, and the worst such ratio over every size measured (size sweep and ladder);
    the cell opens with the operator it measures (a chapter may hold several)."""
    cells = []
    for slug, group in groups.items():
        if "-device" in slug:
            continue
        gpu = gpu_short(group[0][1], slug)
        swept = swept_runs(merged_runs(group), sweeps.get(slug, []), op)
        dist = primary_dist(swept, op)
        a = swept.get((op, top, LARGE_SIZE, dist))
        c = swept.get((op, baseline_slug(op), LARGE_SIZE, dist))
        fa, fc = (summary(a) if a else None), (summary(c) if c else None)
        if not fa or not fc:
            cells.append(f"{gpu}: `{top[:3]}` not measured at {size_label(LARGE_SIZE)}")
            continue
        cell = f"{gpu} {fa['time_us'] / fc['time_us']:.3f}×"
        sweep_top, ratios = ratio_to_cub(swept, op)
        if sweep_top == top and len(ratios) > 2:
            n, worst = max(ratios, key=lambda nr: nr[1])
            cell += f" (worst of {len(ratios)} sizes: {worst:.3f}× at {size_label(n)})"
        cells.append(cell)
    return f"`{op}`: " + "; ".join(cells) if cells else "no results"


def status_errors(rel, status):
    """What is wrong with a status: over STATUS_WORDS words (a figure span counts as one), or a
    measured number typed by hand."""
    plain = FIGURE.sub(" FIG ", status)
    errors = []
    words = len(plain.split())
    if words > STATUS_WORDS:
        errors.append(f"{rel}: the status has {words} words (at most {STATUS_WORDS})")
    errors += [f"{rel}: lab talk in the status: {what} {word!r}"
               for _, what, word in lessons.lab_words(plain)]
    m = TYPED_FIGURE.search(plain)
    if m:
        errors.append(f"{rel}: the status types a measured number by hand ({m.group(0)!r}): "
                      "write it as a figure span")
    return errors


def chapter_table(files, scope=results.ALL, errors=None):
    """Markdown: README.md's chapter table (see CHAPTER_ROW), from the rung files, the ladder
    runs `files` (the frozen run, as the chapters) and each chapter's CHAPTER_ROW file."""
    errors = [] if errors is None else errors
    groups = gpu_groups(files)
    # The H200 first, as the chapters; then the others by name.
    groups = dict(sorted(groups.items(), key=lambda kv: (kv[0] != "nvidia-h200", kv[0])))
    sweeps = gpu_groups(sweep_files(scope))
    rows = []
    for chapter in CHAPTER_FOLDERS:
        path = os.path.join(results.ROOT, chapter, CHAPTER_ROW)
        if not os.path.exists(path):
            continue
        rel = os.path.relpath(path, results.ROOT)
        fields = read_chapter_row(path)
        missing = [k for k in ("chapter", "operator", "status") if k not in fields]
        if missing:
            errors.append(f"{rel}: no {', '.join(missing)}")
            continue
        names = dict(x.split("=", 1) for x in fields.get("names", "").split() if "=" in x)
        op = fields.get("headline", chapter)
        rungs = rung_files(os.path.join(results.ROOT, chapter))
        if not rungs:
            errors.append(f"{rel}: no rung files beside it")
            continue
        top = fields.get("top", rungs[-1])
        if top not in rungs:
            errors.append(f"{rel}: top {top} is not a rung file of {chapter}/")
            continue
        errors += status_errors(rel, fields["status"])
        rows.append((int(fields["chapter"]) if fields["chapter"].isdigit() else 99,
                     f"| {fields['chapter']} | [{chapter}]({chapter}/README.md): "
                     f"{fields['operator']} | {rungs_cell(chapter, names, groups)} | `{top}` | "
                     f"{versus_cell(op, top, groups, sweeps)} | {' '.join(fields['status'].split())} |"))
    if not rows:
        return "No chapter rows yet."
    return "\n".join(["| chapter | operator | rungs | top rung | top rung ÷ library baseline, time "
                      "(2^28) | status |", "|---|---|---|---|---|---|"]
                     + [r for _, r in sorted(rows)])


def replace_block(text, name, body):
    """text with the block between <!-- BEGIN generated NAME --> and <!-- END generated NAME -->
    replaced by body; text unchanged where it has no such block."""
    begin, end = f"<!-- BEGIN generated {name} -->", f"<!-- END generated {name} -->"
    if begin not in text or end not in text:
        return text
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body() + "\n" + end + tail


def render_readme(path, files, text=None, scope=results.ALL, errors=None):
    """README.md (or `text`) with its generated headline and chapter table replaced."""
    if text is None:
        with open(path) as f:
            text = f.read()
    text = replace_block(text, "headline", lambda: headline(files))
    return replace_block(text, "chapters", lambda: chapter_table(files, scope, errors))


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
                "command, the software). " + tables.COLUMNS + " " + about + pics
                + (operator_section(runs, op, "####", ctx.get("gpu_slug"))
                   or "No results for this operator yet.\n"))
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body.rstrip() + "\n" + end + tail


def lab_notes_files():
    """The operators' lab notes, <op>/lab/LAB_NOTES.md: rendered like the chapters (figure spans,
    counter blocks), never given a results block."""
    return sorted(glob.glob(os.path.join(results.ROOT, "*", "lab", "LAB_NOTES.md")))


def render_all(files, errors, scope=results.ALL):
    """{path: text} of every file report.py writes: RESULTS.md, README.md's headline, each
    chapter's generated block, and the figure spans, counter blocks and caption spans of
    README.md, the chapters and the lab notes. Appends to `errors` what could not be rendered.

    The lessons (README.md, the chapters, the lab notes) read the ladder runs `files` and the
    size sweeps and unaligned runs of `scope` (results.json_files: report.py passes the frozen
    run of results/MANIFEST.json, or with --with-reader-runs everything). RESULTS.md is the
    same either way: the frozen run's GPUs, then the reader's own runs in a section of their
    own."""
    root = results.ROOT
    errors += results.manifest_errors()
    outputs = {os.path.join(root, "RESULTS.md"): render_results(
        results.results_files(results.FROZEN), results.FROZEN, results.json_files(results.READER))}
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        outputs[readme] = render_readme(readme, files, scope=scope, errors=errors)
    for op in OPERATORS:
        chapter = os.path.join(root, CHAPTER.get(op, op), "README.md")
        if os.path.exists(chapter):
            outputs[chapter] = render_chapter(chapter, op, files, outputs.get(chapter))
    for path in lab_notes_files():
        with open(path) as f:
            outputs[path] = f.read()
    lookup = figure_lookup(files, scope)
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
