#!/usr/bin/env python3
"""Scaffold your own rung: the next numbered version file of a ladder, registered as yours.

    python3 scripts/new_rung.py reduce two_per_thread                 # from the top rung
    python3 scripts/new_rung.py reduce two_per_thread --from simplest # from the first parallel one

writes reduce/v13_two_per_thread.cuh (the next free number) and adds its two lines to
reduce/mine.inc, the one place that registers a reader's rungs: reduce/reduce.cu reads that file
twice, for the #include and for the registry entry. The build, `cuda-ladder --list` (marked
"yours"), the GPU tests, the benchmark, `cuda-ladder --ops=reduce --mine`, the report and the
pictures then pick the rung up; nothing else in the tree changes.

--from top (the default): the top rung's launcher shape, its body a call of the top rung, so the
file is correct from the start and you replace the call with your kernel. --from simplest: a copy
of the ladder's first parallel rung (v01), kernel and all, renamed. Either way the file's header
and kDoc say TODO where you describe your rung.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Per ladder: the registry entry of a rung in namespace {v}, and the launcher of the --from top
# template ({top}: the top rung's namespace). Each entry passes the rung's kMaxN (and copy_if's
# kKeepsOrder), which every scaffolded file defines.
LADDERS = {
    "reduce": {
        "entry": "yours(entry({v}::kDoc, {v}::launch, {v}::workspace_bytes, {v}::kMaxN)),",
        "launcher": """\
