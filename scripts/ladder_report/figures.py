"""Figures in prose: the spans <!--fig:KIND KEY...--> and <!--fig NAME--> (with their
folder's figures.txt), filled from the results."""
import os
import re

from . import results
from .fmt import fmt_pct, fmt_sig, fmt_time
from .results import (
    gpu_groups, load, merged_runs, summary, sweep_files, swept_runs, unaligned_files)


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
FIGURE_KINDS = {"time": 1, "pct": 1, "pct2": 1, "pctread": 1, "gbps": 1, "ratio": 2}


def figure_key(text):
    m = re.fullmatch(r"([a-z0-9_]+)/([A-Za-z0-9_]+)/n:(2\^\d+|\d+)(?:/dist:([a-z0-9_]+))?"
                     r"(?:/offset:(\d+))?", text)
    if not m:
        raise ValueError(f"not a benchmark key: {text!r}")
    n = 1 << int(m.group(3)[2:]) if m.group(3).startswith("2^") else int(m.group(3))
    key = (m.group(1), m.group(2), n, m.group(4))
    return key + (int(m.group(5)),) if m.group(5) else key


def default_gpu(slugs):
    """The GPU whose results a figure key without a GPU or file reads: the H200 where there are
    any, else the first GPU in name order."""
    return "nvidia-h200" if "nvidia-h200" in slugs else next(iter(sorted(slugs)), None)


def figure_lookup(files, scope=results.ALL):
    """A function from (figure key, GPU slug or None) to its summary: the named GPU's results, or
    the chapter GPU's (the H200 where there are any, else the first). `files`: the ladder runs;
    the size sweeps and unaligned runs are those of `scope` (results.json_files)."""
    groups = gpu_groups(files)
    default = default_gpu(groups)
    cache = {}

    def data(slug):
        if slug not in cache:
            runs = merged_runs(groups[slug]) if slug in groups else {}
            sweeps = gpu_groups(sweep_files(scope)).get(slug, [])
            offsets = {}
            for path, _, _ in gpu_groups(unaligned_files(scope)).get(slug, []):
                offsets.update(load(path, offsets=True)[1])
            cache[slug] = (runs, sweeps, offsets)
        return cache[slug]

    def lookup(key, slug=None):
        if slug and re.search(r"\.json(\.gz)?$", slug):
            path = os.path.join(results.ROOT, "results", slug)
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


def read_sidecar(path, label=None):
    """The figure names a folder's sidecar defines: ({name: (kind, "key [key]")}, errors), each
    error naming the file (as `label`, else its path from the root) and line. A missing file
    defines nothing."""
    names, errors, lines = {}, [], {}
    if not os.path.exists(path):
        return names, errors
    rel = label or os.path.relpath(path, results.ROOT)
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
                              "key(s) (time, pct, pct2, pctread, gbps take one; ratio two)")
            names[name], lines[name] = (kind, keys), i
    return names, errors


def figure_value(kind, keys, lookup):
    """The text a figure span shows: kind (time, pct, pct2: the same to two decimals, where one
    would hide how near a target a figure is; pctread, gbps, ratio) of the benchmarks
    that `keys` (a string of one or two keys, each optionally GPU@ or FILE@) name. Raises
    ValueError."""
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
    if kind == "pct2" and len(figs) == 1:
        return f"{f['pct_copy']:.2f}%"
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
