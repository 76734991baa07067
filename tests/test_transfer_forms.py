"""Property tests of derivations/transfer.py and numerics/transfer.py (001_759117b8232d72ac.txt §3.3-3.3.1).

Lambdified sympy forms against torch Monte Carlo of the literal procedure, sympy against
mpmath quadrature, and the numerical helpers against each other.
"""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derivations import transfer as T
from derivations import wishart as W
from numerics.transfer import (linear_transfer_risk, literal_transfer_distance, min_norm_last_layer,
                               min_norm_last_layer_rank_one, rank_one_features, scratch_and_transfer_risks,
                               transferability_trials)

FAST = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
HALF_PI = math.pi / 2
thetas = st.one_of(st.sampled_from([0.0, math.pi / 8, math.pi / 4, HALF_PI]), st.floats(0.0, HALF_PI))
sigmas = st.one_of(st.sampled_from([0.0, 0.2, 1.0]), st.floats(0.0, 2.0))


def _gen(seed: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def _zscore(x: torch.Tensor, predicted: float) -> float:
    return abs(float(x.mean()) - predicted) / (float(x.std()) / math.sqrt(x.numel()) + 1e-12)


# ----------------------------------------------------------------------------- numerics

@FAST
@given(n=st.integers(1, 30), d=st.integers(1, 30), seed=st.integers(0, 2 ** 31))
def test_rank_one_pseudo_inverse_equals_svd_pseudo_inverse(n, d, seed):
    g = _gen(seed)
    X = torch.randn(4, n, d, generator=g, dtype=torch.float64)
    bs = torch.randn(4, d, generator=g, dtype=torch.float64)
    v = torch.randn(4, d, generator=g, dtype=torch.float64)
    y = torch.randn(4, n, generator=g, dtype=torch.float64)
    Phi = rank_one_features(X, bs, v)
    z = torch.einsum("bnd,bd->bn", X, bs)
    a = min_norm_last_layer(Phi, y)
    b = min_norm_last_layer_rank_one(z, v, y)
    c = (torch.linalg.pinv(Phi) @ y.unsqueeze(-1)).squeeze(-1)  # plain SVD pseudo-inverse
    scale = 1e-9 * float(b.abs().max() + 1)
    assert torch.allclose(a, b, rtol=1e-8, atol=scale) and torch.allclose(c, b, rtol=1e-8, atol=scale)
    Y = torch.stack([y, 2 * y], -1)
    B2 = min_norm_last_layer_rank_one(z, v, Y)
    assert torch.allclose(B2[..., 0], b) and torch.allclose(B2[..., 1], 2 * b)


def test_noiseless_aligned_transfer_is_exact():
    r = linear_transfer_risk(64, 7, 5, 0.0, 0.0, _gen(1))
    assert float(r.max()) < 1e-20


@FAST
@given(seed=st.integers(0, 2 ** 31), theta=thetas, sigma=sigmas)
def test_vectorised_angles_and_lambdas_match_single_runs(seed, theta, sigma):
    rs, rl = scratch_and_transfer_risks(16, 9, 13, [theta, 0.3], sigma, _gen(seed))
    rs1, rl1 = scratch_and_transfer_risks(16, 9, 13, theta, sigma, _gen(seed))
    assert torch.allclose(rs[:, 0], rs1) and torch.allclose(rl[:, 0], rl1)
    many = linear_transfer_risk(16, 9, 4, theta, sigma, _gen(seed), [0.0, 0.25])
    one = linear_transfer_risk(16, 9, 4, theta, sigma, _gen(seed), 0.25)
    assert torch.allclose(many[:, 1], one)


# ----------------------------------------------------------------------------- sympy vs Monte Carlo

@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.integers(8, 40), d=st.integers(2, 12), theta=thetas, sigma=sigmas, seed=st.integers(0, 2 ** 31))
def test_eq12_lambdified_against_literal_monte_carlo(n, d, theta, sigma, seed):
    f = sp.lambdify((W.n, T.theta, W.sigma), T.linear_transfer_risk_stated())
    r = linear_transfer_risk(10000, n, d, theta, sigma, _gen(seed))
    if theta == 0 and sigma == 0:
        assert float(r.max()) < 1e-20
        return
    assert _zscore(r, f(n, theta, sigma)) < 5


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.integers(3, 30), d=st.integers(2, 20), lam=st.floats(0.01, 3.0), theta=thetas, sigma=sigmas,
       seed=st.integers(0, 2 ** 31))
