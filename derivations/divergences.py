"""KL divergence, Dudley metric and W1 facts for the label-shift model of Theorem 2.2.

Source: 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff), Assumption 2.1 and
Theorem 2.2 (Sec. 2.1); proof in App. B.1, eqs. (23)-(34).

Model (Assumption 2.1): x ~ p, y = f(x) + eps, eps ~ N(0, sigma^2), joint density
p_f(x, y) = p(x) N(y; f(x), sigma^2).  The concrete instance used for the numbers is
p = N(0, I_d) and linear features f(x) = a^T x, g(x) = b^T x, so that
||f||_{L2(p)} = |a|, <f, g> = a.b and f(x) - g(x) ~ N(0, |a - b|^2).

Every quantity is given as a sympy expression of module-level symbols; ``mp(expr)``
turns one into an mpmath function (arguments in the order of ``expr``'s signature).

=====================  ===========================================================
stated                 derived here
=====================  ===========================================================
(31)-(34) KL            :func:`kl_conditional_derived` (sympy integral over y), then
                        E_x of (f-g)^2 / (2 sigma^2); for linear features
                        :data:`KL_LINEAR`
B.1 witness g = -a f    :data:`KL_NEG_MULTIPLE`; stated threshold :data:`ALPHA_STATED`,
  alpha > sigma          exact threshold :data:`ALPHA_EXACT`
  delta^{1/2}/||f||
(23)-(24) Dudley        gamma_beta <= ||p_f - p_g||_1 = 2 E_x erf(|f-g| / (2 sqrt2 sigma))
                        = (4/pi) arctan(|a-b| / (2 sigma)) < 2   (:data:`L1_LINEAR`)
(26)-(27) cos witness   E_{N(mu,s^2)} cos y = e^{-s^2/2} cos mu  (:func:`cos_mean_derived`);
                        for g = c f: :data:`COS_WITNESS_LINEAR`
(28)                    both sides for linear features: :data:`EQ28_LHS`, :data:`EQ28_RHS`
W1 footnote             1-Lipschitz witness h(x,y) = |y|: :data:`W1_LOWER_ABS_Y`
witnesses               KL: :data:`ALPHA_WITNESS`, :data:`G_NORM_WITNESS`; proof's
                        alpha above its threshold: :data:`ALPHA_ABOVE_STATED`;
                        Dudley tent: :func:`tent_witness_mp`; g = c f: :data:`L1_MULTIPLE`;
                        the identity cited for (28): :data:`CITED_IDENTITY_LHS` >= ``_RHS``
=====================  ===========================================================

Estimators of these forms (torch Monte Carlo of the literal densities) are in
:mod:`numerics.label_shift`, tested against them in ``tests/test_label_shift.py``.
"""
from __future__ import annotations

from functools import lru_cache

import mpmath
import sympy as sp

# ----------------------------------------------------------------------------- symbols
y, f, g, mu = sp.symbols("y f g mu", real=True)
sigma, s_f, s_g, r, c, alpha, delta, R = sp.symbols("sigma s_f s_g r c alpha delta R", positive=True)
cos_theta = sp.Symbol("cos_theta", real=True)
v_f, v_g = sp.symbols("v_f v_g", positive=True)


def normal_pdf(z, mean, sd):
    """Density of N(mean, sd^2) at z."""
    return sp.exp(-(z - mean) ** 2 / (2 * sd ** 2)) / sp.sqrt(2 * sp.pi * sd ** 2)


# ----------------------------------------------------------------------------- KL (31)-(34)
def kl_conditional_log_ratio():
    """log p_f(y|x) - log p_g(y|x) = [(y-g)^2 - (y-f)^2] / (2 sigma^2): the bracket of (31)."""
    return ((y - g) ** 2 - (y - f) ** 2) / (2 * sigma ** 2)


@lru_cache(maxsize=None)
def kl_conditional_derived():
    """Our derivation of (31)-(32): int N(y; f, sigma^2) log[N(y; f)/N(y; g)] dy (sympy)."""
    integrand = normal_pdf(y, f, sigma) * sp.expand(kl_conditional_log_ratio())
    return sp.simplify(sp.integrate(integrand, (y, -sp.oo, sp.oo)))


KL_COND_STATED = (f - g) ** 2 / (2 * sigma ** 2)
"""(34) pointwise in x: the conditional KL whose p(x)-average is ||f-g||^2 / (2 sigma^2)."""

