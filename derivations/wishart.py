"""Wishart matrices: inverse moments, the Marchenko-Pastur Stieltjes transform, and the
risk of minimum-norm least squares ("scratch training") they give.

Source: 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff), Theorem 3.6, eq. (10),
proof in App. B.5, eqs. (91)-(103).
"""
from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp

gamma = sp.Symbol("gamma", positive=True)
sigma = sp.Symbol("sigma", nonnegative=True)
n, d = sp.symbols("n d", positive=True, integer=True)
z = sp.Symbol("z")


@lru_cache(maxsize=None)
def scratch_risk_stated() -> sp.Expr:
    """Eq. (10), as stated: the high-dimensional limit of E_D R_sc,

    ((1-gamma)^2 + gamma sigma^2)/(1-gamma) for gamma < 1 and sigma^2/(gamma-1) for gamma > 1.
    """
    return sp.Piecewise((((1 - gamma) ** 2 + gamma * sigma**2) / (1 - gamma), gamma < 1),
                        (sigma**2 / (gamma - 1), gamma > 1))


def inverse_wishart_trace(n_, d_):
    """E tr((X X^T)^{-1}) for X an n x d matrix of i.i.d. N(0,1), n < d - 1.

    X X^T ~ Wishart_n(I, d), whose inverse has mean I/(d - n - 1); the trace is
    n/(d - n - 1).  This is the exact finite-size version of eqs. (97)-(100).
    """
    return n_ / (d_ - n_ - 1)


@lru_cache(maxsize=None)
def scratch_risk_finite() -> sp.Expr:
    """Our exact finite-size risk of beta_hat = X^+ y, ||beta_t|| = 1, Gaussian design.

    From eq. (95), E R = 1 - E||P_row(X) beta_t||^2 + sigma^2 E tr((X^+)^T X^+), with
    E||P_row beta_t||^2 = min(n, d)/d exactly (a uniformly random n-dimensional subspace)
    and the inverse-Wishart means:

        n < d - 1:  (1 - n/d) + sigma^2 n/(d - n - 1)
        n > d + 1:  sigma^2 d/(n - d - 1)

    (infinite for |n - d| <= 1).
    """
    return sp.Piecewise(((1 - n / d) + sigma**2 * inverse_wishart_trace(n, d), n < d - 1),
                        (sigma**2 * inverse_wishart_trace(d, n), n > d + 1))


def scratch_risk_finite_value(n_: int, d_: int, sigma_: float) -> float:
    """Numeric value of :func:`scratch_risk_finite` (float, exact arithmetic first)."""
    if abs(n_ - d_) <= 1:
        raise ValueError(f"E R_sc is infinite for |n - d| <= 1 (n={n_}, d={d_})")
    if n_ < d_:
        return float(1 - sp.Rational(n_, d_) + sp.Float(sigma_) ** 2 * sp.Rational(n_, d_ - n_ - 1))
    return float(sp.Float(sigma_) ** 2 * sp.Rational(d_, n_ - d_ - 1))


def inverse_wishart_second_moments(p_, m_):
    """(E[tr(W^{-1})^2], E[tr(W^{-2})]) for W ~ Wishart_p(I, m), k = m - p > 3.

    From the covariance of the entries of W^{-1} (Gupta & Nagar, Matrix Variate
    Distributions, Thm 3.3.16; Sigma = I): with D = k (k-1)^2 (k-3),
    Cov(w^{ij}, w^{kl}) = [2 d_ij d_kl + (k-1)(d_ik d_jl + d_il d_kj)] / D and
    E w^{ij} = d_ij/(k-1).  Summing:
      Var tr(W^{-1}) = 2 p (p + k - 1) / D,
      E tr(W^{-2})   = p [2 + (k-1)(p+1)] / D + p/(k-1)^2.
    Checked against Monte Carlo in tests/test_wishart_forms.py.
    """
    k = m_ - p_
    D = k * (k - 1) ** 2 * (k - 3)
    mean = p_ / (k - 1)
    return 2 * p_ * (p_ + k - 1) / D + mean**2, p_ * (2 + (k - 1) * (p_ + 1)) / D + p_ / (k - 1) ** 2


