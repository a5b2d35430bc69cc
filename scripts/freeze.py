#!/usr/bin/env python3
"""Freeze one GPU's run: copy its results into results/ and name them in results/MANIFEST.json.

    python3 scripts/freeze.py OUT_DIR [OUT_DIR ...]   # scripts/device_run.sh's $OUT folders
    python3 scripts/freeze.py --check OUT_DIR ...     # only say whether they would freeze

The chapters, the lab notes, README.md and RESULTS.md's GPU sections read the files that
results/MANIFEST.json names (scripts/report.py). A frozen run is one GPU's files from ONE commit:
the ladder groups (<gpu>-<group>.json, step `bench`), the size sweeps (<gpu>-sweep-*.json, steps
`sweep` and `sweep_large`) and the unaligned views (<gpu>-unaligned.json). This script refuses,
with one line and exit status 1, a set that mixes GPUs or commits, a commit that is unknown or
built from a tree with changes ("-dirty"), a file that is not a results file, or no file at all.
Otherwise it copies the files into results/, replaces that GPU's entries of the manifest with
them (the other GPUs' entries stay; its earlier files that no new one replaces are deleted, so
that they do not read as a reader's runs), and prints the commands that redraw and regenerate:
`python3 scripts/plots.py && python3 scripts/report.py`.

The lab notes are a record: a figure there quotes the run that was frozen when it was written. So
before it replaces a GPU's files, freeze.py keeps them, gzipped, in
results/logs/<gpu>-frozen-<commits>-<date>/results/ (the retired run's commits and newest date;
--keep-in NAME: results/logs/NAME/results/ instead, such as the retired run's own log folder),
and rewrites every key of every <op>/lab/figures.txt that reads that GPU's frozen run (a key
written <gpu>@..., or with no prefix where that GPU is the chapters' default, the H200 when there
is one) to name the kept file that holds it (FILE@key). The chapters keep reading the frozen run,
now the new one.
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FreezeError(Exception):
    pass


def results_of(dirs):
    """[(path, context)] of the results files in `dirs` (JSON with a context and benchmarks)."""
    found = []
    for d in dirs:
        if not os.path.isdir(d):
            raise FreezeError(f"{d} is not a folder")
        for path in sorted(glob.glob(os.path.join(d, "*.json"))):
            try:
                with open(path) as f:
                    data = json.load(f)
            except (OSError, ValueError) as e:
                raise FreezeError(f"{path} is not a results file ({e})")
            if not isinstance(data, dict) or "context" not in data or "benchmarks" not in data:
                raise FreezeError(f"{path} is not a results file (no context or benchmarks)")
            found.append((path, data["context"]))
    if not found:
        raise FreezeError("no results files (*.json) in " + ", ".join(dirs))
    return found


def check(found):
    """The GPU slug and commit the files share; FreezeError where they do not."""
    slugs = sorted({ctx.get("gpu_slug", "?") for _, ctx in found})
    if len(slugs) != 1 or slugs[0] == "?":
        raise FreezeError("the files are not of one GPU: " + ", ".join(slugs))
    commits = sorted({str(ctx.get("git_commit", "unknown")) for _, ctx in found})
    if len(commits) != 1:
        raise FreezeError("the files come from more than one commit: " + ", ".join(commits))
    commit = commits[0]
    if commit == "unknown" or commit.endswith("-dirty"):
        raise FreezeError(f"commit {commit!r}: a frozen run is built from a committed tree (set "
                          "LADDER_GIT_COMMIT where the build cannot see .git)")
    for path, _ in found:
        if not os.path.basename(path).startswith(slugs[0]):
            raise FreezeError(f"{path}: a results file's name starts with its GPU ({slugs[0]})")
    return slugs[0], commit


def group_of(path, slug):
    """The manifest's group name of a results file: its name without the GPU and .json."""
    name = os.path.basename(path)[:-len(".json")]
    return name[len(slug) + 1:] if name.startswith(slug + "-") else name