KL_STATED_NORMS = (s_f ** 2 + s_g ** 2 - 2 * s_f * s_g * cos_theta) / (2 * sigma ** 2)
"""(33): [||f||^2 + ||g||^2 - 2 <f,g>] / (2 sigma^2) with <f,g> = ||f|| ||g|| cos_theta."""


@lru_cache(maxsize=None)
def l2_distance_linear_derived(d: int = 3):
    """E_{x~N(0,I_d)} (a^T x - b^T x)^2 expanded over the coordinates, with the moments
    E x_i^2 = int z^2 N(z; 0, 1) dz and E x_i x_j = (int z N(z; 0, 1) dz)^2 (i != j) computed by
    sympy; returns (that, |a - b|^2), so ||f - g||^2_{L2(p)} = |a|^2 + |b|^2 - 2 a.b."""
    z = sp.Symbol("z", real=True)
    m1 = sp.integrate(z * normal_pdf(z, 0, 1), (z, -sp.oo, sp.oo))
    m2 = sp.integrate(z ** 2 * normal_pdf(z, 0, 1), (z, -sp.oo, sp.oo))
    a = sp.symbols(f"a0:{d}", real=True)
    b = sp.symbols(f"b0:{d}", real=True)
    val = sp.expand(sum((a[i] - b[i]) * (a[j] - b[j]) * (m2 if i == j else m1 ** 2)
                        for i in range(d) for j in range(d)))
    return val, sp.expand(sum((a[i] - b[i]) ** 2 for i in range(d)))


KL_LINEAR = (s_f ** 2 + s_g ** 2 - 2 * s_f * s_g * cos_theta) / (2 * sigma ** 2)
"""Derived: KL(p_f || p_g) for f = a^T x, g = b^T x, |a| = s_f, |b| = s_g, a.b = s_f s_g cos_theta."""

# ----------------------------------------------------------------------------- the KL witness of B.1
KL_NEG_MULTIPLE = (1 + alpha) ** 2 * s_f ** 2 / (2 * sigma ** 2)
"""(34) at g = -alpha f: ||f - g||^2 = (1 + alpha)^2 ||f||^2."""

ALPHA_STATED = sigma * sp.sqrt(delta) / s_f
"""End of App. B.1: 'choose g = -alpha f with alpha > sigma delta^{1/2} / ||f||_{L2(p)}'."""

ALPHA_EXACT = sigma * sp.sqrt(2 * delta) / s_f - 1
"""Derived: for alpha > -1, KL(p_f || p_{-alpha f}) >= delta  iff  alpha >= sigma (2 delta)^{1/2}/||f|| - 1."""

ALPHA_SUFFICIENT = sigma * sp.sqrt(2 * delta) / s_f
"""A simple corrected threshold of the stated shape: alpha >= sigma (2 delta)^{1/2} / ||f|| suffices."""

KL_AT_STATED_THRESHOLD = sp.expand(KL_NEG_MULTIPLE.subs(alpha, ALPHA_STATED))
"""KL at the stated threshold: (||f|| + sigma delta^{1/2})^2 / (2 sigma^2), which is < delta when
||f|| < (sqrt 2 - 1) sigma delta^{1/2}."""

G_NORM_FOR_ZERO_F = sigma * sp.sqrt(2 * delta)
"""Derived witness when f = 0: any g in Phi with ||g|| >= sigma (2 delta)^{1/2} (Phi != {0})."""


# ----------------------------------------------------------------------------- Dudley (23)-(28)
@lru_cache(maxsize=None)
def cos_mean_derived():
    """E_{y ~ N(mu, sigma^2)} cos y = e^{-sigma^2/2} cos mu (sympy): the step (26) -> (27)."""
    return sp.simplify(sp.integrate(sp.cos(y) * normal_pdf(y, mu, sigma), (y, -sp.oo, sp.oo)))


@lru_cache(maxsize=None)
def cos_of_gaussian_derived():
    """E_{z~N(0, s^2)} cos z = e^{-s^2/2} (sympy): E_x cos(a^T x) for x ~ N(0, I), |a| = s."""
    z = sp.Symbol("z", real=True)
    return sp.simplify(sp.integrate(sp.cos(z) * normal_pdf(z, 0, s_f), (z, -sp.oo, sp.oo)))