def test_eq128_against_literal_ridge_monte_carlo(n, d, lam, theta, sigma, seed):
    r = linear_transfer_risk(20000, n, d, theta, sigma, _gen(seed), lam)
    pred = float(T.ridge_risk_finite_mp(n, lam, theta, sigma, dps=20))
    assert _zscore(r, pred) < 5


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(d=st.sampled_from([24, 32]), gamma=st.sampled_from([0.5, 2.0]), theta=thetas, seed=st.integers(0, 2 ** 31))
def test_finite_transferability_against_monte_carlo(d, gamma, theta, seed):
    n = round(gamma * d)
    f = sp.lambdify((W.n, W.d, T.theta, W.sigma), T.transferability_finite())
    rs, rl = scratch_and_transfer_risks(8000, n, d, theta, 0.5, _gen(seed))
    assert _zscore(rs - rl, float(f(n, d, theta, 0.5))) < 5


# ----------------------------------------------------------------------------- sympy vs mpmath

@FAST
@given(k=st.floats(2.5, 80.0))
def test_inverse_chi2_mean_sympy_against_quadrature(k):
    sym = T.inverse_chi2_mean_derived().args[0][0]
    got = T.chi2_expectation_mp(lambda x: 1 / x, k, dps=25)
    assert abs(float(sym.subs(T.k, k)) - float(got)) < 1e-12 * (1 + float(got))


@FAST
@given(n=st.integers(3, 200), lam=st.floats(0.0, 5.0), theta=thetas, sigma=sigmas)
def test_eq128_single_quadrature_equals_term_by_term(n, lam, theta, sigma):
    a = T.ridge_risk_finite_mp(n, lam, theta, sigma, dps=20)
    b = T.ridge_risk_finite_terms_mp(n, lam, theta, sigma, dps=20)
    assert abs(a - b) < 1e-12


@FAST
@given(n=st.integers(3, 300), lam=st.floats(0.0, 5.0), theta=thetas, sigma=sigmas)
def test_eq128_stated_integrand_double_precision_quadrature(n, lam, theta, sigma):
    """What tahir2024.thm3.8.finite tests against: the claim's stated integrand of (128), read through
    verify.judge.stated.stated_value and integrated over chi^2_n in double precision (derivations.transfer.chi2_expectation),
    equals the 20-digit mpmath quadrature of (128) it replaced."""
    from verify.claims.tahir2024.thm3_8 import THM38_FINITE, _stated_finite

    p = {"n": n, "d": 5, "lam": lam, "theta": theta, "sigma": sigma}
    want = float(T.ridge_risk_finite_mp(n, lam, theta, sigma, dps=20))
    assert abs(_stated_finite(THM38_FINITE)(p) - want) < 1e-12 * (1 + want)


@FAST
@given(n=st.integers(3, 200), theta=thetas, sigma=sigmas)
def test_eq128_at_lambda_zero_is_eq12(n, theta, sigma):
    assert abs(float(T.ridge_risk_finite_mp(n, 0, theta, sigma, dps=20)) -
               T.linear_transfer_risk_value(n, theta, sigma)) < 1e-12


@FAST
@given(gamma=st.floats(0.01, 5.0).filter(lambda g: abs(g - 1) > 1e-3), theta=thetas, sigma=sigmas)
def test_eq13_sympy_piecewise_equals_mpmath(gamma, theta, sigma):
    f = sp.lambdify((T.gamma, T.theta, W.sigma), T.transferability_stated(), "mpmath")
    with mpmath.workdps(30):
        g, th, s = mpmath.mpf(gamma), mpmath.mpf(theta), mpmath.mpf(sigma)
        a = f(g, th, s)
        b = T.transferability_mp(g, mpmath.cos(th), mpmath.sin(th), s)
        assert abs(a - b) < 1e-20 * (1 + abs(b))


