"""Property tests of derivations/kernels.py, derivations/divergences.py and numerics/relu.py.

sympy / closed forms against mpmath quadrature (hypothesis over the parameter ranges), and
closed forms against torch Monte Carlo (fixed seeds, 5-standard-error bounds).
"""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import divergences as dv
from derivations import kernels as kn
from numerics.relu import (ablated_features, eigenfunction_norm_trials, kernel_operator_trials, mercer_instance,
                           overlap_trials, projection_instance, regression_projection_trials, target_norm_trials,
                           teacher_network, teacher_values)
from numerics.sampling import gaussian_design, unit_vectors

SLOW = settings(max_examples=10, deadline=None)
pos = lambda lo, hi: st.floats(lo, hi, allow_nan=False, allow_infinity=False)  # noqa: E731


def gen(seed=0):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def npdf(z, m, s):
    return mpmath.exp(-(z - m) ** 2 / (2 * s ** 2)) / mpmath.sqrt(2 * mpmath.pi * s ** 2)


# ----------------------------------------------------------------------------- divergences: sympy vs mpmath
def test_kl_conditional_sympy_equals_stated():
    assert sp.simplify(dv.kl_conditional_derived() - dv.KL_COND_STATED) == 0


def test_l2_distance_linear():
    e, dist = dv.l2_distance_linear_derived(3)
    assert sp.expand(e - dist) == 0


@SLOW
@given(f=pos(-3, 3), g=pos(-3, 3), s=pos(0.2, 3))
def test_kl_conditional_quadrature(f, g, s):
    """int N(y;f,s^2) log(N(y;f,s^2)/N(y;g,s^2)) dy by mpmath against (f-g)^2/(2 s^2)."""
    with mpmath.workdps(20):
        q = mpmath.quad(lambda y: npdf(y, f, s) * (mpmath.log(npdf(y, f, s)) - mpmath.log(npdf(y, g, s))),
                        [-mpmath.inf, f, mpmath.inf])
        assert abs(q - (f - g) ** 2 / (2 * s ** 2)) < 1e-15 * (1 + abs(q))


@SLOW
@given(mu=pos(-5, 5), s=pos(0.05, 3))
def test_cos_mean(mu, s):
    expr = dv.cos_mean_derived()
    val = float(expr.subs({dv.mu: mu, dv.sigma: s}))
    with mpmath.workdps(20):
        q = mpmath.quad(lambda y: mpmath.cos(y) * npdf(y, mu, s), [-mpmath.inf, mu, mpmath.inf])
    assert abs(val - float(q)) < 1e-12


@SLOW
@given(r=pos(0.01, 50), s=pos(0.05, 5))
def test_l1_linear_arctan(r, s):
    """E_{D~N(0,r^2)} int |N(y;D,s^2) - N(y;0,s^2)| dy = (4/pi) arctan(r/(2s))."""
    l1 = dv.mp(dv.L1_LINEAR, dv.r, dv.sigma)
    assert l1(0, s) == 0
    with mpmath.workdps(20):
        q = mpmath.quad(lambda D: npdf(D, 0, r) * 2 * mpmath.erf(abs(D) / (2 * mpmath.sqrt(2) * s)),
                        [-mpmath.inf, 0, mpmath.inf])
        assert abs(q - l1(r, s)) < 1e-12
        assert l1(r, s) < 2


@SLOW
@given(f=pos(-3, 3), g=pos(-3, 3), s=pos(0.2, 3))
def test_l1_gauss_pair(f, g, s):
    expr = dv.mp(dv.L1_GAUSS_PAIR, dv.f, dv.g, dv.sigma)
    with mpmath.workdps(20):
        pts = sorted({-mpmath.inf, mpmath.mpf(f), mpmath.mpf(g), (mpmath.mpf(f) + g) / 2, mpmath.inf})
        q = mpmath.quad(lambda y: abs(npdf(y, f, s) - npdf(y, g, s)), pts)
        assert abs(q - expr(f, g, s)) < 1e-12


