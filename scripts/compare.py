#!/usr/bin/env python3
"""Compare two cuda-ladder results files benchmark by benchmark, in the manner of Google
Benchmark's tools/compare.py.

    python3 scripts/compare.py OLD.json NEW.json [--filter REGEX] [--alpha 0.05] [--by-op]
    python3 scripts/compare.py 'results/nvidia-h200*.json' 'results/nvidia-h100*.json' --by-op

OLD and NEW are two GPUs, or two commits on one GPU. Each may also name several files (a glob
pattern, quoted, or a comma-separated list): one GPU's run split over several files, merged in
file-name order (a later file's benchmark replaces an earlier one's). --by-op ends with a table
of the geometric mean per operator (the benchmark name's first part). For every benchmark present in both it
prints the old and new time and the relative change (new - old) / old, as compare.py does: the
median aggregate where the run had repetitions, the one run otherwise. Where both sides have at
least 3 repetitions it also runs compare.py's significance test, the two-sided Mann-Whitney U
test over the repetitions' times, and marks the change significant when p < alpha. The summary is
compare.py's OVERALL_GEOMEAN: the geometric mean of new / old over the benchmarks compared.

The U test uses the normal approximation with a tie correction (what scipy.stats.mannwhitneyu,
which compare.py calls, uses for samples with ties or above a few dozen values; for the 3-10
repetitions of a typical run the exact test and the approximation give p-values of the same
order, and both are reported as the approximation's). Standard library only.
"""
import argparse
import glob
import json
import math
import re
import sys



def load(path):
    """{benchmark name: {"times": [per-repetition real_time in µs], "median": µs or None}}."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred") or b.get("skipped"):
            continue
        name = re.sub(r"/manual_time$", "", b.get("run_name", b["name"]))
        e = out.setdefault(name, {"times": [], "median": None})
        t = b["real_time"] * scale[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                e["median"] = t
        else:
            e["times"].append(t)
    for e in out.values():
        if e["median"] is None and e["times"]:
            s = sorted(e["times"])
            m = len(s) // 2
            e["median"] = s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2
    return data.get("context", {}), {k: v for k, v in out.items() if v["median"]}


def load_many(spec):
    """load() over every file that spec names (a path, a glob pattern, or a comma-separated list
    of either), merged in file-name order: (the first file's context, the merged dict, paths)."""
    paths = []
    for part in spec.split(","):
        found = sorted(glob.glob(part)) if any(c in part for c in "*?[") else [part]
        if not found:
            raise OSError(f"no file matches {part!r}")
        paths += found
    ctx, merged = None, {}
    for path in paths:
        c, runs = load(path)
        ctx = ctx if ctx is not None else c
        merged.update(runs)
    return ctx or {}, merged, paths


def by_operator(rows):
    """[(operator, benchmarks, geometric mean of new / old)] in first-seen order."""
    logs = {}
    for name, o, n, *_ in rows:
        logs.setdefault(name.split("/")[0], []).append(math.log(n / o))
    return [(op, len(v), math.exp(sum(v) / len(v))) for op, v in logs.items()]


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test, normal approximation, tie-corrected,
    with continuity correction (scipy.stats.mannwhitneyu's method="asymptotic")."""
    n1, n2 = len(a), len(b)
    values = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(values)
    ties = 0.0
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1][0] == values[i][0]:
            j += 1
        r = (i + j) / 2 + 1  # average rank, 1-based
        for k in range(i, j + 1):
            ranks[k] = r
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, values) if g == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    mu = n1 * n2 / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return 1.0
    z = (abs(u1 - mu) - 0.5) / sigma
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def compare(old, new, pattern=None, alpha=0.05):
    """Rows (name, old µs, new µs, change, p or None, significant) and the geometric mean."""
    rows = []
    logs = []
    for name in sorted(set(old) & set(new)):
        if pattern and not re.search(pattern, name):
            continue
        o, n = old[name], new[name]
        change = (n["median"] - o["median"]) / o["median"]
        p = None
        if len(o["times"]) >= 3 and len(n["times"]) >= 3:
            p = mann_whitney_p(o["times"], n["times"])
        rows.append((name, o["median"], n["median"], change, p, p is not None and p < alpha))
        logs.append(math.log(n["median"] / o["median"]))
    geomean = math.exp(sum(logs) / len(logs)) if logs else None
    return rows, geomean


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--filter", help="only benchmarks whose name matches this regex")
    ap.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    ap.add_argument("--by-op", action="store_true", help="end with a geomean per operator")
    args = ap.parse_args(argv)
    try:
        octx, old, opaths = load_many(args.old)
        nctx, new, npaths = load_many(args.new)
    except (OSError, ValueError, KeyError) as e:
        print(f"compare.py: error: {e}", file=sys.stderr)
        return 2
    rows, geomean = compare(old, new, args.filter, args.alpha)
    if not rows:
        print("compare.py: error: no benchmark is in both files"
              + (f" and matches '{args.filter}'" if args.filter else ""), file=sys.stderr)
        return 1
    for side, spec, ctx, paths in (("old", args.old, octx, opaths), ("new", args.new, nctx, npaths)):
        files = f"{len(paths)} files" if len(paths) > 1 else "1 file"
        print(f"{side}: {spec}  ({ctx.get('gpu', '?')}, commit {ctx.get('git_commit', '?')}"
              + (f" (first file's), {files}" if len(paths) > 1 else "") + ")")
    width = max(len(r[0]) for r in rows)
    print(f"{'Benchmark':<{width}}  {'Time old (us)':>14}  {'Time new (us)':>14}  {'Change':>8}  "
          f"{'U-test p':>8}")
    for name, o, n, change, p, sig in rows:
        ptxt = "-" if p is None else f"{p:.4f}"
        mark = " *" if sig else ""
        print(f"{name:<{width}}  {o:>14.2f}  {n:>14.2f}  {change:>+8.4f}  {ptxt:>8}{mark}")
    print(f"{'OVERALL_GEOMEAN':<{width}}  {'':>14}  {'':>14}  {geomean - 1:>+8.4f}")
    print(f"({len(rows)} benchmarks; change = (new - old) / old; * = p < {args.alpha:g}, "
          "two-sided Mann-Whitney U over the repetitions)")
    if args.by_op:
        print()
        print(f"{'Operator':<14}  {'Benchmarks':>10}  {'Geomean new/old':>15}")
        for op, count, g in by_operator(rows):
            print(f"{op:<14}  {count:>10}  {g:>15.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
