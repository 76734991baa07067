"""Kernel ridge regression of linearized fine-tuning and the NTK risk bounds built on it.

Source: 004_04c86723a9734555.txt (slides on "Linearization Explains Fine-Tuning in Large Language
Models", NeurIPS 2025), Section 4 ("Fine-tuning can be defined as RKHS", Theorem 5 and its proof)
and Section 5 (Theorems 6 and 7 and the proof of Theorem 7).

Stated vs derived
=================

==========================  ===================================================  ====================================
object                      slides                                               ours
==========================  ===================================================  ====================================
KRR objective               (1/n) sum_i (alpha^T K(x_i, x*) - y_i)^2             same
                            + sigma alpha^T K alpha
its minimizer               alpha* = (K + sigma I)^{-1} y*                        (K + n sigma I)^{-1} y*  (mean);
                                                                                 (K + sigma I)^{-1} y* for the *sum*
risk of the KRR fit         R = (1/n) ||sigma (K + sigma I)^{-1} y*||^2 (proof)   same (a mean over the n samples)
Theorem 5 bounds            sigma^2||y||^2/(sigma+l_max)^2 <= R                  true for the sum n R, not for R
                            <= sigma^2||y||^2/(sigma+l_min)^2                    (lower end fails for n >= 2)
Theorem 6                   (1-eta) l_i(K) <= l_i(K+S) <= (1+eta) l_i(K)         true (Ostrowski); for S PSD even
                                                                                 l_i(K) <= l_i(K+S)
Theorem 7                   lam'/(a lam) <= sqrt(R'/R) <= a lam'/lam,            true for eta <= 1 (the proof's
                            a = c/(1-eta)^2                                      assumption); false for eta > 1
==========================  ===================================================  ====================================

Everything here is sympy or mpmath (no torch); the matrix functions take mpmath matrices.

>>> float(thm5_lower_value(1.0, 4.0, 3.0))
0.36
>>> float(thm7_a_value(2.0, 0.5))
8.0
"""
from __future__ import annotations

from functools import lru_cache

import mpmath
import sympy as sp

sigma = sp.Symbol("sigma", positive=True)
lmin, lmax = sp.symbols("lambda_min lambda_max", nonnegative=True)
ynorm = sp.Symbol("Y", nonnegative=True)          # ||y*||
n = sp.Symbol("n", positive=True, integer=True)
c, eta = sp.symbols("c eta", nonnegative=True)
lam_s = sp.Symbol("lambda", positive=True)        # fine-tuning regularization strength


# ------------------------------------------------------------------ the KRR minimizer
def krr_alpha_derived_sympy(n_: int = 2):
    """Our derivation of the minimizer of the displayed objective, for a generic symmetric n x n K
    (sympy): setting the gradient (2/n) K (K a - y) + 2 sigma K a to zero gives
    K [(K + n sigma I) a - y] = 0, so a = (K + n sigma I)^{-1} y (unique when K is invertible).

    Returns (gradient at (K + n sigma I)^{-1} y, simplified; gradient at the slides' (K + sigma I)^{-1} y).

    >>> g_ours, g_slides = krr_alpha_derived_sympy(2)
    >>> g_ours
    Matrix([
    [0],
    [0]])
    >>> g_slides == sp.zeros(2, 1)
    False
    """
    K = sp.Matrix(n_, n_, lambda i, j: sp.Symbol(f"k{min(i, j)}{max(i, j)}"))
    y = sp.Matrix(n_, 1, lambda i, j: sp.Symbol(f"y{i}"))
    a = sp.Matrix(n_, 1, lambda i, j: sp.Symbol(f"a{i}"))
    obj = ((K * a - y).T * (K * a - y))[0] / n_ + sigma * (a.T * K * a)[0]
    grad = sp.Matrix([sp.diff(obj, ai) for ai in a])
    ours = (K + n_ * sigma * sp.eye(n_)).LUsolve(y)
    slides = (K + sigma * sp.eye(n_)).LUsolve(y)
    g1 = grad.subs(dict(zip(a, ours))).applyfunc(sp.cancel)
    g2 = grad.subs(dict(zip(a, slides))).applyfunc(sp.cancel)
    return g1, g2


