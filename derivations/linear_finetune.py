"""Fine-tuning linear regression from the source weights: the closed forms of §4 of
000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, NeurIPS 2021).

Setting: rows of X (n x d, n < d) i.i.d. with covariance Sigma = V Lambda V^T, labels y = X theta_T
(no noise), gradient descent on L(w) = 1/n ||X w - y||^2 from w(0) = theta_S.  P_par = X^T (X X^T)^{-1} X
(projection on the row space of X), P_perp = I - P_par.

=========================  =====================================================  ==================
form                       expression                                             where
=========================  =====================================================  ==================
end state (stated)         gamma = P_perp theta_S + P_par theta_T                 Thm 4.1, eq. (1)
risk (stated)              R(gamma) = ||Sigma^{1/2} P_perp (theta_T - theta_S)||^2 Thm 4.1, eq. (2)
E risk, Sigma = I          (1 - n/d) ||theta_T - theta_S||^2                      derived here
law of the risk, Sigma=I   ||P_perp v||^2/||v||^2 ~ Beta((d-n)/2, n/2)            derived here
bound (stated)             2 g^3 ||P_<=m v||^2/lambda_m^2 + 2 g ||P_>m v||^2      Thm 4.2, eq. (3)
g (stated)                 c lambda_1 max(sqrt(r/n), r/n, sqrt(delta/n), delta/n)  Thm 4.2, r = tr/lambda_1
bound on the event         (3) holds with g = ||Sigma_tilde - Sigma|| on every draw derived (proof read)
=========================  =====================================================  ==================

Why (1): the gradient 2/n X^T (X w - y) lies in row(X), so P_perp w(t) = P_perp theta_S for all t; the
limit interpolates (Assumption 3.3), X w = X theta_T, which fixes P_par w = P_par theta_T.  (2) follows
from w - theta_T = P_perp (theta_S - theta_T) and R(w) = (w - theta_T)^T Sigma (w - theta_T).

The last line is the deterministic step of the proof of Thm 4.2 as the text sketches it (Davis-Kahan):
Sigma_tilde P_perp = 0, so P_perp Sigma P_perp = P_perp (Sigma - Sigma_tilde) P_perp and
(a) ||Sigma^{1/2} P_perp w||^2 <= g0 ||P_perp w||^2,  (b) ||P_perp V_<=m|| <= g0/lambda_m,
with g0 = ||Sigma_tilde - Sigma||; splitting v = P_<=m v + P_>m v and (a + b)^2 <= 2a^2 + 2b^2 gives
R <= 2 g0^3 ||P_<=m v||^2/lambda_m^2 + 2 g0 ||P_>m v||^2 for every m.  So the probability statement
of Thm 4.2 reduces to the covariance concentration ||Sigma_tilde - Sigma|| <= g(lambda, delta, n).

>>> expected_risk_identity_value(5, 20, 2.0)
1.5
"""
from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp

n, d = sp.symbols("n d", positive=True, integer=True)
v2 = sp.Symbol("v2", nonnegative=True)          # ||theta_T - theta_S||^2
c, lam1, lam_m, r, delta = sp.symbols("c lambda_1 lambda_m r delta", positive=True)
g = sp.Symbol("g", positive=True)
top2, bot2 = sp.symbols("T B", nonnegative=True)  # ||P_<=m v||^2, ||P_>m v||^2
t = sp.Symbol("t")


@lru_cache(maxsize=None)
def expected_projector_derived() -> sp.Expr:
    """E[P_perp] = t I for Sigma = I (rotation invariance of the Gaussian row space); the trace
    tr P_perp = d - n fixes t:  d t = d - n  =>  t = 1 - n/d."""
    return sp.solve(sp.Eq(d * t, d - n), t)[0]


@lru_cache(maxsize=None)
def expected_risk_identity_derived() -> sp.Expr:
    """E R(gamma) for Sigma = I, Gaussian X, n < d: E ||P_perp v||^2 = v^T E[P_perp] v = (1 - n/d) ||v||^2."""
    return sp.simplify(expected_projector_derived() * v2)


