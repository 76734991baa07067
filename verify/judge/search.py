"""Statements on closed forms: inequalities, bounds, signs and orderings searched for a violation over the
whole stated domain (:class:`PropertySearch`, hypothesis, evaluated in 50-digit mpmath, shrunk to a minimal
counterexample), and symbolic identities and limits (:class:`Identity`: sympy, then mpmath at random
high-precision points).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping
import mpmath
import numpy as np
import sympy as sp
from verify.model.context import Context, pick
from verify.model.evidence import Check, Evidence
from verify.judge.stated import stated_value
from verify.judge.base import Point, label_of

@dataclass
class PropertySearch:
    """A statement 'for all points of the domain, holds(point)': hypothesis looks for a
    point where it fails and shrinks it to a minimal counterexample.

    By default the points come from the claim's own :class:`~verify.model.claim.Domain`
    (``claim.domain.strategy(bounds)``: closed endpoints tried, open ones excluded, constraints
    as filters), so the search covers exactly the stated domain; ``bounds`` gives a finite search
    range to parameters with an infinite end.  An explicit ``strategy`` (a function returning a
    hypothesis strategy of dicts) is for searches that deliberately go inside or beyond the
    domain.  ``holds`` should evaluate in high precision (mpmath) so that a counterexample is not
    rounding.

    When a counterexample is found, the search also measures how much of the domain fails: ``sweep``
    points drawn uniformly from the domain (:meth:`~verify.model.claim.Domain.uniform`, the same ``bounds`` box;
    per profile by default 200 / 1000 / 4000; 0 turns it off for an expensive predicate) are evaluated, and
    the fraction that fails is recorded with its Clopper-Pearson interval (``extra['domain_draw']``).  Beside
    the shrunk (minimal, often degenerate) counterexample, the *strongest witness* is recorded
    (``extra['witness']``): the failing draw with the largest ``margin`` (a function of the point giving the
    size of the violation in units of the stated value, > 0 where it fails) or, without one, the failing draw
    deepest inside the domain (:meth:`~verify.model.claim.Domain.depth`).  A failure found only at an endpoint or
    an exact tie shows as a zero fraction: a boundary erratum (:mod:`verify.judge.severity`).

    Parameters
    ----------
    name
        the search's name (its label and its seed).
    strategy
        a function returning a hypothesis strategy of points (dicts), for a search that leaves the domain;
        None: the claim's own domain.
    holds
        the predicate, ``holds(point) -> bool`` (True where the statement holds).
    show
        ``show(point) -> dict``: what to record beside a counterexample (the two sides, their difference).
    refutes
        True: a counterexample refutes the claim; False: a check of our own derivation.
    examples
        hypothesis examples per profile (None: the profile's ``examples``).
    bounds
        parameter -> (low, high): a finite search range for a parameter with an infinite end.
    margin
        ``margin(point) -> float``: the size of a violation (> 0 where it fails), for the strongest witness.
    sweep
        uniform draws measuring the failing share of the domain (per profile; 0: off).
    """

    name: str
    strategy: Callable[[], Any] | None = None
    holds: Callable[[Point], bool] | None = None
    show: Callable[[Point], dict] | None = None
    refutes: bool = True
    examples: Mapping[str, int] | None = None
    bounds: Mapping[str, tuple[float, float]] | None = None
    margin: Callable[[Point], float] | None = None
    sweep: Any = None   # points of the uniform draw: an int, a per-profile dict, or None for the default

    SWEEP = {"quick": 200, "standard": 1000, "full": 4000}

    def __post_init__(self) -> None:
        if self.holds is None:
            raise TypeError(f"PropertySearch {self.name!r} needs holds=")

    def run(self, claim, ctx: Context) -> Evidence:
        from hypothesis import HealthCheck, Phase, find, settings
        from hypothesis.errors import NoSuchExample

        n = pick(ctx.profile, self.examples) if self.examples else ctx.profile.examples
        seed = ctx.seed_for(claim.id, self.name)
        # from hypothesis' own defaults, not the caller's loaded profile: a verdict does not depend on the pytest set-up
        st = settings(settings.get_profile("default"), max_examples=n, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck),
                      phases=tuple(p for p in Phase if p is not Phase.explain))  # explain costs ~4 s, adds nothing here
        points = self.strategy() if self.strategy is not None else claim.domain.strategy(self.bounds)
        nan_at: list[Point] = []

        def fails(p) -> bool:
            v = self.holds(p)
            if is_nan(v):          # NaN is no evidence either way: recorded, and the search goes on
                nan_at.append(dict(p))
                return False
            return not v
        try:
            cx = find(points, fails, settings=st, random=random.Random(seed))
        except NoSuchExample:
            cx = None
        if nan_at:
            raise NaNPredicate(self.name, nan_at[0], self.holds)
        if cx is None:
            return Evidence(checks=[Check(self.name, True, f"no counterexample in {n} hypothesis examples "
                                          f"over the stated domain", refutes=self.refutes)], seeds=[seed])
        shown = dict(cx)
        if self.show:
            shown.update(self.show(cx))
        extra = {"minimal_depth": claim.domain.depth(cx)} if self.strategy is None else {}
        if self.margin is not None:
            extra["minimal_margin"] = _margin_of(self.margin, cx)
        extra.update(self.domain_draw(claim, ctx))
        return Evidence(checks=[Check(self.name, False, "counterexample " + label_of(shown), refutes=self.refutes,
                                      counterexample={k: _num(v) for k, v in shown.items()}, extra=extra)],
                        seeds=[seed])

    def domain_draw(self, claim, ctx: Context) -> dict:
        """The fraction of a uniform draw over the stated domain that fails, and the strongest witness."""
        from verify.model.stats import clopper_pearson

        if self.strategy is not None:
            return {"domain_draw": {"skipped": "the search uses its own strategy (not the stated domain)"}}
        n = self.sweep if isinstance(self.sweep, int) else pick(ctx.profile, self.sweep or self.SWEEP)
        if not n:
            return {"domain_draw": {"skipped": "turned off by the claim (an expensive predicate)"}}
        seed = ctx.seed_for(claim.id, self.name, "domain draw")
        pts, info = claim.domain.uniform(random.Random(seed), n, self.bounds)
        failed, errors = [], 0
        for p in pts:
            try:
                v = self.holds(p)
                if is_nan(v):
                    raise NaNPredicate(self.name, p, self.holds)
                ok = bool(v)
            except Exception:   # a point the predicate cannot evaluate (or NaN there) is not counted either way
                errors += 1
                continue
            if not ok:
                failed.append(p)
        m = len(pts) - errors
        lo, hi = clopper_pearson(len(failed), m) if m else (math.nan, math.nan)
        draw = {"n": m, "failed": len(failed), "fraction": len(failed) / m if m else math.nan,
                "ci95": [lo, hi], "box": info["box"], "acceptance": info["acceptance"], "seed": seed,
                "not_evaluable": errors}
        out = {"domain_draw": draw}
        if failed:
            if self.margin is not None:
                scored = [(_margin_of(self.margin, p), claim.domain.depth(p, info["box"]), p) for p in failed]
                best = max(scored, key=lambda r: (r[0] if math.isfinite(r[0]) else -math.inf, r[1]))
            else:
                scored = [(math.nan, claim.domain.depth(p, info["box"]), p) for p in failed]
                best = max(scored, key=lambda r: r[1])
            w = dict(best[2])
            if self.show:
                try:
                    w.update(self.show(best[2]))
                except Exception:
                    pass
            out["witness"] = {"point": {k: _num(v) for k, v in w.items()}, "margin": best[0], "depth": best[1],
                              "how": "largest margin among the failing draws" if self.margin is not None
                              else "the failing draw deepest inside the domain"}
            margins = [r[0] for r in scored if math.isfinite(r[0])]
            if margins:
                draw["largest_margin"] = max(margins)
        return out


def is_nan(v) -> bool:
    """Whether a predicate's value is NaN (float, numpy, torch, mpmath or sympy): never a truth value.  (``not nan``
    is False in Python, so a NaN predicate would otherwise count as holding.)"""
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, sp.Basic):
        return v is sp.nan or (v.is_number and v.has(sp.nan))
    try:
        return math.isnan(complex(v).real) or math.isnan(complex(v).imag)
    except (TypeError, ValueError, OverflowError):
        return False


class NaNPredicate(ValueError):
    """A search predicate was NaN at a point of the domain: an error of the check there (the formula evaluated
    outside its real domain, or a 0/0), reported with the point; the claim's verdict is 'error', never
    'confirmed'.  ``where`` points at the predicate's definition (what to fix)."""

    def __init__(self, name: str, point: Point, fn=None):
        super().__init__(f"{name}: the predicate is NaN at {label_of(point)} (NaN is no evidence either way)")
        self.point = dict(point)
        code = getattr(getattr(fn, "__wrapped__", fn), "__code__", None)
        self.where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else None


