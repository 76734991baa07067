"""derivations/hermite.py: exact (sympy) <-> mpmath quadrature <-> torch Monte Carlo."""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
import torch
from hypothesis import given, settings, strategies as st

from derivations import hermite as H

SLOW = settings(max_examples=10, deadline=None)


def _mpf(e):
    return mpmath.mpf(str(sp.N(e, 50)))


def _gauss_moments(poly):
    """E[p(g)] for a polynomial p by E[g^n] = (n-1)!! (n even), 0 (n odd)."""
    p = sp.Poly(sp.expand(poly), H.x)
    return sum(c * (sp.factorial2(n - 1) if n % 2 == 0 else 0) for (n,), c in p.terms())


def test_orthonormal():
    for i in range(7):
        for j in range(7):
            assert sp.simplify(_gauss_moments(H.he(i) * H.he(j)) - (1 if i == j else 0)) == 0
    # and one by sympy's integral
    w = sp.exp(-H.x ** 2 / 2) / sp.sqrt(2 * sp.pi)
    assert sp.simplify(sp.integrate(sp.expand(H.he(3) ** 2) * w, (H.x, -sp.oo, sp.oo)) - 1) == 0


@pytest.mark.parametrize("name", H.EXACT)
def test_closed_form_matches_integral(name):
    for k in range(6):
        assert sp.simplify(H.coefficient(name, k) - H.coefficient_closed_form_value(name, k)) == 0


@pytest.mark.parametrize("name", H.EXACT)
def test_mp_matches_exact_30_digits(name):
    c = H.coefficients_mp(name, 8)            # called at the default precision: the values keep their digits
    with mpmath.workdps(45):
        for k in range(9):
            assert abs(c[k] - _mpf(H.coefficient(name, k))) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize("name", list(H.ACTIVATIONS))
def test_mp_vector_rule_matches_mpmath_quad(name):
    c = H.coefficients_mp(name, 4)
    with mpmath.workdps(45):
        for k in (0, 3):
            assert abs(c[k] - H.coefficient_mp(name, k)) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize("name", list(H._PAIRS))
def test_pairs_match_sympy_expression(name):
    f = sp.lambdify(H.x, H.ACTIVATIONS[name], modules="mpmath")
    with mpmath.workdps(40):
        for t in (mpmath.mpf("0.3"), mpmath.mpf("2.7"), mpmath.mpf(9)):
            a, b = H._PAIRS[name](t)
            assert abs(a - f(t)) < mpmath.mpf(10) ** -35 and abs(b - f(-t)) < mpmath.mpf(10) ** -35


def test_scale_and_polynomial():
    assert H.coefficient(H.x ** 2, 2) == sp.sqrt(2)
    c = H.coefficient("relu", 2, scale=3)
    assert sp.simplify(c - 3 * H.coefficient("relu", 2)) == 0
    mp3 = H.coefficients_mp("relu", 2, scale=3.0)
    with mpmath.workdps(45):
        assert abs(mp3[2] - _mpf(c)) < mpmath.mpf(10) ** -30


def test_information_exponent():
    assert H.information_exponent("relu") == 1
    assert H.information_exponent("abs") == 2
    assert H.information_exponent(H.he(4)) == 4
    assert H.information_exponent("tanh") == 1
    assert H.information_exponent([1, 0, 0]) is None


_RELU = [float(c) for c in H.coefficients_mp("relu", 25)]
_TANH = [float(c) for c in H.coefficients_mp("tanh", 25)]


@SLOW
@given(st.floats(-0.95, 0.95))
def test_dual_series_monte_carlo(r):
    """E[relu(g1) tanh(g2)] at correlation r: the series against torch Monte Carlo (5 SE)."""
    a, b = _RELU, _TANH
    g = torch.Generator().manual_seed(int(1e6 * (r + 1)))
    z1 = torch.randn(200_000, generator=g, dtype=torch.float64)
    z2 = r * z1 + math.sqrt(1 - r * r) * torch.randn(200_000, generator=g, dtype=torch.float64)
    v = torch.relu(z1) * torch.tanh(z2)
    assert abs(v.mean().item() - H.dual_series(a, b, r)) < 5 * v.std().item() / math.sqrt(v.numel()) + 1e-6


# ----------------------------------------------------------------------------- kernels (derivations/kernels.py)
from derivations import kernels as kn  # noqa: E402
from numerics import hermite as NH  # noqa: E402


@pytest.mark.parametrize("n", [0, 1, 2])
def test_arccos_kernel_value_pinned_to_sympy(n):
    f = sp.lambdify(kn.u, kn.arccos_kernel(n), modules="math")
    U = torch.linspace(-1, 1, 41, dtype=torch.float64)
    got = kn.arccos_kernel_value(n, U)
    assert all(abs(got[i].item() - f(U[i].item())) < 1e-13 for i in range(41))


