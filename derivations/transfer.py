"""Linear transfer, ridge linear transfer and the transferability of deep linear networks.

Source: 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff, "Features are fate"), §3.3
and §3.3.1: Theorem 3.7, eq. (12), proof in App. B.6, eqs. (104)-(120); the
transferability (13) and its phase boundaries (text after (13)); Theorem 3.8, eq. (15),
proof in App. B.7, eqs. (121)-(141).

Setting (App. B.6, B.7): after pretraining in the alpha -> 0 limit the features are rank
one, Phi = (X beta_s) v^T (Theorem 3.4), so the transferred predictor is
beta_hat = b beta_s with

    b = z^T y / (||z||^2 + n lambda),   z = X beta_s ~ N(0, I_n),   y = cos(theta) z + sin(theta) w + eps,

(lambda = 0: minimum-norm linear transfer (108); lambda > 0: ridge (126)), and the risk is
R = ||b beta_s - beta_t||^2 = 1 + b^2 - 2 b cos(theta).  Everything below is a function of
u = ||z||^2 ~ chi^2_n and of one standard normal g = z^T (sin(theta) w + eps) / (||z|| sqrt(sin^2 + sigma^2)),
independent of u.

Each object is given *as stated* (a function ``*_stated``) next to our *derivation*
(``*_derived``) so the two can be compared; numerical forms (mpmath) end in ``_mp``.
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import sympy as sp

from .wishart import d, gamma, n, scratch_risk_finite, scratch_risk_stated, sigma

theta = sp.Symbol("theta", nonnegative=True)
lam = sp.Symbol("lambda", nonnegative=True)
u = sp.Symbol("u", positive=True)          # u = ||z||^2 ~ chi^2_n
k = sp.Symbol("k", positive=True)          # a real degree of freedom for the chi-square integrals
r = sp.Symbol("r", positive=True)          # r = ||z|| (spherical coordinates of (116)-(117))
c, s = sp.cos(theta), sp.sin(theta)

__all__ = [
    "theta", "lam", "u", "k", "n", "d", "gamma", "sigma",
    "sphere_area", "chi2_density", "inverse_chi2_mean_derived", "inverse_chi2_mean_paper",
    "eq117_as_printed", "linear_transfer_risk_stated", "linear_transfer_conditional_risk_derived",
    "linear_transfer_risk_derived", "linear_transfer_risk_variance_derived",
    "transferability_stated", "transferability_derived", "transferability_finite",
    "transferability_numerator", "gamma_pm_stated", "gamma_pm_stated_signed", "transferability_at_orthogonal",
    "ridge_conditional_risk_derived", "ridge_conditional_risk_stated", "ridge_risk_limit_stated",
    "ridge_limit_derivative", "ridge_optimal_lambda_derived",
    "transferability_mp", "chi2_expectation_mp", "chi2_expectation", "ridge_I1_mp", "ridge_I2_mp", "ridge_risk_finite_mp",
    "ridge_risk_finite_terms_mp", "ridge_risk_limit_mp", "ridge_risk_finite_dlambda_mp", "ridge_argmin_finite_mp",
    "linear_transfer_risk_value",
    # added with the split of the claims module (issue 7): numeric helpers at exact theta endpoints,
    # forms that the claim modules used to retype by hand
    "theta_mp", "trig_mp", "precision_for", "transferability_theta_mp", "transferability_stated_value",
    "transferability_finite_value", "gamma_pm_discriminant", "gamma_pm_discriminant_factored", "gamma_pm_mp",
    "positive_window_at_orthogonal_derived", "positive_set_at_orthogonal", "ridge_risk_limit_cos_mp",
    "linear_transfer_f_statistic_derived", "linear_transfer_f_statistic", "saddle_limits_stated",
    "saddle_limits_stated_by_equation",
    "richardson_mp", "transferability_numerator_at",
    # issue 13: stated forms the claims' checks read (verify.judge.stated)
    "under_threshold_stated",
]


# ----------------------------------------------------------------------------- chi-square pieces

def sphere_area(m) -> sp.Expr:
    """S_{m-1} = 2 pi^{m/2} / Gamma(m/2), the area of the unit sphere in R^m (used in (117)-(119))."""
    return 2 * sp.pi ** (m / 2) / sp.gamma(m / 2)


def chi2_density(x, m) -> sp.Expr:
    """Density of chi^2_m at x > 0: x^{m/2-1} e^{-x/2} / (2^{m/2} Gamma(m/2))."""
    return x ** (m / 2 - 1) * sp.exp(-x / 2) / (2 ** (m / 2) * sp.gamma(m / 2))


@lru_cache(maxsize=None)
def inverse_chi2_mean_derived() -> sp.Expr:
    """E[1/||z||^2], z ~ N(0, I_k): sympy integrates 1/x against the chi^2_k density.

    sympy returns a Piecewise whose first branch is 1/(k-2) under the condition k > 2; the
    remaining branch is the divergent integral (k <= 2).  This is eqs. (116)-(120) of App. B.6.
    """
    x = sp.Symbol("x", positive=True)
    res = sp.integrate(chi2_density(x, k) / x, (x, 0, sp.oo), conds="piecewise")
    return sp.piecewise_fold(sp.simplify(sp.gammasimp(res)))


def inverse_chi2_mean_paper() -> sp.Expr:
    """The paper's chain, eq. (119): S_{n-1} Gamma(n/2 - 1) / (4 pi^{n/2}), with S_{n-1} the sphere area."""
    return sphere_area(k) * sp.gamma(k / 2 - 1) / (4 * sp.pi ** (k / 2))


