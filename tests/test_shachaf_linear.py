"""Tests of the §4 pieces of 000_efaf07e323d59f0e.txt: derivations/linear_finetune.py (sympy) <->
numerics/linear_finetune.py (torch, literal GD) <-> Monte Carlo."""
from __future__ import annotations

import math

import pytest
import sympy as sp
import torch

from derivations import linear_finetune as LFD
from numerics import linear_finetune as LF
from _deep_linear_fixtures import gen, one_thread  # noqa: F401  (autouse fixture)

F64 = torch.float64


def _draw(B, n, d, lam, g):
    X = LF.design(B, n, lam, g)
    tS = torch.randn(B, d, generator=g, dtype=F64)
    tT = torch.randn(B, d, generator=g, dtype=F64)
    return X, tS, tT, torch.einsum("bnd,bd->bn", X, tT)


@pytest.mark.parametrize("lam", [torch.ones(15, dtype=F64), LF.power_spectrum(15, 1.0),
                                 LF.two_level_spectrum(15, 3, 1.5, 0.3)])
def test_literal_gd_lands_on_eq1_and_its_risk_is_eq2(lam):
    X, tS, tT, y = _draw(16, 6, 15, lam, gen(0))
    w, info = LF.gd_finetune(X, y, tS)
    assert bool(info["converged"].all())
    e1 = LF.end_state_eq1(X, tS, tT)
    assert float((w - e1).norm(dim=-1).max()) < 1e-8
    R = LF.risk(w, tT, lam)
    assert torch.allclose(R, LF.risk_eq2(X, tS, tT, lam), rtol=1e-8, atol=0)
    # the null-space part never moves: P_perp w = P_perp theta_S
    assert float((LF.perp_part(X, w) - LF.perp_part(X, tS)).norm(dim=-1).max()) < 1e-10


def test_gd_raises_not_converged_when_the_budget_is_too_small():
    from numerics import NotConverged

    X, tS, tT, y = _draw(4, 6, 15, torch.ones(15, dtype=F64), gen(1))
    with pytest.raises(NotConverged):
        LF.gd_finetune(X, y, tS, max_steps=3)


def test_expected_risk_identity_sympy_vs_monte_carlo():
    n, d, B = 5, 20, 20000
    form = sp.lambdify((LFD.n, LFD.d, LFD.v2), LFD.expected_risk_identity_derived(), modules="math")
    var = LFD.risk_variance_identity_value(n, d, 1.0)
    g = gen(2)
    lam = torch.ones(d, dtype=F64)
    X = LF.design(B, n, lam, g)
    v = torch.randn(B, d, generator=g, dtype=F64)
    v = v / v.norm(dim=-1, keepdim=True)
    R = LF.risk_eq2(X, torch.zeros_like(v), v, lam)
    se = math.sqrt(var / B)
    assert abs(float(R.mean()) - form(n, d, 1.0)) < 5 * se
    assert abs(float(R.var()) - var) < 0.1 * var


def test_g_value_is_the_sympy_form():
    f = sp.lambdify((LFD.c, LFD.lam1, LFD.r, LFD.delta, LFD.n), LFD.g_stated(), modules="math")
    for args in [(1.0, 2.0, 30.0, 1.0, 10.0), (0.5, 1.0, 3.0, 5.0, 100.0), (2.0, 1.5, 1.0, 50.0, 20.0)]:
        assert math.isclose(LFD.g_value(*args), f(*args), rel_tol=1e-14)
    lam = LF.two_level_spectrum(40, 4, 1.5, 0.3)
    r = float(lam.sum() / lam[0])
    assert math.isclose(LF.g_function(1.3, lam, 2.0, 17), LFD.g_value(1.3, 1.5, r, 2.0, 17), rel_tol=1e-12)


def test_c_star_makes_the_bound_tight_and_the_event_step_holds():
    g = gen(3)
    d, n = 30, 8
    lam = LF.power_spectrum(d, 1.0)
    X = LF.design(200, n, lam, g)
    v = torch.randn(200, d, generator=g, dtype=F64)
    R = LF.risk_eq2(X, torch.zeros_like(v), v, lam)
    g1 = LF.g_function(1.0, lam, 1.0, n)
    ms = range(1, d + 1)
    cs = LF.c_star(R, g1, lam, v, ms)
    worst_gap = torch.full_like(R, math.inf)
    for m in ms:
        t2, b2 = LF.split_norms(v, m)
        b = LF.bound3(cs * g1, float(lam[m - 1]), t2, b2)
        assert bool((b >= R * (1 - 1e-9)).all())          # holds for every m at c*
        worst_gap = torch.minimum(worst_gap, (b - R) / R)
    assert float(worst_gap.abs().max()) < 1e-8              # and is tight at the binding m
    # the proof's step: (3) holds with g = ||Sigma_tilde - Sigma|| on every draw
    g0 = LF.covariance_deviation(X, lam)
    for m in ms:
        t2, b2 = LF.split_norms(v, m)
        assert bool((LF.bound3(g0, float(lam[m - 1]), t2, b2) >= R * (1 - 1e-12)).all())


