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


def eq143_stated() -> sp.Expr:
    """App. B.8, (143)-(144) and the step before them, as stated, exact at finite n, d (gamma = n/d): with
    ``what`` = 0, E<nu, (I - P_row(X)) beta_s> = 0 (144); with ``what`` = 1, E||(I - P_row(X)) beta_s||^2 =
    max(0, 1 - gamma).

    >>> eq143_stated().subs({sp.Symbol("what", integer=True, nonnegative=True): 1, sp.Symbol("n", positive=True): 5,
    ...                      sp.Symbol("d", positive=True): 20})
    3/4
    """
    what = sp.Symbol("what", integer=True, nonnegative=True)
    n_, d_ = sp.Symbol("n", positive=True), sp.Symbol("d", positive=True)
    return sp.Piecewise((0, sp.Eq(what, 0)), (sp.Max(0, 1 - n_ / d_), True))


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


# ----------------------------------------------------------------------------- control variates of Thm 3.9
# Per draw (n < d) the risks of the scratch fit and of the fine-tuned end state are functions of five
# scalars with exactly known means at every finite n, d (so that subtracting them, times any fixed
# coefficient, leaves the expectation unchanged):
#   c2 = ||(I - P) beta_s||^2,  xi = <(I - P) beta_s, nu>,  m = ||(I - P) nu||^2,
#   r = <P beta_t, X^+ eps>,    q = ||X^+ eps||^2 = eps^T (X X^T)^{-1} eps,
# P = P_row(X), beta_t = cos(theta) beta_s + sin(theta) nu, y = X beta_t + sigma eps.  With b = X^+ y:
#   ||b||^2 = 1 - cos^2 c2 - 2 cos sin xi - sin^2 m + 2 sigma r + sigma^2 q,
#   R_sc = ||b - beta_t||^2 = cos^2 c2 + 2 cos sin xi + sin^2 m + sigma^2 q       (exactly linear),
#   T = R_sc - R_ft = 2 k (cos c2 + sin xi) - k^2 c2,   k = s^{L-1},  s^{2L} - c2 s^{2L-2} = ||b||^2,
# since <(I - P) beta_s, b> = 0.  The coefficients below are the gradient of T (or R_ft = R_sc - T) in
# (c2, xi, m, r, q) at their n, d -> oo values; any fixed coefficients keep the estimator unbiased, these
# make it nearly so (measured variance reductions 40-400x at d = 48-192).

CONTROLS = ("c2", "xi", "m", "r", "q")
_z = sp.symbols("z_c2 z_xi z_m z_r z_q", real=True)
_u = sp.Symbol("u", positive=True)   # u = s^2


@lru_cache(maxsize=None)
def finetune_transfer_per_draw() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(T, ||X^+ y||^2, F) per draw in the controls ``_z`` and u = s^2: T = 2k(cos c2 + sin xi) - k^2 c2 with
    k = u^{(L-1)/2}, and F(u) = u^L - c2 u^{L-1} - ||X^+ y||^2, whose positive root is the end state's u."""
    c2, xi, m, r, q = _z
    ct, st = sp.cos(theta), sp.sin(theta)
    b2 = 1 - ct**2 * c2 - 2 * ct * st * xi - st**2 * m + 2 * sigma * r + sigma**2 * q
    k = _u ** ((L - 1) / sp.Integer(2))
    T = 2 * k * (ct * c2 + st * xi) - k**2 * c2
    return T, b2, _u**L - c2 * _u ** (L - 1) - b2


@lru_cache(maxsize=None)
def finetune_transfer_control_gradient() -> tuple[sp.Expr, ...]:
    """dT/dz_j (j in CONTROLS) with u(z) defined implicitly by F = 0 (du/dz_j = -F_{z_j}/F_u), as sympy
    expressions of (z, u, gamma, sigma, theta, L); evaluated at the limit point by
    :func:`finetune_control_coefficients`."""
    T, _, F = finetune_transfer_per_draw()
    du = [-sp.diff(F, zj) / sp.diff(F, _u) for zj in _z]
    return tuple(sp.diff(T, zj) + sp.diff(T, _u) * duj for zj, duj in zip(_z, du))


def finetune_control_limits(gamma_) -> dict:
    """The n, d -> oo values of the controls at gamma = n/d < 1: c2, m -> 1 - gamma, xi, r -> 0,
    q -> gamma/(1 - gamma)."""
    g = mp.mpf(gamma_)
    return {"c2": 1 - g, "xi": mp.mpf(0), "m": 1 - g, "r": mp.mpf(0), "q": g / (1 - g)}