// The contract (reduce/reduce.h, Launcher): in holds n floats (4-byte aligned only), out receives
// their sum (0.0f when n == 0), ws holds workspace_bytes(n) bytes, zeroed once when allocated.
inline size_t workspace_bytes(size_t n) {{ return {top}::workspace_bytes(n); }}

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {{
  return {top}::launch(in, out, n, ws, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
    "scan": {
        "entry": "yours(entry({v}::kDoc, {v}::launch, {v}::workspace_bytes, {v}::kMaxN)),",
        "launcher": """\
// The contract (scan/scan.h, Launcher): out[i] = in[0] + ... + in[i] for n int32 values; ws
// holds workspace_bytes(n) bytes.
inline size_t workspace_bytes(size_t n) {{ return {top}::workspace_bytes(n); }}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {{
  return {top}::launch(in, out, n, ws, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
    "sort": {
        "entry": "yours(entry(s, {v}::kDoc, {v}::launch, nullptr, {v}::workspace_bytes, "
                 "{v}::kMaxN)),",
        "launcher": """\
// The contract (sort/sort.h, Launcher): out receives the n uint32 keys of in in ascending order;
// ws holds workspace_bytes(n) bytes.
inline size_t workspace_bytes(size_t n) {{ return {top}::workspace_bytes(n); }}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {{
  return {top}::launch(in, out, n, ws, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
    "copy_if": {
        "entry": "yours(entry({v}::kDoc, {v}::launch, {v}::workspace_bytes, {v}::kKeepsOrder, "
                 "{v}::kMaxN)),",
        "launcher": """\
// The contract (copy_if/copy_if.h, Launcher): out receives the values x > 0 of in (in input
// order when kKeepsOrder), *count how many; ws holds workspace_bytes(n) bytes.
inline size_t workspace_bytes(size_t n) {{ return {top}::workspace_bytes(n); }}

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {{
  return {top}::launch(in, out, count, n, ws, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
    "histogram": {
        "entry": "yours(entry<T>(name, {v}::kDoc, {v}::launch<T>, {v}::workspace_bytes, "
                 "{v}::kMaxN)),",
        "launcher": """\
// The contract (histogram/histogram.h, Launcher): bins receives the 256 counts of the n samples
// of in (int32 in [0, 256), or uint8); ws holds workspace_bytes(n) bytes.
inline size_t workspace_bytes(size_t n) {{ return {top}::workspace_bytes(n); }}

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void* ws, cudaStream_t stream) {{
  return {top}::launch<T>(in, bins, n, ws, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
    "elementwise": {
        "entry": "yours(entry<T>(name, K, {v}::kDoc, {v}::launch<K, T>, {v}::kMaxN)),",
        # v06 and v07 are rungs of the fused operators only, v08 and v09 of add_f32 only: v05 is
        # the top rung that serves all five
        "top": "v05",
        "launcher": """\
// The contract (elementwise/ops.cuh): out[i] = element<K>(a, i) for i < n, for every operator
// kind K (GELU, fused, add) and type T (float, __half).
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {{
  return {top}::launch<K, T>(a, out, n, stream);  // TODO: launch your kernel(s) instead
}}
""",
    },
}

SIMPLEST = "v01"  # the first parallel rung of every ladder
RUNG_FILE = re.compile(r"^v(\d\d)_(\w+)\.cuh$")


class Refusal(Exception):
    pass


def mine_inc_text(op):
    """The empty registration file of a ladder (the tree ships one per ladder)."""
    prose = (f"`python3 scripts/new_rung.py {op} <slug>` writes {op}/vNN_<slug>.cuh and adds two "
             f"lines here: its #include to the first part, its registry entry to the second. "
             f"{op}/{op}.cu reads this file twice, once for each part, so these two lines are all "
             f"it takes: the build, `--list` (which marks the rung \"yours\"), the tests, the "
             f"benchmark, `--mine`, the report and the pictures pick the rung up. To make it a "
             f"rung of the ladder, move the two lines into {op}/{op}.cu: the #include after the "
             f"ladder's others, the entry after the top rung's entry, without `yours(...)` around "
             f"it.")
    lines = textwrap.wrap(prose, 97, break_on_hyphens=False)
    return (f"// {op}/mine.inc — your own rungs (README.md, \"Write your own rung\").\n//\n" +
            "".join(f"// {line}\n" for line in lines) +
            "#ifdef LADDER_MINE_FILES\n#else\n#endif\n")


def rung_files(root, op):
    """{index: file name} of the ladder's version files, yours included."""
    found = {}
    for name in os.listdir(os.path.join(root, op)):
        m = RUNG_FILE.match(name)
        if m:
            found.setdefault(int(m.group(1)), name)
    return found


def mine_files(root, op):
    """The file names mine.inc includes (yours)."""
    path = os.path.join(root, op, "mine.inc")
    if not os.path.exists(path):
        return []
    return re.findall(rf'^#include "{op}/(v\d\d_\w+\.cuh)"', open(path).read(), re.M)


def top_rung(root, op):
    """The ladder's top rung (yours excluded): its namespace, e.g. "v12"."""
    if "top" in LADDERS[op]:
        return LADDERS[op]["top"]
    mine = set(mine_files(root, op))
    ladder = [i for i, f in rung_files(root, op).items() if f not in mine]
    return f"v{max(ladder):02d}"


def header(op, index, slug, prev, origin):
    return f"""\
// {op}/v{index:02d}_{slug}.cuh — {op} v{index:02d}: TODO one line: what this rung does.
// Technique: TODO the idea this rung shows, in two or three sentences.
// Changes from {prev}: TODO what changed from the previous rung.
// {origin}
// Remains (bottleneck): TODO what is still slow: the reason for the next rung.
// Source: TODO the paper, talk, library or chapter the idea comes from.
"""


def kdoc(index, slug, prev):
    return f"""\
inline constexpr VersionDoc kDoc = {{
    {index}, "v{index:02d}_{slug}", "TODO: one line, what this rung does",
    /*technique*/ "TODO: the idea this rung shows",
    /*changes*/ "TODO: what changed from {prev}, the previous rung",
    /*remains*/ "TODO: the bottleneck that remains",
    /*source*/ "TODO: where the idea comes from"}};
"""


def from_top(root, op, index, slug):
    top = top_rung(root, op)
    top_file = rung_files(root, op)[int(top[1:])]
    top_text = open(os.path.join(root, op, top_file)).read()
    has_max = re.search(r"\bkMaxN\s*=", top_text) is not None
    ns = f"v{index:02d}"
    prev = f"v{index - 1:02d}"
    origin = f"(This file started as a call of {top}: replace it with your kernel.)"
    lines = [header(op, index, slug, prev, origin),
             "#pragma once\n\n#include <cuda_runtime.h>\n\n"
             "#include <cstddef>\n#include <cstdint>\n\n"
             f'#include "common/registry.h"\n#include "{op}/{top_file}"\n\n'
             f"namespace ladder::{op}::{ns} {{\n\n",
             kdoc(index, slug, prev), "\n"]
    if has_max:
        lines.append(f"inline constexpr size_t kMaxN = {top}::kMaxN;  // the largest n it runs "
                     "at\n")
    else:
        lines.append("inline constexpr size_t kMaxN = SIZE_MAX;  // the largest n it runs at\n")
    if op == "copy_if":
        lines.append("inline constexpr bool kKeepsOrder = true;  // false: the kept values in any "
                     "order\n")
    lines.append(f"\n// TODO: your kernel(s) here.\n\n")
    lines.append(LADDERS[op]["launcher"].format(top=top))
    lines.append(f"\n}}  // namespace ladder::{op}::{ns}\n")
    return "".join(lines)


def from_simplest(root, op, index, slug):
    name = rung_files(root, op).get(int(SIMPLEST[1:]))
    if name is None:
        raise Refusal(f"{op} has no {SIMPLEST} rung to start from; use --from top")
    text = open(os.path.join(root, op, name)).read()
    ns = f"v{index:02d}"
    prev = f"v{index - 1:02d}"
    body = text.split("#pragma once", 1)
    if len(body) != 2:
        raise Refusal(f"{op}/{name} has no '#pragma once' to start from; use --from top")
    text = header(op, index, slug, prev, f"(This file started as a copy of {name[:-4]}.)") + \
        "#pragma once" + body[1]
    text = text.replace(f"ladder::{op}::{SIMPLEST}", f"ladder::{op}::{ns}")
    text, count = re.subn(r"inline constexpr VersionDoc kDoc = \{.*?\};\n", kdoc(index, slug, prev),
                          text, count=1, flags=re.S)
    if count != 1:
        raise Refusal(f"{op}/{name} has no kDoc to replace; use --from top")
    extra = ""
    if not re.search(r"\bkMaxN\s*=", text):
        extra += "inline constexpr size_t kMaxN = SIZE_MAX;  // the largest n it runs at\n"
    if op == "copy_if" and "kKeepsOrder" not in text:
        extra += ("inline constexpr bool kKeepsOrder = false;  // v01 keeps no order: any order of "
                  "the kept values\n")
    if extra:
        text = text.replace(kdoc(index, slug, prev), kdoc(index, slug, prev) + "\n" + extra, 1)
    return text


def clang_format(root, path):
    """Lays the new file out as the repository's .clang-format says, where clang-format exists
    (the templates are close to it; the kDoc's layout depends on the strings' lengths)."""
    tool = shutil.which("clang-format")
    style = os.path.join(root, ".clang-format")
    if tool and os.path.exists(style):
        subprocess.run([tool, f"--style=file:{style}", "-i", path], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def register(root, op, file_name, entry):
    path = os.path.join(root, op, "mine.inc")
    text = open(path).read() if os.path.exists(path) else mine_inc_text(op)
    if text.count("#ifdef LADDER_MINE_FILES") != 1 or text.count("\n#else\n") != 1 or \
            "\n#endif" not in text:
        raise Refusal(f"{op}/mine.inc has lost its '#ifdef LADDER_MINE_FILES / #else / #endif' "
                      "frame; put it back (README.md, \"Write your own rung\")")
    text = text.replace("\n#else\n", f'\n#include "{op}/{file_name}"\n#else\n', 1)
    head, tail = text.rsplit("\n#endif", 1)
    text = head + f"\n{entry}\n#endif" + tail
    return path, text


def scaffold(root, op, slug, origin):
    if op not in LADDERS:
        raise Refusal(f"unknown operator '{op}' (known: {', '.join(LADDERS)})")
    if not (slug.isidentifier() and slug.isascii()):
        raise Refusal(f"slug '{slug}' is not an identifier (letters, digits and _, not starting "
                      "with a digit), e.g. two_per_thread")
    files = rung_files(root, op)
    for name in files.values():
        if RUNG_FILE.match(name).group(2) == slug:
            raise Refusal(f"{op}/{name} already exists: choose another slug")
    index = max(files) + 1
    if index > 99:
        raise Refusal(f"the {op} ladder has no free number left (v99 is the last)")
    file_name = f"v{index:02d}_{slug}.cuh"
    path = os.path.join(root, op, file_name)
    if os.path.exists(path):
        raise Refusal(f"{op}/{file_name} already exists")
    text = (from_top if origin == "top" else from_simplest)(root, op, index, slug)
    inc_path, inc_text = register(root, op, file_name,
                                  LADDERS[op]["entry"].format(v=f"v{index:02d}"))
    with open(path, "x") as f:  # "x": never overwrite
        f.write(text)
    clang_format(root, path)
    with open(inc_path, "w") as f:
        f.write(inc_text)
    return f"{op}/{file_name}", f"{op}/mine.inc"


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="new_rung.py", description="Scaffold your own rung of a ladder (README.md, "
        "\"Write your own rung\").")
    parser.add_argument("op", help="the ladder: " + ", ".join(LADDERS))
    parser.add_argument("slug", help="your rung's name, an identifier: two_per_thread")
    parser.add_argument("--from", dest="origin", choices=["top", "simplest"], default="top",
                        help="start from the top rung's launcher (a call of the top rung; the "
                        "default) or from a copy of the first parallel rung, v01")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)  # the tests' copies
    args = parser.parse_args(argv)
    try:
        rung, inc = scaffold(args.root, args.op, args.slug, args.origin)
    except Refusal as e:
        print(f"new_rung.py: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"new_rung.py: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    ns = rung.split("/")[1][:3]
    judge = args.op if args.op != "elementwise" else "gelu_f32"
    print(f"wrote {rung} (registered in {inc}, as yours)\n"
          f"next: fill in its TODOs, build (cmake --build build -j), then judge it:\n"
          f"  ./build/cuda-ladder --ops={judge} --mine    # {ns}: correct? how fast beside the "
          f"top rung and CUB?")
    return 0


if __name__ == "__main__":
    sys.exit(main())