@lru_cache(maxsize=None)
def scratch_risk_variance() -> sp.Expr:
    """Our exact variance of the per-trial risk ||X^+ y - beta_t||^2 (uniform unit beta_t, |n - d| > 3).

    n < d: R = ||(I - P)beta||^2 + sigma^2 e^T (X X^T)^{-1} e, the two terms independent (the
    row space of a Gaussian X is independent of its Gram matrix); ||P beta||^2 ~ Beta(n/2, (d-n)/2),
    so Var ||(I-P) beta||^2 = 2 n (d - n) / (d^2 (d + 2)); for Gaussian e,
    E[(e^T A e)^2] = tr(A)^2 + 2 tr(A^2).  n > d: R = sigma^2 e^T X (X^T X)^{-2} X^T e, the same
    with W = X^T X.  Hence, with (p, m) = (min, max)(n, d):
        Var R = [n < d] 2n(d-n)/(d^2(d+2)) + sigma^4 (E tr(W^-1)^2 + 2 E tr(W^-2) - E[tr W^-1]^2).
    Infinite for |n - d| <= 3 (the fourth moment of the per-trial risk is infinite for |n - d| <= 7).
    """
    def part(p_, m_):
        t2, tr2 = inverse_wishart_second_moments(p_, m_)
        return sigma**4 * (t2 + 2 * tr2 - (p_ / (m_ - p_ - 1)) ** 2)

    return sp.Piecewise((2 * n * (d - n) / (d**2 * (d + 2)) + part(n, d), n < d - 3),
                        (part(d, n), n > d + 3))


def scratch_risk_variance_value(n_: int, d_: int, sigma_: float) -> float:
    """Numeric value of :func:`scratch_risk_variance`; ``math.inf`` where it is infinite.

    The noise term has infinite variance for |n - d| <= 3 (sigma > 0); the bias term alone
    (sigma = 0, n < d) is a bounded Beta variable with finite variance for every n < d.
    """
    if abs(n_ - d_) > 3:
        return float(scratch_risk_variance().subs({n: n_, d: d_, sigma: sp.Float(sigma_)}))
    if sigma_ != 0:
        return math.inf
    return 2 * n_ * (d_ - n_) / (d_**2 * (d_ + 2)) if n_ < d_ else 0.0


def scratch_risk_stated_value(gamma_: float, sigma_: float) -> float:
    if gamma_ == 1:
        raise ValueError("eq. (10) diverges at gamma = 1")
    g, s2 = float(gamma_), float(sigma_) ** 2
    return ((1 - g) ** 2 + g * s2) / (1 - g) if g < 1 else s2 / (g - 1)


@lru_cache(maxsize=None)
def finite_to_asymptotic_limit() -> dict[str, sp.Expr]:
    """lim_{d -> inf} of the finite-size form at n = gamma d, one branch at a time."""
    D = sp.Symbol("D", positive=True)
    lo = (1 - gamma * D / D) + sigma**2 * (gamma * D) / (D - gamma * D - 1)
    hi = sigma**2 * D / (gamma * D - D - 1)
    return {"gamma<1": sp.simplify(sp.limit(lo, D, sp.oo)), "gamma>1": sp.simplify(sp.limit(hi, D, sp.oo))}


def mp_stieltjes_stated() -> sp.Expr:
    """Eq. (101) as printed: g_C(z) = (z - (1-gamma) - sqrt(z-(1+sqrt gamma)^2) sqrt(z-(1-sqrt gamma)^2)) / (2 gamma z).

    Read with the product of two principal square roots, which is the branch that
    behaves as 1/z at infinity; a single sqrt of the product takes the wrong branch on
    (-inf, lambda_-) and makes the z -> 0 limit infinite.
    """
    lp, lm = (1 + sp.sqrt(gamma)) ** 2, (1 - sp.sqrt(gamma)) ** 2
    return (z - (1 - gamma) - sp.sqrt(z - lp) * sp.sqrt(z - lm)) / (2 * gamma * z)


@lru_cache(maxsize=None)
def mp_stieltjes_limit_derived() -> sp.Expr:
    """lim_{z -> 0} g_C(z) for gamma < 1, derived minding the branch.

    For real z < lambda_- both factors are negative, so sqrt(z-l+) sqrt(z-l-) =
    -S(z) with S(z) = sqrt((l+ - z)(l- - z)) > 0 and S(0) = 1 - gamma.  The numerator
    vanishes at z = 0, and by l'Hopital the limit is (1 + S'(0))/(2 gamma).
    """
    lp, lm = (1 + sp.sqrt(gamma)) ** 2, (1 - sp.sqrt(gamma)) ** 2
    S0 = 1 - gamma  # sqrt(l+ l-) = |1 - gamma|, gamma < 1
    dS0 = -(lp + lm) / (2 * S0)  # d/dz sqrt((l+ - z)(l- - z)) at z = 0
    return sp.simplify((1 + dS0) / (2 * gamma))
