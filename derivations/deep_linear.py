"""End states of gradient flow on deep linear networks (balanced, rank one).

Source: 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff), §3.4, Theorem 3.9; proof in
App. B.8, eq. (142).

Fine-tuning all layers of f(x) = x^T W_1 ... W_L (eq. (9)) on n < d target samples, from the
weights that balanced pretraining with alpha -> 0 produces (Lemma 3.3, Thm 3.4).

*As stated* (eq. (142)):   beta_ft = beta_sc + (I - P_row(X)) beta_s,   beta_sc = X^+ y.

*As derived here*: after pretraining, W_l = s0 u_l u_{l+1}^T (l < L), W_L = s0 u_L, with
u_1 = beta_s/||beta_s|| and s0 = ||beta_s||^{1/L}; the invariants D_l (35) are O(alpha^2), so the
network stays balanced and rank one during fine-tuning with a common singular value s(t).  The
gradient of W_1 has its columns in row(X) (eq. (82)), so (I - P) W_1 = s0 (I - P) u_1 u_2^T is
frozen; as it is nonzero, u_2 cannot turn and s (I - P) u_1(t) = s0 (I - P) u_1(0).  At the end
X beta = y with P beta = X^+ y, and beta = s^L u_1, so

    beta_ft = X^+ y + (s/s0)^{L-1} (I - P) beta_s,
    s^{2L} - c^2 s^{2L-2} = ||X^+ y||^2,    c = ||(I - P) beta_s|| / s0^{L-1}      (*)

(take norms of beta = s^L u_1 = X^+ y + s^{L-1} s0 (I - P) u_1(0)).  With u = s^2, (*) reads
u^{L-1}(u - c^2) = b^2 (b = ||X^+ y||); its left side is negative on (0, c^2) and increasing on
[c^2, oo), so there is exactly one positive root, in [max(c^2, b^{2/L}), c^2 + b^{2/L}].
Eq. (142) corresponds to s = s0 = 1, which solves (*) iff ||X^+ y||^2 = 1 - c^2 = ||P beta_s||^2
(e.g. theta = 0 and sigma = 0); otherwise the two differ.
"""
from __future__ import annotations

from functools import lru_cache

import mpmath as mp
import sympy as sp
import torch

s, c, b = sp.symbols("s c b", positive=True)
L = sp.Symbol("L", positive=True, integer=True)
gamma = sp.Symbol("gamma", positive=True)
sigma = sp.Symbol("sigma", nonnegative=True)
theta = sp.Symbol("theta", real=True)
R_sc = sp.Symbol("R_sc", positive=True)  # E_D R_sc, the scratch risk of eq. (10)


@lru_cache(maxsize=None)
def finetune_scale_polynomial() -> sp.Expr:
    """Left side minus right side of (*): s^{2L} - c^2 s^{2L-2} - b^2 (zero at the end state)."""
    return s ** (2 * L) - c**2 * s ** (2 * L - 2) - b**2


@lru_cache(maxsize=None)
def finetune_scale_stated() -> sp.Expr:
    """The common singular value eq. (142) implies: s = 1 (the pretrained value s0 for ||beta_s|| = 1)."""
    return sp.Integer(1)


@lru_cache(maxsize=None)
def finetune_scale_depth2() -> sp.Expr:
    """Closed form of the root of (*) for L = 2: s^2 = (c^2 + sqrt(c^4 + 4 b^2)) / 2."""
    return sp.sqrt((c**2 + sp.sqrt(c**4 + 4 * b**2)) / 2)


@lru_cache(maxsize=None)
def finetune_scale_limit_polynomial() -> sp.Expr:
    """(*) in the limit n, d -> oo with n/d = gamma < 1, ||beta_s|| = ||beta_t|| = 1 (Assumptions 3.1-3.2).

    c^2 = ||(I - P) beta_s||^2 -> 1 - gamma (a uniformly random n-dim row space);
    b^2 = ||X^+ y||^2 = ||P beta_t||^2 + eps^T (X X^T)^{-1} eps + o(1) -> gamma + sigma^2 gamma/(1 - gamma)
    (E tr (X X^T)^{-1} = n/(d - n - 1)).  So s solves
    s^{2L} - (1 - gamma) s^{2L-2} - gamma (1 - gamma + sigma^2)/(1 - gamma) = 0:
    s = 1 iff sigma = 0; s > 1 for sigma > 0.
    """
    return s ** (2 * L) - (1 - gamma) * s ** (2 * L - 2) - gamma * (1 - gamma + sigma**2) / (1 - gamma)


