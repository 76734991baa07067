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
from verify.judge.base import Sampler, label_of, takes_points
from verify.judge.figures import Figure, figure_data
from verify.judge.points import _points, _progress, simulate_points

@dataclass
class FigureSweep:
    """Monte Carlo at a figure's settings, drawn against the theory curves, *not* judged.

    For regenerating a paper's figure at one finite size: comparing that size with an
    asymptotic form would mistake finite-size bias for an erratum, so this produces a
    figure and a table (``details``) but no test.  The verdict comes from the claim's other
    checks.
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
    """Several strategies judging one claim together."""

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
    """

    fn: Callable[..., Evidence]
    points: Any = None
    why_no_points: str = ""

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
