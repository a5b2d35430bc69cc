#!/usr/bin/env python3
"""Turn the long figure spans of markdown files into named ones.

    python3 scripts/figkeys.py reduce/README.md reduce/lab/LAB_NOTES.md
    python3 scripts/report.py --check       # the values are the same, now read through the names

A long span names its benchmarks in place:

    <!--fig:ratio reduce/v11_tiled_loads/n:2^10 reduce/cub/n:2^10-->1.272×<!--/fig-->

and a named one only a name, defined once in the sidecar `figures.txt` of the file's folder:

    <!--fig v11_cub_2e10-->1.272×<!--/fig-->          (reduce/README.md)
    v11_cub_2e10 = ratio reduce/v11_tiled_loads/n:2^10 reduce/cub/n:2^10   (reduce/figures.txt)

Each long span of the given files is replaced by a named one, its value kept (report.py renders
it again). A definition already in the sidecar is reused for the same figure (the same kind and
the same benchmarks, however the keys were written); new ones are appended. A name is derived
from the keys: the source (GPU `h100`, or a kept file's GPU and the words of its name that are
not an operator, a version, a commit or a date: `h200_closeup`), the operator where it is not the
folder's (`pairs` in sort/, `rowsum` in reduce/), the version (`v11`, or a baseline's slug), the
size (`2e10` for 2^10, `2e14+1`, `25.6M`), the input, the offset (`off1`), then the kind
(`us`, `pct`, `pctread`, `gbps`; a ratio has none and names both versions: `v11_cub`). Where two
keys of a ratio differ in more than the version, both values stand, joined by `_vs_`. A name
that is taken by another figure gets `_2`, `_3`, ...

Names can be chosen by hand too: a definition written in figures.txt before the run is reused
for its figure, and report.py accepts any name of letters, digits, `_`, `.` and `+`.

Standard library only.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder_report import figures, results  # noqa: E402

KIND_SUFFIX = {"time": "us", "pct": "pct", "pct2": "pct2", "pctread": "pctread", "gbps": "gbps", "ratio": ""}
# Words of a kept file's name that say which operators it holds (not needed in a figure's name).
GROUP_WORDS = {"elementwise", "axis", "transfer"}
HEADER = ("# Figure names of this folder's markdown: NAME = KIND KEY [KEY] (kinds: time, pct, "
          "pct2, pctread, gbps, ratio).\n# A span <!--fig NAME-->…<!--/fig--> shows it; "
          "scripts/report.py fills it in. Written by scripts/figkeys.py.\n")


def size_tag(n):
    """2e10 for 2^10, 2e14+1 for 2^14 + 1, 25.6M for 25,600,000, else the digits."""
    k = n.bit_length() - 1
    if n > 0 and n == 1 << k:
        return f"2e{k}"
    if k >= 10 and n - (1 << k) < 1 << (k - 4):
        return f"2e{k}+{n - (1 << k)}"
    if n % 100_000 == 0:
        return f"{n / 1e6:g}M"
    if n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


def is_hash(word):
    return re.fullmatch(r"[0-9a-f]{7,12}", word) is not None and re.search(r"[a-f]", word) \
        and re.search(r"\d", word)


def gpu_tag(slug):
    """h100 for nvidia-h100-80gb-hbm3, h200 for nvidia-h200."""
    words = slug.split("-")
    if words[0] == "nvidia" and len(words) > 1:
        words = words[1:]
    return re.sub(r"[^A-Za-z0-9]", "", words[0])


def file_tag(path):
    """h200_sweep for logs/nvidia-h200-sweep-reduce-scan-copy_if-62be97c-2026-11-23.json.gz:
    its GPU, then the words of its name that are not the GPU's, an operator, a version, a
    commit or a date."""
    base = re.sub(r"\.json(\.gz)?$", "", os.path.basename(path))
    base = re.sub(r"-\d{4}-\d{2}-\d{2}$", "", base)
    words = base.split("-")
    gpu = ""
    if words and words[0] == "nvidia" and len(words) > 1:
        gpu, words = words[1], words[2:]
        while words and re.fullmatch(r"\d+gb|hbm\d\w*|sxm\d*|pcie|nvl", words[0]):
            words = words[1:]
    ops = set(results.OPERATORS) | set(results.CHAPTER.values()) | GROUP_WORDS
    # the versions a kept file was run for are in the figure's name already
    words = [w for w in words if w and w not in ops and not is_hash(w)
             and not re.fullmatch(r"v\d\d", w)]
    return "_".join(re.sub(r"[^A-Za-z0-9]", "", w) for w in [gpu] + words if w)


def parse_key(text):
    """{src, op, slug, n, dist, off} of one written key (optionally GPU@ or FILE@)."""
    src, _, key = text.rpartition("@")
    k = figures.figure_key(key)
    return {"src": src, "op": k[0], "slug": k[1], "n": k[2], "dist": k[3],
            "off": k[4] if len(k) == 5 else None}


def canonical(kind, keys):
    """What a figure is, however its keys were written (n:2^28 or n:268435456)."""
    return (kind,) + tuple((p["src"], p["op"], p["slug"], p["n"], p["dist"], p["off"])
                           for p in map(parse_key, keys.split()))


def field_tags(p, folder_op):
    """The name's words for one key, field by field."""
    src = p["src"]
    if not src:
        src_tag = ""
    elif re.search(r"\.json(\.gz)?$", src):
        src_tag = file_tag(src)
    else:
        src_tag = gpu_tag(src)
    op = p["op"]
    if op == folder_op:
        op_tag = ""
    elif folder_op and op.startswith(folder_op + "_"):
        op_tag = op[len(folder_op) + 1:].replace("_", "")
    else:
        op_tag = op.replace("_", "")
    m = re.match(r"(v\d\d)_", p["slug"])
    return [("src", src_tag), ("op", op_tag), ("slug", m.group(1) if m else p["slug"]),
            ("n", size_tag(p["n"])), ("dist", p["dist"] or ""),
            ("off", f"off{p['off']}" if p["off"] is not None else "")]


