#!/usr/bin/env python3
"""Session 29's tables, from the outputs in call-1 ... call-3 and call-8 (medians of three rounds,
µs, the summary lines): copy_if/lab/probe_v06_oracle.cu's `grouped` and `wide` (call 1), `spread`
(call 2) and `gprepub` (call 8, with each fill launch's output right); the grouped look-ahead's per-claim counts (call 1); call 3's checks of copy_if v10 (the
GPU tests, 2^31 + 17, compute-sanitizer's four tools, the three mutants against GroupSums) and its
benchmark of v09, v10 and CUB. Asserts that every timed launch's output was checked and right, that
every control failed and every clean launch after one was right, that the claim counters and
headers were 0 after every input, that the wide kernel ran one block an SM, that call 3's tests and
tools passed and that each mutant failed GroupSums. Standard library only."""
import io
import os
import re
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h200-session28-2026-12-01"))
import tables as session28  # noqa: E402  (its parse: checks, controls, counters, the table)

session28.HERE = HERE  # read this folder's files
parse = session28.parse


def extra_checks(path, text):
    for m in re.findall(r"^clean launch after it: mismatches (\d+)", text, re.M):
        assert m == "0", f"{path}: a clean launch after a control was wrong"
    for m in re.findall(r"header(?: after)?: counter (\d+) \(must be 0\), epoch (\d+) "
                        r"\(must be (\d+)\)", text):
        assert m[0] == "0" and m[1] == m[2], f"{path}: header {m}"
    for m in re.findall(r"counter (\d+) \(must be 0\)", text):
        assert m == "0", f"{path}: a counter not 0"
    for m in re.findall(r"filled under epoch \d+ \([^;)]*mismatches (\d+)", text):
        assert m == "0", f"{path}: a fill launch's output was wrong"


def stats(path, text):
    rows = re.findall(r"^grouped, tail (\d), per claim: ([\d.]+) passes, ([\d.]+) ended short, "
                      r"([\d.]+) group words, ([\d.]+) statuses \((\d+) claims; mismatches (\d+)",
                      text, re.M)
    sizes = re.findall(r"^n = (\S+), keep(\d+):", text, re.M)
    assert len(rows) == 3 * len(sizes) and all(r[6] == "0" for r in rows), path
    print(f"| per claim, {path} | tail | passes | ended short | group words | statuses | claims |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for i, r in enumerate(rows):
        n, keep = sizes[i // 3]
        print(f"| {n}, keep{keep} | {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {int(r[5]):,} |")


def tgz(path):
    with tarfile.open(os.path.join(HERE, path)) as t:
        return {m.name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}


def call3():
    tests = open(os.path.join(HERE, "call-3/tests.txt")).read()
    m = re.search(r"^\[  PASSED  \] (\d+) tests", tests, re.M)
    assert m and "FAILED" not in tests, "call 3: copy_if's tests"
    misc = tgz("call-3/misc.tgz")
    assert "[  PASSED  ] 1 test" in misc["huge.txt"], "call 3: 2^31 + 17"
    print(f"call 3: {m.group(1)} copy_if GPU tests passed (with CopyIfWorkspace, EpochWrap and "
          "GroupSums); v10 at 2^31 + 17 passed")
    for name, text in sorted(tgz("call-3/sanitizers.tgz").items()):
        ok = re.search(r"(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)", text)
        assert ok and "[  PASSED  ] 2 tests" in text, name
        print(f"  {name}: {ok.group(1)}, 2 tests passed")
    for name, text in sorted(tgz("call-3/mutants.tgz").items()):
        assert "[  FAILED  ] GroupSums.ClearedAndNotedAcrossSizes" in text, f"{name} passed"
        first = re.search(r"^(launch \d .*)$", text, re.M)
        print(f"  {name}: GroupSums failed; {first.group(1) if first else ''}")
    bench = open(os.path.join(HERE, "call-3/bench/bench.txt")).read()
    med = dict(re.findall(r"^(copy_if/\S+)/manual_time_median\s+([\d.]+)", bench, re.M))
    cols = [(n, d) for n in (16777216, 268435456) for d in ("keep50", "keep1", "keep99")]
    print("\n| call-3/bench/bench.txt, µs (median of 5) | "
          + " | ".join(f"{n:,}, {d}" for n, d in cols) + " |")
    print("|---|" + "--:|" * len(cols))
    for v in ("v09_epoch_statuses", "v10_group_sums", "cub"):
        print(f"| {v} | " + " | ".join(med[f"copy_if/{v}/n:{n}/dist:{d}"] for n, d in cols) + " |")


if __name__ == "__main__":
    for path in ("call-1/probe_v06_oracle_grouped.txt", "call-1/probe_v06_oracle_wide.txt",
                 "call-2/probe_v06_oracle_spread.txt", "call-8/probe_v06_oracle_gprepub.txt"):
        out = io.StringIO()
        stdout, sys.stdout = sys.stdout, out
        try:
            text = parse(path)
        finally:
            sys.stdout = stdout
        print(out.getvalue())
        extra_checks(path, text)
        if "wide" in path:
            m = re.search(r"^1 block an SM, 12 stages: (\d+) blocks an SM", text, re.M)
            assert m and m.group(1) == "1", "wide: not one block an SM"
        if "grouped" in path:
            stats(path, text)
            print()
    call3()