def finetune_control_means(n_: int, d_: int) -> dict:
    """Exact finite-size means of the controls for n < d - 1 (beta_s, nu, X, eps independent; row(X) a
    uniformly random n-dimensional subspace): E c2 = E m = 1 - n/d, E xi = E r = 0 (sign symmetry of nu
    and of eps), E q = E tr (X X^T)^{-1} = n/(d - n - 1) (inverse Wishart mean; its variance is finite
    for d - n > 3).

    >>> finetune_control_means(20, 41)["q"]   # 20/(41 - 20 - 1)
    1.0
    """
    if not n_ < d_ - 1:
        raise ValueError(f"n={n_}, d={d_}: E tr (X X^T)^(-1) is finite only for n < d - 1")
    return {"c2": 1 - n_ / d_, "xi": 0.0, "m": 1 - n_ / d_, "r": 0.0, "q": n_ / (d_ - n_ - 1)}


@lru_cache(maxsize=None)
def _control_gradient_mp():
    return sp.lambdify((_z, _u, gamma, sigma, theta, L), finetune_transfer_control_gradient(), modules="mpmath")


@lru_cache(maxsize=None)
def finetune_control_coefficients(gamma_: float, sigma_: float, theta_: float, L_: int, quantity: str = "transfer"):
    """Fixed control-variate coefficients (a tuple in the order of CONTROLS) for the per-draw transferability
    T (``quantity='transfer'``) or fine-tuning risk R_ft = R_sc - T (``'risk'``): the gradient of
    :func:`finetune_transfer_control_gradient` at :func:`finetune_control_limits`, with u the root of
    :func:`finetune_scale_limit_polynomial` (gamma < 1).

    >>> [round(a, 12) for a in finetune_control_coefficients(0.5, 0.0, 0.0, 2, "risk")]   # sigma = theta = 0
    [0.0, 0.0, 0.0, 0.0, 0.0]
    """
    with mp.workdps(30):
        k = finetune_limit_k_mp(gamma_, sigma_, L_, 30)
        u = k ** (mp.mpf(2) / (int(L_) - 1))
        zl = finetune_control_limits(gamma_)
        grad = _control_gradient_mp()(tuple(zl[j] for j in CONTROLS), u, mp.mpf(gamma_), mp.mpf(sigma_),
                                      mp.mpf(theta_), int(L_))
        if quantity == "transfer":
            return tuple(float(a) for a in grad)
        ct, st = mp.cos(mp.mpf(theta_)), mp.sin(mp.mpf(theta_))
        rsc = (ct**2, 2 * ct * st, st**2, mp.mpf(0), mp.mpf(sigma_) ** 2)   # R_sc is linear in the controls
        return tuple(float(a - t) for a, t in zip(rsc, grad))


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
def shachaf_eq5_rhs_sq_norm() -> sp.Expr:
    """Squared norm of the right side of (5) as a function of r = ||lim beta(t)|| (P_perp theta_S is orthogonal
    to P_par theta_T): (r/||theta_S||)^{2(L-1)/L} ||P_perp theta_S||^2 + ||P_par theta_T||^2.  (5) holds with
    ||beta|| = r exactly when r^2 equals it (:func:`shachaf_eq5_norm_equation` is r^2 minus this)."""
    return (r_ / sS) ** (2 * (L - 1) / L) * cperp2 + bpar2


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


#: scalars of one draw in eq. (7): Q_TT = ||Sigma^{1/2} P_perp theta_T||^2, Q_TS = <Sigma^{1/2} P_perp theta_T,
#: Sigma^{1/2} P_perp theta_S>, Q_SS = ||Sigma^{1/2} P_perp theta_S||^2, p_T = ||P_par theta_T||, p_S = ||P_par theta_S||
Q_TT, Q_TS = sp.Symbol("Q_TT", nonnegative=True), sp.Symbol("Q_TS", real=True)
Q_SS, p_T, p_S = sp.Symbol("Q_SS", nonnegative=True), sp.Symbol("p_T", positive=True), sp.Symbol("p_S", positive=True)


@lru_cache(maxsize=None)
def shachaf_eq7_stated() -> sp.Expr:
    """Eq. (7) of 000: R(beta) = ||Sigma^{1/2} P_perp (theta_T - k theta_S)||^2 with k = ||P_par theta_T||/||P_par
    theta_S||, the square of the norm written out in the scalars of one draw (module symbols Q_TT, Q_TS, Q_SS, p_T,
    p_S): Q_TT - 2 k Q_TS + k^2 Q_SS.

    >>> float(shachaf_eq7_stated().subs({Q_TT: 1, Q_TS: 0.5, Q_SS: 2, p_T: 1, p_S: 2}))
    1.0
    """
    k = p_T / p_S
    return Q_TT - 2 * k * Q_TS + k**2 * Q_SS


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


