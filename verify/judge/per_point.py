"""Checks whose evidence over a grid is, by construction, their evidence at each point joined in grid order, so
that a distributed run can give each grid point of one claim to a different worker (claim x grid point
granularity: :meth:`verify.run.distributed.Cluster.compute`).

``PerPoint(fn, points=grid)`` is ``Custom(fn, points=grid)`` for a ``fn(claim, ctx, points) -> Evidence`` that
treats its points independently (each point's draws seeded from the point itself, nothing fitted or compared
across points).  The serial path calls ``fn`` once per point and joins the results with :func:`join`, exactly as
the distributed path does with the points' evidence coming back from the workers: the two documents are the
same by construction, not by the author's promise.  A claim that compares points with each other (a slope over
sizes, an ordering over a range) keeps ``Custom``; it stays one task.

(Its own module, imported by the claims that use it, rather than a strategy of :mod:`verify.judge`: judge and kit
are part of every claim's resume-cache and mutants key.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from verify.model.context import Context
from verify.model.evidence import Evidence
from verify.judge import label_of
from verify.judge.points import _points


@dataclass
class PerPoint:
    """``fn(claim, ctx, [point]) -> Evidence`` at each point of ``points`` (a profile grid), joined in grid order."""

    fn: Callable[..., Evidence]
    points: Any

    takes_points = True  # the profile's grid, or the user's --at points

    def grid(self, claim, ctx: Context) -> list[dict]:
        return _points(self.points, ctx, claim)

    def at(self, claim, ctx: Context, i: int) -> Evidence:
        """The evidence of grid point ``i`` alone (what one distributed task computes)."""
        return self.fn(claim, ctx, [self.grid(claim, ctx)[i]])

    def run(self, claim, ctx: Context) -> Evidence:
        pts = self.grid(claim, ctx)
        return join([self.fn(claim, ctx, [p]) for p in pts], pts)


def join(evs: list[Evidence], points: list[dict]) -> Evidence:
    """The points' evidence in grid order: tests, checks, figures and seeds concatenated; a ``details`` entry that
    several points set is concatenated when it is a list, kept once when equal, and otherwise kept per point under
    ``"<key> (<point label>)"``."""
    out = Evidence()
    for ev, p in zip(evs, points):
        out.tests += ev.tests
        out.checks += ev.checks
        out.figures += ev.figures
        out.seeds += ev.seeds
        for k, v in ev.details.items():
            if k not in out.details:
                out.details[k] = v
            elif isinstance(v, (list, tuple)) and isinstance(out.details[k], (list, tuple)):
                out.details[k] = list(out.details[k]) + list(v)  # (a tuple comes back from a worker as a list)
            elif out.details[k] != v:
                out.details[f"{k} ({label_of(p)})"] = v
    return out


def split(claim, ctx: Context) -> int:
    """The number of tasks a distributed run may make of the claim's grid points: its grid's size for a
    :class:`PerPoint` check of at least two points on the profile's grid (not under ``--at``), else 0 (one task)."""
    if ctx.at is not None or not isinstance(claim.check, PerPoint):
        return 0
    n = len(claim.check.grid(claim, ctx))
    return n if n >= 2 else 0
