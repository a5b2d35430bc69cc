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


def decimals_against(x, limit, digits, most):
    """x with `digits` decimals, or more (up to `most`) where fewer would read as `limit` when x is
    not the limit: 96.97 against 97 with one decimal is written 96.97, not 97.0."""
    text = f"{x:.{digits}f}"
    for more in range(digits + 1, most + 1):
        if x == limit or float(text) != limit:
            break
        text = f"{x:.{more}f}"
    return text


def fmt_pct_against(x, limit):
    """fmt_pct beside a target of `limit` per cent (decimals_against, up to four)."""
    return decimals_against(x, limit, 1, 4) + "%" if x >= 1 else fmt_pct(x)


def fmt_ratio_against(x, limit):
    """A target's ratio to three decimals beside its limit (decimals_against, up to six)."""
    return decimals_against(x, limit, 3, 6)


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
