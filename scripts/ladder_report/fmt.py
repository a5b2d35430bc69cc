"""How figures are written: times, ratios, percentages, sizes, versions in ladder order."""
import re


def fmt_time(us):
    return f"{us:,.0f}" if us >= 10_000 else f"{us:,.1f}" if us >= 10 else f"{us:.2f}"


def fmt_sig(x, digits=3):
    """Large values with thousands separators, small ones with `digits` significant digits."""
    if x >= 10 ** (digits - 1):
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def fmt_ratio(x):
    if x is None:
        return "—"
    return f"{x:,.0f}×" if x >= 100 else f"{x:.2f}×" if x >= 0.01 else f"{x:.2g}×"


def fmt_pct(x):
    return f"{x:.1f}%" if x >= 1 else f"{x:.2g}%"


def fmt_pct_against(x, limit):
    """fmt_pct, with as many more decimals as it takes (up to three) for the figure not to read as
    the limit when it is not: 96.97 against a limit of 97 is written 96.97%, not 97.0%."""
    text = fmt_pct(x)
    for digits in (2, 3, 4):
        if x == limit or float(text.rstrip("%")) != limit:
            break
        text = f"{x:.{digits}f}%"
    return text


def size_label(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 and n > 0 else f"{n:,}"


def ladder_order(slug):
    m = re.match(r"v(\d+)_", slug)
    return (0, int(m.group(1)), slug) if m else (1, 0, slug)


def is_rung(slug):
    """Rungs are vNN_<name>; anything else (cub, cub_unfused, ...) is a library baseline."""
    return re.match(r"v\d\d_", slug) is not None


def dist_label(dist):
    return f", {dist}" if dist else ""
