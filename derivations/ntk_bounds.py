"""Bounds of §6 of 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson, NeurIPS 2021): fine-tuning a
two-layer ReLU network in the NTK regime, and the forms of Table 1's predictors (§4.2).

Source: §6, Theorem 6.1 (eq. (11)), Corollary 6.2, Corollary 6.3; §4, Theorem 4.2 (eq. (3)) and Table 1.

Setting (§6): f(x) = m^{-1/2} sum_r a_r relu(w_r^T x), a_r = +-1 fixed, ||x|| = 1, the infinite-width
Gram matrix of the first layer's tangent kernel (Du et al. [39], Arora et al. [31])

    H^inf_ij = E_{w ~ N(0, I)} [x_i^T x_j 1{w^T x_i >= 0, w^T x_j >= 0}] = x_i^T x_j (pi - arccos u_ij) / (2 pi),

u_ij = x_i^T x_j, i.e. H^inf_ij = h(u_ij) with h(u) = u (pi - arccos u)/(2 pi) (:data:`H_OF_U`).

=====================  =============================================  ==========================================
form                   stated                                         derived here
=====================  =============================================  ==========================================
(11), first term       2 sqrt(y~^T (H^inf)^{-1} y~ / n)                (taken as stated; the O(.) term has no
                                                                      constant and is not checkable)
Cor. 6.2               sqrt(y~^T (H^inf)^{-1} y~) <= 3 ||theta_T -     <= 2 ||P_par (theta_T - theta_S)||
                       theta_S||, y~ = X (theta_T - theta_S)           <= 2 ||theta_T - theta_S||; the constant 2
                                                                      is the supremum (near-antipodal pairs)
Cor. 6.3, first term   6 ||theta_T - theta_S|| / sqrt(n)               4 ||theta_T - theta_S|| / sqrt(n)
=====================  =============================================  ==========================================

Derivation of the constant 2 (:func:`h_series_coefficients`, :func:`loewner_gap`): pi - arccos u =
pi/2 + arcsin u, so h(u) = u/4 + u arcsin(u)/(2 pi), and u arcsin u = sum_{k>=0} c_k u^{2k+2} with
c_k = (2k)! / (4^k (k!)^2 (2k+1)) > 0.  Hence H^inf = G/4 + (1/2pi) sum_k c_k G^{o(2k+2)} with G = X X^T and
G^{o j} its Hadamard powers, which are positive semi-definite (Schur product theorem).  So H^inf >= G/4 in
the Loewner order and, G being invertible (Assumption 3.1), (H^inf)^{-1} <= 4 G^{-1}:

    y~^T (H^inf)^{-1} y~ <= 4 (theta_T - theta_S)^T X^T (X X^T)^{-1} X (theta_T - theta_S) = 4 ||P_par Delta||^2.

For n = 2 at u = x_1^T x_2 the two matrices share the eigenvectors (1, +-1), and the largest generalised
eigenvalue of (G, H^inf) is max((1+u)/(1/2+h(u)), (1-u)/(1/2-h(u))) (:func:`pair_ratio_sq`), which tends to 4
as u -> -1 (:func:`pair_ratio_limit`): sqrt(y~^T H^-1 y~)/||Delta|| approaches 2 but never reaches it.

>>> float(H_OF_U.subs(u, 1))
0.5
>>> h_series_coefficients(3)
[0, 1/4, 1/(2*pi), 0, 1/(12*pi), 0, 3/(80*pi)]
>>> pair_ratio_limit()
2
>>> cor63_first_term_value(1.0, 9)
2.0
"""
from __future__ import annotations

from functools import lru_cache

import mpmath
import sympy as sp

u = sp.Symbol("u", real=True)
q = sp.Symbol("q", nonnegative=True)          # y~^T (H^inf)^{-1} y~
n = sp.Symbol("n", positive=True, integer=True)
dist = sp.Symbol("Delta", nonnegative=True)   # ||theta_T - theta_S||

H_OF_U = u * (sp.pi - sp.acos(u)) / (2 * sp.pi)
"""H^inf_ij as a function of u_ij = x_i^T x_j for unit inputs (Du et al. [39], Arora et al. [31] eq. (3))."""