@FAST
@given(gamma=st.sampled_from([0.3, 0.5, 1.5, 2.5]), theta=thetas, sigma=sigmas)
def test_finite_transferability_tends_to_eq13(gamma, theta, sigma):
    f = sp.lambdify((W.n, W.d, T.theta, W.sigma), T.transferability_finite())
    lim = float(T.transferability_mp(gamma, math.cos(theta), math.sin(theta), sigma))
    errs = [abs(f(gamma * D, D, theta, sigma) - lim) for D in (1e3, 1e4, 1e5)]
    assert errs[2] <= errs[0] and errs[2] < 1e-3 * (1 + abs(lim))


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.integers(8, 60), theta=st.floats(0.1, 1.3), sigma=st.floats(0.1, 1.5))
def test_finite_ridge_optimum_is_the_derived_closed_form(n, theta, sigma):
    lam_star = (math.sin(theta) ** 2 + sigma ** 2) / (n * math.cos(theta) ** 2)
    below = T.ridge_risk_finite_dlambda_mp(n, 0.8 * lam_star, theta, sigma, dps=20)
    above = T.ridge_risk_finite_dlambda_mp(n, 1.25 * lam_star, theta, sigma, dps=20)
    assert below < 0 < above


def test_domain_message_for_n_at_most_two():
    with pytest.raises(ValueError, match="n must exceed 2"):
        T.linear_transfer_risk_value(2, 0.3, 0.5)


# ----------------------------------------------------------------------------- estimators of the claim modules

@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(d=st.sampled_from([24, 32]), gamma=st.sampled_from([0.5, 2.0]), theta=thetas, sigma=sigmas,
       seed=st.integers(0, 2 ** 31))
def test_transferability_trials_estimate_the_finite_form(d, gamma, theta, sigma, seed):
    n = round(gamma * d)
    x = transferability_trials(3000, n, d, theta, sigma, _gen(seed))
    rs, rl = scratch_and_transfer_risks(3000, n, d, theta, sigma, _gen(seed))
    assert torch.equal(x, rs - rl)                                  # the same draws
    if theta == 0 and sigma == 0 and gamma > 1:                     # both risks are exactly 0
        assert float(x.abs().max()) < 1e-12
        return
    assert _zscore(x, T.transferability_finite_value(n, d, theta, sigma)) < 5


def test_transferability_finite_value_is_undefined_where_the_form_diverges():
    for n, d in [(31, 32), (32, 32), (33, 32), (2, 40), (1, 40)]:
        with pytest.raises(ValueError):
            T.transferability_finite_value(n, d, 0.3, 0.5)


@pytest.mark.parametrize("lam", [0.0, 0.3])
def test_literal_deep_network_reaches_the_rank_one_end_state(lam):
    dist, steps = literal_transfer_distance(3, 6, 8, 2, 1e-3, math.pi / 3, 0.5, lam, _gen(3))
    assert dist.shape == (3,) and steps.shape == (3,)
    assert float(dist.max()) < 1e-4
    if lam == 0:
        assert int(steps.min()) > 0                                 # gradient descent on the last layer ran


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.sampled_from([3, 4, 9]), theta=thetas, sigma=st.sampled_from([0.2, 1.0]), seed=st.integers(0, 2 ** 31))
def test_f_statistic_of_the_literal_risk_has_the_derived_law(n, theta, sigma, seed):
    from scipy import stats as sps

    r = linear_transfer_risk(2000, n, 5, theta, sigma, _gen(seed)).numpy()
    f = T.linear_transfer_f_statistic(r, n, theta, sigma)
    s2 = math.sin(theta) ** 2
    assert abs(f - n * (r - s2) / (s2 + sigma ** 2)).max() < 1e-9 * (1 + abs(f).max())
    assert sps.kstest(f, "f", args=(1, n)).pvalue > 1e-4


@pytest.mark.parametrize("sig", [0.2, 0.5, 1.5])
def test_positive_window_at_orthogonal_is_sympys_solution_set(sig):
    assert T.positive_set_at_orthogonal(sig) == T.positive_window_at_orthogonal_derived(sig)


def test_exact_endpoints_in_mpmath():
    assert T.trig_mp(HALF_PI) == (0, 1) and T.trig_mp(0.0) == (1, 0)
    with T.precision_for(1e-300):
        assert mpmath.mp.dps == 660
        assert T.transferability_theta_mp(0.5, HALF_PI, 0.0) == -mpmath.mpf("0.5")   # T = -gamma, exact
    assert T.ridge_risk_limit_cos_mp(7, T.trig_mp(HALF_PI)[0]) == 1                    # (15) constant at pi/2