@SLOW
@given(vf=pos(0.1, 5), ratio=pos(1.0, 1e4), R=pos(0.5, 100))
def test_tent_witness_quadrature(vf, ratio, R):
    """The tent lower bound of the Dudley metric against direct quadrature of E_f h - E_g h."""
    vg = vf * ratio
    c0 = R / (R + 2)
    h = lambda y: c0 * (1 - 2 * min(1, abs(y) / R))  # noqa: E731
    with mpmath.workdps(20):
        ef = mpmath.quad(lambda y: h(y) * npdf(y, 0, mpmath.sqrt(vf)), [-mpmath.inf, -R, 0, R, mpmath.inf])
        eg = mpmath.quad(lambda y: h(y) * npdf(y, 0, mpmath.sqrt(vg)), [-mpmath.inf, -R, 0, R, mpmath.inf])
        assert abs((ef - eg) - dv.tent_witness_lower_bound(vf, vg, R)) < 1e-10


def test_tent_witness_reaches_two():
    assert dv.tent_witness_lower_bound(1, 1e12, 1e3) > 1.99
    assert dv.dudley_sup_bound() == 2


@SLOW
@given(sf=pos(0, 5), sg=pos(0, 5), s=pos(0.1, 3))
def test_w1_lower_bound_quadrature(sf, sg, s):
    lb = dv.mp(dv.W1_LOWER_ABS_Y, dv.s_f, dv.s_g, dv.sigma)
    with mpmath.workdps(20):
        e = lambda v: mpmath.quad(lambda y: abs(y) * npdf(y, 0, mpmath.sqrt(v)), [-mpmath.inf, 0, mpmath.inf])  # noqa
        assert abs(e(sg ** 2 + s ** 2) - e(sf ** 2 + s ** 2) - lb(sf, sg, s)) < 1e-12


@SLOW
@given(sf=pos(0.01, 10), s=pos(0.01, 10), delta=pos(1e-3, 1e3))
def test_w1_witness_norm(sf, s, delta):
    with mpmath.workdps(40):
        sg = dv.mp(dv.W1_WITNESS_NORM, dv.s_f, dv.sigma, dv.delta)(sf, s, delta)
        lb = dv.mp(dv.W1_LOWER_ABS_Y, dv.s_f, dv.s_g, dv.sigma)(sf, sg, s)
        assert abs(lb - delta) < 1e-30 * (1 + delta)


def test_kl_witness_threshold_algebra():
    at_exact = dv.KL_NEG_MULTIPLE.subs(dv.alpha, dv.ALPHA_EXACT)
    assert sp.simplify(at_exact - dv.delta) == 0
    # at the stated threshold the KL falls short of delta when ||f|| is small against sigma sqrt(delta)
    v = dv.KL_AT_STATED_THRESHOLD.subs({dv.s_f: 1, dv.sigma: 1, dv.delta: 16})
    assert v == sp.Rational(25, 2)


# ----------------------------------------------------------------------------- kernels: sympy vs mpmath
def test_overlap_integral_gives_stored_form():
    assert sp.simplify(kn.overlap_derived_theta() - kn.OVERLAP_THETA_FORM) == 0
    assert sp.simplify(kn.overlap_derived() - kn.OVERLAP_STATED) == 0


@SLOW
@given(u=st.floats(-0.999, 0.999))
def test_overlap_quadrature(u):
    """(153) against quadrature: with x2 integrated in closed form (E relu(N(mu, v^2)) =
    mu Phi(mu/v) + v phi(mu/v)), a smooth 1-d integral over x1 > 0 of x1 phi(x1) E relu(u x1 + v x2)."""
    stated = sp.lambdify(kn.u, kn.OVERLAP_STATED, "mpmath")
    with mpmath.workdps(25):
        v = mpmath.sqrt(1 - mpmath.mpf(u) ** 2)
        erelu = lambda mu: mu * mpmath.ncdf(mu / v) + v * npdf(mu / v, 0, 1)  # noqa: E731
        q = mpmath.quad(lambda x1: x1 * npdf(x1, 0, 1) * erelu(u * x1), [0, mpmath.inf])
        assert abs(q - stated(u)) < 1e-15


@settings(max_examples=50, deadline=None)
@given(u=st.floats(-1, 1))
def test_arccos_overlap_torch_matches_sympy(u):
    stated = sp.lambdify(kn.u, kn.OVERLAP_STATED, "mpmath")
    t = float(kn.arccos_overlap(torch.tensor([u], dtype=torch.float64))[0])
    assert abs(t - float(stated(u))) < 1e-13


def test_overlap_endpoints():
    t = kn.arccos_overlap(torch.tensor([-1.0, 0.0, 1.0], dtype=torch.float64))
    assert t[0] == 0 and abs(t[1] - 1 / (2 * math.pi)) < 1e-15 and abs(t[2] - 0.5) < 1e-15


