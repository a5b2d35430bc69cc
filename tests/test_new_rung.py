#!/usr/bin/env python3
"""scripts/new_rung.py in a temporary copy of the tree: the file it writes, its registration in
<op>/mine.inc (and nothing else changed), an nvcc compile of the registry file that includes it
for one architecture (sm_90), and the refusals. Needs no GPU.

usage: test_new_rung.py [NVCC]   (NVCC: the CUDA compiler; default: nvcc on PATH; without one
the compile step is skipped and says so)
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = ["reduce", "scan", "sort", "elementwise", "copy_if", "histogram"]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def copy_tree(dst):
    shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns(
        "build*", ".git", "__pycache__", "results", "device-out", ".dev", "probe-bin"))


def snapshot(root):
    """{relative path: sha256} of every file under root."""
    files = {}
    for d, _, names in os.walk(root):
        for name in names:
            p = os.path.join(d, name)
            with open(p, "rb") as f:
                files[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
    return files


def changed(before, after):
    """The paths added, removed or modified between two snapshots."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def scaffold(root, *args):
    return subprocess.run([sys.executable, os.path.join(root, "scripts", "new_rung.py"), *args],
                          capture_output=True, text=True)


def header_problems(text, op, index, slug, prev):
    """What the four-part header and the kDoc of a scaffolded file lack."""
    problems = []
    lines = text.splitlines()
    first = f"// {op}/v{index:02d}_{slug}.cuh — {op} v{index:02d}:"
    if not lines or not lines[0].startswith(first):
        problems.append("first line does not name the file and the rung")
    for part in ("// Technique: TODO", f"// Changes from {prev}: TODO",
                 "// Remains (bottleneck): TODO", "// Source: TODO"):
        if not any(line.startswith(part) for line in lines):
            problems.append(f"header lacks '{part}'")
    doc = re.search(r"inline constexpr VersionDoc kDoc = \{(.*?)\};", text, re.S)
    if not doc:
        problems.append("no kDoc")
    else:
        body = doc.group(1)
        if not re.match(rf"\s*{index},\s*\"v{index:02d}_{slug}\",", body):
            problems.append("kDoc does not start with the index and slug")
        if body.count('"TODO') != 5:
            problems.append(f"kDoc has {body.count(chr(34) + 'TODO')} TODO fields, not 5")
    ns = f"namespace ladder::{op}::v{index:02d}"
    if f"{ns} {{" not in text or f"}}  // {ns}" not in text:
        problems.append(f"no '{ns}'")
    if re.search(rf"namespace ladder::{op}::v01\b", text):
        problems.append("the copied rung's namespace v01 is left")
    return problems


def registration_problems(inc, op, file_name, ns):
    """Where <op>/mine.inc fails to register the file: its #include in the first part (before
    #else), its entry, wrapped in yours(...), in the second."""
    problems = []
    m = re.search(r"#ifdef LADDER_MINE_FILES\n(.*?)#else\n(.*?)#endif", inc, re.S)
    if not m:
        return ["no '#ifdef LADDER_MINE_FILES / #else / #endif' frame"]
    files, entries = m.group(1), m.group(2)
    if f'#include "{op}/{file_name}"' not in files.splitlines():
        problems.append("the #include is not in the first part")
    if not re.search(rf"^yours\(entry.*\b{ns}::kDoc\b.*\)\),$", entries, re.M):
        problems.append("the entry is not in the second part")
    return problems