def retire(results, manifest, slug, keep_in=None):
    """Keeps the GPU's frozen files (those the manifest names) under
    logs/<slug>-frozen-<commits>-<date>/results/ (or logs/<keep_in>/results/) and pins the lab notes' figure keys that read them to the
    kept files. Returns (the folder under results/, the number of figures pinned, the number of
    their benchmark references pinned (a ratio has two), the references not found), or None
    where the GPU has no frozen files."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from ladder_report.figures import default_gpu, figure_key
    from ladder_report.results import load
    old = [n for n in manifest.get("gpus", {}).get(slug, {}).values()
           if os.path.exists(os.path.join(results, n))]
    if not old:
        return None
    commits, dates = set(), set()
    for name in old:
        with open(os.path.join(results, name)) as f:
            ctx = json.load(f).get("context", {})
        commits.add(str(ctx.get("git_commit", "unknown"))[:7])
        dates.add(str(ctx.get("date", ""))[:10])
    commits = sorted(c for c in commits if c != "unknown") or ["unknown"]
    stamp = "-".join(commits + sorted(d for d in dates if d)[-1:])
    folder = os.path.join("logs", keep_in or f"{slug}-frozen-{stamp}", "results")
    os.makedirs(os.path.join(results, folder), exist_ok=True)
    # Where each benchmark lies: the ladder files, then the size sweeps, then the unaligned runs,
    # each in name order, a later file winning (as in ladder_report.results.gpu_groups).
    category = lambda n: ("-sweep" in n) + 2 * ("-unaligned" in n)
    where = {}
    for name in sorted(old, key=lambda n: (-category(n), n)):
        with open(os.path.join(results, name), "rb") as src:
            data = src.read()
        kept = os.path.join(folder, name + ".gz")
        with gzip.open(os.path.join(results, kept), "wb") as dst:
            dst.write(data)
        path = os.path.join(results, name)
        for offsets in (False, True):
            for key in load(path, offsets=offsets)[1]:
                where[key] = kept
    default = default_gpu(manifest.get("gpus", {}))
    figures, pinned, missing = 0, 0, []
    for sidecar in sorted(glob.glob(os.path.join(os.path.dirname(results), "*", "lab", "figures.txt"))):
        lines, changed = [], False
        with open(sidecar) as f:
            for line in f:
                m = re.fullmatch(r"(\S+)\s*=\s*(\w+)\s+(.+?)\s*", line)
                if not m or line.lstrip().startswith("#"):
                    lines.append(line)
                    continue
                keys, before = [], pinned
                for k in m.group(3).split():
                    prefix, _, body = k.rpartition("@")
                    if prefix == slug or (not prefix and slug == default):
                        try:
                            kept = where.get(figure_key(body))
                        except ValueError:  # not a benchmark key: report.py says so
                            kept = None
                        if kept:
                            k, changed, pinned = f"{kept}@{body}", True, pinned + 1
                        else:
                            missing.append(f"{os.path.relpath(sidecar, os.path.dirname(results))} "
                                           f"{m.group(1)}")
                    keys.append(k)
                figures += pinned > before
                lines.append(f"{m.group(1)} = {m.group(2)} {' '.join(keys)}\n")
        if changed:
            with open(sidecar, "w") as f:
                f.writelines(lines)
    return folder, figures, pinned, missing


def freeze(dirs, root=ROOT, dry_run=False, keep_in=None):
    found = results_of(dirs)
    slug, commit = check(found)
    if keep_in is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", keep_in):
        raise FreezeError(f"--keep-in {keep_in!r} is not a folder name (letters, digits, . _ -)")
    if dry_run:
        return slug, commit, [os.path.basename(p) for p, _ in found]
    results = os.path.join(root, "results")
    manifest_path = os.path.join(results, "MANIFEST.json")
    manifest = {"about": [], "gpus": {}}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    retired = retire(results, manifest, slug, keep_in)
    names = {}
    for path, _ in found:
        shutil.copyfile(path, os.path.join(results, os.path.basename(path)))
        names[group_of(path, slug)] = os.path.basename(path)
    # The GPU's earlier frozen files that this run does not replace would otherwise read as a
    # reader's own runs: they go (git shows them deleted).
    for old in manifest.get("gpus", {}).get(slug, {}).values():
        if old not in names.values() and os.path.exists(os.path.join(results, old)):
            os.remove(os.path.join(results, old))
    manifest.setdefault("gpus", {})[slug] = dict(sorted(names.items()))
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    if retired:
        folder, figures, pinned, missing = retired
        print(f"freeze.py: kept the retired files in results/{folder}/ and pinned {figures} lab-note "
              f"figures ({pinned} benchmark references) to them"
              + (f"; not found there: {', '.join(missing)}" if missing else ""))
    return slug, commit, sorted(names.values())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", help="scripts/device_run.sh's output folders of one run")
    ap.add_argument("--check", action="store_true", help="only say whether they would freeze")
    ap.add_argument("--keep-in", metavar="NAME",
                    help="keep the retired files in results/logs/NAME/results/ (default: "
                    "<gpu>-frozen-<commits>-<date>)")
    ap.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)  # the tests' copy of a tree
    args = ap.parse_args(argv)
    try:
        slug, commit, files = freeze(args.dirs, args.root, dry_run=args.check, keep_in=args.keep_in)
    except FreezeError as e:
        print(f"freeze.py: error: {e}", file=sys.stderr)
        return 1
    verb = "would freeze" if args.check else "froze"
    print(f"freeze.py: {verb} {len(files)} files of {slug} at {commit}: " + ", ".join(files))
    if not args.check:
        print("next: python3 scripts/plots.py && python3 scripts/report.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
