"""dayi2024 (issues 24 and 27): the helpers of the claims added for coverage and for the k / eps dependences."""
from __future__ import annotations

import math

import numpy as np
import pytest

from verify.claims.dayi2024 import appendix as AP
from verify.claims.dayi2024 import common as CM


def test_claim3_bound_and_its_rate():
    """max_i ||A_i||^2/||A||_F^2 <= 1/sqrt(k) on unit-diagonal PSD matrices; the block of size ~sqrt(k) is within a
    factor ~2 of it, so the rate k^(-1/2) is the right one (a bound 1/k would be false)."""
    rng = np.random.default_rng(0)
    for k in (4, 16, 49):
        worst = max(AP._influence(A) for _, A in AP._gram_family(rng, k, 200))
        assert worst <= 1 / math.sqrt(k) + 1e-12
        s = int(round(math.sqrt(k)))
        A = np.eye(k)
        A[:s, :s] = 1.0
        assert AP._influence(A) >= 0.4 / math.sqrt(k)
        assert k < 16 or AP._influence(A) > 1.5 / k


def test_prop8_exact_laws_against_sampling_and_atoms():
    rng = np.random.default_rng(1)
    k, n = 15, 200000
    c = rng.choice([-1, 1], (n, k))
    ch = rng.choice([-1, 1], (n, k))
    inner = (c * ch).sum(1) / k
    outer = c.sum(1) * ch.sum(1) / k
    for eps in (0.3, 1.0):
        assert abs(AP._p_inner(k, eps) - np.mean(np.abs(inner) <= eps / math.sqrt(k))) < 0.005
        assert abs(AP._p_outer(k, eps) - np.mean(np.abs(outer) <= eps)) < 0.005
    # even k: an atom at 0 of mass ~ sqrt(2/(pi k)) per factor (the o_k(1) term)
    assert abs(AP._p_inner(100, 0.0) - math.sqrt(2 / (math.pi * 100))) < 0.005
    assert AP._p_inner(101, 0.0) == 0.0
    # the limit laws
    assert abs(AP._p_inner_limit(1.0) - 0.6826894921) < 1e-9
    assert AP._p_outer_limit(0.01) < math.sqrt(0.01) and AP._p_outer_limit(1.0) < 1.0


def test_relu_hermite_coefficients_sum_to_half():
    """sum_p p sigma_hat_p^2 = E[relu'(g)^2] = 1/2; the log-gamma form equals the factorial one."""
    assert abs(AP._relu_beta2(2) - 1 / (4 * math.pi)) < 1e-15
    assert abs(AP._relu_beta2(4) - 1 / (2 * math.pi * 24)) < 1e-15
    s = sum(p * AP._relu_beta2(p) for p in range(1, 4000))
    assert 0.49 < s <= 0.5


def test_init_probability_is_free_of_d():
    lim = 2 * (1 - 0.5 * (1 + math.erf(0.25 / math.sqrt(2))))
    vals = [AP._p_init(d - 5, 0.25, d) for d in (16, 128, 10 ** 6)]
    assert min(vals) >= lim - 0.01 and abs(vals[-1] - lim) < 1e-4


def _synthetic_k(T_of_k, ks, R=300, seed=0, budget=10 ** 9):
    """Hitting times T(k) X_i nu*/nu_j below the best step nu* = 4/128, censored above it (as in
    test_dayi2024_tuned._synthetic, with k in place of d)."""
    rng = np.random.default_rng(seed)
    grid = CM.step_grid(1.0 / 128, 16.0 / 128)
    X = rng.lognormal(0.0, 0.3, R)
    hits = {}
    for k in ks:
        h = np.full((len(grid), R, 2), -1, dtype=np.int64)
        for j, nu in enumerate(grid):
            if nu <= 4.0 / 128 * (1 + 1e-9):
                t = np.ceil(T_of_k(k) * X * (4.0 / 128) / nu).astype(np.int64)
                t[t > budget] = -1
                h[j, :, 0] = h[j, :, 1] = t
        hits[k] = h
    return CM.Tuned(list(ks), grid, hits, budget, np.ones(R), np.ones(R), np.ones(R), {k: None for k in ks})


@pytest.mark.parametrize("truth,poly,rate", [(lambda k: 1000.0, 0.0, 0.0), (lambda k: 300.0 * k, 1.0, None),
                                             (lambda k: 50.0 * 2.0 ** k, None, math.log(2))])
def test_k_sweep_sees_the_exponent_and_the_rate(truth, poly, rate):
    """The k design (dayi2024.abstract.k): fit_tuned over k recovers a polynomial exponent (x = log k) and an
    exponential rate (x = k), so a flat, a linear and a 2^k truth are told apart on k in {3, 5, 9, 17}."""
    ks = [3, 5, 9, 17]
    sc = _synthetic_k(truth, ks)
    f_poly = CM.fit_tuned(sc, 1, 1, n_boot=200)
    f_rate = CM.fit_tuned(sc, 1, 1, n_boot=200, x=ks)
    if poly is not None:
        assert abs(f_poly["exponent"] - poly) < 0.05
    if rate is not None:
        assert abs(f_rate["exponent"] - rate) < 0.03
    # the witness '2^k' (rate >= ln 2) is rejected for the flat and the linear truths, not for the 2^k one
    t = CM.tuned_test("x", {}, f_rate, ks, bound=math.log(2), upper=False, trials=300, seed=1)
    assert (t.pvalue < 1e-6) == (rate is None or rate < 0.5)


def test_fit_tuned_default_regressor_unchanged():
    """x=None keeps log d (the d designs of dayi2024.sgd are unaffected)."""
    sc = _synthetic_k(lambda k: 10.0 * k ** 1.5, [32, 64, 128])
    a = CM.fit_tuned(sc, 0, 1, n_boot=50)
    b = CM.fit_tuned(sc, 0, 1, n_boot=50, x=np.log([32, 64, 128]))
    assert a["exponent"] == pytest.approx(b["exponent"]) and abs(a["exponent"] - 1.5) < 0.05
