"""The judge on high-probability bounds: violation frequency against the stated probability.

Synthetic claims with known answers (issue 2, §3: "a bound that holds with a stated
probability is tested as such"):

* Hoeffding's bound for the mean of m Rademacher signs, P(|mean| >= t) <= 2 exp(-m t^2 / 2):
  true and far from tight -> confirmed;
* the same event with the stated probability halved below its exact value -> refuted;
* a bound exactly tight at its stated probability, with few trials -> inconclusive,
  with a number of trials that would decide (built from exact counts, not from a draw).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from scipy import stats as sps

from verify import api
from verify.model.claim import Claim, Domain, Kind, Param, Source, Verdict
from verify.model.evidence import decide, finalize
from verify.judge import ProbabilityBound, binomial_test, Tol

DOMAIN = Domain((Param("m", 1, math.inf, integer=True), Param("t", 0, math.inf, lower_open=True)))


def _exceed(p, trials, gen, ctx):
    """1 where |mean of m Rademacher signs| >= t."""
    s = torch.randint(0, 2, (trials, int(p["m"])), generator=gen, dtype=torch.float64) * 2 - 1
    return (s.mean(-1).abs() >= p["t"] - 1e-12).double()


def _exact(p) -> float:
    """P(|mean| >= t) exactly, from the binomial law of the number of +1 signs."""
    m, t = int(p["m"]), p["t"]
    k = np.arange(m + 1)
    return float(sps.binom.pmf(k, m, 0.5)[np.abs(2 * k - m) / m >= t - 1e-12].sum())


def _claim(delta, trials) -> Claim:
    return Claim(id="tahir2024.synthetic.prob_bound", kind=Kind.PROB_BOUND,
                 source=Source("tahir2024", "synthetic test claim"), statement="", assumptions="",
                 domain=DOMAIN, check=ProbabilityBound(points=[{"m": 20, "t": 0.4}, {"m": 50, "t": 0.3}],
                                                       delta=delta, sampler=_exceed, trials=trials))


def _verdict(claim: Claim, seed: int = 0):
    ctx = api.make_context("quick", seed, progress=False)
    ev = claim.check.run(claim, ctx)
    finalize([ev], api.ALPHA)
    return decide(ev), ev


def test_hoeffding_is_confirmed():
    (v, why), ev = _verdict(_claim(lambda p: 2 * math.exp(-p["m"] * p["t"] ** 2 / 2), 20_000))
    assert v is Verdict.CONFIRMED, why
    assert all(t.sided == "upper" and t.estimate < t.predicted for t in ev.tests)


def test_understated_failure_probability_is_refuted():
    (v, why), ev = _verdict(_claim(lambda p: _exact(p) / 2, 20_000))
    assert v is Verdict.REFUTED, why


def test_tight_bound_with_few_trials_is_inconclusive_and_says_how_many_would_decide():
    """Deterministic by construction: exactly the expected number of violations, k = delta N.

    (Run through the sampler, a tight true bound is refuted at the family-wise rate, 5 %;
    seed 0 of the Rademacher claim at N = 300 happens to be such a draw, so this test
    does not depend on a draw.)"""
    from verify.model.evidence import Evidence

    delta, n = 0.04, 300
    t = binomial_test("tight", {"m": 1}, delta, np.r_[np.ones(12), np.zeros(n - 12)], Tol(resolution=0.0),
                      "stated", 0)
    ev = Evidence(tests=[t])
    finalize([ev], api.ALPHA)
    v, why = decide(ev)
    assert t.status == "undecided" and t.pvalue > 0.4
    assert v is Verdict.INCONCLUSIVE and "trials per point would decide" in why, why


def test_binomial_p_value_is_exact_and_interval_covers():
    t = binomial_test("x", {}, 0.1, np.r_[np.ones(20), np.zeros(80)], Tol(resolution=0.0), "stated", 0)
    assert t.pvalue == pytest.approx(float(sps.binom.sf(19, 100, 0.1)))
    assert t.ci[0] < 0.2 < t.ci[1] and t.estimate == 0.2
    none = binomial_test("x", {}, 0.0, np.zeros(5000), Tol(resolution=0.0), "stated", 0)
    assert none.pvalue == 1.0 and none.equivalent


def test_non_indicator_samples_are_an_error():
    with pytest.raises(ValueError, match="0/1 violation indicators"):
        binomial_test("x", {}, 0.1, np.array([0.0, 0.5]), Tol(), "stated", 0)
