#!/usr/bin/env python3
"""`cuda-ladder --mine` on the GPU, as README.md's "Write your own rung" walks it: a temporary copy
of the tree gets two rungs of yours from scripts/new_rung.py, the README's two-line edit made
right (two_per_thread) and made wrong (off_by_one: a thread that holds the last, lone element of
an odd-sized range drops it); the copy is built for this machine's GPU only (the cuda-ladder
target alone), and `--ops=reduce --mine` must pass the first, fail the second naming its failing
case (n, input, offset, seed, index, got and want), print the timing table, and exit 1.

Skipped, saying so, where nvidia-smi finds no GPU. Takes one build of the binary for one
architecture (a few minutes on a GPU machine's cores). usage: test_mine_gpu.py [CMAKE]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The README's edit of the copy of reduce v01 (the lines as new_rung.py --from simplest writes
# them, and what they become).
LOAD = "  smem[tid] = i < m ? in[i] : 0.0f;"
LAUNCH = "  return launch_tree(tile_kernel, kThreads, kThreads, in, out, n, ws, stream);"
RIGHT = "  smem[tid] = (2 * i < m ? in[2 * i] : 0.0f) + (2 * i + 1 < m ? in[2 * i + 1] : 0.0f);"
WRONG = "  smem[tid] = 2 * i + 1 < m ? in[2 * i] + in[2 * i + 1] : 0.0f;"
TILE = "  return launch_tree(tile_kernel, kThreads, 2 * kThreads, in, out, n, ws, stream);"


def gpu_present():
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"nvidia-smi cannot run: {e}"
    if r.returncode != 0 or "GPU" not in r.stdout:
        return False, "nvidia-smi lists no GPU"
    return True, ""


def run(cmd, **kw):
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    present, why = gpu_present()
    if not present:
        print(f"no CUDA device: skipping the --mine GPU test ({why})")
        return 0
    cmake = sys.argv[1] if len(sys.argv) > 1 else "cmake"
    failures = []

    def check(ok, what, detail=""):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)
            if detail:
                print(detail[-6000:])

    with tempfile.TemporaryDirectory(prefix="mine-gpu-") as tmp:
        root = os.path.join(tmp, "tree")
        shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(
            "build*", ".git", "__pycache__", "results", "device-out", ".dev", "probe-bin"))
        names = {}
        for slug, load in (("two_per_thread", RIGHT), ("off_by_one", WRONG)):
            r = run([sys.executable, os.path.join(root, "scripts", "new_rung.py"), "reduce", slug,
                     "--from", "simplest"])
            m = re.search(r"wrote reduce/(v\d\d_\w+)\.cuh", r.stdout)
            if r.returncode != 0 or not m:
                check(False, f"scaffolds reduce {slug}", r.stdout + r.stderr)
                return 1
            names[slug] = m.group(1)
            path = os.path.join(root, "reduce", m.group(1) + ".cuh")
            text = open(path).read()
            check(text.count(LOAD) == 1 and text.count(LAUNCH) == 1,
                  f"{m.group(1)} holds the two lines the README edits")
            with open(path, "w") as f:
                f.write(text.replace(LOAD, load).replace(LAUNCH, TILE))
        build = os.path.join(root, "build")
        arch = os.environ.get("LADDER_MINE_TEST_ARCH", "native")
        r = run([cmake, "-S", root, "-B", build, f"-DCMAKE_CUDA_ARCHITECTURES={arch}"])
        if r.returncode != 0:
            check(False, "configures the copy", r.stdout + r.stderr)
            return 1
        jobs = str(os.cpu_count() or 2)
        r = run([cmake, "--build", build, "--target", "cuda-ladder", "-j", jobs])
        if r.returncode != 0:
            check(False, "builds the copy's cuda-ladder", r.stdout + r.stderr)
            return 1
        r = run([os.path.join(build, "cuda-ladder"), "--ops=reduce", "--mine", "--sizes=2^20"])
        out = r.stdout
        right, wrong = names["two_per_thread"], names["off_by_one"]
        check(r.returncode == 1, f"exits 1 (got {r.returncode})", out + r.stderr)
        check(f"cuda-ladder --mine: reduce/{right}: correct on all " in out,
              f"{right} is correct on every case", out)
        check(f"cuda-ladder --mine: reduce/{wrong}: WRONG at n=1, dist=uniform, offset=0 "
              "(seed 0x7e58, run 1 of 2): index 0: got 0, want 0.00687026978" in out,
              f"{wrong} fails at n=1 with the README's message", out)
        check("reduce, n = 1048576, input uniform:" in out, "prints the table at 2^20", out)
        row = re.search(rf"reduce/{right}\s+ok\s+[\d.]+\s+[\d.]+%\s+[\d.]+ \(v12_size_dispatch\)"
                        rf"\s+[\d.]+", out)
        check(row is not None, f"{right}'s row: time, % copy, over v12 and over cub", out)
        check(re.search(rf"reduce/{wrong}\s+WRONG", out) is not None, f"{wrong}'s row: WRONG", out)
        check("1 rung(s) of yours failed a check" in r.stderr, "says so on stderr", r.stderr)
        # the catalog marks both as yours
        r = run([os.path.join(build, "cuda-ladder"), "--list", "--ops=reduce"])
        check(len(re.findall(r'"yours": true', r.stdout)) == 2, "--list marks both rungs yours")

    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