def _margin_of(margin, p) -> float:
    try:
        v = float(margin(p))
    except Exception:
        return math.nan
    return v


def _num(v):
    if isinstance(v, (mpmath.mpf, sp.Basic)):
        return float(v)
    return v


def _real_or_str(x):
    """A float for a real mpmath value, its string for a complex one (a side can leave the reals)."""
    return float(x) if not isinstance(x, mpmath.mpc) else mpmath.nstr(x, 12)


@dataclass
class Identity:
    """``lhs == rhs`` as functions of ``variables``: sympy first, then mpmath at random
    points drawn from the given ranges (50 digits).

    Parameters
    ----------
    name
        the check's name (its label in the reports, and its seed).
    lhs, rhs
        the two sides, sympy expressions in ``variables``.
    variables
        sympy symbol -> (low, high): the ranges the random points are drawn from.
    refutes
        True: a failure refutes the claim; False: a check of our own derivation (a failure: inconclusive).
    points
        how many random points mpmath evaluates when sympy cannot simplify the difference to 0.
    dps
        the mpmath working precision in decimal digits.
    rel
        the relative difference at a point that counts as equal at that precision.
    """

    name: str
    lhs: Any
    rhs: Any
    variables: Mapping[Any, tuple[float, float]]
    refutes: bool = True
    points: int = 24
    dps: int = 50
    rel: float = 1e-25

    def run(self, claim, ctx: Context) -> Evidence:
        lhs = self.lhs() if callable(self.lhs) else self.lhs
        rhs = self.rhs() if callable(self.rhs) else self.rhs
        diff = sp.simplify(sp.sympify(lhs) - sp.sympify(rhs))
        if diff == 0:
            return Evidence(checks=[Check(self.name, True, "sympy simplifies lhs - rhs to 0", refutes=self.refutes,
                                          extra={"lhs": sp.latex(lhs), "rhs": sp.latex(rhs)})])
        syms = list(self.variables)
        f_l = sp.lambdify(syms, lhs, modules="mpmath")
        f_r = sp.lambdify(syms, rhs, modules="mpmath")
        rng = random.Random(ctx.seed_for(claim.id, self.name))
        worst, worst_pt = 0.0, None
        with mpmath.workdps(self.dps):
            for _ in range(self.points):
                pt = {s: mpmath.mpf(rng.uniform(*self.variables[s])) for s in syms}
                a, b = f_l(*pt.values()), f_r(*pt.values())
                err = abs(a - b) / (1 + abs(a))
                if err > worst:
                    worst, worst_pt = err, {str(s): float(v) for s, v in pt.items()} | {"lhs": _real_or_str(a),
                                                                                          "rhs": _real_or_str(b)}
        ok = worst < self.rel
        det = (f"sympy leaves {sp.sstr(diff)[:80]}; mpmath at {self.points} random {self.dps}-digit points: "
               f"max relative difference {float(worst):.3g}")
        return Evidence(checks=[Check(self.name, ok, det, refutes=self.refutes,
                                      counterexample=None if ok else worst_pt,
                                      extra={"lhs": sp.latex(lhs), "rhs": sp.latex(rhs)})])