@lru_cache(maxsize=None)
def finetune_risk_stated() -> sp.Expr:
    """Eq. (16) of Theorem 3.9 for gamma <= 1, as stated: E R_ft = E R_sc + (1 - gamma)(1 - 2 cos theta)."""
    return R_sc + (1 - gamma) * (1 - 2 * sp.cos(theta))


@lru_cache(maxsize=None)
def finetune_risk_limit_derived() -> sp.Expr:
    """Our limit of E R_ft for gamma < 1, from beta_ft = X^+ y + s^{L-1} (I - P) beta_s:

    R = ||beta_t - X^+ y||^2 + s^{2L-2} c^2 - 2 s^{L-1} <beta_t, (I - P) beta_s>  (<X^+ y, (I - P).> = 0),
    <beta_t, (I - P) beta_s> = cos(theta) c^2 + sin(theta) <nu, (I - P) beta_s> -> cos(theta)(1 - gamma), so
    E R_ft -> E R_sc + (1 - gamma)(s^{2L-2} - 2 cos(theta) s^{L-1}) with s the root of
    :func:`finetune_scale_limit_polynomial`.  Equal to eq. (16) iff s = 1, i.e. iff sigma = 0; for
    sigma > 0 the zero-transferability angle is arccos(s^{L-1}/2) instead of pi/3.
    """
    return R_sc + (1 - gamma) * (s ** (2 * L - 2) - 2 * sp.cos(theta) * s ** (L - 1))


@lru_cache(maxsize=None)
def finetune_transfer_stated() -> sp.Expr:
    """Eq. (17), as stated: T_ft = (gamma - 1)(1 - 2 cos theta) for gamma <= 1 (0 for gamma > 1)."""
    return (gamma - 1) * (1 - 2 * sp.cos(theta))


@lru_cache(maxsize=None)
def finetune_transfer_limit_derived() -> sp.Expr:
    """Our limit of T_ft = E R_sc - E R_ft for gamma < 1 (from :func:`finetune_risk_limit_derived`):
    (1 - gamma) k (2 cos theta - k), k = s^{L-1}; eq. (17) is the case k = 1 (sigma = 0)."""
    return (1 - gamma) * s ** (L - 1) * (2 * sp.cos(theta) - s ** (L - 1))


def _scratch_limit(g, sig):
    """E R_sc of eq. (10) (derivations.wishart.scratch_risk_stated), as a float."""
    from .wishart import scratch_risk_stated_value

    return scratch_risk_stated_value(g, sig)


_RISK_STATED = sp.lambdify((R_sc, gamma, theta), finetune_risk_stated(), modules="math")
_TRANSFER_STATED = sp.lambdify((gamma, theta), finetune_transfer_stated(), modules="math")


def finetune_risk_stated_value(gamma_: float, sigma_: float, theta_: float) -> float:
    """Eq. (16) as a float: E R_sc + (1 - gamma)(1 - 2 cos theta) for gamma <= 1, E R_sc for gamma > 1.

    >>> round(finetune_risk_stated_value(0.5, 0.0, 0.0), 12)
    0.0
    """
    rsc = _scratch_limit(gamma_, sigma_)
    return _RISK_STATED(rsc, gamma_, theta_) if gamma_ <= 1 else rsc


def finetune_transfer_stated_value(gamma_: float, theta_: float) -> float:
    """Eq. (17) as a float: (gamma - 1)(1 - 2 cos theta) for gamma <= 1, 0 for gamma > 1."""
    return _TRANSFER_STATED(gamma_, theta_) if gamma_ <= 1 else 0.0