def eq117_as_printed(sign: int = +1, m: int = 5) -> sp.Expr:
    """Eq. (117) at a fixed integer dimension m: S_{m-1}/(2 pi)^{m/2} int_0^inf r^{m-3} e^{sign r^2/2} dr.

    As printed (sign=+1) the integrand grows without bound and the integral is infinite; with
    sign=-1 (the Gaussian weight of (116)) it equals 1/(m-2).
    """
    integral = sp.integrate(r ** (m - 3) * sp.exp(sign * r ** 2 / 2), (r, 0, sp.oo))
    return sp.simplify(sphere_area(sp.Integer(m)) / (2 * sp.pi) ** sp.Rational(m, 2) * integral)


# ----------------------------------------------------------------------------- Theorem 3.7

@lru_cache(maxsize=None)
def linear_transfer_risk_stated() -> sp.Expr:
    """Eq. (12), as stated: E_D R_lt = sin^2 theta + (sigma^2 + sin^2 theta)/(n - 2)."""
    return s ** 2 + (sigma ** 2 + s ** 2) / (n - 2)


def _gaussian_expectation(expr: sp.Expr, g: sp.Symbol) -> sp.Expr:
    """E over g ~ N(0, 1) of a polynomial in g: g^k -> (k-1)!! for even k, 0 for odd k."""
    poly = sp.Poly(sp.expand(expr), g)
    return sp.Add(*[coef * (sp.factorial2(m[0] - 1) if m[0] % 2 == 0 else 0) for m, coef in poly.terms()])


def _conditional_moments_of_b(b_of_g) -> tuple[sp.Expr, sp.Expr]:
    """E[b | u] and E[b^2 | u] for b a polynomial in a standard normal g independent of u."""
    g = sp.Symbol("g", real=True)
    bg = b_of_g(g)
    return sp.factor(_gaussian_expectation(bg, g)), sp.factor(_gaussian_expectation(bg ** 2, g))


@lru_cache(maxsize=None)
def linear_transfer_conditional_risk_derived() -> sp.Expr:
    """E[R_lt | u], u = ||z||^2, derived from (108)-(111).

    b = z^T y/||z||^2 = cos(theta) + sqrt(sin^2 theta + sigma^2) g / sqrt(u), with g ~ N(0, 1)
    independent of u (the projection of the isotropic Gaussian sin(theta) w + eps on z/||z||).
    """
    Eb, Eb2 = _conditional_moments_of_b(lambda g: c + sp.sqrt(s ** 2 + sigma ** 2) * g / sp.sqrt(u))
    return sp.expand(1 + Eb2 - 2 * c * Eb).subs(c ** 2, 1 - s ** 2)


@lru_cache(maxsize=None)
def linear_transfer_risk_derived() -> sp.Expr:
    """E_D R_lt derived: the conditional risk is linear in 1/u, so E[1/u] = 1/(n-2) (our sympy integral)."""
    cond = sp.expand(linear_transfer_conditional_risk_derived())
    inv_mean = inverse_chi2_mean_derived().args[0][0].subs(k, n)  # branch k > 2
    return sp.factor(cond.subs(u, 1 / inv_mean))


