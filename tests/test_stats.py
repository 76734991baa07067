"""The judge's statistics, tested on distributions whose answers are known."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.model.claim import Verdict
from verify.model.evidence import Check, Evidence, StatTest, decide, finalize
from verify.model.stats import extrapolate_inverse_size, holm, mean_estimate, two_sided_p


@given(st.lists(st.floats(1e-6, 1.0), min_size=1, max_size=30))
def test_holm_is_monotone_and_dominates(ps):
    adj = holm(ps)
    assert all(a >= p - 1e-15 for a, p in zip(adj, ps))
    assert all(a <= 1.0 for a in adj)
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    assert all(adj[order[i]] <= adj[order[i + 1]] + 1e-15 for i in range(len(ps) - 1))


def test_holm_known_values():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_mean_estimate_coverage():
    """95% intervals of a known mean cover it about 95% of the time."""
    rng = np.random.default_rng(1)
    cover = 0
    for _ in range(2000):
        e = mean_estimate(rng.exponential(1.0, size=400))
        lo, hi = e.ci()
        cover += lo <= 1.0 <= hi
    assert 0.93 < cover / 2000 < 0.965


def test_p_value_uniform_under_null():
    rng = np.random.default_rng(2)
    ps = []
    for _ in range(2000):
        e = mean_estimate(rng.normal(0.3, 1.0, size=200))
        ps.append(two_sided_p(e.mean, e.stderr, 0.3, df=e.n - 1))
    assert abs(np.mean(np.array(ps) < 0.05) - 0.05) < 0.015


def test_nonfinite_trials_are_an_error():
    with pytest.raises(FloatingPointError):
        mean_estimate(np.array([1.0, np.inf, 2.0]))


def test_extrapolation_recovers_intercept():
    sizes = [50, 100, 200, 400]
    truth = [2.0 + 3.0 / N - 5.0 / N**2 for N in sizes]
    ex = extrapolate_inverse_size(sizes, truth, [1e-4] * 4)
    assert ex.intercept == pytest.approx(2.0, abs=1e-6) and ex.dof == 1


def _test(status, target="stated", est=1.0, pred=1.0):
    t = StatTest("p", {}, pred, est, 0.01, 100, 0.05, 0.5, target=target, ci=(est - 0.02, est + 0.02))
    t.status = status
    return t


def test_decide_rules():
    assert decide(Evidence(tests=[_test("equivalent")]))[0] == Verdict.CONFIRMED
    assert decide(Evidence(tests=[_test("equivalent"), _test("rejected")]))[0] == Verdict.REFUTED
    assert decide(Evidence(tests=[_test("rejected", target="derived")]))[0] == Verdict.INCONCLUSIVE
    assert decide(Evidence(tests=[_test("undecided")]))[0] == Verdict.INCONCLUSIVE
    assert decide(Evidence(checks=[Check("c", False)]))[0] == Verdict.REFUTED
    assert decide(Evidence(checks=[Check("c", False, refutes=False)]))[0] == Verdict.INCONCLUSIVE
    assert decide(Evidence(checks=[Check("c", None)]))[0] == Verdict.INCONCLUSIVE
    assert decide(Evidence())[0] == Verdict.INCONCLUSIVE


def test_finalize_applies_holm_across_evidences():
    a = StatTest("a", {}, 0.0, 0.0, 1.0, 100, 0.1, 0.03, ci=(-0.05, 0.05))
    b = StatTest("b", {}, 0.0, 0.0, 1.0, 100, 0.1, 0.04, ci=(-0.05, 0.05))
    finalize([Evidence(tests=[a]), Evidence(tests=[b])], 0.05)
    assert a.p_adjusted == pytest.approx(0.06) and a.status == "equivalent"
    assert b.p_adjusted == pytest.approx(0.06)
    assert math.isfinite(a.p_adjusted)


def test_degenerate_tests_are_set_aside_and_corrected_forms_judged():
    """A zero-spread test equal to its prediction is no evidence; a corrected form gets its own verdict."""
    import numpy as np

    from verify.model.claim import Verdict
    from verify.model.evidence import Check, Evidence, decide, decide_corrected, finalize
    from verify.judge import Tol, stat_test

    zero = stat_test("zero", {}, 0.0, np.zeros(100), Tol(), "stated", 1)
    real = stat_test("real", {}, 1.0, np.random.default_rng(0).normal(1.0, 0.01, 1000), Tol(), "derived", 2)
    ev = Evidence(tests=[zero, real])
    finalize([ev], 0.05)
    assert zero.status == "degenerate" and real.status == "equivalent"
    assert real.detectable > 0 and real.detectable < 0.01
    v, why = decide(Evidence(tests=[zero]))
    assert v == Verdict.INCONCLUSIVE and "by construction" in why
    assert decide_corrected(ev)[0] == Verdict.CONFIRMED
    assert decide_corrected(Evidence(checks=[Check("own", False, "x", refutes=False)]))[0] == Verdict.REFUTED
    assert decide_corrected(Evidence())[0] == Verdict.INCONCLUSIVE