def finetune_limit_k_mp(gamma_, sigma_, L_: int, dps: int = 30) -> mp.mpf:
    """k = s^{L-1}, s the positive root of :func:`finetune_scale_limit_polynomial` (gamma < 1):
    s^{2L} - (1 - gamma) s^{2L-2} = gamma (1 - gamma + sigma^2)/(1 - gamma)."""
    with mp.workdps(dps):
        g, s2 = mp.mpf(gamma_), mp.mpf(sigma_) ** 2
        return finetune_scale_mp(g * (1 - g + s2) / (1 - g), 1 - g, int(L_), dps) ** (int(L_) - 1)


_RISK_DERIVED = sp.lambdify((R_sc, gamma, theta, s, L), finetune_risk_limit_derived(), modules="mpmath")
_TRANSFER_DERIVED = sp.lambdify((gamma, theta, s, L), finetune_transfer_limit_derived(), modules="mpmath")


def finetune_risk_derived_value(gamma_: float, sigma_: float, theta_: float, L_: int) -> float:
    """Our n, d -> inf fine-tuning risk (:func:`finetune_risk_limit_derived`); sigma^2/(gamma - 1) for
    gamma > 1 (unique least-squares minimum).

    >>> round(finetune_risk_derived_value(0.5, 0.0, 0.0, 2), 12)   # sigma = 0: k = 1, eq. (16)
    0.0
    """
    if gamma_ > 1:
        return _scratch_limit(gamma_, sigma_)
    k = finetune_limit_k_mp(gamma_, sigma_, L_)
    with mp.workdps(30):
        return float(_RISK_DERIVED(_scratch_limit(gamma_, sigma_), gamma_, theta_, k ** (mp.mpf(1) / (int(L_) - 1)), int(L_)))


def finetune_transfer_derived_value(gamma_: float, sigma_: float, theta_: float, L_: int) -> float:
    """Our n, d -> inf transferability (1 - gamma) k (2 cos theta - k) (:func:`finetune_transfer_limit_derived`);
    0 for gamma > 1."""
    if gamma_ > 1:
        return 0.0
    k = finetune_limit_k_mp(gamma_, sigma_, L_)
    with mp.workdps(30):
        return float(_TRANSFER_DERIVED(gamma_, theta_, k ** (mp.mpf(1) / (int(L_) - 1)), int(L_)))


def finetune_scale(b2, c2, L_: int, iters: int = 200) -> torch.Tensor:
    """The positive root s of (*) for b^2 = ``b2`` and c^2 = ``c2`` (tensors, batched), depth ``L_``.

    Bisection in u = s^2 on the bracket [max(c^2, b^{2/L}), c^2 + b^{2/L}] (f(u) = u^{L-1}(u - c^2)
    - b^2 is <= 0 at the left end, >= 0 at the right end and increasing in between), then one
    Newton step.  Robust for b = 0 (s^2 = c^2) and c = 0 (s^2 = b^{2/L}).
    """
    b2 = torch.as_tensor(b2, dtype=torch.float64)
    c2 = torch.as_tensor(c2, dtype=b2.dtype, device=b2.device)
    if L_ < 1:
        raise ValueError("depth must be >= 1")
    r = b2.clamp_min(0) ** (1.0 / L_)
    lo, hi = torch.maximum(c2, r), c2 + r

    def f(x):
        return x ** (L_ - 1) * (x - c2) - b2

    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        pos = f(mid) >= 0
        hi = torch.where(pos, mid, hi)
        lo = torch.where(pos, lo, mid)
    x = 0.5 * (lo + hi)
    df = x ** (L_ - 2) * (L_ * x - (L_ - 1) * c2) if L_ >= 2 else torch.ones_like(x)
    newton = x - f(x) / torch.where(df > 0, df, torch.ones_like(df))
    x = torch.where((df > 0) & (newton >= lo) & (newton <= hi), newton, x)
    return x.sqrt()