# ----------------------------------------------------------------------------- stated forms
def thm61_first_term_stated() -> sp.Expr:
    """(11), first term: 2 sqrt(y~^T (H^inf)^{-1} y~ / n), with q = y~^T (H^inf)^{-1} y~."""
    return 2 * sp.sqrt(q / n)


def cor62_stated() -> sp.Expr:
    """Cor. 6.2: the bound 3 ||theta_T - theta_S|| on sqrt(y~^T (H^inf)^{-1} y~)."""
    return 3 * dist


def cor62_derived() -> sp.Expr:
    """Our constant: sqrt(y~^T (H^inf)^{-1} y~) <= 2 ||P_par Delta|| <= 2 ||Delta|| (module docstring)."""
    return 2 * dist


def cor63_stated() -> sp.Expr:
    """Cor. 6.3, first term: 6 ||theta_T - theta_S|| / sqrt(n)."""
    return 6 * dist / sp.sqrt(n)


def cor63_composed() -> sp.Expr:
    """(11)'s first term with Cor. 6.2 substituted (q <= 9 Delta^2): what Cor. 6.3 should read."""
    return thm61_first_term_stated().subs(q, cor62_stated() ** 2)


def cor63_derived() -> sp.Expr:
    """(11)'s first term with our constant (q <= 4 Delta^2): 4 ||Delta|| / sqrt(n)."""
    return thm61_first_term_stated().subs(q, cor62_derived() ** 2)


def cor63_first_term_value(delta: float, n_: int) -> float:
    """6 ||Delta|| / sqrt(n) as a float.

    >>> cor63_first_term_value(0.5, 4)
    1.5
    """
    return 6.0 * float(delta) / float(n_) ** 0.5


# ----------------------------------------------------------------------------- the constant 2
def arcsin_identity() -> sp.Expr:
    """pi - arccos u - (pi/2 + arcsin u): zero on [-1, 1] (so h(u) = u/4 + u arcsin(u)/(2 pi)).

    >>> sp.simplify(arcsin_identity().rewrite(sp.asin))
    0
    """
    return sp.pi - sp.acos(u) - (sp.pi / 2 + sp.asin(u))


def h_decomposed() -> sp.Expr:
    """h(u) = u/4 + u arcsin(u) / (2 pi)."""
    return u / 4 + u * sp.asin(u) / (2 * sp.pi)


def series_coefficient(k: int) -> sp.Expr:
    """Coefficient of u^{2k+2} in u arcsin(u): (2k)! / (4^k (k!)^2 (2k+1)) (positive for every k).

    >>> [series_coefficient(k) for k in range(3)]
    [1, 1/6, 3/40]
    """
    k = int(k)
    return sp.factorial(2 * k) / (4 ** k * sp.factorial(k) ** 2 * (2 * k + 1))


@lru_cache(maxsize=None)
def h_series_coefficients(order: int) -> list:
    """Taylor coefficients of h(u) at 0 up to u^{2*order} (sympy series), degree 0 first."""
    s = sp.series(H_OF_U, u, 0, 2 * int(order) + 1).removeO()
    return [sp.nsimplify(sp.simplify(s.coeff(u, j))) for j in range(2 * int(order) + 1)]


def series_matches(order: int = 8) -> bool:
    """The sympy Taylor coefficients of h equal 1/4 (degree 1) and c_k/(2 pi) (degree 2k+2), 0 otherwise."""
    cs = h_series_coefficients(order)
    want = [sp.Integer(0)] * (2 * order + 1)
    want[1] = sp.Rational(1, 4)
    for k_ in range(order):
        want[2 * k_ + 2] = series_coefficient(k_) / (2 * sp.pi)
    return all(sp.simplify(a - b) == 0 for a, b in zip(cs, want))


def pair_ratio_sq() -> sp.Expr:
    """n = 2, y~ = X Delta: sup_Delta y~^T H^-1 y~ / ||Delta||^2 on the direction (1, -1), i.e.
    (1 - u) / (1/2 - h(u)) (the direction (1, 1) gives (1 + u)/(1/2 + h(u)) <= 2)."""
    return (1 - u) / (sp.Rational(1, 2) - H_OF_U)


