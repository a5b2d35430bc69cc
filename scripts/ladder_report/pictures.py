"""The pictures scripts/plots.py draws, embedded with their captions."""
import json
import os
import re

from . import results


# The pictures scripts/plots.py draws per GPU and operator, in the order they are shown.
PICTURES = ("ladder", "steps", "sweep")
# The captions scripts/plots.py writes beside them: {"NAME.png": "what it draws, its GPU, its
# input"}. Shown in italics under each picture report.py embeds, and in a chapter's caption spans
#     <!--caption:sort-vs-cub.png-->…<!--/caption-->
# (a name captions.json lacks is an error there; a missing file means no captions).
CAPTIONS = "results/plots/captions.json"
CAPTION = re.compile(r"<!--caption:([^>\s]+)-->(.*?)<!--/caption-->", re.S)


def captions():
    path = os.path.join(results.ROOT, CAPTIONS)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def caption_text(text):
    """A caption as one line of markdown in italics."""
    return "*" + " ".join(text.split()).replace("*", "\\*") + "*"


def picture(png, alt, prefix=""):
    """Markdown lines of one embedded picture (a path from the root; `prefix` leads the link
    from the file that embeds it) and its caption in italics under it, where captions.json has
    one."""
    lines = [f"![{alt}]({prefix}{png})", ""]
    text = captions().get(os.path.basename(png))
    if text:
        lines += [caption_text(text), ""]
    return lines


def render_captions(text, errors):
    """text with each caption span filled from captions.json."""
    known = None

    def one(m):
        nonlocal known
        if known is None:
            known = captions()
        if m.group(1) not in known:
            errors.append(f"no caption for {m.group(1)!r} in {CAPTIONS}")
            return m.group(0)
        return (f"<!--caption:{m.group(1)}-->{' '.join(known[m.group(1)].split())}"
                "<!--/caption-->")
    return CAPTION.sub(one, text)


def pictures(gpu_slug, op, folder="results/plots"):
    """The pictures of op that exist, as paths from the repository root: the GPU's ladder and
    sweep, then the top rung ÷ CUB against n (one picture for every GPU). folder: where
    scripts/plots.py drew them (results/plots/yours for a reader's own runs)."""
    paths = [f"{folder}/{gpu_slug}-{op}-{kind}.png" for kind in PICTURES]
    paths.append(f"{folder}/{op}-vs-cub.png")
    return [p for p in paths if os.path.exists(os.path.join(results.ROOT, p))]
