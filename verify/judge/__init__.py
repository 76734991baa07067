"""The judge: how each kind of claim is checked, and how serious a refutation is.

Every strategy has ``run(claim, ctx) -> Evidence``; the run-wide Holm correction and the verdict rule live in
:mod:`verify.model.evidence`, the severity of a refutation in :mod:`verify.judge.severity`.

=========================  ======================================================================  ==============
strategy                   used for                                                                module
=========================  ======================================================================  ==============
:class:`Expectation`       an expectation exact at finite size: Monte Carlo mean and CI at every   expectation
                           grid point against the predicted value
:class:`ProbabilityBound`  a bound that holds with a stated probability: the observed violation    expectation
                           frequency against the stated failure probability (exact binomial test)
:class:`Asymptotic`        an n, d -> infinity expectation: never one finite size against the      asymptotic
                           limit (finite-size form at several sizes plus a symbolic limit, or a
                           1/N extrapolation over >= 3 sizes)
:class:`Divergence`        E|X|^p = infinity at a point: the tail index of the per-trial values      divergence
                           (Hill's estimator) tested against p, one-sided
:class:`PropertySearch`    inequalities, bounds, signs, orderings on closed forms: hypothesis      search
                           searches the domain for a violation and shrinks it
:class:`StatedSearch`      a PropertySearch whose predicate reads the claim's stated form          search
:class:`Identity`          symbolic identities and limits: sympy, then mpmath at random points     search
:class:`AllOf`             several of the above for one claim                                      composite
:class:`FigureSweep`       a figure's sweep: one simulated curve per series                        composite
:class:`Custom`            a function returning Evidence (the escape hatch)                        composite
:class:`PerPoint`          a custom check run point by point (one task per point on Dask)          per_point
:class:`PerGroup`          the same per group of points sharing their draws                        per_group
=========================  ======================================================================  ==============

Shared machinery: :mod:`~verify.judge.base` (points, samplers, :class:`Tol`), :mod:`~verify.judge.points`
(Monte Carlo at grid points), :mod:`~verify.judge.figures` (figure data), :mod:`~verify.judge.stated` (the stated
form as a number), :mod:`~verify.judge.orders` (orderings and log-log slopes), :mod:`~verify.judge.open_settings`
(a verdict over a setting the source leaves open), :mod:`~verify.judge.budget` (trials and chunks).
"""
from verify.judge.asymptotic import Asymptotic
from verify.judge.base import Point, Sampler, Tol, label_of, takes_points
from verify.judge.composite import FLOP_RATE, AllOf, Custom, FigureSweep, grid_points, point_cost
from verify.judge.divergence import Divergence, tail_test
from verify.judge.expectation import Expectation, ProbabilityBound, binomial_test
from verify.judge.figures import Figure, figure_data
from verify.judge.per_group import PerGroup
from verify.judge.per_point import PerPoint
from verify.judge.points import monte_carlo, point_tests, simulate_points, stat_test
from verify.judge.rates import Rate  # orders and rates along every parameter they name
from verify.judge.search import Identity, NaNPredicate, PropertySearch, StatedSearch, is_nan

#: the judge strategies (each has ``run(claim, ctx) -> Evidence``); tests/test_kit.py checks that every strategy
#: class of this package is listed here and exported by :mod:`verify.kit`
STRATEGIES = (AllOf, Asymptotic, Custom, Divergence, Expectation, FigureSweep, Identity, ProbabilityBound, PropertySearch, Rate)

__all__ = ["FLOP_RATE", "AllOf", "Asymptotic", "Custom", "Divergence", "Expectation", "Figure", "FigureSweep", "Identity",
           "NaNPredicate", "PerGroup", "PerPoint", "Point", "ProbabilityBound", "PropertySearch", "Rate", "STRATEGIES",
           "Sampler", "StatedSearch", "Tol", "binomial_test", "figure_data", "grid_points", "is_nan", "label_of",
           "monte_carlo", "point_cost", "point_tests", "simulate_points", "stat_test", "tail_test", "takes_points"]