COS_WITNESS_SIGNED = sp.exp(-sigma ** 2 / 2) / 2 * (sp.exp(-s_f ** 2 / 2) - sp.exp(-c ** 2 * s_f ** 2 / 2))
"""(27) without the absolute value: E_{p_f} cos(y)/2 - E_{p_cf} cos(y)/2 for f = a^T x, |a| = s_f."""

COS_WITNESS_LINEAR = sp.exp(-sigma ** 2 / 2) / 2 * sp.Abs(sp.exp(-s_f ** 2 / 2) - sp.exp(-c ** 2 * s_f ** 2 / 2))
"""(27) for f = a^T x, g = c f: e^{-sigma^2/2}/2 |e^{-s_f^2/2} - e^{-c^2 s_f^2/2}|, bounded by 1/2."""

EQ28_LHS = sp.exp(-sigma ** 2 / 2) / 2 * sp.Abs(sp.exp(-s_f ** 2 / 2) - sp.exp(-s_g ** 2 / 2))
"""Left side of (28) (= (27)) for linear f, g with |a| = s_f, |b| = s_g."""

EQ28_RHS = sp.exp(-sigma ** 2 / 2) / 2 * (s_f ** 2 + s_g ** 2)
"""Right side of (28): e^{-sigma^2/2}/2 int [f^2 + g^2] p = e^{-sigma^2/2}/2 (s_f^2 + s_g^2)."""

L1_GAUSS_PAIR = 2 * sp.erf(sp.Abs(f - g) / (2 * sp.sqrt(2) * sigma))
"""int |N(y; f, sigma^2) - N(y; g, sigma^2)| dy = 2 (2 Phi(|f-g|/(2 sigma)) - 1) (derived)."""

L1_LINEAR = 4 / sp.pi * sp.atan(r / (2 * sigma))
"""||p_f - p_g||_{L1} for linear f, g with |a - b| = r: E_{D~N(0,r^2)} 2 erf(|D|/(2 sqrt2 sigma))
= (4/pi) arctan(r / (2 sigma)) (P(|Z'| <= k|Z|) = (2/pi) arctan k for a Cauchy ratio).
Since ||h||_inf <= ||h||_BL <= 1, gamma_beta(p_f, p_g) <= this < 2 for every g."""


def dudley_sup_bound():
    """sup over g in Phi of the L1 upper bound: lim_{r->oo} (4/pi) arctan(r/(2 sigma)) = 2 (sympy);
    every finite r gives strictly less, so no g reaches gamma_beta >= 2."""
    return sp.limit(L1_LINEAR, r, sp.oo)


def tent_witness_lower_bound(vf, vg, Rv):
    """Derived lower bound on gamma_beta(p_f, p_g) (mpmath) from the y-only witness
    h(x, y) = c0 (1 - 2 min(1, |y|/R)), c0 = R/(R+2) (so ||h||_inf + ||h||_L = c0 + 2c0/R = 1):
    gamma_beta >= E_{p_f} h - E_{p_g} h = 2 c0 (E_g min(1,|y|/R) - E_f min(1,|y|/R)), with
    y ~ N(0, v) under p_f / p_g (v = s^2 + sigma^2 for linear features).  Tends to 2 as
    vg/vf -> oo and R chosen between the two scales: for delta < 2 the Dudley half holds."""
    vf, vg, Rv = mpmath.mpf(vf), mpmath.mpf(vg), mpmath.mpf(Rv)

    def e_min(v):  # E min(1, |Y|/R), Y ~ N(0, v)
        sd = mpmath.sqrt(v)
        return (mpmath.erfc(Rv / (sd * mpmath.sqrt(2)))
                + sd / Rv * mpmath.sqrt(2 / mpmath.pi) * (1 - mpmath.exp(-Rv ** 2 / (2 * v))))

    c0 = Rv / (Rv + 2)
    return 2 * c0 * (e_min(vg) - e_min(vf))


# ----------------------------------------------------------------------------- W1 (footnote 4)
W1_LOWER_ABS_Y = sp.sqrt(2 / sp.pi) * (sp.sqrt(s_g ** 2 + sigma ** 2) - sp.sqrt(s_f ** 2 + sigma ** 2))
"""Derived: W1(p_f, p_g) >= E_{p_g}|y| - E_{p_f}|y| (h(x,y) = |y| is 1-Lipschitz); for linear
features y ~ N(0, s^2 + sigma^2), so the bound is sqrt(2/pi)(sqrt(s_g^2+sigma^2) - sqrt(s_f^2+sigma^2)),
unbounded in s_g = ||g||."""