def main():
    nvcc = shutil.which(sys.argv[1] if len(sys.argv) > 1 else "nvcc")
    with tempfile.TemporaryDirectory(prefix="new-rung-") as tmp:
        root = os.path.join(tmp, "tree")
        copy_tree(root)
        before = snapshot(root)

        # The checks of this test reject what they must (a check that cannot fail is no check).
        good = open(os.path.join(ROOT, "reduce", "v01_interleaved_divergent.cuh")).read()
        check(header_problems(good, "reduce", 13, "x", "v12") != [],
              "self-test: a ladder rung's own header is not taken for a scaffolded one")
        check(registration_problems('#ifdef LADDER_MINE_FILES\n#else\n#include "reduce/v13_x.cuh"\n'
                                    "yours(entry(v13::kDoc, v13::launch)),\n#endif\n",
                                    "reduce", "v13_x.cuh", "v13") != [],
              "self-test: an #include in the entries' part is not a registration")
        fake = dict(before)
        fake["README.md"] = "changed"
        check(changed(before, fake) == ["README.md"], "self-test: a changed file is seen")

        # Refusals: one line on stderr, a non-zero exit, no traceback, the tree unchanged.
        for args, says in [(["gemm", "x"], "unknown operator 'gemm'"),
                           (["reduce", "2fast"], "is not an identifier"),
                           (["reduce", "two-per-thread"], "is not an identifier"),
                           (["reduce", "sequential_addressing"], "already exists"),
                           (["reduce", "x", "--from", "nowhere"], "invalid choice")]:
            r = scaffold(root, *args)
            err = r.stderr.strip().splitlines()
            one_line = len(err) == 1 or (args[-1] == "nowhere" and len(err) == 2)  # argparse
            check(r.returncode != 0 and any(says in e for e in err) and one_line and
                  "Traceback" not in r.stderr,
                  f"refuses {' '.join(args)!r}: {r.stderr.strip()!r}")
        check(changed(before, snapshot(root)) == [], "the refusals change nothing")

        # The README's worked example: reduce, from the simplest rung.
        files = [f for f in os.listdir(os.path.join(root, "reduce")) if re.match(r"v\d\d_", f)]
        index = max(int(f[1:3]) for f in files) + 1
        name = f"v{index:02d}_two_per_thread.cuh"
        r = scaffold(root, "reduce", "two_per_thread", "--from", "simplest")
        check(r.returncode == 0 and f"wrote reduce/{name}" in r.stdout,
              f"scaffolds reduce/{name}: {r.stdout.strip()!r} {r.stderr.strip()!r}")
        text = open(os.path.join(root, "reduce", name)).read()
        problems = header_problems(text, "reduce", index, "two_per_thread", f"v{index - 1:02d}")
        check(problems == [], f"its header and kDoc: {problems}")
        check("tile_kernel" in text and "launch_tree" in text,
              "--from simplest copies v01's kernel and launcher")
        inc = open(os.path.join(root, "reduce", "mine.inc")).read()
        problems = registration_problems(inc, "reduce", name, f"v{index:02d}")
        check(problems == [], f"registered in reduce/mine.inc: {problems}")
        check(changed(before, snapshot(root)) == sorted([f"reduce/{name}", "reduce/mine.inc"]),
              f"nothing else changed: {changed(before, snapshot(root))}")
        r = scaffold(root, "reduce", "two_per_thread")
        check(r.returncode != 0 and "already exists" in r.stderr, "the same name twice is refused")

        # Every ladder, from its top rung: the file and its registration.
        for op in OPS:
            r = scaffold(root, op, "mine_from_top")
            m = re.search(rf"wrote {op}/(v(\d\d)_mine_from_top\.cuh)", r.stdout)
            check(r.returncode == 0 and m is not None, f"{op}: scaffolds from the top rung")
            if not m:
                continue
            k = int(m.group(2))
            text = open(os.path.join(root, op, m.group(1))).read()
            problems = header_problems(text, op, k, "mine_from_top", f"v{k - 1:02d}")
            check(problems == [], f"{op}: header and kDoc: {problems}")
            inc = open(os.path.join(root, op, "mine.inc")).read()
            problems = registration_problems(inc, op, m.group(1), f"v{k:02d}")
            check(problems == [], f"{op}: registered in {op}/mine.inc: {problems}")

        # A build of the registry file that includes the new rungs, for sm_90 only.
        if not nvcc:
            print(f"{sys.argv[1] if len(sys.argv) > 1 else 'nvcc'} not found: skipping the compile "
                  "step")
        else:
            obj = os.path.join(tmp, "reduce.o")
            cmd = [nvcc, "-std=c++17", "--expt-relaxed-constexpr", "-arch=sm_90", "-I", root,
                   "-c", os.path.join(root, "reduce", "reduce.cu"), "-o", obj]
            r = subprocess.run(cmd, capture_output=True, text=True)
            check(r.returncode == 0 and os.path.exists(obj),
                  "nvcc compiles reduce/reduce.cu with both rungs of yours for sm_90" +
                  ("" if r.returncode == 0 else ":\n" + r.stderr[-3000:]))
            # ...and the check of the compile fails on a rung that does not compile.
            with open(os.path.join(root, "reduce", name), "a") as f:
                f.write("\nnamespace ladder::reduce::v%02d { int broken = undeclared; }\n" % index)
            r = subprocess.run(cmd, capture_output=True, text=True)
            check(r.returncode != 0, "self-test: nvcc rejects a rung that does not compile")

    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