@lru_cache(maxsize=None)
def linear_transfer_risk_variance_derived() -> sp.Expr:
    """Var R_lt of one draw (n > 4): R_lt = sin^2 theta + (sin^2 theta + sigma^2) g^2/u with g ~ N(0, 1) independent
    of u ~ chi^2_n (:func:`linear_transfer_conditional_risk_derived`), so
    Var R_lt = (sin^2 + sigma^2)^2 (E g^4 E u^-2 - (E u^-1)^2) = (sin^2 + sigma^2)^2 (3/((n-2)(n-4)) - 1/(n-2)^2).
    Its fourth moment is finite only for n > 8 (E u^-4 < oo), so at small n a sample variance is unreliable.

    >>> linear_transfer_risk_variance_derived().subs({n: 5, theta: sp.pi / 2, sigma: 0})
    8/9
    """
    return (s ** 2 + sigma ** 2) ** 2 * (3 / ((n - 2) * (n - 4)) - 1 / (n - 2) ** 2)


def linear_transfer_risk_value(n_: int, theta_: float, sigma_: float) -> float:
    """Numeric eq. (12); n must exceed 2."""
    if n_ <= 2:
        raise ValueError("n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2")
    s2 = mpmath.sin(theta_) ** 2
    return float(s2 + (sigma_ ** 2 + s2) / (n_ - 2))


# ----------------------------------------------------------------------------- transferability (13)

@lru_cache(maxsize=None)
def transferability_stated() -> sp.Expr:
    """Eq. (13), as stated: T_lt = ((1-gamma)^2 + gamma sigma^2)/(1-gamma) - sin^2 theta (gamma < 1),
    sigma^2/(gamma-1) - sin^2 theta (gamma > 1)."""
    return sp.Piecewise((((1 - gamma) ** 2 + gamma * sigma ** 2) / (1 - gamma) - s ** 2, gamma < 1),
                        (sigma ** 2 / (gamma - 1) - s ** 2, gamma > 1))


@lru_cache(maxsize=None)
def transferability_derived() -> sp.Expr:
    """T = E R_sc - E R_lt in the limit: eq. (10) (derivations.wishart) minus lim_{n->inf} of (12)."""
    lt_limit = sp.limit(linear_transfer_risk_stated(), n, sp.oo)
    return sp.piecewise_fold(scratch_risk_stated() - lt_limit)


@lru_cache(maxsize=None)
def transferability_finite() -> sp.Expr:
    """Exact finite-size transferability E R_sc(n, d) - E R_lt(n) (n > 2, |n - d| > 1).

    E R_sc(n, d) is the exact finite-size scratch risk of derivations.wishart
    ((1 - n/d) + sigma^2 n/(d-n-1) for n < d-1, sigma^2 d/(n-d-1) for n > d+1); E R_lt(n) is (12).
    """
    return sp.piecewise_fold(scratch_risk_finite() - linear_transfer_risk_stated())


def transferability_numerator() -> sp.Expr:
    """(1 - gamma) T for gamma < 1: (1-gamma)^2 + gamma sigma^2 - sin^2(theta)(1-gamma), a quadratic in gamma."""
    return (1 - gamma) ** 2 + gamma * sigma ** 2 - s ** 2 * (1 - gamma)


def under_threshold_stated() -> sp.Expr:
    """Text after (13), gamma > 1: 'T_lt < 0 iff gamma - 1 > sigma^2/sin^2 theta'; the threshold of gamma - 1 as
    stated, sigma^2/sin^2 theta (the zero of the gamma > 1 branch of (13))."""
    return sigma ** 2 / s ** 2


def gamma_pm_stated() -> tuple[sp.Expr, sp.Expr]:
    """gamma_{+-} = 1/2 [(1 + cos^2 theta - sigma^2) +- sqrt((1 + cos^2 theta - sigma^2)^2 - 4 cos^2 theta)]
    (text after (13)); returned as (gamma_+, gamma_-)."""
    a = 1 + c ** 2 - sigma ** 2
    root = sp.sqrt(gamma_pm_discriminant())
    return (a + root) / 2, (a - root) / 2


def gamma_pm_stated_signed() -> sp.Expr:
    """gamma_{+-} of :func:`gamma_pm_stated` as one form, the sign of the root a symbol ``pm`` = +1 / -1:
    (1/2)[(1 + cos^2 theta - sigma^2) + pm sqrt((1 + cos^2 theta - sigma^2)^2 - 4 cos^2 theta)].

    >>> [sp.simplify(gamma_pm_stated_signed().subs(sp.Symbol("pm"), v) - g) for v, g in zip((1, -1), gamma_pm_stated())]
    [0, 0]
    """
    pm = sp.Symbol("pm")
    return (1 + c ** 2 - sigma ** 2 + pm * sp.sqrt(gamma_pm_discriminant())) / 2


