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
