"""Property tests of the scratch-risk slice: sympy forms against torch Monte Carlo and mpmath."""
from __future__ import annotations

import math

import mpmath as mp
import sympy as sp
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from derivations import wishart as W
from numerics.least_squares import gd_least_squares, min_norm_solve
from numerics.sampling import gaussian_design
from numerics.scratch import min_norm_risk

FINITE = sp.lambdify((W.n, W.d, W.sigma), W.scratch_risk_finite(), modules="math")


@st.composite
def designs(draw):
    d = draw(st.integers(8, 40))
    side = draw(st.sampled_from(["over", "under"]))
    n = draw(st.integers(1, d - 6)) if side == "over" else draw(st.integers(d + 6, 3 * d))
    return n, d, draw(st.floats(0.0, 2.0))


@settings(max_examples=8, deadline=None)
@given(designs(), st.integers(0, 2**31 - 1))
def test_finite_form_matches_monte_carlo(point, seed):
    """lambdified sympy finite form == mean of min-norm Monte Carlo, within 5 standard errors."""
    n, d, sigma = point
    g = torch.Generator().manual_seed(seed)
    x = min_norm_risk(4000, n, d, sigma, g)
    m, se = float(x.mean()), float(x.std()) / math.sqrt(x.numel())
    assert abs(m - FINITE(n, d, sigma)) < 5 * se + 1e-9


@settings(max_examples=6, deadline=None)
@given(st.integers(8, 30), st.sampled_from(["over", "under"]), st.floats(0.0, 2.0), st.integers(0, 2**31 - 1))
def test_risk_variance_matches_monte_carlo(d, side, sigma, seed):
    """Exact per-trial variance (inverse-Wishart second moments) == sample variance of min-norm Monte Carlo.

    Only where the fourth moment is finite (|n - d| >= 9), so that the sample variance has a
    standard error; compared within 6 of them (delta method: Var(s^2) ~ (mu4 - s^4)/N).
    """
    n = d - 9 - (d % 3) if side == "over" else d + 9 + (d % 3)
    assume(n >= 1)
    g = torch.Generator().manual_seed(seed)
    x = min_norm_risk(40000, n, d, sigma, g).double()
    v = float(x.var())
    mu4 = float((x - x.mean()).pow(4).mean())
    se_v = math.sqrt(max(mu4 - v * v, 0.0) / x.numel())
    exact = W.scratch_risk_variance_value(n, d, sigma)
    assert abs(v - exact) <= 6 * se_v + 1e-12, (n, d, sigma, v, exact, se_v)


def test_inverse_wishart_second_moments_match_monte_carlo():
    g = torch.Generator().manual_seed(7)
    for p, m in [(4, 15), (3, 11)]:
        X = torch.randn(100000, p, m, generator=g, dtype=torch.float64)
        Wi = torch.linalg.inv(X @ X.mT)
        tr = Wi.diagonal(dim1=-2, dim2=-1).sum(-1)
        tr2 = (Wi @ Wi).diagonal(dim1=-2, dim2=-1).sum(-1)
        t2_exact, tr2_exact = W.inverse_wishart_second_moments(p, m)
        for sample, exact in [(tr**2, t2_exact), (tr2, tr2_exact)]:
            se = float(sample.std()) / math.sqrt(sample.numel())
            assert abs(float(sample.mean()) - exact) < 6 * se, (p, m, float(sample.mean()), exact)


@settings(max_examples=40, deadline=None)
@given(designs())
def test_finite_form_sympy_matches_mpmath(point):
    n, d, sigma = point
    with mp.workdps(40):
        s2 = mp.mpf(sigma) ** 2
        ref = (1 - mp.mpf(n) / d + s2 * mp.mpf(n) / (d - n - 1)) if n < d else s2 * mp.mpf(d) / (n - d - 1)
        got = W.scratch_risk_finite().subs({W.n: n, W.d: d, W.sigma: sp.Float(sigma, 40)}).evalf(40)
        assert abs(mp.mpf(str(got)) - ref) < mp.mpf(10) ** -30 * (1 + abs(ref))


@settings(max_examples=40, deadline=None)
@given(st.floats(0.01, 4.0).filter(lambda g: abs(g - 1) > 1e-3), st.floats(0, 3))
def test_stated_value_function_is_the_sympy_form(gamma, sigma):
    ref = float(W.scratch_risk_stated().subs({W.gamma: gamma, W.sigma: sigma}))
    assert math.isclose(W.scratch_risk_stated_value(gamma, sigma), ref, rel_tol=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 2**31 - 1))
def test_gradient_descent_from_zero_reaches_min_norm(n, d, seed):
    """The literal procedure's end state (GD from 0) is X^+ y (Theorem 3.5 at depth one)."""
    if abs(n - d) < 2:
        return
    g = torch.Generator().manual_seed(seed)
    X = gaussian_design(4, n, d, g)
    y = torch.randn(4, n, generator=g, dtype=torch.float64)
    sv = torch.linalg.svdvals(X)
    kappa = float((sv[:, 0] / sv[:, -1]).max() ** 2)  # GD contracts the slowest mode by 1 - 1/kappa per step
    assume(kappa < 2e4)  # beyond that the run is a waiting game, not a test
    steps = int(40 * kappa) + 100
    assert float((gd_least_squares(X, y, steps) - min_norm_solve(X, y)).abs().max()) < 1e-7


def test_shared_sigma_draws_equal_separate_solves():
    """The sigma-vector sampler equals one literal min-norm solve per sigma on the same draws."""
    g1, g2 = torch.Generator().manual_seed(3), torch.Generator().manual_seed(3)
    multi = min_norm_risk(50, 7, 15, [0.0, 0.5, 2.0], g1)
    from numerics.sampling import noisy_labels, unit_vectors

    beta = unit_vectors(50, 15, g2)
    X = gaussian_design(50, 7, 15, g2)
    eps = torch.randn(50, 7, generator=g2, dtype=torch.float64)
    for j, s in enumerate([0.0, 0.5, 2.0]):
        y = torch.einsum("bnd,bd->bn", X, beta) + s * eps
        r = (min_norm_solve(X, y) - beta).square().sum(-1)
        assert torch.allclose(multi[:, j], r, rtol=1e-10, atol=1e-12)


def test_risk_variance_is_infinite_only_through_the_noise_term():
    """|n - d| <= 3: the noise term has no second moment (inf), the bias term alone (sigma = 0) does;
    for sigma = 0 the short-cut agrees with the sympy form where both apply."""
    assert W.scratch_risk_variance_value(18, 20, 1.0) == math.inf
    assert W.scratch_risk_variance_value(23, 20, 0.5) == math.inf
    assert W.scratch_risk_variance_value(23, 20, 0.0) == 0.0
    beta_var = lambda n, d: 2 * n * (d - n) / (d**2 * (d + 2))  # noqa: E731
    assert W.scratch_risk_variance_value(18, 20, 0.0) == beta_var(18, 20)
    assert math.isclose(W.scratch_risk_variance_value(10, 20, 0.0), beta_var(10, 20), rel_tol=1e-12)