@lru_cache(maxsize=None)
def krr_shift_stated() -> sp.Expr:
    """The multiple of I the slides add to K in alpha* = [K(x*, x*) + sigma I]^{-1} y*: sigma."""
    return sigma


@lru_cache(maxsize=None)
def krr_shift_derived() -> sp.Expr:
    """Our shift for the displayed (1/n) objective: its minimizer is [K + n sigma I]^{-1} y*, so n sigma."""
    return n * sigma


def krr_objective_mp(K, y, alpha, s, normalization: str = "mean"):
    """(1/n) ||K a - y||^2 + sigma a^T K a  ('mean', as displayed) or ||K a - y||^2 + sigma a^T K a ('sum')."""
    r = K * alpha - y
    fit = (r.T * r)[0]
    if normalization == "mean":
        fit = fit / K.rows
    return fit + s * (alpha.T * K * alpha)[0]


def krr_alpha_stated_mp(K, y, s):
    """The slides' alpha* = [K(x*, x*) + sigma I]^{-1} y* (mpmath)."""
    return mpmath.lu_solve(K + s * mpmath.eye(K.rows), y)


def krr_alpha_derived_mp(K, y, s, normalization: str = "mean"):
    """Our minimizer: (K + n sigma I)^{-1} y for the displayed (mean) objective, (K + sigma I)^{-1} y for the sum."""
    m = K.rows if normalization == "mean" else 1
    return mpmath.lu_solve(K + m * s * mpmath.eye(K.rows), y)


# ------------------------------------------------------------------ Theorem 5
@lru_cache(maxsize=None)
def thm5_lower_stated() -> sp.Expr:
    """Theorem 5, left side: (sigma ||y*|| / (sigma + lambda_max(K)))^2."""
    return (sigma * ynorm / (sigma + lmax)) ** 2


@lru_cache(maxsize=None)
def thm5_upper_stated() -> sp.Expr:
    """Theorem 5, right side: (sigma ||y*|| / (sigma + lambda_min(K)))^2."""
    return (sigma * ynorm / (sigma + lmin)) ** 2


@lru_cache(maxsize=None)
def thm5_upper_derived() -> sp.Expr:
    """Theorem 5's right side for the mean R(theta) = (1/n)||y* - K(K + sigma I)^{-1} y*||^2 the proof defines:
    (sigma ||y*|| / (sigma + lambda_min(K)))^2 / n (the proof's 1/n kept to its end; the left side likewise)."""
    return (sigma * ynorm / (sigma + lmin)) ** 2 / n


def thm5_lower_value(s, l_max, y_norm):
    return mpmath.mpf(s) ** 2 * mpmath.mpf(y_norm) ** 2 / (mpmath.mpf(s) + l_max) ** 2


def thm5_upper_value(s, l_min, y_norm):
    return mpmath.mpf(s) ** 2 * mpmath.mpf(y_norm) ** 2 / (mpmath.mpf(s) + l_min) ** 2


@lru_cache(maxsize=None)
def kappa_stated() -> sp.Expr:
    """The regularized condition number the slides define after Theorem 5: kappa(K + sigma I) =
    (lambda_max(K) + sigma)/(lambda_min(K) + sigma)."""
    return (lmax + sigma) / (lmin + sigma)


def kappa_identity():
    """The slides' remark 'for given lambda_max(K), a small kappa gives a small risk' rests on
    upper = kappa(K + sigma I)^2 * lower: returns (upper, kappa^2 lower) as sympy expressions."""
    return thm5_upper_stated(), kappa_stated() ** 2 * thm5_lower_stated()


def krr_risk_mp(K, y, s, normalization: str = "mean"):
    """R(theta) of the proof of Theorem 5: (1/n) ||y* - K (K + sigma I)^{-1} y*||^2 ('mean', as the proof
    defines R), or the same without 1/n ('sum', R~ of the problem formulation)."""
    r = y - K * mpmath.lu_solve(K + s * mpmath.eye(K.rows), y)
    v = (r.T * r)[0]
    return v / K.rows if normalization == "mean" else v


