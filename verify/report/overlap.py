"""Which series of a figure would hide another (coinciding curves, points drawn on points), and where to move
them so that every series stays visible: the overlap rules of :mod:`verify.report.figures`."""
from __future__ import annotations

import math

#: two points closer than this share of the axis (in x and in y) hide each other; two curves hide each other
#: when they are never farther apart than LINE_CLOSE of the y axis
POINT_CLOSE, LINE_CLOSE = 0.015, 0.008
#: a curve that runs within LINE_CLOSE of an earlier one on this share of its points is hidden under it (two runs
#: that both collapse to 0 after a few steps): it is dashed as a coinciding curve is
LINE_SHARE = 0.9
#: sideways step (typographic points) between the colours of points that would hide each other
DODGE_PT = 5.0


def _floats(vals):
    return [math.nan if v is None or isinstance(v, str) else float(v) for v in vals]




def curve(s: dict) -> bool:
    """Whether a series of points is drawn as a curve: an empirical curve (more than 60 points, no error bars),
    such as a quantile function; its points are not spread sideways, it is dashed where it coincides."""
    return s["kind"] == "points" and len(s["x"]) > 60 and not any(
        math.isfinite(e) and e for e in _floats(s.get("yerr") or []))


def _reference_roles(series: list[dict]) -> set:
    """Theory roles drawn once: a role whose curves are, in every one of two or more groups, the same constant."""
    out = set()
    for r in {s["role"] for s in series if s["kind"] == "line" and s["role"] is not None}:
        ss = [s for s in series if s["role"] == r and s["kind"] == "line"]
        vals = {round(y, 12) for s in ss for y in _floats(s["y"]) if math.isfinite(y)}
        if len(ss) >= 2 and len(vals) == 1 and not any(s.get("markers") for s in ss):
            out.add(r)
    return out


def _overlaps(series: list[dict], logx: bool, logy: bool) -> tuple[dict, dict]:
    """What one panel would hide: ``({id(series): (sideways offset in points, indices of the points to move)},
    {id(series): dash pattern})``.
    Points (and the theory bars of a discrete x) of a colour that fall on those of an earlier colour within
    :data:`POINT_CLOSE` of the axes are spread sideways, a colour each; a curve within :data:`LINE_CLOSE` of an
    earlier one along its whole length is dashed so that the curves under it show in its gaps."""
    def tr(v, log):
        return [math.log10(x) if log and math.isfinite(x) and x > 0 else (math.nan if log else x) for x in v]
    pts = []
    for s in series:
        pts += [(x, y) for x, y in zip(tr(_floats(s["x"]), logx), tr(_floats(s["y"]), logy))
                if math.isfinite(x) and math.isfinite(y)]
    if len(pts) < 2:
        return {}, {}
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    sx, sy = (x1 - x0) or 1.0, (y1 - y0) or 1.0

    def inorm(s):   # (index, x, y) on the unit square of the panel
        return [(i, (x - x0) / sx, (y - y0) / sy) for i, (x, y) in
                enumerate(zip(tr(_floats(s["x"]), logx), tr(_floats(s["y"]), logy)))
                if math.isfinite(x) and math.isfinite(y)]

    def norm(s):
        return [(x, y) for _, x, y in inorm(s)]

    marks = [s for s in series if s["kind"] == "points" and not curve(s) or s.get("markers")]
    def key(s):   # what a reader tells apart: the colour and the marker (role)
        return (repr(s["_hue"]), str(s["role"]))

    cluster: dict = {}   # key -> the keys it hides or is hidden by, in order of appearance
    hit: dict = {}       # id(series) -> the indices of its points that sit on another colour's
    for i, b in enumerate(marks):
        nb = inorm(b)
        for a in marks[:i]:
            if key(a) == key(b) or (a["kind"] == "points") != (b["kind"] == "points"):
                continue
            pairs = [(p[0], q[0]) for p in nb for q in inorm(a)
                     if abs(p[1] - q[1]) < POINT_CLOSE and abs(p[2] - q[2]) < POINT_CLOSE]
            if pairs:
                hit.setdefault(id(b), set()).update(p for p, _ in pairs)
                hit.setdefault(id(a), set()).update(q for _, q in pairs)
                ca, cb = cluster.get(key(a), [key(a)]), cluster.get(key(b), [key(b)])
                merged = list(dict.fromkeys(ca + cb))
                for h in merged:
                    cluster[h] = merged
    offsets = {}   # only the points that would be hidden move: the others stay at their x
    for s in marks:
        c = cluster.get(key(s))
        if c and id(s) in hit:
            offsets[id(s)] = ((c.index(key(s)) - (len(c) - 1) / 2) * DODGE_PT, hit[id(s)])
    lines = [s for s in series if (s["kind"] == "line" and not s.get("markers") or curve(s)) and len(norm(s)) >= 2]
    groups: list[list[dict]] = []
    for b in lines:
        nb = norm(b)
        home = None
        for g in groups:
            na = sorted(norm(g[0]))
            xs = [p[0] for p in na]
            inside_ = [p for p in nb if xs[0] <= p[0] <= xs[-1]]
            if len(inside_) >= 0.8 * len(nb) and sum(
                    abs(p[1] - _interp(p[0], na)) < LINE_CLOSE for p in inside_) >= LINE_SHARE * len(inside_):
                home = g
                break
        (home.append(b) if home is not None else groups.append([b]))
    dashes = {}
    for g in groups:
        n = len(g)
        for s in g[1:]:   # the curve it lies on (a caller tells a reader which, when both have one colour)
            s["_under"] = g[0]
        for k, s in enumerate(g[1:], 1):   # on 6 pt, off (n - 1) 6 pt: the k-th curve in the k-th gap
            dashes[id(s)] = ((n - k) * 6.0, (6.0, (n - 1) * 6.0))
    return offsets, dashes


def _interp(x: float, pts: list[tuple[float, float]]) -> float:
    for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
        if xa <= x <= xb:
            return ya if xb == xa else ya + (yb - ya) * (x - xa) / (xb - xa)
    return pts[-1][1] if pts and x == pts[-1][0] else math.nan
