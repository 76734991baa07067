"""Checks built from other checks: several strategies for one claim (:class:`AllOf`), a figure's sweep
(:class:`FigureSweep`) and the escape hatch :class:`Custom` (a function returning Evidence).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence
from numerics import NotConverged
from verify.model.claim import DomainError
from verify.model.context import Context, pick
from verify.model.evidence import Evidence, StatTest
from verify.model.stats import mean_estimate, student_q
from verify.judge.base import Point, Sampler, label_of, takes_points
from verify.judge.figures import Figure, figure_data
from verify.judge.points import _grid, _points, _progress, _trials, simulate_points

@dataclass
class FigureSweep:
    """Monte Carlo at a figure's settings, drawn against the theory curves, *not* judged.

    For regenerating a paper's figure at one finite size: comparing that size with an
    asymptotic form would mistake finite-size bias for an erratum, so this produces a
    figure and a table (``details``) but no test.  The verdict comes from the claim's other
    checks.

    Parameters
    ----------
    points
        the figure's settings, a grid as for :class:`Expectation`.
    sampler
        ``sampler(point, trials, gen, ctx) -> tensor (trials,)``, drawn from the seeded ``gen``.
    figure
        the :class:`Figure` to draw (x parameter, groups, theory curves).
    trials
        trials per point (None: the profile's; a number, a per-profile dict or ``f(profile, point)``).
    chunk
        trials per sampler call, a number or ``f(point)``.
    name
        the figure's name, prefix of its labels and of its seeds' keys.
    """

    points: Any
    sampler: Sampler
    figure: Figure
    trials: Any = None
    chunk: Any = 2048
    name: str = "figure"

    def run(self, claim, ctx: Context) -> Evidence:
        pts = [dict(p) for p in (pick(ctx.profile, self.points) if isinstance(self.points, Mapping) else self.points)]
        rows = []
        with _progress(len(pts), claim.id + " (figure)", ctx) as bar:
            for i, x, seed in simulate_points(self.sampler, pts, ctx, (claim.id, self.name), self.trials,
                                              self.chunk, None):
                bar.update()
                if isinstance(x, NotConverged):
                    continue
                est = mean_estimate(x)
                q = student_q(0.95, est.n - 1)
                rows.append(StatTest(label_of(pts[i]), pts[i], math.nan, est.mean, est.stderr, est.n, 0.0, 1.0,
                                     seed=seed, ci=(est.mean - q * est.stderr, est.mean + q * est.stderr)))
        ev = Evidence(figures=[figure_data(self.figure, rows, ctx)])
        ev.details[self.name] = [{"point": r.params, "mean": r.estimate, "ci": r.ci, "trials": r.trials,
                                  "seed": r.seed} for r in rows]
        ev.seeds += [r.seed for r in rows]
        return ev


@dataclass
class AllOf:
    """Several strategies judging one claim together.

    Parameters
    ----------
    parts
        the strategies (each with ``run(claim, ctx) -> Evidence``); their evidence is joined into one.
    """

    parts: Sequence[Any]

    @property
    def takes_points(self) -> bool:
        return any(takes_points(p) for p in self.parts)

    def run(self, claim, ctx: Context) -> Evidence:
        """Under ``--at`` only the parts that take a parameter point run; the point-free ones
        (symbolic checks, fixed constructions) are listed in ``details['not run at --at']``."""
        ev = Evidence()
        skipped = []
        for part in self.parts:
            if ctx.at is not None and not takes_points(part):
                skipped.append(getattr(part, "name", "") or type(part).__name__)
                continue
            ev.extend(part.run(claim, ctx))
        if skipped:
            ev.details["not run at --at"] = skipped
        return ev


@dataclass
class Custom:
    """A function for checks no generic strategy covers (the escape hatch: prefer the others).

    * ``Custom(fn)``: ``fn(claim, ctx) -> Evidence`` for a check that takes no parameter point
      (a symbolic computation, a fixed construction).  Under ``--at`` it raises a one-line
      :class:`DomainError` saying so, instead of silently running its own grid.
    * ``Custom(fn, points=grid)``: the judge resolves the points (the profile's grid, or the
      user's ``--at`` points validated against the claim's domain) and calls
      ``fn(claim, ctx, points) -> Evidence``.

    ``why_no_points`` completes the error message of a point-free check under ``--at``.
    ``outside_domain``: why the grid deliberately holds points the claim's domain excludes (e.g. the edge where
    the statement's condition fails, evaluated exactly to show that it fails there); without it every grid point
    must lie in the domain (:func:`verify.run.runner.check_grids`, before a run).

    Parameters
    ----------
    fn
        the check: ``fn(claim, ctx) -> Evidence``, or ``fn(claim, ctx, points) -> Evidence`` with ``points``.
    points
        the grid (as for :class:`Expectation`), or None for a check that takes no parameter point.
    why_no_points
        the end of the one-line error of a point-free check run at user points (``--at``).
    outside_domain
        why the grid deliberately holds points outside the claim's domain ('' : every point must lie inside).
    """

    fn: Callable[..., Evidence]
    points: Any = None
    why_no_points: str = ""
    outside_domain: str = ""

    @property
    def takes_points(self) -> bool:
        return self.points is not None

    def run(self, claim, ctx: Context) -> Evidence:
        if self.points is not None:
            return self.fn(claim, ctx, _points(self.points, ctx, claim))
        if ctx.at is not None:
            raise DomainError(f"{claim.id} cannot be evaluated at a user point (--at): "
                              + (self.why_no_points or "its check runs a fixed construction, not a parameter point"))
        return self.fn(claim, ctx)


def _point_parts(check) -> list:
    """The parts of a check that evaluate parameter points (:func:`takes_points`), :class:`AllOf` unfolded."""
    if isinstance(check, AllOf):
        return [q for part in check.parts for q in _point_parts(part)]
    if getattr(check, "wrapped", None) is not None:   # a check run over an open setting (OverOpenSetting)
        return _point_parts(check.wrapped)
    return [check] if takes_points(check) and getattr(check, "points", None) is not None else []


def grid_points(check, profile) -> list[Point]:
    """Every grid point a check evaluates at ``profile``: the points of its point-taking parts (what ``--at``
    replaces), each once, in declaration order.  These are points of the claim's domain, so they are validated
    against it before a run (:func:`verify.run.runner.check_grids`).  (A :class:`FigureSweep`'s settings are not
    judged and an :class:`Asymptotic`'s finite sizes are made from its points: neither is listed; nor is the grid
    of a :class:`Custom` that declares ``outside_domain``.)"""
    out: list[Point] = []
    for part in _point_parts(check):
        if getattr(part, "outside_domain", ""):
            continue
        for p in _grid(part.points, profile):
            if p not in out:
                out.append(p)
    return out


#: float64 operations per second assumed by :func:`point_cost`: about a third of the float64 GEMM rate measured on
#: this project's 2-core machine when idle (65-87 GFLOP/s, benchmarks/README.md §1), about what the batched
#: least-squares paths reach there (31-50 % of it)
FLOP_RATE = 2e10


def point_cost(claim, point: Point, profile) -> dict:
    """A cost estimate of a claim at one parameter point (``--at``), before simulating it.

    A claim may declare ``cost(point, trials) -> (bytes, seconds)``.  Otherwise the estimate is generic, from the
    point's integer parameters (its sizes: n, d, m, ...) and the trials of the check's point-taking parts at the
    profile: with a >= b the two largest sizes (b = 1 with one), **memory at least 8 a b bytes** (one float64
    a x b matrix, the data of one trial: a lower bound, so a refusal on it is never wrong) and **time about
    trials x a b^2 flops** (one Gram product or least-squares solve of that matrix per trial) at
    :data:`FLOP_RATE`: a rough figure for a warning, not a bound (an iterative training run costs more, a
    closed-form sampler less)."""
    trials = []
    for part in _point_parts(claim.check):
        try:
            trials.append(_trials(getattr(part, "trials", None), profile, dict(point)))
        except Exception:  # noqa: BLE001 - a trials rule that needs the point's instance: the profile default
            trials.append(profile.trials)
    n_trials = max(trials or [profile.trials])
    own = getattr(claim, "cost", None)
    if own is not None:
        nbytes, secs = own(dict(point), n_trials)
        return {"bytes": float(nbytes), "seconds": float(secs), "trials": n_trials, "how": "the claim's own cost()"}
    ints = {p.name for p in claim.domain.params if p.integer}
    sizes = sorted((float(v) for k, v in point.items() if k in ints and float(v) > 1), reverse=True) + [1.0, 1.0]
    a, b = sizes[0], sizes[1]
    return {"bytes": 8.0 * a * b, "seconds": n_trials * a * b * b / FLOP_RATE, "trials": n_trials,
            "how": f"one {a:.0f} x {b:.0f} float64 matrix per trial; {n_trials:,} trials x {a:.0f} x {b:.0f}^2 "
                   f"flops at {FLOP_RATE:.0e} flop/s"}