def finetune_scale_mp(b2, c2, L_: int, dps: int = 50) -> mp.mpf:
    """Same root in mpmath at ``dps`` digits (bisection on the bracket, then a secant polish)."""
    with mp.workdps(dps + 10):
        b2, c2 = mp.mpf(b2), mp.mpf(c2)
        if b2 == 0:
            return +mp.sqrt(c2)
        r = b2 ** (mp.mpf(1) / L_)
        if c2 == 0:
            return +mp.sqrt(r)

        def f(x):
            return x ** (L_ - 1) * (x - c2) - b2

        lo, hi = max(c2, r), c2 + r
        for _ in range(int(3.4 * (dps + 10)) + 10):
            mid = (lo + hi) / 2
            if f(mid) >= 0:
                hi = mid
            else:
                lo = mid
        return +mp.sqrt((lo + hi) / 2)


# =============================================================================================
# 000_efaf07e323d59f0e.txt (Shachaf, Brutzkus, Globerson), §5: Theorem 5.2, eqs. (5)-(8)
# =============================================================================================
# Notation of that paper: r = ||lim beta(t)||, sS = ||theta_S||, cperp2 = ||P_perp theta_S||^2,
# bpar2 = ||P_par theta_T||^2 (= ||X^+ y||^2 for noiseless labels), apar2 = ||P_par theta_S||^2.
r_, sS, k_ = sp.symbols("r s_S k", positive=True)
x_ = sp.Symbol("x", positive=True)
cperp2, bpar2, apar2 = sp.symbols("c_perp2 b_par2 a_par2", positive=True)
alpha_ = sp.Symbol("alpha", positive=True)


@lru_cache(maxsize=None)
def shachaf_eq5_norm_equation() -> sp.Expr:
    """Squared norm of both sides of (5) (P_perp theta_S is orthogonal to P_par theta_T):
    r^2 = (r/||theta_S||)^{2(L-1)/L} ||P_perp theta_S||^2 + ||P_par theta_T||^2; returned as lhs - rhs."""
    return r_**2 - (r_ / sS) ** (2 * (L - 1) / L) * cperp2 - bpar2


@lru_cache(maxsize=None)
def shachaf_eq5_scalar_polynomial() -> sp.Expr:
    """(5)'s norm equation after r = ||theta_S|| x^{L/2} (so that the factor of (5) is k = x^{(L-1)/2}):
    p(x) = s_S^2 x^L - c_perp2 x^{L-1} - b_par2.

    Unique positive root: p(x) = x^{L-1}(s_S^2 x - c_perp2) - b_par2 < 0 on (0, c_perp2/s_S^2] and
    p'(x) = x^{L-2}(L s_S^2 x - (L-1) c_perp2) > 0 for x >= c_perp2/s_S^2, p -> oo: one sign change
    (:func:`shachaf_eq5_uniqueness`).  Same polynomial as :func:`finetune_scale_polynomial` with
    u = x, c^2 = c_perp2/s_S^2, b^2 = b_par2/s_S^2 (our derived end state of 001's Thm 3.9).
    """
    return sS**2 * x_**L - cperp2 * x_ ** (L - 1) - bpar2


def shachaf_eq5_substitution_check() -> sp.Expr:
    """norm equation at r = s_S x^{L/2} minus the polynomial: simplifies to 0."""
    sub = shachaf_eq5_norm_equation().subs(r_, sS * x_ ** (L / 2))
    return sp.simplify(sp.powsimp(sp.expand_power_base(sub, force=True), force=True) - shachaf_eq5_scalar_polynomial())


def shachaf_eq5_uniqueness() -> dict:
    """The facts behind the unique positive root, as sympy expressions that must simplify as stated:
    'factor': p(x) - (x^{L-1}(s^2 x - c) - b) == 0; 'derivative': p'(x) - x^{L-2}(L s^2 x - (L-1) c) == 0;
    'at_left': p(c/s^2) = -b (< 0)."""
    p = shachaf_eq5_scalar_polynomial()
    return {"factor": sp.simplify(p - (x_ ** (L - 1) * (sS**2 * x_ - cperp2) - bpar2)),
            "derivative": sp.simplify(sp.diff(p, x_) - x_ ** (L - 2) * (L * sS**2 * x_ - (L - 1) * cperp2)),
            "at_left": sp.simplify(p.subs(x_, cperp2 / sS**2))}