@FAST
@given(ns=st.sampled_from([(10, 20, 40), (100, 300, 900)]), a=st.floats(-3, 3), b=st.floats(-3, 3),
       c=st.floats(-3, 3))
def test_richardson_is_exact_on_quadratics_in_one_over_n(ns, a, b, c):
    with mpmath.workdps(30):
        vals = [a + b / mpmath.mpf(N) + c / mpmath.mpf(N) ** 2 for N in ns]
        assert abs(T.richardson_mp(ns, vals) - a) < 1e-20


# ----------------------------------------------------------------------------- Thm 3.9: control variates (issue 8)

from derivations import deep_linear as DD  # noqa: E402
import numerics.deep_linear as DL  # noqa: E402
from numerics.least_squares import min_norm_solve  # noqa: E402
from numerics.sampling import gaussian_design, teacher_pair  # noqa: E402


def _T_of_controls(z, gamma_, sigma_, theta_, L_):
    """T = 2k(cos c2 + sin xi) - k^2 c2 per draw from the controls, k from the mpmath root of (*)."""
    c2, xi, m, r, q = z
    ct, st_ = mpmath.cos(theta_), mpmath.sin(theta_)
    b2 = 1 - ct ** 2 * c2 - 2 * ct * st_ * xi - st_ ** 2 * m + 2 * sigma_ * r + sigma_ ** 2 * q
    k = DD.finetune_scale_mp(b2, c2, L_, 40) ** (L_ - 1)
    return 2 * k * (ct * c2 + st_ * xi) - k ** 2 * c2


@pytest.mark.parametrize("gamma_, sigma_, theta_, L_", [(0.5, 1.0, math.pi / 3, 2), (0.25, 0.5, 1.2, 3),
                                                        (0.75, 0.3, 0.4, 4), (0.5, 0.0, HALF_PI, 2)])
def test_control_coefficients_are_the_gradient_of_T(gamma_, sigma_, theta_, L_):
    """The sympy implicit-function gradient equals central differences of T(z) with k from the mpmath root."""
    a = DD.finetune_control_coefficients(gamma_, sigma_, theta_, L_, "transfer")
    zl = DD.finetune_control_limits(gamma_)
    z0 = [zl[j] for j in DD.CONTROLS]
    with mpmath.workdps(40):
        h = mpmath.mpf(10) ** -12
        for j, aj in enumerate(a):
            up, dn = list(z0), list(z0)
            up[j] += h
            dn[j] -= h
            fd = (_T_of_controls(up, gamma_, sigma_, theta_, L_) - _T_of_controls(dn, gamma_, sigma_, theta_, L_)) / (2 * h)
            assert abs(float(fd) - aj) < 1e-8, (DD.CONTROLS[j], float(fd), aj)
    # the risk coefficients are those of R_sc (exactly linear in the controls) minus those of T
    ar = DD.finetune_control_coefficients(gamma_, sigma_, theta_, L_, "risk")
    ct, st_ = math.cos(theta_), math.sin(theta_)
    for x, y, t in zip(ar, a, (ct * ct, 2 * ct * st_, st_ * st_, 0.0, sigma_ ** 2)):
        assert abs(x - (t - y)) < 1e-12


def test_control_means_are_exact_at_finite_size():
    """E c2 = E m = 1 - n/d, E xi = E r = 0, E q = n/(d - n - 1), by Monte Carlo (5 standard errors)."""
    n, d, B = 12, 30, 20000
    gen = _gen(11)
    bs, _, nu = teacher_pair(B, d, 0.0, gen)
    X = gaussian_design(B, n, d, gen)
    eps = torch.randn(B, n, generator=gen, dtype=torch.float64)
    sol = min_norm_solve(X, torch.stack([torch.einsum("bnd,bd->bn", X, bs), torch.einsum("bnd,bd->bn", X, nu), eps], -1))
    Pbs, Pnu, Xe = sol[..., 0], sol[..., 1], sol[..., 2]
    bt = math.cos(0.7) * bs + math.sin(0.7) * nu
    z = {"c2": (bs - Pbs).square().sum(-1), "xi": ((bs - Pbs) * nu).sum(-1), "m": (nu - Pnu).square().sum(-1),
         "r": ((math.cos(0.7) * Pbs + math.sin(0.7) * Pnu) * Xe).sum(-1), "q": Xe.square().sum(-1)}
    ez = DD.finetune_control_means(n, d)
    for j in DD.CONTROLS:
        assert _zscore(z[j], ez[j]) < 5, j
    with pytest.raises(ValueError, match="n < d - 1"):
        DD.finetune_control_means(29, 30)


