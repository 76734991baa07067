"""Figure data of a check: the curves a report draws (simulated points with their intervals, and the
predicted curve) from the tests of a strategy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence
import numpy as np
from verify.model.claim import DomainError
from verify.model.context import Context
from verify.model.evidence import StatTest
from verify.judge.stated import STATED, reads, resolve
from verify.judge.base import Point, label_of

@dataclass(frozen=True)
class Figure:
    """How to draw a check's numbers: x parameter, one curve per group of the others.

    Parameters
    ----------
    x
        the parameter on the x axis.
    xlabel, ylabel, title
        the axis labels and the title.
    group
        the parameters whose values give one curve each.
    curve
        the theory curve, ``f(point)`` (drawn through the simulated points).
    curve_label
        the legend name of ``curve`` (``'stated'``).
    extra_curves
        further theory curves, (name, ``f(point)``) pairs.
    logy
        a logarithmic y axis.
    fine
        x values at which the theory curves are evaluated (None: the simulated x).
    ylim
        the y range (None: automatic).
    discrete
        x is discrete: the theory is drawn as markers at the simulated x only.
    panels
        one panel per value of these group parameters (None: chosen by the renderer; (): one axis).
    symbols
        parameter -> the source's symbol (mathtext without dollars).
    values
        parameter -> names of its values.
    like_source
        a regeneration of one of the source's figures: keep its layout.
    """

    x: str
    xlabel: str
    ylabel: str
    title: str = ""
    group: tuple[str, ...] = ()
    curve: Callable[[Point], float] | None = None  # theory, evaluated on a fine x grid (STATED: the stated form)
    curve_label: str = "stated"
    extra_curves: tuple[tuple[str, Callable[[Point], float]], ...] = ()
    logy: bool = False
    fine: Sequence[float] | None = None  # x grid of the theory curves
    ylim: tuple[float, float] | None = None
    #: x is discrete (an index k): the theory is evaluated at the simulated x only and drawn as markers
    discrete: bool = False
    #: small multiples: one panel per value of these group parameters (None: the renderer splits a figure
    #: with more than six series on the parameter giving the fewest panels; () keeps one axis)
    panels: tuple[str, ...] | None = None
    #: the source's symbol of a parameter, mathtext without dollars ({"lam": r"\lambda"}); Greek names
    #: (theta, sigma, gamma, ...) need no entry
    symbols: Mapping[str, str] = field(default_factory=dict)
    #: names of a flag's values ({"scaled": {"0": "target norm scaled", "1": "source norm scaled"}})
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: a regeneration of one of the source's figures: keep its layout (up to 3 groups x 3 roles on one axis)
    like_source: bool = False


# --------------------------------------------------------------------------- figures
def _groups(spec: Figure, params_list):
    keys = []
    for p in params_list:
        k = tuple((g, p.get(g)) for g in spec.group)
        if k not in keys:
            keys.append(k)
    return keys


def _figure_dict(spec: Figure, series: list[dict]) -> dict:
    """The figure-level fields of a figure dict (what the renderer of verify.report.figures reads)."""
    out = {"x": spec.x, "xlabel": spec.xlabel, "ylabel": spec.ylabel, "title": spec.title,
           "logy": spec.logy, "ylim": spec.ylim, "series": series}
    if spec.panels is not None:
        out["panels"] = list(spec.panels)
    if spec.symbols:
        out["symbols"] = dict(spec.symbols)
    if spec.values:
        out["values"] = {k: {str(a): b for a, b in v.items()} for k, v in spec.values.items()}
    if spec.like_source:
        out["like_source"] = True
    return out


def _params_json(key) -> dict:
    return {g: (v if isinstance(v, (int, float, str, bool)) or v is None else
                float(v) if isinstance(v, (np.floating, np.integer)) else str(v)) for g, v in key}


def figure_data(spec: Figure, tests: list[StatTest], ctx: Context, claim=None) -> dict:
    """Monte Carlo points with 95% CI bars and theory curves, one per group.  Each series carries its
    ``role`` (what it is: "Monte Carlo", the curve's name) and ``params`` (its group's values), so that the
    renderer can draw small multiples and a legend in the source's notation."""
    series = []
    for key in _groups(spec, [t.params for t in tests]):
        sel = [t for t in tests if all(t.params.get(g) == v for g, v in key)]
        sel.sort(key=lambda t: t.params[spec.x])
        glab = label_of(dict(key))
        series.append({"kind": "points", "label": f"Monte Carlo {glab}".strip(), "group": glab,
                       "role": "Monte Carlo", "params": _params_json(key),
                       "x": [t.params[spec.x] for t in sel], "y": [t.estimate for t in sel],
                       "yerr": [(t.ci[1] - t.ci[0]) / 2 for t in sel]})
        series += _curves(spec, sel[0].params, [t.params[spec.x] for t in sel], glab, claim, key,
                          span=[t.params[spec.x] for t in tests])
    return _figure_dict(spec, series)