@dataclass
class StatedSearch:
    """A :class:`PropertySearch` whose predicate reads the claim's stated form: ``holds(stated, p)``
    (and ``show(stated, p)``) with ``stated = stated_value(claim, precise=True)`` (mpmath at the working precision:
    a search that compares at 1e-35 cannot use a double; ``precise=False`` for one that compares doubles), so that
    ``verify mutants`` can substitute a perturbed form.
    The search itself (name and so seed, examples, strategy, bounds) is the PropertySearch's, so the evidence is the
    same as with a numeric copy of the form; calibration counts it as a PropertySearch (``judged_as``).

    Parameters
    ----------
    name, strategy, bounds, examples, refutes, sweep
        as for :class:`PropertySearch`.
    holds
        ``holds(stated, point) -> bool``, with ``stated`` the claim's stated form as a function of the point.
    show
        ``show(stated, point) -> dict``, as for :class:`PropertySearch`.
    precise
        True: ``stated`` returns mpmath numbers at the working precision; False: doubles.
    margin
        ``margin(stated, point) -> float``, as for :class:`PropertySearch`.
    """

    judged_as = "PropertySearch"   # the strategy it runs (verify.audit.calibration.strategies_of)
    name: str
    holds: Callable[[Callable, dict], bool]
    strategy: Callable[[], Any] | None = None
    show: Callable[[Callable, dict], dict] | None = None
    bounds: Any = None
    examples: Any = None
    refutes: bool = True
    precise: bool = True   # False: the stated form in double precision (a predicate that compares doubles)
    margin: Callable[[Callable, dict], float] | None = None   # margin(stated, p): see PropertySearch.margin
    sweep: Any = None

    def run(self, claim, ctx):
        f = stated_value(claim, precise=self.precise)
        show, margin = self.show, self.margin
        return PropertySearch(self.name, strategy=self.strategy, holds=lambda p: self.holds(f, p),
                              show=None if show is None else (lambda p: show(f, p)), bounds=self.bounds,
                              examples=self.examples, refutes=self.refutes,
                              margin=None if margin is None else (lambda p: margin(f, p)),
                              sweep=self.sweep).run(claim, ctx)