W1_UPPER_COUPLING = sp.sqrt(2 / sp.pi) * r
"""Derived: W1(p_f, p_g) <= E|f(x) - g(x)| (same x, same eps) = sqrt(2/pi) |a - b| for linear features."""

W1_WITNESS_NORM = sp.sqrt((sp.sqrt(s_f ** 2 + sigma ** 2) + delta * sp.sqrt(sp.pi / 2)) ** 2 - sigma ** 2)
"""||g|| at which W1_LOWER_ABS_Y equals delta: any g in Phi of at least this norm has W1 >= delta."""


# ----------------------------------------------------------------------------- helpers
def mp(expr, *args):
    """An mpmath function of ``args`` (symbols) evaluating ``expr``."""
    return sp.lambdify(args, expr, modules="mpmath")


# ----------------------------------------------------------------------------- witnesses used by the claims
eta = sp.Symbol("eta", positive=True)
x_, z_ = sp.symbols("x z", real=True)

ALPHA_WITNESS = 2 * sigma * sp.sqrt(delta) / s_f
"""Derived witness of the KL half of Theorem 2.2 for ||f|| > 0: g = -alpha f with this alpha gives
KL = (||f|| + 2 sigma delta^{1/2})^2 / (2 sigma^2) >= 2 delta (a margin of delta over the exact
threshold :data:`ALPHA_EXACT`, so that the check is not decided by rounding)."""

G_NORM_WITNESS = 2 * sigma * sp.sqrt(delta)
"""Derived witness for f = 0: any g in Phi with ||g|| = 2 sigma delta^{1/2} has KL = 2 delta by (34)."""

ALPHA_ABOVE_STATED = (1 + eta) * ALPHA_STATED
"""An alpha just above the proof's threshold: alpha = (1 + eta) sigma delta^{1/2} / ||f||, eta > 0."""

L1_MULTIPLE = L1_LINEAR.subs(r, sp.Abs(1 - c) * s_f)
""":data:`L1_LINEAR` at g = c f: ||p_f - p_cf||_1 = (4/pi) arctan(|1 - c| ||f|| / (2 sigma)) < 2
(c of either sign: the symbol is declared positive, the lambdified form takes any real c)."""

CITED_IDENTITY_LHS = sp.cos(x_) + x_ ** 2
CITED_IDENTITY_RHS = sp.cos(z_) - z_ ** 2
"""The identity the proof cites for (28): cos x + x^2 >= cos z - z^2 for all x, z (true: the left
side is >= 1 >= the right side; it gives int[cos f - cos g] p >= -int[f^2 + g^2] p, not (28))."""

TENT_R = 16 * sp.Max(1, sp.sqrt(s_f ** 2 + sigma ** 2)) / (2 - delta)
"""Tent width R of the derived Dudley witness for delta < 2 (see :func:`tent_witness_mp`)."""

TENT_VG = (16 * R / (2 - delta)) ** 2 + s_f ** 2 + sigma ** 2
"""Label variance v_g = ||g||^2 + sigma^2 of the derived Dudley witness g, as a function of R = :data:`TENT_R`."""

_TENT_R_MP = mp(TENT_R, s_f, sigma, delta)
_TENT_VG_MP = mp(TENT_VG, s_f, sigma, delta, R)


def tent_witness_mp(s_f_, sigma_, delta_):
    """The derived witness of the Dudley half for delta < 2 (mpmath, precision of the caller):
    g in Phi with ||g||^2 = v_g - sigma^2 (:data:`TENT_VG`) and the y-only tent function of width
    R (:data:`TENT_R`).  Returns (lower bound on gamma_beta(p_f, p_g) from
    :func:`tent_witness_lower_bound`, ||g||, R); the bound is >= delta for every delta < 2.

    >>> lb, g_norm, R_ = tent_witness_mp(1, 1, 1.5)
    >>> bool(lb >= 1.5), float(R_)
    (True, 45.254833995939045)
    """
    s_f_, sigma_, delta_ = (mpmath.mpf(v) for v in (s_f_, sigma_, delta_))
    Rv = _TENT_R_MP(s_f_, sigma_, delta_)
    vg = _TENT_VG_MP(s_f_, sigma_, delta_, Rv)
    return tent_witness_lower_bound(s_f_ ** 2 + sigma_ ** 2, vg, Rv), mpmath.sqrt(vg - sigma_ ** 2), Rv