def expected_risk_identity_value(n_: int, d_: int, v2_: float) -> float:
    """Numeric :func:`expected_risk_identity_derived` (n < d)."""
    if not 0 < n_ < d_:
        raise ValueError(f"needs 0 < n < d (n={n_}, d={d_})")
    return float(expected_risk_identity_derived().subs({n: n_, d: d_, v2: v2_}))


@lru_cache(maxsize=None)
def risk_variance_identity_derived() -> sp.Expr:
    """Var R(gamma) for Sigma = I: R/||v||^2 = ||P_perp u||^2 with u fixed and P_perp a uniformly random
    (d-n)-dimensional projection, which is Beta(a, b) with a = (d-n)/2, b = n/2:
    Var = v2^2 a b / ((a + b)^2 (a + b + 1))."""
    a, b = (d - n) / 2, n / 2
    return sp.simplify(v2**2 * a * b / ((a + b) ** 2 * (a + b + 1)))


def risk_variance_identity_value(n_: int, d_: int, v2_: float) -> float:
    return float(risk_variance_identity_derived().subs({n: n_, d: d_, v2: v2_}))


@lru_cache(maxsize=None)
def g_stated() -> sp.Expr:
    """g(lambda, delta, n) of Thm 4.2: c lambda_1 max(sqrt(r/n), r/n, sqrt(delta/n), delta/n),
    r = sum_i lambda_i / lambda_1 (the effective rank)."""
    return c * lam1 * sp.Max(sp.sqrt(r / n), r / n, sp.sqrt(delta / n), delta / n)


@lru_cache(maxsize=None)
def bound3_stated() -> sp.Expr:
    """Eq. (3) in terms of g: 2 g^3 ||P_<=m v||^2 / lambda_m^2 + 2 g ||P_>m v||^2."""
    return 2 * g**3 * top2 / lam_m**2 + 2 * g * bot2


#: scalars of one draw in eq. (2): Q_TT = ||Sigma^{1/2} P_perp theta_T||^2, Q_TS = <Sigma^{1/2} P_perp theta_T,
#: Sigma^{1/2} P_perp theta_S>, Q_SS = ||Sigma^{1/2} P_perp theta_S||^2
Q_TT, Q_TS, Q_SS = sp.Symbol("Q_TT", nonnegative=True), sp.Symbol("Q_TS", real=True), sp.Symbol("Q_SS", nonnegative=True)


@lru_cache(maxsize=None)
def risk_eq2_stated() -> sp.Expr:
    """Eq. (2) of Thm 4.1, R(gamma) = ||Sigma^{1/2} P_perp (theta_T - theta_S)||^2, with the square of the norm
    written out in the scalars of one draw: Q_TT - 2 Q_TS + Q_SS.

    >>> risk_eq2_stated().subs({Q_TT: 3, Q_TS: 1, Q_SS: 2})
    3
    """
    return Q_TT - 2 * Q_TS + Q_SS


def g_value(c_: float, lam1_: float, r_: float, delta_: float, n_: float) -> float:
    """Float g of :func:`g_stated` (pinned to the sympy form by tests/test_shachaf_linear.py)."""
    return c_ * lam1_ * max(math.sqrt(r_ / n_), r_ / n_, math.sqrt(delta_ / n_), delta_ / n_)


def bound3_value(g_: float, lam_m_: float, top2_: float, bot2_: float) -> float:
    return 2 * g_**3 * top2_ / lam_m_**2 + 2 * g_ * bot2_


@lru_cache(maxsize=None)
def g_large_n_derived() -> sp.Expr:
    """g for n >= max(r, delta) (delta >= 1, r >= 1): every ratio is <= 1, so the square roots win:
    g = c lambda_1 sqrt(max(r, delta)/n).  Written for r >= delta: c lambda_1 sqrt(r/n)."""
    return c * lam1 * sp.sqrt(r / n)


@lru_cache(maxsize=None)
def g_small_n_derived() -> sp.Expr:
    """g for n <= r (r >= delta): r/n >= sqrt(r/n) >= the delta terms, so g = c lambda_1 r / n."""
    return c * lam1 * r / n


def log_slope(expr: sp.Expr, var=n) -> sp.Expr:
    """d log(expr) / d log(var): the exponent of a power law in ``var``."""
    return sp.simplify(sp.diff(sp.log(expr), var) * var)