def test_log_slopes_of_g():
    assert LFD.log_slope(LFD.g_large_n_derived()) == sp.Rational(-1, 2)
    assert LFD.log_slope(LFD.g_small_n_derived()) == -1
    assert sp.simplify(LFD.expected_projector_derived() - (1 - LFD.n / LFD.d)) == 0


@pytest.mark.parametrize("lam", [torch.ones(12, dtype=F64), LF.two_level_spectrum(12, 2, 1.5, 0.3)])
def test_eq2_stated_form_is_the_square_norm_of_eq2(lam):
    """derivations.linear_finetune.risk_eq2_stated (eq. (2) written out in the scalars of a draw), which
    shachaf2021.thm4.1 reads through stated_value, equals ||Sigma^{1/2} P_perp (theta_T - theta_S)||^2."""
    from verify.judge.stated import function_of

    X, tS, tT, _ = _draw(8, 5, 12, lam, gen(3))
    pT, pS = LF.perp_part(X, tT), LF.perp_part(X, tS)
    f = function_of(LFD.risk_eq2_stated())
    got = [f({"Q_TT": a, "Q_TS": b, "Q_SS": c}) for a, b, c in zip(
        (pT.square() * lam).sum(-1).tolist(), (pT * pS * lam).sum(-1).tolist(), (pS.square() * lam).sum(-1).tolist())]
    want = LF.risk_eq2(X, tS, tT, lam).tolist()
    assert max(abs(a - b) / b for a, b in zip(got, want)) < 1e-12


def test_thm42_event_judges_the_stated_bound_and_a_tighter_wrong_bound_fails():
    """shachaf2021.thm4.2.event reads bound (3) (its stated form) on every draw: with (3) the check passes, with
    the top-span term dropped (a bound the draws violate) it fails and refutes."""
    import dataclasses

    from verify import api
    from verify.claims.shachaf2021 import linear
    from verify.judge.stated import reads

    claim = next(c for c in linear.CLAIMS if c.id == "shachaf2021.thm4.2.event")
    assert claim.stated == LFD.bound3_stated() and claim.stated_bound == "upper"
    ctx = api.make_context("quick", 0, progress=False)
    pts = [{"n": 5, "d": 40, "spectrum": 1, "delta": 1.0}]
    with reads() as rec:
        ev = linear._event_and_cstar(claim, ctx, pts)
    assert claim.id in rec.ids and ev.checks[0].passed
    bad = dataclasses.replace(claim, stated=2 * LFD.g * LFD.bot2)
    ev = linear._event_and_cstar(bad, ctx, pts)
    assert ev.checks[0].passed is False and ev.checks[0].refutes


def test_sec4_regimes_margin_and_corrected_threshold():
    """issue 22: the §4.1 threshold g = 1 is right only for lambda_m = 1; the margin is the violation in units of the
    coefficient the sentence says dominates, > 0 exactly where the stated ordering fails; the corrected threshold
    g = lambda_m holds everywhere (exactly, even next to the tie)."""
    from verify.claims.shachaf2021 import linear as LN

    for g, lm in ((1.2, 1.5), (0.5, 0.2), (2.0, 1.0), (0.5, 0.9), (0.3, 0.3), (1.0 + 1e-15, 1.0)):
        p = {"g": g, "lambda_m": lm}
        assert (LN._regimes_margin(p) > 0) == (not LN._regimes_hold(p)) or LN._regimes_margin(p) == 0
        assert LN._regimes_corrected(p)
    assert LN._regimes_margin({"g": 1.2, "lambda_m": 1.5}) == pytest.approx(1.5**2 / 1.2**2 - 1)
    claim = next(c for c in LN.CLAIMS if c.id == "shachaf2021.sec4.regimes")
    assert claim.role == "remark" and not claim.extension and claim.root_cause is not None


def test_thm42_points_where_bound3_is_automatic_are_not_tested():
    """Issue 24: at Sigma = I (and wherever g >= lambda_1 2^(-1/3)) bound (3) holds for every estimator, so
    thm4.2's ProbabilityBound runs only where it can fail; the rule is checked against (3) on random vectors."""
    import torch

    from numerics import linear_finetune as LF
    from verify.claims.shachaf2021 import linear as L

    for prof in ("quick", "standard", "full"):
        assert all(int(q["spectrum"]) != 0 for q in L._pb_points(1.0)[prof])
        assert L._pb_points(L.C_DS)[prof] == []
    gen = torch.Generator().manual_seed(0)
    for q in L.PB_POINTS["standard"]:
        if L.can_fail(q, 1.0):
            continue
        lam = L.spectrum(q["spectrum"], int(q["d"]))
        g = LF.g_function(1.0, lam, float(q["delta"]), int(q["n"]))
        v = torch.randn(500, int(q["d"]), generator=gen, dtype=torch.float64)
        worst_R = float(lam[0]) * (v ** 2).sum(-1)                      # R <= lambda_1 ||v||^2 for any estimator
        for m in (1, int(q["d"]) // 2, int(q["d"])):
            top2, bot2 = (v[:, :m] ** 2).sum(-1), (v[:, m:] ** 2).sum(-1)
            assert (LF.bound3(g, float(lam[m - 1]), top2, bot2) >= worst_R * (1 - 1e-12)).all()