def _curves(spec: Figure, base: Point, xs, glab: str, claim=None, key=(), span=None) -> list[dict]:
    """Theory curves of one group on a fine grid: ``spec.fine``, else 200 points over the x range of the whole
    figure (``span``: a group simulated at one x still gets a curve to compare with)."""
    out = []
    lo, hi = (min(span), max(span)) if span and max(span) > min(span) else (min(xs), max(xs))
    grid = (list(xs) if spec.discrete else list(spec.fine) if spec.fine is not None
            else list(np.linspace(lo, hi, 200)))
    curves = ([(spec.curve_label, spec.curve)] if spec.curve else []) + list(spec.extra_curves)
    for k, (name, fn) in enumerate(curves):
        if fn is STATED and claim is None:
            continue
        fn = resolve(fn, claim)
        ys = []
        for x in grid:
            try:
                ys.append(float(fn({**base, spec.x: x})))
            except (ZeroDivisionError, ValueError, OverflowError, DomainError):
                ys.append(math.nan)
            except Exception:   # noqa: BLE001 - beyond the group's own x range a curve may not be defined
                if min(xs) <= x <= max(xs):
                    raise
                ys.append(math.nan)
        out.append({"kind": "line", "label": f"{name} {glab}".strip(), "group": glab, "role": name,
                    "params": _params_json(key), "x": grid, "y": ys,
                    "dash": k > 0, **({"markers": True} if spec.discrete else {})})
    return out


def asymptotic_figure(spec: Figure, limits: list[dict], sizes, ctx: Context, size_name: str) -> dict:
    """Largest-size Monte Carlo means and the 1/N extrapolation against the stated limit."""
    series = []
    for key in _groups(spec, [r["point"] for r in limits]):
        sel = [r for r in limits if all(r["point"].get(g) == v for g, v in key)]
        sel.sort(key=lambda r: r["point"][spec.x])
        glab = label_of(dict(key))
        xs = [r["point"][spec.x] for r in sel]
        big = [r["sizes"][-1] for r in sel]
        mc = f"Monte Carlo {size_name}={sizes[-1]}"
        series.append({"kind": "points", "label": f"{mc} {glab}".strip(), "group": glab, "role": mc,
                       "params": _params_json(key),
                       "x": xs, "y": [b["mean"] for b in big], "yerr": [1.96 * b["stderr"] for b in big]})
        if all("extrapolated" in r for r in sel):
            ex = f"extrapolated {size_name}->inf"
            series.append({"kind": "points", "label": f"{ex} {glab}".strip(), "group": glab, "role": ex,
                           "params": _params_json(key), "marker": "s", "x": xs, "y": [r["extrapolated"] for r in sel],
                           "yerr": [1.96 * r["extrapolated_stderr"] for r in sel]})
        series += _curves(spec, sel[0]["point"], xs, glab, key=key)
    return _figure_dict(spec, series)