# ----------------------------------------------------------------------------- 000 Figure 3 in Theorem 5.5's idealisation
#: n, d and cos(theta) of Figure 3's idealised models (unit teachers at angle theta, Sigma = I, noiseless labels)
n_f3, d_f3 = sp.symbols("n d", positive=True)
cos_f3 = sp.Symbol("cos_theta", real=True)


@lru_cache(maxsize=None)
def shachaf_fig3_frozen_mean() -> sp.Expr:
    """E R of the frozen model c* theta_S at delta = 0 (Thm 5.5: beta = c theta_S; c* the least-squares c).

    With ||theta_S|| = 1 write theta_T = cos theta_S + sin e (e unit, orthogonal); z = X theta_S ~ N(0, I_n) and
    w = X e ~ N(0, I_n) are independent, y = cos z + sin w, so c* - cos = sin <z, w>/||z||^2 and
    R = (c* - cos)^2 + sin^2 >= sin^2 per draw; E[1/||z||^2] = 1/(n - 2) gives E R = sin^2 (n - 1)/(n - 2), n > 2."""
    return (1 - cos_f3**2) * (n_f3 - 1) / (n_f3 - 2)


@lru_cache(maxsize=None)
def shachaf_fig3_vanilla_mean() -> sp.Expr:
    """E R of the model trained from scratch from alpha -> 0 (two layers): beta = X^+ y = P_par theta_T.

    The gradient of W_1 has its columns in row(X), so P_perp W_1 stays at its O(alpha) initial value and the
    interpolating beta = W_1 W_2 tends to the min-norm solution (eq. (5) with theta_S -> 0); for a uniformly random
    n-dim row space E ||P_perp theta_T||^2 = (d - n)/d ||theta_T||^2."""
    return (d_f3 - n_f3) / d_f3


@lru_cache(maxsize=None)
def shachaf_fig3_limit_conditions() -> dict:
    """Where the two orderings of Figure 3 hold in the proportional limit n, d -> oo, n/d = gamma (delta = 0).

    There ||P_perp theta_S||^2 -> 1 - gamma and ||P_par theta_T||^2 -> gamma, so eq. (5)'s factor k -> 1 at every L
    (its polynomial x^L - (1 - gamma) x^{L-1} - gamma has the root x = 1) and the fine-tuned risk tends to
    (1 - gamma) ||theta_T - theta_S||^2 = 2 (1 - gamma)(1 - cos); the frozen one to sin^2, the vanilla one to 1 - gamma.
    Returned: the three limits and the differences finetune - frozen and finetune - vanilla (negative where the
    ordering holds): finetune < frozen iff gamma > (1 - cos)/2, finetune < vanilla iff cos > 1/2."""
    g = gamma
    ft = 2 * (1 - g) * (1 - cos_f3)
    fr, va = 1 - cos_f3**2, 1 - g
    return {"finetune": ft, "frozen": fr, "vanilla": va,
            "finetune - frozen": sp.factor(ft - fr), "finetune - vanilla": sp.factor(ft - va),
            "k polynomial at x = 1": sp.simplify(x_**L - (1 - g) * x_ ** (L - 1) - g).subs(x_, 1)}


#: symbols of Theorem 5.4's bound (9) (000, §5) in the scalars of one draw: NT2 = ||theta_T||^2,
#: DH2 = ||theta_hat_T - theta_hat_S||^2 (theta_hat the unit directions)
n54, d54, eps54 = sp.Symbol("n", positive=True), sp.Symbol("d", positive=True), sp.Symbol("eps", positive=True)
NT2, DH2 = sp.Symbol("NT2", nonnegative=True), sp.Symbol("DH2", nonnegative=True)


@lru_cache(maxsize=None)
def shachaf_thm54_bound9_stated() -> sp.Expr:
    """Bound (9) of Theorem 5.4 (000) as stated, with zeta(||theta_T||) = eps ||theta_T|| (our reading of '~'):
    (d-n)/d (1+eps)^2 ||theta_T||^2 ||theta_hat_T - theta_hat_S||^2 + (d-n)/d zeta^2."""
    f = (d54 - n54) / d54
    return f * (1 + eps54) ** 2 * NT2 * DH2 + f * (eps54 * sp.sqrt(NT2)) ** 2
