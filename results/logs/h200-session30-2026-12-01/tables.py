#!/usr/bin/env python3
"""Session 30's tables, from the outputs in call-1 ... call-9 (medians of three rounds, µs, the
summary lines; per-tile times from the TIMES lines): copy_if/lab/probe_v06_oracle.cu's `lat`
(call 1), `lat2` (call 2), `batch` (call 3), `paired` (call 4), `rewind` (call 5), `lat3` (call 6)
`paired2` (call 7), `lat4` (call 8) and `fused` (call 9); the checks of the four candidate rungs
of calls 3 to 5 and 9 (the GPU tests,
2^31 + 17, compute-sanitizer's four tools, the sm_80 build's tests, the mutants) and their
benchmarks. Asserts that every timed launch's output was checked and right, that every control
failed, that the claim counters and headers were 0 after every input, that every TIMES launch's
output was right and counted every tile, that the kernels the probe queried (its lines "... blocks
an SM") ran two blocks an SM, and what each candidate's checks gave (call 4's synccheck failed,
and call 5's mutant M2 passed the tests: both are asserted as they came). Standard library only."""
import io
import os
import re
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))

def _load(name, folder):  # another session's tables.py, under a name of its own
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", folder, "tables.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


session28 = _load("session28_tables", "h200-session28-2026-12-01")
session28.HERE = HERE  # read this folder's files
parse = session28.parse
_s29 = open(os.path.join(HERE, "..", "h200-session29-2026-12-01", "tables.py")).read()
_s29 = _s29[_s29.index("def extra_checks"):_s29.index("def stats")]
_ns = {"re": re}
exec(_s29, _ns)  # session 29's extra_checks (its module imports session 28's as `tables`)
extra_checks = _ns["extra_checks"]