def gamma_pm_discriminant() -> sp.Expr:
    """The discriminant under the root of gamma_{+-}, as stated: (1 + cos^2 theta - sigma^2)^2 - 4 cos^2 theta."""
    return (1 + c ** 2 - sigma ** 2) ** 2 - 4 * c ** 2


def gamma_pm_discriminant_factored() -> sp.Expr:
    """Derived: the discriminant factors as ((1 - cos)^2 - sigma^2)((1 + cos)^2 - sigma^2), so gamma_{+-} are
    real iff sigma <= 1 - cos theta or sigma >= 1 + cos theta (the origin of arccos(1 - sigma) in the text).

    >>> sp.expand(gamma_pm_discriminant() - gamma_pm_discriminant_factored())
    0
    """
    return ((1 - c) ** 2 - sigma ** 2) * ((1 + c) ** 2 - sigma ** 2)


def transferability_at_orthogonal() -> dict[str, sp.Expr]:
    """T at theta = pi/2, factored branch by branch (derived):
    gamma < 1: gamma (gamma - 1 + sigma^2)/(1 - gamma);  gamma > 1: (1 + sigma^2 - gamma)/(gamma - 1)."""
    T = transferability_stated().subs(theta, sp.pi / 2)
    lo, hi = T.args[0][0], T.args[1][0]
    return {"gamma<1": sp.factor(sp.simplify(lo)), "gamma>1": sp.factor(sp.simplify(hi))}


def transferability_mp(g, cos_t, sin_t, sig):
    """Eq. (13) in mpmath from cos(theta), sin(theta) (so that theta = pi/2 can be exact)."""
    g, cos_t, sin_t, sig = map(mpmath.mpf, (g, cos_t, sin_t, sig))
    if g < 1:
        return ((1 - g) ** 2 + g * sig ** 2) / (1 - g) - sin_t ** 2
    if g > 1:
        return sig ** 2 / (g - 1) - sin_t ** 2
    raise ValueError("eq. (13) is undefined at gamma = 1 (the scratch risk diverges)")


# ----------------------------------------------------------------------------- Theorem 3.8 (ridge)

@lru_cache(maxsize=None)
def ridge_conditional_risk_derived() -> sp.Expr:
    """E[R_lt^lambda | u], u = ||z||^2, derived from (126):

    b = (cos(theta) u + sqrt(u (sin^2 theta + sigma^2)) g)/(u + n lambda), g ~ N(0, 1) independent of u.
    """
    Eb, Eb2 = _conditional_moments_of_b(
        lambda g: (c * u + sp.sqrt(u * (s ** 2 + sigma ** 2)) * g) / (u + n * lam))
    return sp.together(1 + Eb2 - 2 * c * Eb)


def ridge_conditional_risk_stated() -> sp.Expr:
    """The integrand of (128) at fixed u = ||z||^2, with I_1, I_2 of (129)-(130):
    1 + cos^2 u^2/(u+n lam)^2 + (sin^2 + sigma^2) u/(u+n lam)^2 - 2 cos^2 u/(u+n lam)."""
    return 1 + c ** 2 * u ** 2 / (u + n * lam) ** 2 + (s ** 2 + sigma ** 2) * u / (u + n * lam) ** 2 \
        - 2 * c ** 2 * u / (u + n * lam)


@lru_cache(maxsize=None)
def ridge_risk_limit_stated() -> sp.Expr:
    """Eq. (15) = (141), as stated: lim_{n->inf} E R_lt^lambda = 1 - cos^2 theta (1 + 2 lambda)/(1 + lambda)^2."""
    return 1 - c ** 2 * (1 + 2 * lam) / (1 + lam) ** 2


@lru_cache(maxsize=None)
def ridge_limit_derivative() -> sp.Expr:
    """d/dlambda of (15), simplified: 2 lambda cos^2(theta)/(1 + lambda)^3."""
    return sp.factor(sp.simplify(sp.diff(ridge_risk_limit_stated(), lam)))


@lru_cache(maxsize=None)
def ridge_optimal_lambda_derived() -> sp.Expr:
    """The exact finite-n minimiser of E R_lt^lambda (derived, not in the source).

    d/dlambda E[R | u] = 2 n u (n lam cos^2 - sin^2 - sigma^2)/(u + n lam)^3 for every u, so every
    conditional risk, hence their mean (128), is minimised at lambda* = (sin^2 + sigma^2)/(n cos^2),
    which tends to 0 as n -> infinity (and is +infinity at theta = pi/2).
    """
    dR = sp.factor(sp.simplify(sp.diff(ridge_conditional_risk_derived(), lam)))
    sol = sp.solve(sp.Eq(sp.numer(sp.together(dR)), 0), lam)
    return sp.simplify(sol[0])


