"""Divergences: E|X|^p = infinity at a point (at a threshold of a parameter, or from a heavy tail), judged by the tail.

A sample mean cannot show that an expectation is infinite: it is finite at every N, and only grows without
settling.  What a finite sample can measure is the tail that makes the moment infinite.  If
P(|X| > x) ~ x^-alpha, then E|X|^p is infinite exactly when p >= alpha; so "E[X] = infinity" (p = 1) is the
statement alpha <= 1, and "Var X = infinity" (p = 2) is alpha <= 2.  :class:`Divergence` estimates alpha at each
point with Hill's estimator (:func:`verify.model.stats.hill_tail_index`) from the largest values of the per-trial
samples (their absolute values, less an optional known ``offset``) and tests H0 "alpha <= p" one-sided:

* the p-value (exact for a Pareto tail: k p / alpha_hat ~ Gamma(k, 1) at alpha = p) enters the run-wide Holm
  correction and a rejection is replicated on fresh draws, like every Monte Carlo test; a replicated rejection
  refutes the divergence (the tail is lighter than a divergence needs);
* the test confirms when the upper end of the 95 % interval of alpha lies within ``tol`` of p: a divergence at
  a threshold (alpha = p exactly, E = infinity logarithmically) then needs enough trials to pin alpha down, as a
  tight bound does.

The samples are drawn through the seeded context (``point_tests``), so the verdict rests on a simulation with its
seeds recorded.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch

from verify.judge.base import Point, Sampler, Tol
from verify.judge.figures import Figure
from verify.judge.points import point_tests
from verify.model.context import Context
from verify.model.evidence import Evidence, StatTest
from verify.model.stats import hill_k, hill_tail_index


@dataclass
class Divergence:
    """``E|X|^moment`` is infinite at every point: judged by the tail index alpha of the per-trial values.

    Parameters
    ----------
    points
        the grid, as for :class:`~verify.judge.Expectation` (a list, a per-profile dict or ``f(profile)``).
    sampler
        ``sampler(point, trials, gen, ctx[, inst]) -> tensor (trials,)``: the quantity X, one value per trial,
        drawn from the seeded ``gen``.
    moment
        p in ``E|X|^p = infinity``: 1 for an infinite mean, 2 for an infinite variance.  The statement tested is
        alpha <= p (alpha: the tail index of ``|X - offset|``).
    tol
        the practical tolerance on alpha: the point confirms when the 95 % upper end of alpha is at most
        ``moment + tol.of(moment)`` (default 10 % of the moment).
    trials
        trials per point (None: the profile's; a number, a per-profile dict or ``f(profile, point)``).
    fraction
        the share of the trials in the tail Hill's estimator reads (its k upper order statistics, at least
        20): larger is tighter but more biased where the tail is Pareto only far out.
    offset
        a constant subtracted from X before its tail is read (default 0).  Hill's estimator is not
        invariant to a shift: a quantity that is a large constant plus a heavy part (a risk = a noise floor +
        a diverging term) looks lighter-tailed in a finite sample, which biases the test towards refuting;
        give the constant (the finite part, when known) here.
    target
        ``'stated'`` (a rejection refutes) or ``'derived'``.
    chunk, figure, name, instance
        as for :class:`~verify.judge.Expectation`.
    """

    points: Any
    sampler: Sampler
    moment: float = 1.0
    tol: Tol = Tol(rel=0.1, abs=0.0, resolution=0.0)
    trials: Any = None
    fraction: float = 0.02
    offset: float = 0.0
    target: str = "stated"
    chunk: Any = 2048
    figure: Figure | None = None
    name: str = ""
    instance: Callable[[Point, torch.Generator, Context], Any] | None = None

    takes_points = True  # the profile's grid, or the user's --at points

    def run(self, claim, ctx: Context) -> Evidence:
        if not self.moment > 0:
            raise ValueError(f"{claim.id}: Divergence(moment={self.moment}) needs a moment p > 0 (E|X|^p = infinity)")
        return point_tests(self, claim, ctx, lambda lab, p, x, seed, *inst: tail_test(
            lab, p, self.moment, np.asarray(x, dtype=np.float64) - self.offset, self.tol, self.target, seed,
            self.fraction))


def tail_test(label, params, moment: float, samples, tol: Tol, target: str, seed, fraction: float = 0.02) -> StatTest:
    """Per-trial samples against "E|X|^moment = infinity", i.e. H0: the tail index alpha of |X| is <= moment
    (Hill's estimator; one-sided: small p-values say the tail is lighter)."""
    x = np.asarray(samples, dtype=np.float64).ravel()
    if not np.all(np.isfinite(x)):
        raise FloatingPointError(f"{label}: {int(np.sum(~np.isfinite(x)))} of {x.size} trials are not finite "
                                 "(a divergence is shown by a finite sample's tail, not by overflow)")
    k = hill_k(x.size, fraction)
    t = hill_tail_index(x, k)
    if t is None:
        raise ValueError(f"{label}: too few trials ({x.size}) or too few nonzero values to see a tail")
    se = t.alpha / math.sqrt(t.k) if math.isfinite(t.alpha) else math.inf
    return StatTest(label=label, params=dict(params), predicted=float(moment), estimate=t.alpha, stderr=se,
                    trials=int(x.size), tol=tol.of(moment), pvalue=min(1.0, t.pvalue_at_most(moment)), target=target,
                    seed=seed, ci=t.ci, sided="upper",
                    extra={"test": f"Hill tail index of |X|, H0: alpha <= {moment:g} (E|X|^{moment:g} = "
                                   "infinity)", "k": t.k, "moment": float(moment)})
