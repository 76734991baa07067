"""Checks whose grid points fall into groups that share their random draws, and whose evidence over the grid is,
by construction, their evidence on each group joined in grid order: the unit a distributed run gives one worker.

A Monte Carlo check that simulates points differing only in one parameter on common random numbers (the
``vector`` of :class:`verify.judge.Asymptotic` and :class:`verify.judge.Expectation`: one draw per trial serves
every angle theta, say) cannot be split by grid point without repeating its draws once per point: a point run
alone makes its whole group's draws.  ``PerGroup(fn, points=grid, shared="theta")`` is
``Custom(fn, points=grid)`` for a ``fn(claim, ctx, points) -> Evidence`` that treats groups independently (each
group's draws seeded from the group's point without ``shared``, nothing fitted or compared across groups).  Its
serial run calls ``fn`` once per group and joins the results with :func:`verify.judge.per_point.join`, as a
distributed run does with the groups' evidence coming back from the workers (:meth:`PerPoint.at`, its task, is
one group here); :meth:`grid` lists one point per group (the group's point without ``shared``), so
:func:`verify.judge.per_point.split` counts groups.  For a grid listing ``shared`` innermost, the joined evidence is the
evidence of one ``fn`` call on the whole grid (same tests, seeds and details, in the same order).

``benchmarks/full_cost.py`` reads ``shared`` (or a strategy's ``vector``) to cost a claim by its groups: a point
measured alone costs its group's draws.

(Its own module, as :mod:`verify.judge.per_point` is, imported by the claims that use it: per_point is part of the
resume-cache and mutants key of the claims that import it.)
"""
from __future__ import annotations

from dataclasses import dataclass

from verify.model.context import Context
from verify.model.evidence import Evidence
from verify.judge.points import _points
from verify.judge.per_point import PerPoint, join


@dataclass
class PerGroup(PerPoint):
    """``fn(claim, ctx, group)`` on each group of ``points`` whose points differ only in ``shared``, joined in the
    order the groups first appear in the grid."""

    shared: str = ""

    def groups(self, claim, ctx: Context) -> list[list[dict]]:
        out: dict[tuple, list[dict]] = {}
        for p in _points(self.points, ctx, claim):
            out.setdefault(tuple((k, repr(v)) for k, v in p.items() if k != self.shared), []).append(p)
        return list(out.values())

    def grid(self, claim, ctx: Context) -> list[dict]:
        """One point per group: the group's parameters without ``shared`` (what a distributed task is)."""
        return [{k: v for k, v in g[0].items() if k != self.shared} for g in self.groups(claim, ctx)]

    def at(self, claim, ctx: Context, i: int) -> Evidence:
        """The evidence of group ``i`` alone (what one distributed task computes)."""
        return self.fn(claim, ctx, self.groups(claim, ctx)[i])

    def run(self, claim, ctx: Context) -> Evidence:
        return join([self.fn(claim, ctx, g) for g in self.groups(claim, ctx)], self.grid(claim, ctx))