@pytest.mark.parametrize("quantity", ["risk", "transfer"])
def test_controlled_sampler_is_the_derived_end_state_draw_by_draw(quantity, monkeypatch):
    """With the coefficients set to 0 the sampler returns, draw by draw, the risk (or R_sc - R_ft) of
    numerics.deep_linear.finetune_end_state_balanced on the same draws; with them, the same mean (5 se)
    at a smaller spread."""
    from verify.claims.tahir2024 import finetune as F

    class Ctx:
        dtype = torch.float64
    p = {"d": 24, "n": 12, "L": 3, "sigma": 0.5, "theta": [0.0, math.pi / 3, HALF_PI]}
    monkeypatch.setattr(DD, "finetune_control_coefficients", lambda *a, **k: (0.0,) * 5)
    raw = F._controlled_sampler(quantity)(p, 64, _gen(5), Ctx())
    gen = _gen(5)
    bs, _, nu = teacher_pair(64, 24, 0.0, gen)
    X = gaussian_design(64, 12, 24, gen)
    eps = torch.randn(64, 12, generator=gen, dtype=torch.float64)
    for j, th in enumerate(p["theta"]):
        bt = math.cos(th) * bs + math.sin(th) * nu
        y = torch.einsum("bnd,bd->bn", X, bt) + 0.5 * eps
        r_ft = DL.risk(DL.finetune_end_state_balanced(X, y, bs, 3), bt)
        want = r_ft if quantity == "risk" else DL.risk(min_norm_solve(X, y), bt) - r_ft
        assert torch.allclose(raw[:, j], want, rtol=1e-9, atol=1e-11)
    monkeypatch.undo()
    B = 4000
    ctl = F._controlled_sampler(quantity)({**p, "theta": [math.pi / 3]}, B, _gen(6), Ctx())[:, 0]
    monkeypatch.setattr(DD, "finetune_control_coefficients", lambda *a, **k: (0.0,) * 5)
    unc = F._controlled_sampler(quantity)({**p, "theta": [math.pi / 3]}, B, _gen(7), Ctx())[:, 0]
    se = math.hypot(float(ctl.std()), float(unc.std())) / math.sqrt(B)
    assert abs(float(ctl.mean()) - float(unc.mean())) < 5 * se
    assert float(ctl.var()) < float(unc.var()) / 5


def test_linear_transfer_risk_variance_against_monte_carlo():
    """Var R_lt (derivations.transfer) against the sample variance of the rank-one transfer risk at n = 14
    (finite fourth moment for n > 8)."""
    from numerics.teacher_transfer import rank_one_transfer_risk
    n, theta_, sigma_ = 14, 1.0, 0.5
    r = rank_one_transfer_risk(200000, n, 6, theta_, sigma_, _gen(3))
    want = float(T.linear_transfer_risk_variance_derived().subs({T.n: n, T.theta: theta_, T.sigma: sigma_}))
    assert abs(float(r.var()) / want - 1) < 0.05


def test_under_threshold_is_the_zero_of_the_gamma_gt_1_branch_of_eq13():
    """The stated threshold of eq13.under, sigma^2/sin^2 theta, is where (13) vanishes for gamma > 1."""
    branch = T.transferability_stated().args[1][0]
    assert sp.simplify(branch.subs(T.gamma, 1 + T.under_threshold_stated())) == 0


@pytest.mark.parametrize("factor, passes", [(1, True), (sp.Rational(11, 10), False), (sp.Rational(9, 10), False)])
def test_eq13_under_searches_read_the_stated_threshold(factor, passes):
    """eq13.under's searches judge the claim's stated threshold: a threshold off by 10 % is refuted at quick."""
    import dataclasses

    from verify import api
    from verify.claims.tahir2024.eq13 import EQ13_UNDER

    claim = dataclasses.replace(EQ13_UNDER, stated=factor * T.under_threshold_stated())
    ev = claim.check.run(claim, api.make_context("quick", 0, progress=False))
    assert all(c.passed for c in ev.checks) is passes