def test_overlap_unchanged_and_ntk_closed_form():
    U = torch.linspace(-1, 1, 21, dtype=torch.float64)
    old = (torch.sqrt(1 - U * U) + U * (math.pi - torch.arccos(U))) / (2 * math.pi)   # the former arccos_overlap body
    assert torch.equal(kn.arccos_overlap(U), old)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(5, 4, generator=g, dtype=torch.float64)
    X = X / X.norm(dim=-1, keepdim=True)
    f = sp.lambdify(kn.u, kn.NTK_RELU_STATED, modules="math")
    H = kn.ntk_relu_gram(X)
    G = X @ X.T
    # (arccos amplifies a rounding of u = 1 - 1e-16 to 1.5e-8: compare at 1e-8)
    assert all(abs(H[i, j].item() - f(max(-1.0, min(1.0, G[i, j].item())))) < 1e-8 for i in range(5) for j in range(5))
    # non-unit inputs: the expectation scales with the norms (|x||y| u k_0(u))
    assert torch.allclose(kn.ntk_relu_gram(2 * X, 3 * X), 6 * H)
    assert torch.allclose(kn.arccos_kernel_gram(1, X), kn.gram(X, X))


def test_kernel_monte_carlo():
    g = torch.Generator().manual_seed(1)
    for n in (0, 1):
        v = NH.arccos_kernel_trials(2000, n, 0.3, 5, 200, g)
        assert abs(v.mean().item() - float(kn.arccos_kernel(n).subs(kn.u, 0.3))) < 5 * v.std().item() / math.sqrt(2000)
    v = NH.ntk_entry_trials(2000, -0.4, 5, 200, g)
    assert abs(v.mean().item() - float(kn.NTK_RELU_STATED.subs(kn.u, -0.4))) < 5 * v.std().item() / math.sqrt(2000)
    c = NH.coefficient_trials(400, "relu", 2, 2000, g)
    assert abs(c.mean().item() - 1 / (2 * math.sqrt(math.pi))) < 5 * c.std().item() / math.sqrt(400)


def test_numerics_hermite_polynomials():
    t = torch.linspace(-3, 3, 13, dtype=torch.float64)
    for k in range(7):
        f = sp.lambdify(H.x, H.he(k), modules="math")
        assert torch.allclose(NH.hermite_normalized(k, t), torch.tensor([f(v) for v in t.tolist()], dtype=torch.float64))


def test_stated_forms_read_by_the_checks():
    """The stated forms hermite checks read through verify.judge.stated give the numbers they had typed in."""
    from derivations import kernels as kn
    from verify.claims.hermite.coefficients import TAIL_EXPONENT
    from verify.judge.stated import function_of
    d = function_of(H.orthonormality_stated())
    assert d({"i": 3, "j": 3}) == 1.0 and d({"i": 1, "j": 3}) == 0.0
    for name, p in TAIL_EXPONENT.items():
        f = function_of(H.parseval_tail_stated(name))
        assert math.isclose(math.log(f({"K": 1024}) / f({"K": 256})) / math.log(4), p, rel_tol=1e-12)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(7, 4, generator=g, dtype=torch.float64)
    X = X / X.norm(dim=-1, keepdim=True)
    f = function_of(kn.NTK_RELU_STATED)
    assert torch.allclose(kn.cosine_form_gram(f, X), kn.ntk_relu_gram(X), atol=1e-14)
    assert torch.allclose(kn.cosine_form_gram(f, X, X[:3]), kn.ntk_relu_gram(X, X[:3]), atol=1e-14)


def test_dual_truncation_stated_bound_equals_dual_tail_bound():
    """The stated form hermite.dual.truncation reads (|rho|^(K+1) R, 40 digits) equals derivations.hermite.
    dual_tail_bound of an activation with itself (issue 13), and the search's predicate is the same with either."""
    import mpmath
    from derivations import hermite as H
    from verify.claims.hermite import coefficients as HC
    from verify.claims.hermite.common import exact_coeffs, second_moment
    from verify.judge.stated import mp_function_of
    f = mp_function_of(H.dual_truncation_bound_stated())
    with mpmath.workdps(40):
        for name in ("relu", "step", "abs"):
            for K in (0, 3, 10):
                c = exact_coeffs(name, K)
                rem = second_moment(name) - sum(v * v for v in c)
                for r in ("-1", "-0.6", "0", "0.3", "1"):
                    rho = mpmath.mpf(r)
                    want = H.dual_tail_bound(c, c, second_moment(name), second_moment(name), rho)
                    assert abs(f({"K": K, "rho": rho, "R": rem}) - want) <= mpmath.mpf(10) ** -35 * (1 + abs(want))
    for p in ({"K": 0, "rho": 1.0}, {"K": 5, "rho": -0.7}, {"K": 40, "rho": 0.95}):
        assert HC._trunc_holds(p) and HC._trunc_holds(p, f)