def test_projection_identities():
    assert kn.matrix_expressions_equal(*kn.projection_identity())
    assert kn.matrix_expressions_equal(*kn.target_norm_identity())
    a, b = kn.projection_identity()
    assert not kn.matrix_expressions_equal(a, 2 * b)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2 ** 31), m=st.integers(1, 6), d=st.integers(3, 8))
def test_mercer_coefficients(seed, m, d):
    W = unit_vectors(m, d, gen(seed))
    lam2, A = kn.mercer_stated(W)
    G = kn.gram(W, W)
    # T_k psi_l has coefficients (1/m) G a_l; orthonormality a_l^T G a_k = delta_lk
    assert torch.allclose(G @ A.mT / m, A.mT * lam2, atol=1e-10)
    assert torch.allclose(A @ G @ A.mT, torch.eye(m, dtype=W.dtype), atol=1e-8)


# ----------------------------------------------------------------------------- closed forms vs torch Monte Carlo
def _within(samples: torch.Tensor, value: float, k: float = 5.0) -> bool:
    se = float(samples.std()) / math.sqrt(samples.numel())
    return abs(float(samples.mean()) - value) <= k * se + 1e-12


@pytest.mark.parametrize("u", [-1.0, -0.6, 0.0, 0.4, 1.0])
@pytest.mark.parametrize("d", [2, 6])
def test_overlap_monte_carlo(u, d):
    x = overlap_trials(400, d, u, 256, gen(int(100 * u) + d))
    assert _within(x, float(kn.arccos_overlap(torch.tensor(u, dtype=torch.float64))))


def test_overlap_monte_carlo_nonunit_norms():
    x = overlap_trials(400, 4, 0.3, 256, gen(1), r_i=2.0, r_j=0.5)
    assert _within(x, 1.0 * float(kn.arccos_overlap(torch.tensor(0.3, dtype=torch.float64))))


def test_gram_general_norms():
    A = torch.tensor([[2.0, 0.0, 0.0], [0.0, 0.5, 0.0]], dtype=torch.float64)
    G = kn.gram(A, A)
    assert abs(G[0, 0] - 4 * 0.5) < 1e-14 and abs(G[0, 1] - 1.0 / (2 * math.pi)) < 1e-14


def test_target_norm_and_projection_monte_carlo():
    g = gen(3)
    Ws, cs = teacher_network(5, 4, g)
    W = unit_vectors(3, 5, g)
    f2, p2, perp2 = (float(t) for t in kn.projection_norms_stated(W, Ws, cs))
    X = gaussian_design(200, 1000, 5, g)
    assert _within((teacher_values(X, Ws, cs) ** 2).mean(-1), f2)
    fit, res = regression_projection_trials(200, 4000, W, Ws, cs, g)
    # O(1/N) bias: -m perp2 / N roughly; allow it
    assert abs(float(res.mean()) - perp2) < 0.01 * perp2 + 5 * float(res.std()) / math.sqrt(200) + 3 * 3 * perp2 / 4000
    assert abs(float((fit + res).mean()) - f2) < 0.03 * f2


def test_ablated_features_is_a_subset():
    g = gen(4)
    Ws, cs = teacher_network(6, 10, g)
    W = ablated_features(Ws, 0.3, g)
    assert W.shape == (7, 6)
    assert all(any(torch.equal(w, v) for v in Ws) for w in W)
    with pytest.raises(ValueError):
        ablated_features(Ws, 0.25, g)
    f2, p2, perp2 = (float(t) for t in kn.projection_norms_stated(ablated_features(Ws, 0.0, g), Ws, cs))
    assert abs(perp2) < 1e-12 * f2


def test_mercer_monte_carlo():
    g = gen(5)
    W = unit_vectors(4, 5, g)
    lam2, A = kn.mercer_stated(W)
    x0 = torch.randn(5, generator=g, dtype=torch.float64)
    for l in range(4):
        assert _within(eigenfunction_norm_trials(300, 512, W, A[l], g), 1.0)
        pred = float(lam2[l] * (torch.relu(W @ x0) @ A[l]))
        assert _within(kernel_operator_trials(300, 512, W, A[l], x0, g), pred)


