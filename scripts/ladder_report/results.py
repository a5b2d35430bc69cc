"""Reading the results: the JSON files of results/, grouped by GPU, and each benchmark's
figures (its median run)."""
import glob
import gzip
import json
import os
import re

# The repository (scripts/ladder_report/ is two levels down). Tests point it elsewhere by
# setting ladder_report.results.ROOT; every module reads it from here at call time.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
        elif b.get("skipped"):  # Google Benchmark 1.8's skip (a GPU without room, say)
            e["errors"].append("skipped: " + b.get("skip_message", ""))
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


# The manifest names each GPU's frozen run: the files that the lessons (the chapters, the lab
# notes, README.md) and RESULTS.md's GPU sections read. Any other results/*.json is a reader's
# own run (README.md's first command writes results/<gpu>.json): RESULTS.md gives it a section of
# its own, beside the frozen GPUs, and the lessons read it only when asked (report.py
# --with-reader-runs). A tree without a manifest treats every file as frozen.
#     {"about": [...], "gpus": {"<gpu_slug>": {"<group>": "<file under results/>", ...}, ...}}
MANIFEST = "results/MANIFEST.json"
# Which files a reader asks for: the frozen run, a reader's own runs, or both (frozen first, so
# that a reader's file wins where both hold a benchmark).
FROZEN, READER, ALL = "frozen", "reader", "all"


def read_manifest():
    """The manifest: {gpu_slug: {group: absolute path}}, or None where the tree has none. Raises
    ValueError on a manifest that is not of that shape."""
    path = os.path.join(ROOT, MANIFEST)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = json.load(f)
    gpus = data.get("gpus") if isinstance(data, dict) else None
    if not isinstance(gpus, dict) or not all(
            isinstance(g, dict) and all(isinstance(v, str) for v in g.values())
            for g in gpus.values()):
        raise ValueError(f"{MANIFEST}: want {{\"gpus\": {{GPU: {{GROUP: FILE}}}}}}")
    return {slug: {group: os.path.join(ROOT, "results", name) for group, name in g.items()}
            for slug, g in gpus.items()}


def manifest_errors():
    """What is wrong with the manifest: a file it names that is missing, or whose JSON context
    names another GPU. [] where all is well or there is no manifest."""
    try:
        m = read_manifest()
    except (ValueError, OSError) as e:
        return [str(e)]
    errors = []
    for slug, groups in (m or {}).items():
        for group, path in sorted(groups.items()):
            rel = os.path.relpath(path, ROOT)
            if not os.path.exists(path):
                errors.append(f"{MANIFEST}: {slug} {group}: no such file {rel}")
                continue
            ctx = load(path)[0]
            if ctx.get("gpu_slug", slug) != slug:
                errors.append(f"{MANIFEST}: {slug} {group}: {rel} is a run of "
                              f"{ctx.get('gpu_slug')}")
    return errors


def frozen_paths():
    """The set of files the manifest names, or None where there is no manifest."""
    m = read_manifest()
    return None if m is None else {p for g in m.values() for p in g.values()}


def json_files(scope=ALL):
    """results/*.json (the manifest aside) of one scope: FROZEN (the files the manifest names;
    every file where there is none), READER (the others) or ALL (the frozen files, then the
    reader's, each in name order)."""
    every = sorted(p for p in glob.glob(os.path.join(ROOT, "results", "*.json"))
                   if os.path.basename(p) != os.path.basename(MANIFEST))
    frozen = frozen_paths()
    if frozen is None:
        return every if scope != READER else []
    kept = [p for p in every if p in frozen]
    mine = [p for p in every if p not in frozen]
    return {FROZEN: kept, READER: mine, ALL: kept + mine}[scope]


def results_files(scope=ALL):
    """The ladder runs: results/<gpu>[-<group>].json (size sweeps and unaligned runs are kept
    apart), of one scope (json_files)."""
    return [p for p in json_files(scope) if not is_sweep_file(p) and not is_unaligned_file(p)]


def is_unaligned_file(path):
    return "-unaligned" in os.path.basename(path)


def unaligned_files(scope=ALL):
    """Runs on unaligned views: results/<gpu>-unaligned*.json (`cuda-ladder --offset=K`)."""
    return [p for p in json_files(scope) if is_unaligned_file(p)]


def is_sweep_file(path):
    return "-sweep" in os.path.basename(path)


def sweep_files(scope=ALL):
    """Size sweeps: results/<gpu>-sweep*.json (many sizes, few versions; drawn and tabulated,
    not given a table per size)."""
    return [p for p in json_files(scope) if is_sweep_file(p)]


def is_large_sweep(path):
    """A sweep of the sizes above the ladder's (scripts/device_run.sh's sweep_large step,
    results/<gpu>-sweep-large-<ops>.json): it adds sizes to the main sweep, never replaces it."""
    return "-sweep-large" in os.path.basename(path)


def sweep_for(sweeps, op):
    """The sweep file of one GPU that speaks for `op`: of the main (not large-size) files that
    hold it, the newest run (the context's date), so that a later sweep supersedes an earlier one
    operator by operator. Returns (path, context, runs) or None."""
    holding = [g for g in sweeps if not is_large_sweep(g[0]) and any(k[0] == op for k in g[2])]
    return max(holding, key=lambda g: g[1].get("date", "")) if holding else None


def large_sweeps_for(sweeps, op):
    """The large-size sweep files of one GPU that hold `op`, oldest first."""
    return sorted((g for g in sweeps if is_large_sweep(g[0]) and any(k[0] == op for k in g[2])),
                  key=lambda g: g[1].get("date", ""))


def swept_runs(runs, sweeps, op):
    """The ladder runs with op's benchmarks from its sweep file (sweep_for) added, and from its
    large-size sweeps (large_sweeps_for, the newer winning a size both hold): GB/s and the ratio
    to CUB against n."""
    merged = dict(runs)
    main = sweep_for(sweeps, op)
    for g in ([main] if main else []) + large_sweeps_for(sweeps, op):
        merged.update({k: e for k, e in g[2].items() if k[0] == op})
    return merged


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


def per_gpu_files():
    """The JSON of scripts/run_per_gpu.sh: results/per-gpu/device<N>/<gpu>.json."""
    return sorted(glob.glob(os.path.join(ROOT, "results", "per-gpu", "device*", "*.json")))