def derive_name(kind, keys, folder_op):
    """A readable name of the figure (before making it unique in its sidecar)."""
    tags = [field_tags(parse_key(k), folder_op) for k in keys.split()]
    words = []
    for i, (field, a) in enumerate(tags[0]):
        b = tags[1][i][1] if len(tags) > 1 else a
        if a == b:
            words.append(a)
        elif field == "slug":
            words.append(f"{a}_{b}")
        else:
            words.append(f"{a or 'default'}_vs_{b or 'default'}")
    words.append(KIND_SUFFIX.get(kind, kind))
    name = "_".join(w for w in words if w)
    return re.sub(r"[^A-Za-z0-9_.+]", "", name)


def folder_op(folder):
    """The operator a chapter folder is named after (reduce/, sort/, ...), or None."""
    name = os.path.basename(os.path.abspath(folder))
    return name if name in results.OPERATORS else None


def convert(text, names, folder):
    """(text with its long spans named, [(name, kind, keys)] new definitions). `names` is the
    folder's {name: (kind, keys)}; it gains the new definitions."""
    by_figure = {}
    for name, (kind, keys) in names.items():
        try:
            by_figure.setdefault(canonical(kind, keys), name)
        except ValueError:  # a malformed definition: report.py --check says so
            pass
    new, op = [], folder_op(folder)

    def one(m):
        if not m.group(1):  # already named
            return m.group(0)
        kind, keys = m.group(1), " ".join(m.group(2).split())
        figure = canonical(kind, keys)
        name = by_figure.get(figure)
        if name is None:
            base = derive_name(kind, keys, op)
            name, i = base, 1
            while name in names:
                i += 1
                name = f"{base}_{i}"
            names[name] = (kind, keys)
            by_figure[figure] = name
            new.append((name, kind, keys))
        return f"<!--fig {name}-->{m.group(4)}<!--/fig-->"
    return figures.FIGURE.sub(one, text), new


def convert_files(paths):
    """Converts each file in place and appends the new names to its folder's sidecar. Returns
    [(path, spans named, new definitions)]."""
    done = []
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        sidecar = os.path.join(folder, figures.SIDECAR)
        names, _ = figures.read_sidecar(sidecar, sidecar)
        with open(path) as f:
            text = f.read()
        count = sum(1 for m in figures.FIGURE.finditer(text) if m.group(1))
        out, new = convert(text, names, folder)
        if out != text:
            with open(path, "w") as f:
                f.write(out)
        if new:
            old = HEADER
            if os.path.exists(sidecar):
                with open(sidecar) as f:
                    old = f.read()
            if old and not old.endswith("\n"):
                old += "\n"
            with open(sidecar, "w") as f:
                f.write(old + "".join(f"{n} = {k} {keys}\n" for n, k, keys in new))
        done.append((path, count, len(new)))
    return done


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="markdown files (chapters, lab notes)")
    args = ap.parse_args(argv)
    for path in args.files:
        if not os.path.exists(path):
            print(f"figkeys.py: error: no such file: {path}", file=sys.stderr)
            return 1
        sidecar = os.path.join(os.path.dirname(path), figures.SIDECAR)
        _, errors = figures.read_sidecar(sidecar, sidecar)
        if errors:
            print("figkeys.py: error: " + "; ".join(errors), file=sys.stderr)
            return 1
    for path, count, new in convert_files(args.files):
        print(f"{path}: {count} long spans named, {new} new names in "
              f"{os.path.join(os.path.dirname(path) or '.', figures.SIDECAR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