def chi2_expectation_mp(f, m, dps: int = 30):
    """E f(u), u ~ chi^2_m, as a 1-D mpmath quadrature on the log-density (stable for large m).

    The first segment [0, x1] is integrated in t = x^{1/4} (dx = 4 t^3 dt), which turns the algebraic
    end-point singularity x^{m/2-1} f(x) of small m (e.g. x^{-3/4} for E 1/u at m = 2.5) into a smooth
    integrand; the rest is split at m +- 2 sd, m +- 8 sd.
    """
    with mpmath.workdps(dps):
        m = mpmath.mpf(m)
        logc = -(m / 2) * mpmath.log(2) - mpmath.loggamma(m / 2)

        def integrand(x):
            if x <= 0:
                return mpmath.mpf(0)
            return f(x) * mpmath.exp(logc + (m / 2 - 1) * mpmath.log(x) - x / 2)

        sd = mpmath.sqrt(2 * m)
        pts = sorted({p for p in (m - 8 * sd, m - 2 * sd, m, m + 2 * sd, m + 8 * sd) if p > 0})
        x1 = pts[0]
        head = mpmath.quad(lambda t: 4 * t ** 3 * integrand(t ** 4), [0, mpmath.root(x1, 4)])
        return +(head + mpmath.quad(integrand, pts + [mpmath.inf]))


def chi2_expectation(f, m, rel: float = 1e-12) -> float:
    """E f(u), u ~ chi^2_m, in double precision: scipy's adaptive quadrature of f against the chi-square density
    (written on the log scale) on [0, m] and [m, inf).  For a float-valued f that is costly to evaluate (a
    claim's stated form read point by point, :func:`verify.judge.stated.stated_value`): a few hundred evaluations,
    agreeing with :func:`chi2_expectation_mp` to about 1e-14 on the ridge integrand of (128).

    >>> round(chi2_expectation(lambda x: 1 / x, 7), 12)   # E 1/chi^2_7 = 1/(7-2)
    0.2
    """
    from scipy import integrate, special

    logc = -(m / 2) * math.log(2) - float(special.gammaln(m / 2))

    def w(x):
        return float(f(x)) * math.exp(logc + (m / 2 - 1) * math.log(x) - x / 2) if x > 0 else 0.0
    return (integrate.quad(w, 0, m, epsabs=0, epsrel=rel, limit=200)[0]
            + integrate.quad(w, m, math.inf, epsabs=0, epsrel=rel, limit=200)[0])


def ridge_I1_mp(m, lam_, n_, dps: int = 30):
    """Eq. (129): I_1(m, lambda) = E ||z||^{m-n+2} / (||z||^2 + n lambda)^2, z ~ N(0, I_n)."""
    p = mpmath.mpf(m - n_ + 2) / 2
    return chi2_expectation_mp(lambda x: x ** p / (x + n_ * mpmath.mpf(lam_)) ** 2, n_, dps)


def ridge_I2_mp(m, lam_, n_, dps: int = 30):
    """Eq. (130): I_2(m, lambda) = E ||z||^{m-n+2} / (||z||^2 + n lambda), z ~ N(0, I_n)."""
    p = mpmath.mpf(m - n_ + 2) / 2
    return chi2_expectation_mp(lambda x: x ** p / (x + n_ * mpmath.mpf(lam_)), n_, dps)


@lru_cache(maxsize=4096)
def ridge_risk_finite_mp(n_, lam_, theta_, sigma_, dps: int = 30):
    """Eq. (128), exact at finite n: 1 + cos^2 I_1(n+2) + (sin^2 + sigma^2) I_1(n) - 2 cos^2 I_2(n).

    By linearity of the expectations (129)-(130) this is one chi-square expectation of the integrand
    1 + cos^2 u^2/(u+n lam)^2 + (sin^2 + sigma^2) u/(u+n lam)^2 - 2 cos^2 u/(u+n lam), u = ||z||^2,
    evaluated as a single quadrature (``ridge_risk_finite_terms_mp`` evaluates the three integrals apart).
    """
    if lam_ == 0 and n_ <= 2:
        raise ValueError("n must exceed 2 at lambda = 0: E[1/chi^2_n] diverges for n <= 2")
    with mpmath.workdps(dps):
        c2, s2 = mpmath.cos(theta_) ** 2, mpmath.sin(theta_) ** 2
        a, nl = s2 + mpmath.mpf(sigma_) ** 2, n_ * mpmath.mpf(lam_)

        def h(x):
            q = x / (x + nl)
            return 1 + c2 * q * q + a * q / (x + nl) - 2 * c2 * q
        return chi2_expectation_mp(h, n_, dps)


