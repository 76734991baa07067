"""Axis scales of a report figure: logarithmic where positive data span decades, symmetric-logarithmic where data
that reach 0 (or below) crowd near it while the rest spans decades (a grid 0, 1, 4, 64, 256 on a linear axis shows
three of its five points as one)."""
from __future__ import annotations

import math


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