def krr_risk_eig_mp(K, y, s, normalization: str = "mean", eig=None):
    """The proof's last equality: (1/n) ||(I - Sigma (Sigma + sigma I)^{-1}) U^T y*||^2 (``eig`` = (E, U) of K when
    known; otherwise computed with mpmath.eigsy)."""
    E, U = eig if eig is not None else mpmath.eigsy(K)
    z = U.T * y
    v = mpmath.fsum((s / (s + E[i])) ** 2 * z[i] ** 2 for i in range(K.rows))
    return v / K.rows if normalization == "mean" else v


# ------------------------------------------------------------------ Theorems 6, 7
def eta_mp(K, S):
    """eta = ||K^{-1/2} S K^{-1/2}|| (spectral norm; K positive definite)."""
    E, U = mpmath.eighe(K)
    Kmh = U * mpmath.diag([1 / mpmath.sqrt(e) for e in E]) * U.T
    M = Kmh * S * Kmh
    M = (M + M.T) / 2
    ev = mpmath.eigsy(M)[0]
    return max(abs(e) for e in ev)


def eigs_sorted(A):
    """Eigenvalues of a symmetric mpmath matrix, ascending."""
    A = (A + A.T) / 2
    return sorted(mpmath.eigsy(A)[0])


lam_i = sp.Symbol("lambda_i", nonnegative=True)   # the i-th eigenvalue of K (Theorem 6)


@lru_cache(maxsize=None)
def thm6_upper_stated() -> sp.Expr:
    """Theorem 6, right side: lambda_i(K + S) <= (1 + eta) lambda_i(K)."""
    return (1 + eta) * lam_i


@lru_cache(maxsize=None)
def thm7_a_stated() -> sp.Expr:
    """a = c / (1 - eta)^2."""
    return c / (1 - eta) ** 2


def thm7_a_value(c_, eta_):
    return mpmath.mpf(c_) / (1 - mpmath.mpf(eta_)) ** 2


def thm7_bounds_mp(K, S, s, c_):
    """(lower, upper) of Theorem 7: lam_max(K+S+sI)/(a lam_max(K+sI)) and a lam_max(K+S+sI)/lam_max(K+sI)."""
    I = mpmath.eye(K.rows)
    lp = eigs_sorted(K + S + s * I)[-1]
    l0 = eigs_sorted(K + s * I)[-1]
    a = thm7_a_value(c_, eta_mp(K, S))
    return lp / (a * l0), a * lp / l0


kappa_s = sp.Symbol("kappa", positive=True)        # kappa(K + sigma I)
lam_p, lam_0 = sp.symbols("lambda_p lambda_0", positive=True)   # lambda_max(K + S + sigma I), lambda_max(K + sigma I)


@lru_cache(maxsize=None)
def thm7_proof_lower_stated() -> sp.Expr:
    """The proof of Theorem 7, combined lower bound before kappa <= c is applied:
    sqrt(R'/R) >= lambda_max(K + S + sigma I) / (kappa(K + sigma I) (1 + eta)^2 lambda_max(K + sigma I))."""
    return lam_p / (kappa_s * (1 + eta) ** 2 * lam_0)


def thm7_proof_bounds_mp(K, S, s):
    """The proof's two combined bounds before kappa <= c is applied:
    lam'/(kappa (1+eta)^2 lam) <= sqrt(R'/R) <= lam' kappa / ((1-eta)^2 lam)."""
    I = mpmath.eye(K.rows)
    e = eigs_sorted(K + s * I)
    lp = eigs_sorted(K + S + s * I)[-1]
    kappa = e[-1] / e[0]
    et = eta_mp(K, S)
    return lp / (kappa * (1 + et) ** 2 * e[-1]), lp * kappa / ((1 - et) ** 2 * e[-1])


@lru_cache(maxsize=None)
def finetune_ridge_sigma() -> sp.Expr:
    """sigma = lambda/2: (1/n) sum (phi^T w - y~)^2 + (lambda/2)||w||^2 is the ridge problem with sigma = lambda/2."""
    return lam_s / 2


@lru_cache(maxsize=None)
def finetune_ridge_sigma_derived() -> sp.Expr:
    """The ridge shift of the 'Original problem' as displayed, (1/n) sum (phi^T w - y~)^2 + (lambda/2)||w||^2: its
    minimizer is J^T (K + n lambda/2 I)^{-1} y~, i.e. alpha* = (K + sigma' I)^{-1} y~ with sigma' = n lambda/2."""
    return n * lam_s / 2
