#!/usr/bin/env python3
"""Generate RESULTS.md and the chapter tables from the JSON that cuda-ladder wrote.

    python3 scripts/plots.py             # (matplotlib) draw results/plots/*.png first
    python3 scripts/report.py            # rewrite RESULTS.md and <op>/README.md tables
    python3 scripts/report.py --check    # exit 1 if either differs from what the JSON gives
    python3 scripts/report.py --check --lessons   # and on lab talk in a chapter or header,
                                                  # or a line of 160+ characters with a figure
    python3 scripts/report.py --with-reader-runs  # let your own runs rewrite the chapters too

Reads results/*.json (Google Benchmark's JSON output, written by
`cuda-ladder --results_dir=results`). It never measures and never invents a number: every
figure printed is taken from, or computed from, those files. Where a benchmark ran with
repetitions, the median aggregate is used. The lessons (README.md, the chapters, the lab notes)
read the frozen run of each GPU that results/MANIFEST.json names; any other results/*.json is
a reader's own run, which RESULTS.md shows in a section of its own beside the frozen GPUs and
which rewrites the lessons only with --with-reader-runs.

This file is the command line; the work is in scripts/ladder_report/, one module per job:
results (reading results/*.json), fmt (how numbers are written), tables (an operator's
tables), pictures (pictures and captions), figures (figure spans in prose), results_md
(RESULTS.md), chapters (README.md, the chapters, the lab notes), lessons (the lesson and
line-length checks). Their names are re-exported here, so `import report` gives them all
(scripts/plots.py, scripts/figkeys.py and the tests use them as report.NAME); to point them at
another tree, set ladder_report.results.ROOT.

Standard library only, so CI can run it anywhere.
"""
import argparse
import os
import sys

from ladder_report import lessons, results
from ladder_report.fmt import *  # noqa: F401,F403
from ladder_report.results import *  # noqa: F401,F403
from ladder_report.tables import *  # noqa: F401,F403
from ladder_report.pictures import *  # noqa: F401,F403
from ladder_report.figures import *  # noqa: F401,F403
from ladder_report.results_md import *  # noqa: F401,F403
from ladder_report.chapters import *  # noqa: F401,F403
from ladder_report.chapters import render_all


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if RESULTS.md or a chapter table is out of date")
    ap.add_argument("--lessons", action="store_true",
                    help="fail when a chapter or version header holds lab talk (a commit hash, a "
                    "probe file name, 'session', 'seed 00N') or a line with a figure span is "
                    "160 characters or longer; also on with LADDER_LESSONS=1. Without it the "
                    "findings are only counted. It also lists the chapters' figure spans that "
                    "read results/logs/, and fails on them once enforced (ENFORCE_LOGS_SPANS in "
                    "scripts/ladder_report/lessons.py, or LADDER_LOGS_SPANS=1)")
    ap.add_argument("--with-reader-runs", action="store_true",
                    help="let the results files that results/MANIFEST.json does not name (your "
                    "own runs) rewrite the chapters, the lab notes and README.md too, yours "
                    "winning where a frozen file holds the same benchmark; without it they go "
                    "only to RESULTS.md's own section")
    args = ap.parse_args()
    root = results.ROOT
    scope = results.ALL if args.with_reader_runs else results.FROZEN
    files, errors = results_files(scope), []
    outputs = render_all(files, errors, scope)
    if errors:
        print("report.py: error: " + "; ".join(errors), file=sys.stderr)
        return 1
    stale = []
    for path, text in outputs.items():
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(os.path.relpath(path, root))
            if not args.check:
                with open(path, "w") as f:
                    f.write(text)
    # The lesson check reads the files as they now are (written above unless --check); the
    # line-length check reads what report.py makes of them.
    found = lessons.check_lessons(root)
    long_lines = lessons.long_span_lines({os.path.relpath(p, root): t for p, t in outputs.items()
                                          if p != os.path.join(root, "RESULTS.md")})
    logs = lessons.logs_spans(root, outputs)
    enforce, enforce_logs = lessons.enforced(args.lessons), lessons.logs_spans_enforced(args.lessons)
    if found and enforce:
        print("lab talk in the lesson (move it to the operator's lab/LAB_NOTES.md):")
        for line in lessons.format_findings(found):
            print("  " + line)
    if long_lines and enforce:
        print(f"lines with a figure span of {lessons.LINE_LIMIT} characters or more (rewrap; "
              "scripts/figkeys.py names long spans):")
        for line in lessons.format_findings(long_lines):
            print("  " + line)
    if logs and enforce:
        print(f"figure spans in a chapter that read results/logs/ ({len(logs)}; a chapter quotes "
              "the frozen run that results/MANIFEST.json names; the lab notes may read logs)"
              + ("" if enforce_logs else " -- counted, not enforced: ENFORCE_LOGS_SPANS in "
                 "scripts/ladder_report/lessons.py, or LADDER_LOGS_SPANS=1") + ":")
        for line in lessons.format_findings(logs):
            print("  " + line)
    if (found or long_lines) and not enforce:
        print(f"lessons: {len(found)} findings of lab talk in chapters and version headers, "
              f"{len(long_lines)} lines with a figure span of {lessons.LINE_LIMIT} characters or "
              "more (not enforced; --lessons or LADDER_LESSONS=1 lists them and fails)")
    if logs and not enforce:
        print(f"lessons: {len(logs)} figure spans in chapters read results/logs/ (--lessons "
              "lists them)")
    failed_lessons = (bool(found or long_lines) and enforce) or (bool(logs) and enforce_logs)
    if args.check:
        if stale:
            print("out of date (run python3 scripts/report.py): " + ", ".join(stale))
            for path, text in outputs.items():  # the first line that differs, per file
                old = open(path).read().splitlines() if os.path.exists(path) else []
                for i, (a, b) in enumerate(zip(old + [""] * len(text), text.splitlines())):
                    if a != b:
                        print(f"  {os.path.relpath(path, root)}:{i + 1}: has {a[:110]!r}\n"
                              f"  {' ' * len(os.path.relpath(path, root))}  want {b[:110]!r}")
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