# ----------------------------------------------------------------------------- forms added for the claim modules
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2 ** 31), m=st.integers(1, 5), d=st.integers(2, 6))
def test_gram_mp_matches_torch_gram(seed, m, d):
    W = 0.5 + torch.rand(m, 1, generator=gen(seed), dtype=torch.float64) * unit_vectors(m, d, gen(seed + 1))
    with mpmath.workdps(30):
        G = kn.gram_mp(W)
        T = kn.gram(W, W)
        assert max(abs(G[i, j] - float(T[i, j])) for i in range(m) for j in range(m)) < 1e-13


@settings(max_examples=50, deadline=None)
@given(u=st.floats(-1, 1), ri=pos(0.1, 5), rj=pos(0.1, 5))
def test_overlap_general_is_norms_times_stated(u, ri, rj):
    assert abs(kn.overlap_general_mp(u, ri, rj) - ri * rj * kn.overlap_stated_mp(u)) < 1e-13 * (1 + ri * rj)


@SLOW
@given(sf=pos(0, 1e3), s=pos(1e-3, 1e3), delta=pos(1e-6, 1.999))
def test_tent_witness_reaches_delta_below_two(sf, s, delta):
    """The derived Dudley witness: R and v_g of the sympy forms give a lower bound >= delta for delta < 2."""
    with mpmath.workdps(60):
        lb, g_norm, R = dv.tent_witness_mp(sf, s, delta)
        assert lb >= delta and g_norm > 0 and R > 0


@SLOW
@given(sf=pos(1e-3, 1e3), s=pos(1e-3, 1e3), delta=pos(1e-6, 1e6))
def test_kl_witnesses_reach_their_delta(sf, s, delta):
    """KL at the derived witnesses of thm2.2.kl is 2 delta (f != 0: >= 2 delta; f = 0: exactly 2 delta)."""
    kl = dv.mp(dv.KL_LINEAR, dv.s_f, dv.s_g, dv.cos_theta, dv.sigma)
    kl_neg = dv.mp(dv.KL_NEG_MULTIPLE, dv.alpha, dv.s_f, dv.sigma)
    with mpmath.workdps(60):
        sf, s, delta = mpmath.mpf(sf), mpmath.mpf(s), mpmath.mpf(delta)
        al = dv.mp(dv.ALPHA_WITNESS, dv.sigma, dv.delta, dv.s_f)(s, delta, sf)
        assert kl_neg(al, sf, s) >= 2 * delta * (1 - mpmath.mpf(10) ** -50)
        t = dv.mp(dv.G_NORM_WITNESS, dv.sigma, dv.delta)(s, delta)
        assert abs(kl(0, t, 1, s) - 2 * delta) < mpmath.mpf(10) ** -50 * delta


def test_alpha_above_stated_and_cited_identity():
    assert sp.simplify(dv.ALPHA_ABOVE_STATED.subs(dv.eta, 0) - dv.ALPHA_STATED) == 0
    lhs, rhs = dv.mp(dv.CITED_IDENTITY_LHS, dv.x_), dv.mp(dv.CITED_IDENTITY_RHS, dv.z_)
    assert lhs(0) == 1 == rhs(0) and lhs(3.0) > rhs(-3.0)


def test_l1_multiple_form():
    assert sp.simplify(dv.L1_MULTIPLE - dv.L1_LINEAR.subs(dv.r, sp.Abs(1 - dv.c) * dv.s_f)) == 0


@pytest.mark.parametrize("ablated,mu,m", [(False, 0.0, 3), (True, 0.3, 7), (True, 0.0, 10)])
def test_projection_instance(ablated, mu, m):
    W, Ws, cs = projection_instance(5, m, 10, ablated, mu, gen(6))
    assert W.shape == (m, 5) and Ws.shape == (10, 5) and cs.shape == (10,)
    assert torch.allclose(Ws.norm(dim=-1), torch.ones(10, dtype=Ws.dtype))
    if ablated:
        assert all(any(torch.equal(w, v) for v in Ws) for w in W)
    f2, p2, perp2 = (float(t) for t in kn.projection_norms_stated(W, Ws, cs))
    assert _within(target_norm_trials(300, 512, Ws, cs, gen(7)), f2)
    if ablated and mu == 0:
        assert abs(perp2) < 1e-12 * f2


def test_mercer_instance():
    W, x0 = mercer_instance(5, 4, gen(8))
    assert W.shape == (4, 5) and x0.shape == (5,)
    assert torch.allclose(W.norm(dim=-1), torch.ones(4, dtype=W.dtype))