@lru_cache(maxsize=None)
def shachaf_eq5_in_k() -> sp.Expr:
    """(5)'s norm equation in the factor k = (r/s_S)^{(L-1)/L} itself (r = s_S k^{L/(L-1)}):
    s_S^2 k^{2L/(L-1)} - c_perp2 k^2 - b_par2."""
    return sS**2 * k_ ** (2 * L / (L - 1)) - cperp2 * k_**2 - bpar2


@lru_cache(maxsize=None)
def shachaf_eq6_derived() -> sp.Expr:
    """Our L -> oo limit of (5): the equation tends to (s_S^2 - c_perp2) k^2 = b_par2, i.e.
    k = sqrt(b_par2/(s_S^2 - c_perp2)) = ||P_par theta_T|| / ||P_par theta_S||  (s_S^2 - c_perp2 = a_par2)."""
    lim = sp.limit(shachaf_eq5_in_k(), L, sp.oo)
    at = {sS: 2, cperp2: 1, bpar2: 1}  # s_S^2 > c_perp2: pick the positive root
    sol = [s_ for s_ in sp.solve(sp.Eq(lim, 0), k_) if s_.subs(at).is_positive]
    return sp.simplify(sol[0].subs(sS, sp.sqrt(apar2 + cperp2))) if sol else sp.nan


@lru_cache(maxsize=None)
def shachaf_eq6_stated() -> sp.Expr:
    """The factor of P_perp theta_S in (6), as stated: ||P_par theta_T|| / ||P_par theta_S||."""
    return sp.sqrt(bpar2) / sp.sqrt(apar2)


def shachaf_eq5_k_mp(cperp2_, bpar2_, sS2_, L_: int, dps: int = 40):
    """The factor k = x^{(L-1)/2} of (5), x the positive root of :func:`shachaf_eq5_scalar_polynomial`,
    in mpmath (``finetune_scale_mp`` on the normalised polynomial); k = 1 for L = 1."""
    if int(L_) == 1:
        return mp.mpf(1)
    with mp.workdps(dps + 10):
        sS2_ = mp.mpf(sS2_)
        sroot = finetune_scale_mp(mp.mpf(bpar2_) / sS2_, mp.mpf(cperp2_) / sS2_, int(L_), dps)  # sqrt(x)
        return +(sroot ** (int(L_) - 1))


def shachaf_eq5_k(cperp2_, bpar2_, sS2_, L_: int) -> torch.Tensor:
    """Batched torch version of :func:`shachaf_eq5_k_mp` (tensors of shape (B,))."""
    if int(L_) == 1:
        return torch.ones_like(torch.as_tensor(cperp2_, dtype=torch.float64))
    sS2_ = torch.as_tensor(sS2_, dtype=torch.float64)
    sroot = finetune_scale(torch.as_tensor(bpar2_, dtype=torch.float64) / sS2_,
                           torch.as_tensor(cperp2_, dtype=torch.float64) / sS2_, int(L_))
    return sroot ** (int(L_) - 1)


@lru_cache(maxsize=None)
def shachaf_eq8_stated() -> sp.Expr:
    """Eq. (8): R(gamma) = ((alpha-1)/alpha)^2 ||Sigma^{1/2} P_perp theta_T||^2 (the latter as symbol Q)."""
    return ((alpha_ - 1) / alpha_) ** 2 * sp.Symbol("Q", nonnegative=True)


@lru_cache(maxsize=None)
def shachaf_eq8_derived() -> sp.Expr:
    """From (2) with theta_S = theta_T/alpha: P_perp(theta_T - theta_S) = (1 - 1/alpha) P_perp theta_T,
    so R = (1 - 1/alpha)^2 Q."""
    return sp.simplify((1 - 1 / alpha_) ** 2 * sp.Symbol("Q", nonnegative=True))


@lru_cache(maxsize=None)
def shachaf_thm53_k_derived() -> sp.Expr:
    """(6) with theta_T = alpha theta_S: k = ||P_par alpha theta_S||/||P_par theta_S|| = alpha, so
    beta = alpha P_perp theta_S + alpha P_par theta_S = theta_T and R(beta) = 0."""
    return sp.simplify(shachaf_eq6_stated().subs(bpar2, alpha_**2 * apar2))