def pair_ratio_limit() -> sp.Expr:
    """lim_{u -> -1+} sqrt((1 - u) / (1/2 - h(u))) (sympy): the supremum 2 of our constant."""
    return sp.limit(sp.sqrt(pair_ratio_sq()), u, -1, "+")


# ----------------------------------------------------------------------------- high-precision evaluation
def ntk_gram_mp(X) -> "mpmath.matrix":
    """H^inf of the rows of X (an mpmath matrix or nested lists), in mpmath: x_i.x_j (pi - arccos u_ij) / (2 pi) with
    u_ij = x_i.x_j / (|x_i||x_j|), as :func:`derivations.kernels.ntk_relu_gram` (on unit rows u_ij = x_i.x_j, 002's
    form).  The cosine is the normalised one: rows of any norm are accepted (a zero row is an error).

    >>> ntk_gram_mp([[1, 0], [0, 1]])
    matrix(
    [['0.5', '0.0'],
     ['0.0', '0.5']])
    >>> print(ntk_gram_mp([[2, 0], [1, 1]]))
    [ 2.0  0.75]
    [0.75   1.0]
    """
    X = mpmath.matrix(X)
    n_ = X.rows
    norms = [mpmath.sqrt(sum(X[i, k] ** 2 for k in range(X.cols))) for i in range(n_)]
    if any(r == 0 for r in norms):
        raise ValueError("ntk_gram_mp: a zero row has no angle to the others (H^inf needs nonzero inputs)")
    H = mpmath.matrix(n_, n_)
    for i in range(n_):
        for j in range(i, n_):
            g = sum(X[i, k] * X[j, k] for k in range(X.cols))
            # the angle by Kahan's form 2 atan2(|a - b|, |a + b|) of the unit rows: arccos of a rounded cosine
            # loses half the digits near u = +-1 (as in derivations.kernels._angles)
            dm = mpmath.sqrt(sum((X[i, k] / norms[i] - X[j, k] / norms[j]) ** 2 for k in range(X.cols)))
            dp = mpmath.sqrt(sum((X[i, k] / norms[i] + X[j, k] / norms[j]) ** 2 for k in range(X.cols)))
            H[i, j] = H[j, i] = g * (mpmath.pi - 2 * mpmath.atan2(dm, dp)) / (2 * mpmath.pi)
    return H


def cor62_instance_mp(X, delta) -> tuple:
    """(X with its rows normalised, Delta, y~ = X Delta) as mpmath matrices, in the current mpmath precision.

    >>> X, D, y = cor62_instance_mp([[3, 4], [0, 2]], [1, 1])
    >>> print(y.T)
    [1.4  1.0]
    """
    X = mpmath.matrix(X)
    for i in range(X.rows):
        nr = mpmath.sqrt(sum(X[i, k] ** 2 for k in range(X.cols)))
        for k in range(X.cols):
            X[i, k] /= nr
    D = mpmath.matrix(delta)
    return X, D, X * D


def cor62_ratio_mp(X, delta) -> "mpmath.mpf":
    """sqrt(y~^T (H^inf)^{-1} y~) / ||Delta|| with y~ = X Delta, in the current mpmath precision
    (rows of X are normalised here)."""
    X, D, y = cor62_instance_mp(X, delta)
    H = ntk_gram_mp(X)
    qv = (y.T * mpmath.lu_solve(H, y))[0]
    return mpmath.sqrt(qv) / mpmath.sqrt(sum(D[k] ** 2 for k in range(D.rows)))


def cor62_projected_ratio_mp(X, delta) -> "mpmath.mpf":
    """sqrt(y~^T (H^inf)^{-1} y~) / ||P_par Delta||: our derivation says <= 2 (P_par: onto the row space of X)."""
    X, _, y = cor62_instance_mp(X, delta)
    G = X * X.T
    pnorm2 = (y.T * mpmath.lu_solve(G, y))[0]  # ||P_par Delta||^2 = y^T G^{-1} y
    qv = (y.T * mpmath.lu_solve(ntk_gram_mp(X), y))[0]
    return mpmath.sqrt(qv / pnorm2)