def ridge_risk_finite_terms_mp(n_, lam_, theta_, sigma_, dps: int = 30):
    """Eq. (128) term by term, with I_1(n+2), I_1(n), I_2(n) of (129)-(130) as separate quadratures."""
    with mpmath.workdps(dps):
        c2, s2 = mpmath.cos(theta_) ** 2, mpmath.sin(theta_) ** 2
        return (1 + c2 * ridge_I1_mp(n_ + 2, lam_, n_, dps) + (s2 + sigma_ ** 2) * ridge_I1_mp(n_, lam_, n_, dps)
                - 2 * c2 * ridge_I2_mp(n_, lam_, n_, dps))


def ridge_risk_limit_mp(lam_, theta_):
    """Eq. (15) in mpmath."""
    lam_ = mpmath.mpf(lam_)
    return 1 - mpmath.cos(theta_) ** 2 * (1 + 2 * lam_) / (1 + lam_) ** 2


@lru_cache(maxsize=None)
def _ridge_dlambda_integrand():
    """d/dlambda of the integrand of (128), lambdified for mpmath: f(u, n, lambda, theta, sigma)."""
    return sp.lambdify((u, n, lam, theta, sigma), sp.diff(ridge_conditional_risk_stated(), lam), modules="mpmath")


def ridge_risk_finite_dlambda_mp(n_, lam_, theta_, sigma_, dps: int = 30):
    """d/dlambda of (128), differentiating the stated integrand of (128) under the chi-square expectation."""
    f = _ridge_dlambda_integrand()
    with mpmath.workdps(dps):
        L, th, sg = mpmath.mpf(lam_), mpmath.mpf(theta_), mpmath.mpf(sigma_)
        return chi2_expectation_mp(lambda x: f(x, n_, L, th, sg), n_, dps)


