"""The lesson check: words that belong in an operator's lab notes, not in its lesson.

A chapter (`*/README.md`, `*/*/README.md`; of results/ only its README.md) and the header of
every version (`vNN_*.cuh`, the first HEADER_CHARS characters, sub-folders such as reduce/rows
included) must not hold lab talk: a commit hash, a probe file name, "session(s)", "seed 00N".
Text inside HTML
comments is ignored (a figure span's key may name a kept file whose name holds a hash). The lab
notes (`<op>/lab/LAB_NOTES.md`) are where such words go, and they are not checked.

A second check, on every markdown file report.py renders (README.md, the chapters, the lab
notes): no line that holds a figure span is LINE_LIMIT characters or longer, the generated
blocks aside (a hand-written table's row counts).

Both report findings as (path relative to the root, line, what, the text found). report.py
--check runs them; they fail --check only when enforced (report.py --lessons, or
LADDER_LESSONS=1 in the environment).
"""
import glob
import os
import re

HEADER_CHARS = 4000
LINE_LIMIT = 160

# What a lesson must not hold: (what, pattern). A hash is 7 to 12 lower-case hex digits with at
# least one letter and one digit, standing alone (not inside a word, not after 0x).
LAB_WORDS = [
    ("commit hash", re.compile(r"(?<![0-9A-Za-z_])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])"
                               r"[0-9a-f]{7,12}(?![0-9A-Za-z_])")),
    ("probe file", re.compile(r"probe_\w+\.cu", re.I)),
    ("session", re.compile(r"\bsessions?\b", re.I)),
    ("seed", re.compile(r"\bseed\s+00\d\b", re.I)),
]

# Folders at the root that hold no lesson: the raw results and build trees.
SKIP_TOP = re.compile(r"^(results$|build|\.)")


def _kept(rel):
    return not SKIP_TOP.match(rel.split(os.sep)[0])


def chapter_files(root):
    """The chapters: */README.md and */*/README.md under root, build trees aside, and of
    results/ only its README.md (a reader's index; where each file came from is PROVENANCE.md)."""
    paths = glob.glob(os.path.join(root, "*", "README.md")) + \
        glob.glob(os.path.join(root, "*", "*", "README.md"))
    kept = [p for p in paths if _kept(os.path.relpath(p, root))]
    index = os.path.join(root, "results", "README.md")
    if os.path.exists(index):
        kept.append(index)
    return sorted(kept)


def header_files(root):
    """Every version's source, vNN_*.cuh, at any depth under root (results/, builds aside)."""
    out = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        if rel != "." and not _kept(rel):
            dirs[:] = []
            continue
        dirs.sort()
        out += [os.path.join(d, f) for f in files if re.match(r"v\d\d_.*\.cuh$", f)]
    return sorted(out)


def blank_comments(text):
    """text with every HTML comment's characters turned to spaces (newlines kept, so that line
    numbers stay)."""
    return re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def lab_words(text):
    """[(line, what, text found)] in text, HTML comments ignored."""
    text = blank_comments(text)
    found = []
    for what, pattern in LAB_WORDS:
        for m in pattern.finditer(text):
            found.append((text.count("\n", 0, m.start()) + 1, what, " ".join(m.group(0).split())))
    return sorted(found)


def check_lessons(root):
    """[(path, line, what, text)]: lab talk in the chapters and version headers under root."""
    findings = []
    for path in chapter_files(root) + header_files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if path.endswith(".cuh"):
            text = text[:HEADER_CHARS]
        rel = os.path.relpath(path, root)
        findings += [(rel, line, what, word) for line, what, word in lab_words(text)]
    return findings


FIGURE_SPAN = re.compile(r"<!--fig[: ]")
GENERATED = re.compile(r"<!-- (BEGIN|END) generated")


def long_span_lines(texts, limit=LINE_LIMIT):
    """[(path, line, what, text)]: the lines of {path: markdown} that hold a figure span and are
    `limit` characters or longer, those inside a `<!-- BEGIN generated ... -->` ... `<!-- END
    generated ... -->` block aside."""
    findings = []
    for path, text in sorted(texts.items()):
        inside = False
        for i, line in enumerate(text.splitlines(), 1):
            g = GENERATED.match(line.strip())
            if g:
                inside = g.group(1) == "BEGIN"
                continue
            if not inside and FIGURE_SPAN.search(line) and len(line) >= limit:
                findings.append((path, i, f"{len(line)} characters with a figure span",
                                 line[:50] + "…"))
    return findings


def enforced(flag):
    """Whether the checks fail report.py: its --lessons flag, or LADDER_LESSONS=1."""
    return flag or os.environ.get("LADDER_LESSONS", "") not in ("", "0")


def format_findings(findings):
    return [f"{path}:{line}: {what}: {word!r}" for path, line, what, word in findings]