def times(path, text, forms):
    """The TIMES lines at 2^28 (keep1, keep50, keep99): ns a tile for the chosen fields."""
    rows = re.findall(r"^times (.+?) +per tile, ns: look-ahead ([\d.]+), its wait for a claim "
                      r"([\d.]+), passes ([\d.]+); store's wait for the offset ([\d.]+), for the "
                      r"reduce ([\d.]+); producer's wait for a stage ([\d.]+), claim ([\d.]+); "
                      r"reduce's wait for data ([\d.]+) \(claims (\d+), tiles stored (\d+), clock "
                      r"([\d.]+) GHz, block 0's producer ([\d.]+) us; mismatches (\d+)", text, re.M)
    sizes = re.findall(r"^n = (\S+), keep(\d+):", text, re.M)
    per = len(rows) // len(sizes)
    assert per * len(sizes) == len(rows) and per == forms, path
    for r in rows:
        assert r[13] == "0", f"{path}: a TIMES launch's output was wrong"
        assert r[9] == r[10], f"{path}: claims {r[9]} against tiles stored {r[10]}"
    print(f"| ns a tile (one launch with TIMES), {path} | input | look-ahead | its wait for a "
          "claim | passes | store's wait for the offset | producer's wait for a stage |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for i, r in enumerate(rows):
        n, keep = sizes[i // per]
        if n != "2^28":
            continue
        print(f"| {r[0].strip()} | {n}, keep{keep} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[6]} |")
    print()


def pace(path, text, keeps=("1", "50")):
    """A busy look-ahead's pace: its cycle a claim (the look-ahead's time and its wait for the next
    claim, one TIMES launch) times the claims a block (the tiles over two blocks an SM on the
    H200's 132 SMs, common/GLOSSARY.md), beside the timed launch's median (the summary)."""
    blocks = 2 * 132
    sizes = re.findall(r"^n = (\S+), keep(\d+):", text, re.M)
    rows = re.findall(r"^times (.+?) +per tile, ns: look-ahead ([\d.]+), its wait for a claim "
                      r"([\d.]+).*?\(claims (\d+),", text, re.M)
    per = len(rows) // len(sizes)
    summaries = re.findall(r"^summary (\S+) keep(\d+).*\n((?:  .*\n)+)", text, re.M)
    print(f"| pace, {path} | input | look-ahead + its wait, ns a claim | claims a block | "
          "product, µs | the launch, µs (median of three rounds) |")
    print("|---|---|--:|--:|--:|--:|")
    for i, (name, la, wait, claims) in enumerate(rows):
        n, keep = sizes[i // per]
        if n != "2^28" or keep not in keeps or "look-aheads" in name:
            continue  # one look-ahead warp a block: its claims are the block's
        body = next(b for sz, k, b in summaries if sz == n and k == keep)
        med = re.search(r"^  " + re.escape(name.strip()) + r" +([\d.]+) us", body, re.M)
        cycle = float(la) + float(wait)
        per_block = int(claims) / blocks
        print(f"| {name.strip()} | {n}, keep{keep} | {cycle:.1f} | {per_block:.2f} | "
              f"{cycle * per_block / 1e3:.1f} | {med.group(1)} |")
    print()


def split(path, text):
    """`lat4`'s split of a pass (the oracle: of a claim) into its loads and the rest, at 2^28."""
    rows = re.findall(r"^split (.+?) +per (pass|claim), ns: loads ([\d.]+), the rest ([\d.]+)$",
                      text, re.M)
    sizes = re.findall(r"^n = (\S+), keep(\d+):", text, re.M)
    per = len(rows) // len(sizes)
    assert per * len(sizes) == len(rows) and per == 3, path
    print(f"| ns (one launch with TIMES), {path} | input | per | loads | the rest |")
    print("|---|---|---|--:|--:|")
    for i, (name, unit, loads, rest) in enumerate(rows):
        n, keep = sizes[i // per]
        if n == "2^28":
            print(f"| {name.strip()} | {n}, keep{keep} | {unit} | {loads} | {rest} |")
    print()


def occupancy(path, text):
    rows = re.findall(r"^(.+): (\d+) blocks an SM \(must be 2", text, re.M)
    assert rows and all(b == "2" for _, b in rows), f"{path}: {rows}"
    print(f"{path}: the {len(rows)} kernels queried ({'; '.join(n for n, _ in rows)}), each 2 "
          "blocks an SM\n")


def tgz(path):
    with tarfile.open(os.path.join(HERE, path)) as t:
        return {m.name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}


def candidate(call, slug, synccheck_ok, mutants_fail):
    """A candidate rung's checks and its benchmark (v10, the candidate, CUB)."""
    tests = open(os.path.join(HERE, f"call-{call}/tests.txt")).read()
    m = re.search(r"^\[  PASSED  \] (\d+) tests", tests, re.M)
    assert m and "FAILED" not in tests, f"call {call}: copy_if's tests"
    misc = tgz(f"call-{call}/misc.tgz")
    assert "[  PASSED  ] 1 test" in misc["huge.txt"], f"call {call}: 2^31 + 17"
    arch = misc["arch80.txt"]
    a = re.search(r"^\[  PASSED  \] (\d+) tests", arch, re.M)
    assert a and "FAILED" not in arch, f"call {call}: the sm_80 build's tests"
    print(f"call {call} ({slug}): {m.group(1)} copy_if GPU tests passed; 2^31 + 17 passed; the "
          f"sm_80 build's tests: {a.group(1)} passed")
    for name, text in sorted(tgz(f"call-{call}/sanitizers.tgz").items()):
        ok = re.search(r"(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)", text)
        if "synccheck" in name and not synccheck_ok:
            bad = re.search(r"ERROR SUMMARY: (\d+) errors", text)
            kinds = sorted(set(re.findall(r"Barrier error detected\. ([^\n]+)", text)))
            assert bad and int(bad.group(1)) > 0, name
            print(f"  {name}: ERROR SUMMARY: {bad.group(1)} errors ({'; '.join(kinds)})")
            continue
        assert ok and "[  PASSED  ] 2 tests" in text, name
        print(f"  {name}: {ok.group(1)}, 2 tests passed")
    for name, text in sorted(tgz(f"call-{call}/mutants.tgz").items()):
        failed = len(set(re.findall(r"^\[  FAILED  \] (\S+), where", text, re.M)))
        passed = re.search(r"^\[  PASSED  \] (\d+) tests", text, re.M)
        ran = re.search(r"^\[==========\] (\d+) tests from", text, re.M)
        if ran and passed:  # --gtest_brief: each failure once; no test was skipped in these runs
            assert failed == int(ran.group(1)) - int(passed.group(1)), name
        done = "[==========]" in text
        key = name.split("-")[1].split(".")[0]
        if mutants_fail[key] == "fail":
            assert failed > 0, f"{name} passed"
            print(f"  {name}: {failed} tests failed")
        elif mutants_fail[key] == "hang":
            assert not done, f"{name} ended"
            print(f"  {name}: did not end within its 60 s (timeout 124)")
        else:
            assert passed and failed == 0, name
            print(f"  {name}: passed ({passed.group(1)} tests)")
    bench = open(os.path.join(HERE, f"call-{call}/bench/bench.txt")).read()
    med = dict(re.findall(r"^(copy_if/\S+)/manual_time_median\s+([\d.]+)", bench, re.M))
    cols = [(n, d) for n in (16777216, 268435456) for d in ("keep50", "keep1", "keep99")]
    print(f"\n| call-{call}/bench/bench.txt, µs (median of 5) | "
          + " | ".join(f"{n:,}, {d}" for n, d in cols) + " |")
    print("|---|" + "--:|" * len(cols))
    for v in ("v10_group_sums", slug, "cub"):
        print(f"| {v} | " + " | ".join(med[f"copy_if/{v}/n:{n}/dist:{d}"] for n, d in cols) + " |")
    print()


def probe(path):
    out = io.StringIO()
    stdout, sys.stdout = sys.stdout, out
    try:
        text = parse(path)
    finally:
        sys.stdout = stdout
    print(out.getvalue())
    extra_checks(path, text)
    return text


if __name__ == "__main__":
    text = probe("call-1/probe_v06_oracle_lat.txt")
    occupancy("call-1/probe_v06_oracle_lat.txt", text)
    times("call-1/probe_v06_oracle_lat.txt", text, 8)
    pace("call-1/probe_v06_oracle_lat.txt", text)
    text = probe("call-2/probe_v06_oracle_lat2.txt")
    occupancy("call-2/probe_v06_oracle_lat2.txt", text)
    times("call-2/probe_v06_oracle_lat2.txt", text, 6)
    text = probe("call-6/probe_v06_oracle_lat3.txt")
    occupancy("call-6/probe_v06_oracle_lat3.txt", text)
    times("call-6/probe_v06_oracle_lat3.txt", text, 6)
    probe("call-3/probe_v06_oracle_batch.txt")
    candidate(3, "v11_batched_lookahead", True, {"M1": "fail", "M2": "hang"})
    probe("call-4/probe_v06_oracle_paired.txt")
    candidate(4, "v11_paired_claims", False, {"M1": "fail", "M2": "fail"})
    probe("call-5/probe_v06_oracle_rewind.txt")
    candidate(5, "v11_group_word_head", True, {"M1": "fail", "M2": "pass"})
    probe("call-7/probe_v06_oracle_paired2.txt")
    text = probe("call-8/probe_v06_oracle_lat4.txt")
    occupancy("call-8/probe_v06_oracle_lat4.txt", text)
    times("call-8/probe_v06_oracle_lat4.txt", text, 3)
    split("call-8/probe_v06_oracle_lat4.txt", text)
    probe("call-9/probe_v06_oracle_fused.txt")
    candidate(9, "v11_one_reduction", True, {"M1": "fail", "M2": "fail"})