def test_cached_second_moments_do_not_depend_on_the_callers_precision():
    """A per-process cache filled at the precision of whichever claim asked first made a later claim's digits depend
    on the claims run before it in the same worker (hermite.parseval.erf, full run against --resume)."""
    import mpmath

    from verify.claims.hermite.common import second_moment

    for name in ("erf", "relu", "tanh"):
        second_moment.cache_clear()
        with mpmath.workdps(15):
            low = second_moment(name)
        second_moment.cache_clear()
        with mpmath.workdps(60):
            high = second_moment(name)
        assert low == high, name


def test_ntk_gram_is_accurate_near_parallel_pairs():
    """arccos of a rounded cosine loses 8 digits near u = +-1: the Gram matrices use a well-conditioned angle there
    (a pair of equal rows gives H_ii = |x_i|^2 / 2 exactly; a pair at angle 1e-7 keeps its smallest eigenvalue)."""
    import mpmath

    from derivations import ntk_bounds as nb

    X = torch.tensor([[2.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
    assert kn.ntk_relu_gram(X)[1, 1].item() == 1.0
    assert kn.arccos_kernel_gram(0, X)[1, 1].item() == 0.5
    e = 1e-7
    Y = torch.tensor([[1.0, 0.0], [math.cos(e), math.sin(e)]], dtype=torch.float64)
    lam = torch.linalg.eigvalsh(kn.ntk_relu_gram(Y))[0].item()
    with mpmath.workdps(40):
        th = mpmath.mpf(e)
        Hm = mpmath.matrix([[mpmath.mpf(1) / 2, mpmath.cos(th) * (mpmath.pi - th) / (2 * mpmath.pi)],
                            [mpmath.cos(th) * (mpmath.pi - th) / (2 * mpmath.pi), mpmath.mpf(1) / 2]])
        exact = float(min(mpmath.eigsy(Hm)[0]))
    assert abs(lam - exact) / exact < 1e-6
    # a near-antiparallel pair, batched, against the mpmath Gram
    Z = torch.tensor([[[1.0, 0.0], [-math.cos(e), math.sin(e)]]], dtype=torch.float64)
    with mpmath.workdps(40):
        ref = nb.ntk_gram_mp(Z[0].tolist())
    assert abs(kn.ntk_relu_gram(Z)[0, 0, 1].item() - float(ref[0, 1])) < 1e-15


def test_ntk_gram_mp_normalises_the_cosine():
    """H^inf_ij = x_i.x_j (pi - arccos u_ij)/(2 pi) with the normalised cosine u_ij, for rows of any norm (it read
    u_ij = x_i.x_j, right only on the unit sphere: 1.0 where 0.75 is right for [[2, 0], [1, 1]])."""
    from derivations import ntk_bounds as nb

    X = torch.tensor([[2.0, 0.0], [1.0, 1.0], [0.3, -4.0]], dtype=torch.float64)
    H = nb.ntk_gram_mp(X.tolist())
    assert max(abs(float(H[i, j]) - kn.ntk_relu_gram(X)[i, j].item()) for i in range(3) for j in range(3)) < 1e-14
    with pytest.raises(ValueError):
        nb.ntk_gram_mp([[0.0, 0.0], [1.0, 0.0]])


def test_power_witnesses_of_the_confirmed_claims_without_a_sympy_form():
    """Issue 24: each of the twelve declares plausible wrong versions; the cheap ones fail their own check."""
    from verify.run.runner import make_context
    from verify.run.registry import builtin_claims

    ids = ["hermite.coefficients." + n for n in ("gelu", "sigmoid", "softplus", "tanh")] + [
        "hermite.dual", "hermite.information_exponent", "hermite.kernel.lambda0"] + [
        "hermite.parseval." + n for n in ("erf", "gelu", "sigmoid", "softplus", "tanh")]
    by = {c.id: c for c in builtin_claims()}
    assert all(by[i].power for i in ids)
    ctx = make_context("quick", 0, progress=False)
    for i in ("hermite.information_exponent", "hermite.parseval.tanh", "hermite.parseval.erf"):
        c = by[i]
        for alt in c.power:
            ev = alt.check.run(c, ctx)
            assert any(not ch.passed and ch.refutes for ch in ev.checks), (i, alt.name)
