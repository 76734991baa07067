"""Expectations exact at finite size and bounds that hold with a stated probability.

:class:`Expectation`: the Monte Carlo mean and its 95 % CI at every grid point against the predicted value
(two-sided t-test, equivalence within the practical tolerance).  :class:`ProbabilityBound`: the observed
violation frequency of a high-probability bound against its stated failure probability (exact binomial test,
Clopper-Pearson interval).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping
import numpy as np
import torch
from verify.model.context import Context
from verify.model.evidence import CORRECTED, Evidence, StatTest
from verify.judge.stated import STATED, resolve, resolve_derived
from verify.judge.base import Point, Sampler, Tol, takes_points
from verify.judge.figures import Figure
from verify.judge.points import alternative_values, point_tests, simulate_points, stat_test

@dataclass
class Expectation:
    """E[sample] equals ``predicted(point)`` at every point, exactly at finite size.

    At each point the sampler's per-trial values give a mean and its 95 % CI (Student t); the test is rejected
    when the mean differs significantly from the prediction (two-sided, Holm over the run, replicated on fresh
    draws before it refutes) and confirms when the CI lies within ``tol`` of it.

    Parameters
    ----------
    points
        the grid: a list of parameter dicts, a per-profile dict of lists, or ``f(profile) -> list``
        (replaced by the user's ``--at`` points, validated against the claim's domain).
    predicted
        ``f(point[, inst]) -> float``, or :data:`~verify.judge.stated.STATED` for the claim's stated form.
    sampler
        ``sampler(point, trials, gen, ctx[, inst]) -> tensor (trials,)``: one value per trial, drawn from
        the seeded ``gen`` (never a global RNG), so that runs reproduce and count as simulation.
    tol
        the practical tolerance (:class:`~verify.judge.base.Tol`) within which the CI must lie to confirm.
    trials
        trials per point: None (the profile's), a number, a per-profile dict or ``f(profile, point[, inst])``.
    target
        ``'stated'`` (a rejection refutes) or ``'derived'`` (a check of our own form: a rejection makes
        the claim inconclusive).
    chunk
        trials per sampler call (memory), a number or ``f(point)``.
    figure
        an optional :class:`~verify.judge.figures.Figure` drawn from the tests.
    name
        prefix of the test labels (and of the seeds' keys) when a claim has several checks.
    vector
        a parameter whose values are simulated on shared draws (the sampler gets them as a list).
    variance
        the exact variance of one sample, ``f(point[, inst])``, where known (a more cautious stderr).
    instance
        ``instance(point, gen, ctx)``: a random instance drawn once per point (a teacher, a dataset).
    alternatives
        nearby wrong forms, name -> ``f(point[, inst])``: the report says where the CI excludes them.
    corrected
        our corrected form, ``f(point[, inst])`` or :data:`~verify.judge.stated.DERIVED`, tested on the
        same draws and reported as the corrected form's own verdict (not the stated form's).
    """

    points: Any
    predicted: Callable[[Point], float]
    sampler: Sampler
    tol: Tol = Tol()
    trials: Any = None  # per-profile dict, or f(profile, point[, inst]) -> int; default profile.trials
    target: str = "stated"
    chunk: Any = 2048
    figure: Figure | None = None
    name: str = ""
    vector: str | None = None  # a parameter simulated on shared draws (see simulate_points)
    #: exact variance of one sample, f(point), where our derivations have it (see stat_test)
    variance: Callable[[Point], float] | None = None
    #: optional random instance of a point, ``instance(point, gen, ctx)`` (teachers, inputs, a
    #: pretrained network...), drawn once per point from that point's own seed, as
    #: neural-tangents separates ``init_fn`` from ``kernel_fn``.  With it, the sampler is called
    #: as ``sampler(point, trials, gen, ctx, inst)``, ``predicted(point, inst)`` and
    #: ``variance(point, inst)``, all on the same instance.
    instance: Callable[[Point, torch.Generator, Context], Any] | None = None
    #: nearby alternative forms, name -> f(point[, inst]): the report says at which points the
    #: evidence excludes each (e.g. the stated form without its finite-n term)
    alternatives: Mapping[str, Callable[..., float]] | None = None
    #: our corrected form, ``f(point[, inst])`` or :data:`~verify.judge.stated.DERIVED` (the claim's ``derived``
    #: sympy form): tested at every point on the same draws as ``predicted``, as a second test with target
    #: ``'corrected'`` (label "... (corrected form)") that enters only the claim's corrected verdict
    #: (:func:`verify.model.evidence.decide_corrected`; the claim must give ``corrected``, the LaTeX the report prints)
    corrected: Callable[..., float] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        predicted = resolve(self.predicted, claim)   # STATED: the claim's stated sympy form
        corrected = None if self.corrected is None else resolve_derived(self.corrected, claim)
        if corrected is not None and not claim.corrected:
            raise ValueError(f"{claim.id}: Expectation(corrected=...) tests a corrected form, which the report prints "
                             "from the claim's corrected=r'...' (LaTeX): give it")

        def test_of(lab, p, x, seed, *inst):
            var = None if self.variance is None else self.variance(p, *inst)
            t = stat_test(lab, p, predicted(p, *inst), x, self.tol, self.target, seed, variance=var)
            t.alternatives = alternative_values(self.alternatives, p, *inst)
            if corrected is None:
                return t
            # the same draws x, so the stated and the corrected form are compared on equal terms
            return [t, stat_test(lab + " (corrected form)", p, corrected(p, *inst), x, self.tol, CORRECTED, seed,
                                 variance=var)]
        return point_tests(self, claim, ctx, test_of, self.vector)


@dataclass
class ProbabilityBound:
    """A bound stated to hold with probability at least 1 - delta(point), tested as such.

    ``sampler`` returns, per trial, 1.0 where the bound is violated on that trial's draw
    and 0.0 where it holds (e.g. ``(lhs > rhs).double()``).  At each point the number of
    violations k in N trials is compared with the stated failure probability delta:

    * p-value of H0 "P(violation) <= delta": P(Bin(N, delta) >= k), exact; it enters the
      run-wide Holm correction like every other Monte Carlo test, so a rejection refutes;
    * the 95% Clopper-Pearson interval of P(violation) is reported; the point agrees when
      its upper end is <= delta + tol (one-sided: a bound far from tight is confirmed, a
      tight one needs enough trials to pin its failure rate down).

    Parameters
    ----------
    points
        the grid, as for :class:`Expectation`.
    delta
        the stated failure probability, ``delta(point[, inst])``.
    sampler
        ``sampler(point, trials, gen, ctx[, inst]) -> tensor (trials,)`` of 0/1 violation indicators.
    tol
        the practical tolerance on the violation frequency (:class:`Tol`).
    trials
        trials per point (None: the profile's; a number, a per-profile dict or ``f(profile, point[, inst])``).
    target
        ``'stated'`` (a rejection refutes) or ``'derived'``.
    chunk
        trials per sampler call, a number or ``f(point)``.
    figure
        an optional :class:`Figure`.
    name
        prefix of the test labels (and of the seeds' keys).
    instance
        ``instance(point, gen, ctx)``: a random instance drawn once per point, as in :class:`Expectation`.
    """

    points: Any
    delta: Callable[[Point], float]
    sampler: Sampler
    tol: Tol = Tol(rel=0.02, abs=0.002, resolution=0.0)
    trials: Any = None
    target: str = "stated"
    chunk: Any = 2048
    figure: Figure | None = None
    name: str = ""
    #: optional random instance per point, as in :class:`Expectation` (``delta(point, inst)``)
    instance: Callable[[Point, torch.Generator, Context], Any] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        return point_tests(self, claim, ctx, lambda lab, p, x, seed, *inst: binomial_test(
            lab, p, float(self.delta(p, *inst)), x, self.tol, self.target, seed))


def binomial_test(label, params, delta: float, violations, tol: Tol, target, seed) -> StatTest:
    """Violation indicators (0/1 per trial) against a stated failure probability ``delta``: the exact binomial test
    of H0 "P(violation) <= delta" and the Clopper-Pearson 95 % interval of the violation frequency (the test of
    :class:`ProbabilityBound`, for custom checks that count violations themselves).

    Parameters
    ----------
    label
        the test's label in the reports.
    params
        the parameter point the test is at (a dict).
    delta
        the stated failure probability, in [0, 1].
    violations
        0/1 per trial: whether the bound failed on that trial.
    tol
        the practical tolerance on the frequency (:class:`Tol`; ProbabilityBound's default max(0.002, 2 % of delta)).
    target
        ``'stated'`` (a rejection refutes the claim) or ``'derived'``.
    seed
        the seed the trials were drawn from (recorded in the evidence).
    """
    from scipy import stats as sps

    v = np.asarray(violations, dtype=np.float64)
    if v.size == 0 or not np.all((v == 0) | (v == 1)):
        raise ValueError(f"{label}: a probability-bound sampler must return 0/1 violation indicators")
    if not 0.0 <= delta <= 1.0:
        raise ValueError(f"{label}: the stated failure probability {delta} is not in [0, 1]")
    n, k = int(v.size), int(v.sum())
    phat = k / n
    pvalue = float(sps.binom.sf(k - 1, n, delta)) if k > 0 else 1.0
    ci = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
    return StatTest(label=label, params=dict(params), predicted=delta, estimate=phat,
                    stderr=math.sqrt(max(phat * (1 - phat), 1.0 / n) / n), trials=n, tol=tol.of(delta),
                    pvalue=min(1.0, pvalue), target=target, seed=seed, ci=(float(ci.low), float(ci.high)),
                    sided="upper", extra={"violations": k, "test": "exact binomial, H0: P(violation) <= delta"})
