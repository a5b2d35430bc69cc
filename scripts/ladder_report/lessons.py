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

A third, on the chapters (`<op>/README.md`, its sub-folders' README.md, and README.md at the
root): no figure span reads `results/logs/`, neither a span whose key names a file there
(`<!--fig:time logs/run.json.gz@...-->`) nor a named span (`<!--fig NAME-->`) whose definition
in the folder's figures.txt does. A chapter quotes the frozen run of each GPU
(results/MANIFEST.json); the lab notes (`<op>/lab/`) may read the logs.

All report findings as (path relative to the root, line, what, the text found). report.py
--check runs them; they fail --check only when enforced (report.py --lessons, or
LADDER_LESSONS=1 in the environment). The logs-span check fails it only when, besides,
ENFORCE_LOGS_SPANS below is True (or LADDER_LOGS_SPANS=1 is set); with it False, --lessons lists
and counts such spans but passes.
"""
import glob
import os
import re

from .figures import FIGURE, SIDECAR, read_sidecar

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


# Whether a chapter's figure span that reads results/logs/ fails `report.py --check --lessons`
# (issue 56 counted 49 such spans; the chapters now hold none). Set it to False to count and list
# them without failing, as while chapters still held them; LADDER_LOGS_SPANS=1 then enforces the
# check for one run.
ENFORCE_LOGS_SPANS = True
LOGS = "logs/"


def lesson_pages(root):
    """The pages that must quote only the frozen run: README.md at the root and the chapters
    (chapter_files: */README.md, */*/README.md; results/README.md, a reader's index, included),
    never the lab notes (a */lab/ folder)."""
    pages = [p for p in chapter_files(root)
             if "lab" not in os.path.relpath(p, root).split(os.sep)[:-1]]
    readme = os.path.join(root, "README.md")
    return ([readme] if os.path.exists(readme) else []) + pages


def reads_logs(keys):
    """Whether a span's keys (one or two, each optionally FILE@ or GPU@) read a file under
    results/logs/."""
    return any("@" in k and k.split("@", 1)[0].startswith(LOGS) for k in keys.split())


def logs_spans(root, texts=None):
    """[(path, line, what, text)]: the figure spans of the lesson pages (lesson_pages) that read
    results/logs/, directly or through the name their folder's figures.txt defines. `texts`
    ({path: text}) stands in for a file's contents where given (report.py's rendering)."""
    findings, sidecars = [], {}
    for path in lesson_pages(root):
        if texts and path in texts:
            text = texts[path]
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        folder = os.path.dirname(path)
        if folder not in sidecars:
            sidecars[folder] = read_sidecar(os.path.join(folder, SIDECAR), label="")[0]
        rel = os.path.relpath(path, root)
        for m in FIGURE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            if m.group(3):  # a named span: its definition
                kind, keys = sidecars[folder].get(m.group(3), ("", ""))
                what = f"figure {m.group(3)!r} reads results/logs/"
            else:
                keys, what = m.group(2), "figure span reads results/logs/"
            if reads_logs(keys):
                logs = [k.split("@", 1)[0] for k in keys.split() if k.startswith(LOGS)]
                findings.append((rel, line, what, logs[0]))
    return findings


def logs_spans_enforced(flag):
    """Whether logs_spans' findings fail report.py: enforced(flag), and ENFORCE_LOGS_SPANS or
    LADDER_LOGS_SPANS=1."""
    on = ENFORCE_LOGS_SPANS or os.environ.get("LADDER_LOGS_SPANS", "") not in ("", "0")
    return enforced(flag) and on


def enforced(flag):
    """Whether the checks fail report.py: its --lessons flag, or LADDER_LESSONS=1."""
    return flag or os.environ.get("LADDER_LESSONS", "") not in ("", "0")


def format_findings(findings):
    return [f"{path}:{line}: {what}: {word!r}" for path, line, what, word in findings]
