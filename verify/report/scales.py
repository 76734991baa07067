"""Axis scales of a report figure: logarithmic where positive data span decades, symmetric-logarithmic where data
that reach 0 (or below) crowd near it while the rest spans decades (a grid 0, 1, 4, 64, 256 on a linear axis shows
three of its five points as one)."""
from __future__ import annotations

import math


def _floats(vals):
    return [math.nan if v is None or isinstance(v, str) else float(v) for v in vals]


def _decades(vals) -> bool:
    """Whether positive data span two decades or more: a linear axis would flatten all but the largest values."""
    v = [float(x) for x in vals if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)]
    return len(v) >= 3 and min(v) > 0 and max(v) / min(v) >= 100


def log_axes(fig: dict, series: list[dict]) -> tuple[bool, bool]:
    """(log x, log y): as the figure asks, or logarithmic where its data span decades (y unless a range is fixed;
    x unless the figure regenerates one of the source's, whose horizontal axis a reader compares with the paper)."""
    xs = [v for s in series for v in s.get("x") or []]
    ys = [v for s in series for v in s.get("y") or []]
    return (bool(fig.get("logx")) or (not fig.get("like_source") and _decades(xs)),
            bool(fig.get("logy")) or (not fig.get("ylim") and _decades(ys)))


def symlog_axes(fig: dict, series: list[dict], logx: bool, logy: bool) -> tuple[float | None, float | None]:
    """(x, y) linear thresholds of a symmetric-log axis, or None for an axis that keeps its scale.

    An axis becomes symmetric-logarithmic when its measured values (points; every value when there are none)
    reach 0 or below, their largest magnitude is two decades or more above the smallest nonzero one, and half of
    them or more sit within 5 % of the axis's largest magnitude from 0, at two distinct magnitudes or more above
    the linear part, which ends two decades below that magnitude (noise about a vanishing value keeps a linear
    axis).  A figure that fixes a range, asks for a log axis or (for x) regenerates one of the source's
    keeps its scale."""
    def vals(axis):
        pts = [s for s in series if s["kind"] == "points"] or series
        out = []
        for s in pts:
            for v in s.get(axis) or []:
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    out.append(float(v))
        return out

    def thresh(v):
        big = max((abs(x) for x in v), default=0.0)
        nonzero = [abs(x) for x in v if x != 0]
        if len(v) < 4 or big <= 0 or min(v) > 0 or big / min(nonzero) < 100:
            return None
        crowd = [abs(x) for x in v if abs(x) <= 0.05 * big]
        lin = 10.0 ** (math.floor(math.log10(big)) - 2)
        if 2 * len(crowd) < len(v) or len({round(math.log10(x), 1) for x in crowd if x >= lin}) < 2:
            return None   # not crowded, or crowded only by noise about 0 (a coefficient that vanishes)
        return lin

    tx = None if logx or fig.get("like_source") else thresh(vals("x"))
    ty = None if logy or fig.get("ylim") else thresh(vals("y"))
    return tx, ty


def level(s: dict) -> bool:
    """A constant line of two points (a threshold such as "ratio 1"): drawn dashed in dark grey when it is the
    figure's only one, so that it does not read as one more data series in the next colour."""
    ys = _floats(s["y"])
    return s["kind"] == "line" and not s.get("markers") and len(ys) == 2 and ys[0] == ys[1] and math.isfinite(ys[0])


def padded_ylim(lim, series, logy: bool) -> tuple:
    """A figure's stated y range, widened by 3 % at an end some series lies on or touches (a median that
    collapses to 0 on [0, 1]): a curve on the frame's edge would show half its width and hide under the frame."""
    lo, hi = (float(v) if v is not None else None for v in lim)
    if logy or lo is None or hi is None or not hi > lo:
        return lo, hi
    ys = [y for s in series for y in _floats(s["y"]) if math.isfinite(y)]
    pad = 0.03 * (hi - lo)
    near = 0.005 * (hi - lo)   # within a line's width of the edge
    return (lo - pad if any(abs(y - lo) <= near for y in ys) else lo,
            hi + pad if any(abs(y - hi) <= near for y in ys) else hi)
