#!/usr/bin/env python3
"""Command-line behaviour of cuda-ladder that needs no GPU.

Usage: test_cli.py PATH/TO/cuda-ladder

Bad input must give a one-line "cuda-ladder: error: ..." message and a non-zero exit, never a
crash; --list and --help work without a GPU. Runs with CUDA_VISIBLE_DEVICES="" so that no GPU is
visible even on a machine that has one. Prints "N passed, N failed" and exits 1 on a failure.
"""
import json
import os
import subprocess
import sys

BINARY = sys.argv[1]
ENV = dict(os.environ, CUDA_VISIBLE_DEVICES="")
passed = failed = 0


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, env=ENV, timeout=60)


def expect(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def expect_error(args, status, words):
    r = run(*args)
    lines = r.stderr.strip().splitlines()
    ok = (r.returncode == status and len(lines) == 1 and lines[0].startswith("cuda-ladder: error:")
          and words in lines[0])
    expect(" ".join(args) or "(no args)", ok,
           f"exit {r.returncode} (want {status}), stderr {r.stderr!r}, want words {words!r}")


expect_error(["--bogus"], 2, "unknown argument '--bogus'")
expect_error(["positional"], 2, "unknown argument 'positional'")
expect_error(["--ops=reduce,nosuchop"], 2, "unknown operator 'nosuchop'")
expect_error(["--sizes=12abc"], 2, "not a number")
expect_error(["--sizes=1,,2"], 2, "empty entry")
expect_error(["--sizes=2^50"], 2, "too large")
expect_error(["--sizes"], 2, "needs a value")
expect_error(["--device=-1"], 2, "device index")
expect_error(["--benchmark_repetitions=0"], 2, "positive count")
expect_error(["--benchmark_repetitions=-3"], 2, "positive count")
expect_error(["--benchmark_repetitions=two"], 2, "positive count")
expect_error(["--list=yes"], 2, "takes no value")
expect_error(["--results_dir=x", "--benchmark_out=y.json"], 2, "both name the output file")
expect_error(["--inject-fault=("], 2, "regular expression")
expect_error(["--quick=1"], 2, "takes no value")
expect_error(["--quick"], 1, "no CUDA device")
expect_error(["--offset=2000"], 2, "--offset needs an element count")
expect_error(["--offset=x"], 2, "--offset needs an element count")
expect_error(["--benchmark_filter=reduce/v99"], 2, "matches none of the")
expect_error(["--ops=scan", "--benchmark_filter=copy_if"], 2, "matches none of the")
expect_error(["--benchmark_filter=-.*"], 2, "matches none of the")
expect_error(["--benchmark_filter=("], 2, "not a regular expression")
expect_error(["--benchmark_filter=scan/v15/n:268435456/manual_time$", "--offset=1"], 2,
             "matches none of the")
expect_error(["--benchmark_filter=scan/v15_[a-z_]+/n:268435456/offset:1"], 2, "matches none")
expect_error(["--benchmark_filter=scan/v15_[a-z_]+/n:268435456/offset:1", "--offset=1"], 1,
             "no CUDA device")
expect_error(["--benchmark_filter=reduce/v11"], 1, "no CUDA device")
expect_error([], 1, "no CUDA device")
expect_error(["--ops=reduce", "--sizes=1000"], 1, "no CUDA device")

r = run("--help")
expect("--help", r.returncode == 0 and "--sizes" in r.stdout and "--benchmark_" in r.stdout,
       r.stdout + r.stderr)

r = run("--list")
try:
    catalog = json.loads(r.stdout)
    names = [v["name"] for op in catalog["operators"] for v in op["versions"]]
    ok = (r.returncode == 0 and "reduce/v00_serial" in names and "reduce/cub" in names
          and all(v["remains"] for op in catalog["operators"] for v in op["versions"]))
    expect("--list", ok, r.stdout[:200])
except json.JSONDecodeError as e:
    expect("--list", False, f"not JSON: {e}: {r.stdout[:200]!r}")

r = run("--list", "--ops=reduce")
expect("--list --ops", r.returncode == 0 and [o["name"] for o in json.loads(r.stdout)["operators"]]
       == ["reduce"], r.stdout[:200])

# --mine: the reader's own rungs (README.md, "Write your own rung"). With none registered (the
# tree as committed) it says so in one line; with some, it gets as far as the GPU.
expect_error(["--mine=1"], 2, "takes no value")
expect_error(["--mine", "--quick"], 2, "both choose the versions to run")
catalog = json.loads(run("--list").stdout)
expect("--list marks every version yours or not",
       all(isinstance(v.get("yours"), bool) for op in catalog["operators"] for v in op["versions"]))
mine_ops = [op["name"] for op in catalog["operators"] if any(v["yours"] for v in op["versions"])]
if mine_ops:
    expect_error(["--mine"], 1, "no CUDA device")
    expect_error([f"--ops={mine_ops[0]}", "--mine"], 1, "no CUDA device")
else:
    expect_error(["--mine"], 2, "no rung of yours is registered; write one with: python3 "
                 "scripts/new_rung.py")
    expect_error(["--ops=reduce", "--mine"], 2, "no rung of yours is registered for --ops=reduce")
others = [op["name"] for op in catalog["operators"] if op["name"] not in mine_ops]
expect_error([f"--ops={others[0]}", "--mine"], 2, f"no rung of yours is registered for "
             f"--ops={others[0]}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