def ridge_argmin_finite_mp(n_, theta_, sigma_, dps: int = 30, hi: float = 1e4):
    """argmin_{lambda >= 0} of the exact finite-n risk (128): the root of its lambda-derivative
    (bracketed by bisection; 0 if the risk increases from lambda = 0, inf if it decreases up to ``hi``)."""
    with mpmath.workdps(dps):
        df = lambda L: ridge_risk_finite_dlambda_mp(n_, L, theta_, sigma_, dps)  # noqa: E731
        a, b = mpmath.mpf(0), mpmath.mpf("1e-3")
        if n_ > 4 and df(a) >= 0:
            return mpmath.mpf(0)
        while df(b) < 0:
            a, b = b, 4 * b
            if b > hi:
                return mpmath.inf
        return mpmath.findroot(df, (a, b), solver="illinois", tol=mpmath.mpf(10) ** (-dps // 2))


# ----------------------------------------------------------------------------- exact endpoints, high precision
# The property searches of the claims on (13) and (15) evaluate these forms in mpmath on the closed domain
# theta in [0, pi/2] of Assumption 3.2, where the float cos(pi/2) = 6e-17 is not 0: the helpers below read
# the float endpoints as the exact ones.

_HALF_PI = math.pi / 2


def theta_mp(theta_):
    """theta as an mpmath number, the float pi/2 read as the exact endpoint pi/2.

    >>> theta_mp(math.pi / 2) == mpmath.pi / 2, theta_mp(0.5) == mpmath.mpf(0.5)
    (True, True)
    """
    return mpmath.pi / 2 if theta_ == _HALF_PI else mpmath.mpf(theta_)


def trig_mp(theta_):
    """(cos theta, sin theta) in mpmath at the working precision, exact at the endpoints 0 and pi/2.

    >>> trig_mp(math.pi / 2), trig_mp(0.0)
    ((mpf('0.0'), mpf('1.0')), (mpf('1.0'), mpf('0.0')))
    """
    if theta_ == _HALF_PI:
        return mpmath.mpf(0), mpmath.mpf(1)
    if theta_ == 0:
        return mpmath.mpf(1), mpmath.mpf(0)
    t = mpmath.mpf(theta_)
    return mpmath.cos(t), mpmath.sin(t)


def precision_for(*xs):
    """An mpmath working precision (a ``with`` context) that resolves every given float next to 1, also the tiny
    values (sigma = 5e-324, gamma = 1e-266) that hypothesis likes to try: 60 digits plus twice the decimal
    exponent of the smallest non-zero |x| < 1 (at most 4000).

    >>> with precision_for(0.5, 1e-100): mpmath.mp.dps
    260
    """
    small = [math.ceil(-math.log10(abs(x))) for x in xs if x and abs(x) < 1]
    return mpmath.workdps(min(4000, 60 + 2 * max([0] + small)))


def transferability_theta_mp(g, theta_, sig):
    """Eq. (13) at the caller's working precision, theta given as an angle (endpoints exact)."""
    cs, sn = trig_mp(theta_)
    return transferability_mp(g, cs, sn, sig)


def transferability_stated_value(gamma_: float, theta_: float, sigma_: float) -> float:
    """Numeric eq. (13) (30-digit mpmath, theta endpoints exact); pinned to :func:`transferability_stated`
    in tests/test_forms_pinned.py.

    >>> transferability_stated_value(0.5, math.pi / 2, 0.0)
    -0.5
    """
    with mpmath.workdps(30):
        return float(transferability_theta_mp(float(gamma_), float(theta_), float(sigma_)))


@lru_cache(maxsize=None)
def _transferability_finite_math():
    return sp.lambdify((n, d, theta, sigma), transferability_finite(), modules="math")


def transferability_finite_value(n_, d_, theta_, sigma_) -> float:
    """Numeric :func:`transferability_finite` (lambdified), E R_sc(n, d) - E R_lt(n); ``n_`` may be real
    (a smooth curve n = gamma d for figures).  ValueError where it is infinite (|n - d| <= 1 or n <= 2).

    >>> round(transferability_finite_value(20, 40, 0.0, 0.0), 12)
    0.5
    """
    if n_ <= 2:
        raise ValueError("n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2")
    out = _transferability_finite_math()(n_, d_, float(theta_), float(sigma_))
    if out is None:
        raise ValueError(f"E R_sc is infinite for |n - d| <= 1 (n={n_}, d={d_})")
    return float(out)


def gamma_pm_mp(theta_, sig):
    """(gamma_-, gamma_+) of the text after (13) in mpmath at the working precision, or None when the
    discriminant is negative (complex roots).

    The discriminant is evaluated in its factored form :func:`gamma_pm_discriminant_factored` with
    1 - cos theta = 2 sin^2(theta/2), so that its sign is right even where 1 + cos^2 - sigma^2 rounds;
    pinned to :func:`gamma_pm_stated` in tests/test_forms_pinned.py.
    """
    cs, _ = trig_mp(theta_)
    one_minus_c = 2 * mpmath.sin(theta_mp(theta_) / 2) ** 2 if theta_ not in (0, _HALF_PI) else 1 - cs
    sg = mpmath.mpf(sig)
    disc = (one_minus_c ** 2 - sg ** 2) * ((1 + cs) ** 2 - sg ** 2)
    if disc < 0:
        return None
    a = 1 + cs ** 2 - sg ** 2
    return (a - mpmath.sqrt(disc)) / 2, (a + mpmath.sqrt(disc)) / 2


def transferability_numerator_at(root: sp.Expr) -> sp.Expr:
    """(1 - gamma) T at gamma = ``root``, expanded after writing sin^2 = 1 - cos^2 (fast; sympy's simplify of
    the nested radical is slow): 0 for the roots gamma_{+-}.

    >>> transferability_numerator_at(gamma_pm_stated()[0])
    0
    """
    e = transferability_numerator().subs(gamma, root)
    return sp.expand(e.subs(sp.sin(theta) ** 2, 1 - sp.cos(theta) ** 2))


def positive_window_at_orthogonal_derived(sig=sigma) -> sp.Set:
    """Derived: at theta = pi/2, T > 0 exactly on (max(0, 1 - sigma^2), 1) U (1, 1 + sigma^2) (empty at sigma = 0),
    from :func:`transferability_at_orthogonal`.  ``sig`` a number (read as the rational it prints as) or a symbol.

    >>> positive_window_at_orthogonal_derived(0.2)
    Union(Interval.open(24/25, 1), Interval.open(1, 26/25))
    """
    s2 = sp.nsimplify(sig) ** 2
    return sp.Union(sp.Interval.open(sp.Max(0, 1 - s2), 1), sp.Interval.open(1, 1 + s2))


def positive_set_at_orthogonal(sig) -> sp.Set:
    """sympy solves T(gamma, pi/2, sigma) > 0 on each branch of (13) at the rational value of ``sig``."""
    orth = transferability_at_orthogonal()
    s_ = sp.nsimplify(sig)
    lo = sp.solve_univariate_inequality(orth["gamma<1"].subs(sigma, s_) > 0, gamma, relational=False,
                                        domain=sp.Interval.open(0, 1))
    hi = sp.solve_univariate_inequality(orth["gamma>1"].subs(sigma, s_) > 0, gamma, relational=False,
                                        domain=sp.Interval.open(1, sp.oo))
    return sp.Union(lo, hi)


_cos = sp.Symbol("cos_theta", real=True)


@lru_cache(maxsize=None)
def _ridge_limit_cos():
    return sp.lambdify((lam, _cos), ridge_risk_limit_stated().subs(c, _cos), modules="mpmath")


def ridge_risk_limit_cos_mp(lam_, cos_t):
    """Eq. (15) lambdified for mpmath as a function of (lambda, cos theta), so that theta = pi/2 (cos = 0)
    is exact: 1 - cos^2 (1 + 2 lambda)/(1 + lambda)^2.

    >>> ridge_risk_limit_cos_mp(mpmath.mpf(3), mpmath.mpf(0))
    mpf('1.0')
    """
    return _ridge_limit_cos()(mpmath.mpf(lam_), mpmath.mpf(cos_t))


_R = sp.Symbol("R", nonnegative=True)


def linear_transfer_f_statistic_derived() -> sp.Expr:
    """Derived law of the per-trial risk of linear transfer (lambda = 0): R = sin^2 + (sin^2 + sigma^2) g^2/u with
    g ~ N(0, 1) independent of u = ||z||^2 ~ chi^2_n (see :func:`linear_transfer_conditional_risk_derived`), so
    n (R - sin^2 theta)/(sin^2 theta + sigma^2) = g^2/(u/n) ~ F(1, n), whose mean n/(n-2) gives (12)."""
    return n * (_R - s ** 2) / (s ** 2 + sigma ** 2)


@lru_cache(maxsize=None)
def _f_statistic_numpy():
    return sp.lambdify((_R, n, theta, sigma), linear_transfer_f_statistic_derived(), modules="numpy")


def linear_transfer_f_statistic(R, n_, theta_, sigma_):
    """:func:`linear_transfer_f_statistic_derived` on an array of per-trial risks ``R`` (numpy)."""
    return _f_statistic_numpy()(R, n_, theta_, sigma_)


def saddle_limits_stated() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Eqs. (138)-(140), the limits n I_1(n, lambda) -> 1/(1+lambda)^2 (leading order of I_1(n, lambda)),
    I_1(n+2, lambda) -> 1/(1+lambda)^2 and I_2(n, lambda) -> 1/(1+lambda), as n -> infinity."""
    return 1 / (1 + lam) ** 2, 1 / (1 + lam) ** 2, 1 / (1 + lam)


def saddle_limits_stated_by_equation() -> sp.Expr:
    """:func:`saddle_limits_stated` as one sympy form of (lambda, eq), ``eq`` the equation number of the limit:
    138 -> n I_1(n, lambda) -> 1/(1+lambda)^2, 139 -> I_1(n+2, lambda) -> 1/(1+lambda)^2,
    140 -> I_2(n, lambda) -> 1/(1+lambda).

    >>> saddle_limits_stated_by_equation().subs({sp.Symbol("eq", integer=True): 140, lam: 1})
    1/2
    """
    eq = sp.Symbol("eq", integer=True)
    l1, l2, l3 = saddle_limits_stated()
    return sp.Piecewise((l1, sp.Eq(eq, 138)), (l2, sp.Eq(eq, 139)), (l3, True))


def richardson_mp(ns, vals):
    """Extrapolate a sequence a + b/n + c/n^2 to n = inf from three sizes (exact 3x3 solve, mpmath).

    >>> print(mpmath.nstr(richardson_mp((10, 20, 40), [2 + mpmath.mpf(3) / N + 5 / mpmath.mpf(N) ** 2
    ...                                                for N in (10, 20, 40)]), 12))
    2.0
    """
    A = mpmath.matrix([[1, mpmath.mpf(1) / N, mpmath.mpf(1) / N ** 2] for N in ns])
    return mpmath.lu_solve(A, mpmath.matrix(vals))[0]
