"""Checkable sentences of Sec. 3.2-3.3.1 and of the Fig. 6 caption of 001 (Tahir, Ganguli, Rotskoff):
double descent of (10), the shape of the transferability (13) in theta and sigma, the SNR < 1
paragraph, the irreducible sin^2 theta, the ridge region of Sec. 3.3.1 and the gamma > 1 sign at
sigma = 0.  Conventions as in text.py.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp
from hypothesis import strategies as st

from derivations import transfer as T
from derivations import wishart as W
from numerics.scratch import min_norm_risk
from numerics.teacher_transfer import scratch_transfer_common
from verify.kit import AllOf, Alternative, Claim, Custom, Domain, Expectation, Identity, Kind, Param, PropertySearch

from .common import ROOT_TIE
from .text_helpers import (ASSUME, DPS, EX, HALF_PI, INF, MC_TRIALS, NOT_ONE, P_GAMMA, P_SIGMA, P_THETA, PI,
                           R_ridge_limit, R_sc, T_lt, mc_ordering, prec, src, trig)

# ============================================================================ Sec. 3.2, double descent

_R_LO = W.scratch_risk_stated().args[0][0]              # gamma < 1 branch of (10)
_DR_LO = sp.lambdify((W.gamma, W.sigma), sp.diff(_R_LO, W.gamma), modules="mpmath")
_DIVERGENCE = sp.limit((1 - W.gamma) * _R_LO, W.gamma, 1, "-")   # sympy: sigma^2, so R ~ sigma^2/(1 - gamma)
_DIV_MP = sp.lambdify((W.sigma,), _DIVERGENCE, modules="mpmath")


def _dd_over_holds(p, sig_range=None):
    s = mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        first_decreases = _DR_LO(mpmath.mpf(0), s) < 0
        becomes_infinite = _DIV_MP(s) > 0   # lim (1 - gamma) R = sigma^2: R -> oo iff sigma > 0
        return bool(first_decreases and becomes_infinite)


def _dd_over_margin(p):
    """The size of the failure in units of (10) at gamma -> 0+ (= 1): the initial slope sigma^2 - 1 where the risk
    does not first decrease (sigma >= 1), else 0 (at sigma = 0 the failure is the missing divergence: no size)."""
    s = mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        return float(max(mpmath.mpf(0), _DR_LO(mpmath.mpf(0), s)))


def _dd_over_show(p):
    s = mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        return {"dR/dgamma at gamma = 0+": float(_DR_LO(mpmath.mpf(0), s)),
                "lim_{gamma->1-} (1-gamma) R": float(_DIV_MP(s))}


def _dd_rows_factory(n1, n2):
    def rows(p, B, gen, ctx):
        d, s = int(p["d"]), p["sigma"]
        r1 = min_norm_risk(B, n1, d, s, gen, dtype=ctx.dtype)
        r2 = min_norm_risk(B, n2, d, s, gen, dtype=ctx.dtype)
        return r1 - r2, f"E R_sc(n={n1}) - E R_sc(n={n2}) > 0 ('first decreases', independent draws, d={d})"
    return rows


DD_OVER = Claim(
    id="tahir2024.text.sec3_2.double_descent.over", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.2 after Theorem 3.6: 'This expression exhibits double descent behavior: in the "
               "overparameterized regime, the generalization error first decreases, then becomes infinite as "
               "gamma -> 1'"),
    statement=(r"\gamma<1:\ \mathbb E\mathcal R_{sc}=\frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma}\ \text{first decreases "
               r"in }\gamma,\ \text{then}\to\infty\ (\gamma\to1^-),\ \forall\sigma\ge0"),
    assumptions="Theorem 3.6, eq. (10), every sigma >= 0 of Assumption 3.1.",
    domain=Domain((P_SIGMA, Param("d", 1, INF, integer=True))),
    stated=W.scratch_risk_stated(),
    derived=sp.diff(_R_LO, W.gamma),
    corrected=(r"\text{first decreases then diverges}\iff0<\sigma<1;\ \sigma=0:\ \mathbb E\mathcal R_{sc}=1-\gamma\to0;\ "
               r"\sigma\ge1:\ \text{increasing on }(0,1)"),
    notes=("'This expression' is (10), stated for every sigma >= 0, so the sentence is read over every sigma. dR/dgamma "
           "= -1 + sigma^2/(1-gamma)^2 (sympy): at gamma -> 0+ it is sigma^2 - 1, so the risk first decreases only "
           "if sigma < 1; near gamma = 1, R ~ sigma^2/(1-gamma) diverges only if sigma > 0. So the sentence holds "
           "exactly for 0 < sigma < 1 (as in Fig. 1, sigma = 0.2): at sigma = 0 the risk is 1 - gamma, decreasing to "
           "0 with no divergence; for sigma >= 1 it increases from the start. The corrected range is searched too "
           "(refutes=False). Monte Carlo of the literal min-norm fit (numerics.scratch.min_norm_risk, d = 60, "
           "n = 6 vs 24, independent draws) tests the 'first decreases' ordering at sigma = 0.2 (true) and sigma = "
           "1.5 (where the simulated risk increases: the stated ordering is rejected by simulation as well). Reading "
           "(issue 22): 'This expression exhibits double descent behavior' is running text about (10) (role "
           "remark); nothing in it restricts sigma, and SNR < 1 (sigma > 1) is a case the same section discusses, so "
           "it stays read over every sigma >= 0; an erratum of the remark kind (true for 0 < sigma < 1, the noise of "
           "Fig. 1). The search and uniform draw run over sigma in [0, 2] (twice the threshold sigma = 1 where the "
           "initial slope changes sign); margin: the initial slope sigma^2 - 1 in units of (10) at gamma -> 0 (= 1)."),
    check=AllOf([
        PropertySearch(examples=EX, name="(10) first decreases (dR/dgamma < 0 at gamma = 0+) and diverges as gamma -> 1-",
                       holds=_dd_over_holds, margin=_dd_over_margin,
                       show=_dd_over_show, bounds={"sigma": (0.0, 2.0), "d": (1, 10)}),
        PropertySearch(examples=EX, name="corrected: the same for 0 < sigma < 1", holds=_dd_over_holds, refutes=False,
                       strategy=lambda: st.fixed_dictionaries({"sigma": st.floats(1e-6, 1.0, exclude_max=True)})),
        Custom(mc_ordering(_dd_rows_factory(6, 24), {"quick": 1500, "standard": 6000, "full": 40000}, "dd"),
               points=[{"sigma": 0.2, "d": 60}, {"sigma": 1.5, "d": 60}]),
    ]),
)


def _dd_under_holds(p, reverse: bool = False):
    """(10) non-increasing in gamma > 1 (``reverse``: the power witness, non-decreasing)."""
    g1, dg, s = p["gamma"], p["dgamma"], p["sigma"]
    with prec(g1 - 1, dg, s):
        r2, r1 = R_sc(mpmath.mpf(g1) + mpmath.mpf(dg), s), R_sc(g1, s)
        return r2 >= r1 if reverse else r2 <= r1


DD_UNDER = Claim(
    id="tahir2024.text.sec3_2.double_descent.under", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.2 after Theorem 3.6: 'while in the underparameterized regime, the generalization error "
               "monotonically decreases with increasing gamma'"),
    statement=r"\gamma>1:\ \mathbb E\mathcal R_{sc}=\sigma^2/(\gamma-1)\ \text{is non-increasing in }\gamma,\ \forall\sigma\ge0",
    assumptions="Theorem 3.6, eq. (10).",
    domain=Domain((Param("gamma", 1, INF, lower_open=True), Param("dgamma", 0, INF, lower_open=True), P_SIGMA)),
    stated=W.scratch_risk_stated(),
    notes=("'Monotonically decreases' is read as non-increasing: strictly decreasing for sigma > 0, identically 0 at "
           "sigma = 0 (constant, which a strict reading would reject on that single noise level). Searched over "
           "gamma in (1, 100], steps dgamma in (0, 100], sigma in [0, 20] at 50 digits."),
    check=PropertySearch(examples=EX, name="(10) at gamma + dgamma <= (10) at gamma, gamma > 1", holds=_dd_under_holds,
                         bounds={"gamma": (1.0, 100.0), "dgamma": (1e-9, 100.0), "sigma": (0.0, 20.0)}),
    power=(Alternative("the ordering reversed: for gamma > 1 the risk grows with gamma",
                       PropertySearch(examples=EX, name="(10) at gamma + dgamma >= (10) at gamma, gamma > 1",
                                      holds=lambda p: _dd_under_holds(p, reverse=True),
                                      bounds={"gamma": (1.0, 100.0), "dgamma": (1e-9, 100.0), "sigma": (0.0, 20.0)}),
                       "the ordering reversed (the rise of a second descent read on the underparameterized side)"),),
)


# ============================================================================ Sec. 3.3, linear transfer

def _oos_holds(p, reverse: bool = False):
    """T_lt strictly decreasing in theta (``reverse``: the power witness, strictly increasing)."""
    g, th, dth, s = p["gamma"], p["theta"], p["dtheta"], p["sigma"]
    th2 = min(HALF_PI, th + dth)
    if th2 <= th:
        return True
    with prec(g, 1 - g, th, th2 - th):
        return (T_lt(g, th2, s) > T_lt(g, th, s)) if reverse else (T_lt(g, th2, s) < T_lt(g, th, s))


def _oos_check(reverse: bool = False) -> AllOf:
    """The search over (13) and the finite-size Monte Carlo ordering (``reverse``: both reversed, same draws)."""
    return AllOf([
        PropertySearch(examples=EX, name="T_lt strictly " + ("increasing" if reverse else "decreasing") +
                       " in theta, eq. (13)", holds=lambda p: _oos_holds(p, reverse),
                       strategy=lambda: st.fixed_dictionaries({
                           "gamma": st.floats(1e-6, 20.0).filter(lambda g: g != 1), "theta": st.floats(0.0, HALF_PI),
                           "dtheta": st.floats(1e-9, HALF_PI), "sigma": st.floats(0.0, 20.0)})),
        Custom(mc_ordering(_oos_rows, MC_TRIALS, "theta-order", reverse=reverse),
               points=[{"gamma": g, "theta": PI / 8, "dtheta": PI / 4, "sigma": 0.2, "theta2": 3 * PI / 8, "n": n,
                        "d": 40} for g, n in ((0.5, 20), (1.5, 60))]),
    ])


def _oos_rows(p, B, gen, ctx):
    r_sc, r_lt = scratch_transfer_common(B, int(p["n"]), int(p["d"]), [p["theta"], p["theta2"]], [p["sigma"]], gen,
                                         dtype=ctx.dtype)
    T = r_sc - r_lt
    return (T[:, 0, 0] - T[:, 1, 0]), "T(theta) - T(theta2) > 0 (common draws, finite size)"


OUT_OF_SUBSPACE = Claim(
    id="tahir2024.text.sec3_3.out_of_subspace_degrades", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13): 'at fixed gamma and sigma, i.e., fixing the number of data points and label "
               "noise, as the norm of the out-of-subspace component increases, transfer efficiency degrades'"),
    statement=r"\partial_\theta\mathcal T_{lt}(\gamma,\theta,\sigma)<0:\ \theta_1<\theta_2\Rightarrow\mathcal T_{lt}(\theta_2)<\mathcal T_{lt}(\theta_1)",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, Param("dtheta", 0, INF, lower_open=True), P_SIGMA,
                   Param("theta2", 0, HALF_PI), Param("n", 3, INF, integer=True), Param("d", 1, INF, integer=True)),
                  (NOT_ONE,)),
    notes=("The out-of-subspace norm is ||P_perp beta_t||^2 = sin^2 theta, increasing on [0, pi/2]; the sentence is "
           "stated in the gamma > 1 paragraph but (13) has the same -sin^2 theta on both branches, so it is searched "
           "on both (theta and theta + dtheta clipped to pi/2, endpoints exact). Monte Carlo at finite size: "
           "transferability at theta = pi/8 vs 3 pi/8 on common draws (same X, noise, beta_s, nu), gamma = 0.5 and "
           "1.5, sigma = 0.2 (Fig. 1)."),
    check=_oos_check(),
    power=(Alternative("the ordering reversed: transfer improves as the out-of-subspace norm sin^2 theta grows",
                       _oos_check(reverse=True), "the ordering reversed (search of (13) and the same Monte Carlo draws)"),),
)


def _snr_holds(p):
    g, th, s = p["gamma"], p["theta"], p["sigma"]
    with prec(g, 1 - g, th, s - 1):
        return R_sc(g, s) > 1 and T_lt(g, th, s) > 0


def _snr_domain_from(sigma_min: float) -> Domain:
    return Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), P_THETA,
                   Param("sigma", sigma_min, INF, lower_open=True)))


SNR = Claim(
    id="tahir2024.text.sec3_3.snr_below_one", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13), overparameterized paragraph: 'When SNR < 1, scratch training can never "
               "recover the underlying vector beta_t and pretraining is always beneficial'"),
    statement=(r"\gamma<1,\ \sigma>1:\ \mathbb E\mathcal R_{sc}>\|\beta_t\|^2=1\ \text{and}\ \mathcal T_{lt}>0\ "
               r"\forall\theta\in[0,\pi/2]"),
    assumptions=ASSUME + " SNR = 1/sigma^2 < 1, overparameterized gamma < 1 (the paragraph's context).",
    domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), P_THETA,
                   Param("sigma", 1, INF, lower_open=True))),
    notes=("In context (the paragraph is about gamma < 1). 'Can never recover beta_t' is read as: the scratch risk "
           "exceeds that of the zero predictor, ||beta_t||^2 = 1: R_sc - 1 = gamma (sigma^2 - 1 + gamma)/(1 - gamma) "
           "> 0. 'Always beneficial' as T_lt > 0 for every theta. Searched gamma in (0, 1), theta in [0, pi/2], "
           "sigma in (1, 50]. The reading over gamma > 1 is tahir2024.text.sec3_3.snr_below_one.all_gamma "
           "(extension)."),
    check=PropertySearch(examples=EX, name="R_sc > 1 and T_lt > 0 for gamma < 1, sigma > 1", holds=_snr_holds,
                         bounds={"sigma": (1.0, 50.0)}),
    power=(Alternative("the same for sigma > 1/2 (SNR < 4: the threshold off by a factor 2)",
                       PropertySearch(examples=EX, name="R_sc > 1 and T_lt > 0 for gamma < 1, sigma > 1/2",
                                      holds=_snr_holds,
                                      strategy=lambda: _snr_domain_from(0.5).strategy(bounds={"sigma": (0.5, 50.0)})),
                       "a constant off by 2 in the noise threshold"),),
)

SNR_ALL = Claim(
    id="tahir2024.text.sec3_3.snr_below_one.all_gamma", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.3 (as tahir2024.text.sec3_3.snr_below_one), read for every gamma != 1"),
    statement=r"\sigma>1:\ \mathbb E\mathcal R_{sc}>1\ \text{and}\ \mathcal T_{lt}>0\quad\forall\gamma\ne1,\ \theta",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, Param("sigma", 1, INF, lower_open=True)), (NOT_ONE,)),
    tags=("extension",),
    notes=("Extension beyond the paragraph (gamma < 1). For gamma > 1 the scratch risk sigma^2/(gamma - 1) -> 0 "
           "(scratch training does recover beta_t with enough data, whatever the SNR) and T_lt = sigma^2/(gamma-1) - "
           "sin^2 theta < 0 once gamma > 1 + sigma^2/sin^2 theta: negative transfer at SNR < 1."),
    check=PropertySearch(examples=EX, name="R_sc > 1 and T_lt > 0 for sigma > 1, every gamma", holds=_snr_holds,
                         bounds={"gamma": (1e-6, 1e4), "sigma": (1.0, 10.0)}),
)


def _noise_holds(p, reverse: bool = False):
    """T_lt strictly increasing in sigma (``reverse``: the power witness, strictly decreasing)."""
    g, th, s, ds = p["gamma"], p["theta"], p["sigma"], p["dsigma"]
    with prec(g, 1 - g, s, ds):
        t2, t1 = T_lt(g, th, mpmath.mpf(s) + mpmath.mpf(ds)), T_lt(g, th, s)
        return t2 < t1 if reverse else t2 > t1


def _noise_rows(p, B, gen, ctx):
    r_sc, r_lt = scratch_transfer_common(B, int(p["n"]), int(p["d"]), [p["theta"]], [p["sigma"], p["sigma2"]], gen,
                                         dtype=ctx.dtype)
    T = r_sc - r_lt
    return T[:, 0, 1] - T[:, 0, 0], "T(sigma2) - T(sigma) > 0 (common draws, finite size)"


def _noise_check(reverse: bool = False) -> AllOf:
    """The search over (13) and the finite-size Monte Carlo ordering (``reverse``: both reversed, same draws)."""
    return AllOf([
        PropertySearch(examples=EX, name="T_lt strictly " + ("decreasing" if reverse else "increasing") +
                       " in sigma, eq. (13)", holds=lambda p: _noise_holds(p, reverse),
                       bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 20.0), "dsigma": (1e-9, 20.0)}),
        Custom(mc_ordering(_noise_rows, MC_TRIALS, "sigma-order", reverse=reverse),
               points=[{"gamma": g, "theta": PI / 3, "sigma": 0.1, "dsigma": 0.4, "sigma2": 0.5, "n": n, "d": 40}
                       for g, n in ((0.7, 28), (1.5, 60))]),
    ])


NOISE_SHRINKS = Claim(
    id="tahir2024.text.sec3_3.noise_shrinks_negative_region", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13): 'As sigma increases, the region of negative transfer shrinks, since the "
               "noise corrupts the scratch trained accuracy'"),
    statement=(r"\sigma_1<\sigma_2\Rightarrow\{\mathcal T_{lt}(\cdot,\cdot,\sigma_2)<0\}\subsetneq\{\mathcal T_{lt}"
               r"(\cdot,\cdot,\sigma_1)<0\};\ \text{via}\ \mathcal T_{lt}(\gamma,\theta,\sigma_2)>\mathcal T_{lt}(\gamma,\theta,\sigma_1)"),
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, P_SIGMA, Param("dsigma", 0, INF, lower_open=True), Param("sigma2", 0, INF),
                   Param("n", 3, INF, integer=True), Param("d", 1, INF, integer=True)), (NOT_ONE,)),
    notes=("T_lt increases strictly with sigma at every (gamma, theta) (by gamma (sigma_2^2 - sigma_1^2)/(1 - gamma) "
           "for gamma < 1 and (sigma_2^2 - sigma_1^2)/(gamma - 1) for gamma > 1), so the negative regions are nested "
           "and strictly shrink (every boundary point moves into positive transfer); the sentence stands in the "
           "gamma < 1 paragraph, the search covers both branches. Monte Carlo: T at sigma = 0.1 vs 0.5 on common "
           "draws (the same unit noise scaled) at gamma = 0.7 and 1.5, theta = pi/3, d = 40."),
    check=_noise_check(),
    power=(Alternative("the ordering reversed: as sigma increases the region of negative transfer grows",
                       _noise_check(reverse=True),
                       "the ordering reversed (noise hurting the transferred model more than the scratch one); search "
                       "of (13) and the same Monte Carlo draws"),),
)

_b = sp.Symbol("b", real=True)
_RISK_B = 1 + _b ** 2 - 2 * _b * sp.cos(T.theta)


def _irreducible_lhs():
    bstar = sp.solve(sp.diff(_RISK_B, _b), _b)[0]
    return sp.simplify(_RISK_B.subs(_b, bstar))


def _irreducible_holds(p):
    n, th, s = p["n"], p["theta"], p["sigma"]
    with mpmath.workdps(DPS):
        c, sn = trig(th)
        eq12 = sn ** 2 + (mpmath.mpf(s) ** 2 + sn ** 2) / (n - 2)
        return eq12 >= sn ** 2


IRREDUCIBLE = Claim(
    id="tahir2024.text.sec3_3.irreducible_sin2", role="remark", kind=Kind.BOUND,
    source=src("Sec. 3.3 after Theorem 3.7: 'the main contribution to the generalization error is sin^2 theta, ... "
               "This is an irreducible error that is the best case risk given that the features cannot change'; "
               "Sec. 4: 'In the deep linear setting, ||P_perp f_t*||^2 = sin^2 theta'"),
    statement=(r"\min_b\|b\beta_s-\beta_t\|^2=\sin^2\theta\ \text{(best risk on the frozen features)},\quad "
               r"\mathbb E\mathcal R_{lt}\ge\sin^2\theta"),
    assumptions=ASSUME + " Finite n > 2.",
    domain=Domain((Param("n", 3, INF, integer=True), P_THETA, P_SIGMA)),
    stated=sp.sin(T.theta) ** 2,
    notes=("With the pretrained features frozen, every transferred predictor is b beta_s (eq. (107)); its risk 1 + b^2 "
           "- 2 b cos theta is minimised at b = cos theta with value sin^2 theta (sympy) = ||beta_t - (beta_s^T beta_t) "
           "beta_s||^2, the out-of-span norm of Sec. 4, and (12) exceeds it by (sigma^2 + sin^2 theta)/(n - 2) >= 0. "
           "'Main contribution' is read in the large-n setting of the figures (n = gamma d, d = 500): at small n or "
           "small theta the finite-sample term can dominate (at theta = 0 it is all of the risk); its 1/n order is "
           "tahir2024.rate.sec3_3.one_over_n."),
    check=AllOf([
        Identity("min_b (1 + b^2 - 2 b cos theta) = sin^2 theta", _irreducible_lhs, sp.sin(T.theta) ** 2,
                 {T.theta: (0, HALF_PI)}),
        PropertySearch(examples=EX, name="(12) >= sin^2 theta", holds=_irreducible_holds,
                       bounds={"n": (3, 10_000), "sigma": (0.0, 20.0)}),
    ]),
)


# ============================================================================ Sec. 3.3.1, ridge

def _ridge_superset_holds(p, reverse: bool = False):
    """T^lambda <= T pointwise (``reverse``: the power witness, T^lambda >= T: ridge shrinks the negative region)."""
    g, th, s, lam = p["gamma"], p["theta"], p["sigma"], p["lam"]
    with prec(g, 1 - g, th, lam):
        T0 = T_lt(g, th, s)
        Tl = R_sc(g, s) - R_ridge_limit(lam, th)
        return Tl >= T0 if reverse else Tl <= T0


def _ridge_strict_holds(p):
    """For lam > 0 and sigma: a point with T^lam < 0 <= T (on the boundary of the lam = 0 negative region)."""
    s, lam = p["sigma"], p["lam"]
    th = PI / 4
    with prec(s, s, lam, base=60 + (int(-2 * math.log10(s)) if 0 < s < 1 else 0)):
        s = mpmath.mpf(s)
        _, sn = trig(th)
        g = 1 + s ** 2 / sn ** 2 if s > 0 else mpmath.cos(mpmath.mpf(th)) ** 2  # T(g, th, s) = 0 there
        T0 = T_lt(g, th, s)
        Tl = R_sc(g, s) - R_ridge_limit(lam, th)
        return Tl < 0 and T0 >= -mpmath.mpf(10) ** -40


RIDGE_REGION = Claim(
    id="tahir2024.text.sec3_3_1.larger_negative_region", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.3.1 before Theorem 3.8: 'the generalization error for regularized linear transfer is a strictly "
               "increasing function of the ridge parameter lambda, leading to a larger region of negative transfer "
               "for any lambda > 0 (Fig. 2)'"),
    statement=(r"\forall\lambda>0:\ \{\mathcal T^\lambda_{lt}<0\}\supsetneq\{\mathcal T_{lt}<0\},\quad\mathcal T^\lambda_{lt}"
               r"=\mathbb E\mathcal R_{sc}-\lim_n\mathbb E\mathcal R^\lambda_{lt}\ \text{(10), (15)}"),
    assumptions=ASSUME + " Ridge linear transfer (14), limit form (15).",
    domain=Domain((P_GAMMA, P_THETA, P_SIGMA, Param("lam", 0, INF, lower_open=True)), (NOT_ONE,)),
    notes=("Read in the limit n, d -> oo where the transferability is defined: T^lambda = (10) - (15). (15) >= sin^2 "
           "theta = lim R_lt, so T^lambda <= T pointwise (superset), and on the boundary of the lambda = 0 negative "
           "region (theta = pi/4: gamma = 1 + 2 sigma^2 for sigma > 0, gamma = cos^2 theta at sigma = 0) T = 0 > "
           "T^lambda: strictly larger, for every lambda > 0 and sigma. Both are searched. At finite n the ridge "
           "optimum is lambda* = (sin^2 + sigma^2)/(n cos^2) > 0 (tahir2024.thm3.8), so there the region first "
           "shrinks for small lambda; the sentence (like Fig. 2) is about the limit."),
    check=AllOf([
        PropertySearch(examples=EX, name="T^lambda <= T pointwise (superset)", holds=_ridge_superset_holds,
                       bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 20.0), "lam": (1e-9, 1e3)}),
        PropertySearch(examples=EX, name="strictly larger: a point with T^lambda < 0 <= T for every lambda > 0, sigma",
                       holds=_ridge_strict_holds,
                       strategy=lambda: st.fixed_dictionaries({"sigma": st.one_of(st.just(0.0), st.floats(0.0, 20.0)),
                                                               "lam": st.floats(1e-6, 1e3)})),
    ]),
    power=(Alternative("the ordering reversed: ridge shrinks the region of negative transfer (T^lambda >= T)",
                       PropertySearch(examples=EX, name="T^lambda >= T pointwise (subset)",
                                      holds=lambda p: _ridge_superset_holds(p, reverse=True),
                                      bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 20.0), "lam": (1e-9, 1e3)}),
                       "the ordering reversed: regularization, which helps at finite n (lambda* > 0, Theorem 3.8), "
                       "taken to help in the limit too"),),
)


# ============================================================================ Fig. 6 caption

def _fig6_holds(p):
    with prec(p["gamma"] - 1, p["theta"]):
        return T_lt(p["gamma"], p["theta"], 0.0) < 0


def _branch(pw, cond):
    """The expression of the branch of a sympy Piecewise whose condition is ``cond``."""
    return next(e for e, c in pw.args if c == cond)


_FIG6_D = 20   # the finite-size check of the corrected form: d = 20, n = gamma d > d + 1


def _fig6_rows(p, B, gen, ctx):
    """Per trial R_sc - R_lt at sigma = 0, n = gamma d (literal min-norm fits on the same data), one column per theta."""
    n = round(p["gamma"] * _FIG6_D)
    r_sc, r_lt = scratch_transfer_common(B, n, _FIG6_D, list(p["theta"]), [0.0], gen, dtype=ctx.dtype)
    return (r_sc - r_lt)[:, :, 0]


def _fig6_finite(p):
    """Exact finite-size E R_sc - E R_lt at sigma = 0 (derivations.transfer.transferability_finite):
    -sin^2 theta (n - 1)/(n - 2) for n > d + 1, whose limit is the corrected -sin^2 theta."""
    return T.transferability_finite_value(round(p["gamma"] * _FIG6_D), _FIG6_D, p["theta"], 0.0)


FIG6 = Claim(
    id="tahir2024.text.fig6.always_negative_gamma_gt1", role="caption", kind=Kind.ORDERING, root_cause=ROOT_TIE,
    source=src("App. E, Fig. 6 caption (sigma = 0): 'Note that transfer is always negative when gamma > 1, since the "
               "scratch trained model can perfectly learn the target task as there is no label noise'"),
    statement=r"\sigma=0,\ \gamma>1:\ \mathcal T_{lt}<0\quad\forall\theta\in[0,\pi/2]",
    assumptions=ASSUME + " Noiseless labels (Fig. 6).",
    domain=Domain((Param("gamma", 1, INF, lower_open=True), P_THETA)),
    stated=T.transferability_stated(),
    corrected=r"\sigma=0,\ \gamma>1:\ \mathcal T_{lt}=-\sin^2\theta<0\ \text{for }\theta>0;\ =0\ \text{at }\theta=0",
    notes=("At sigma = 0, gamma > 1: T = -sin^2 theta, negative for theta in (0, pi/2] but 0 at theta = 0, which is on "
           "the figure's theta axis (0 to pi/2): there transfer and scratch training both recover beta_t exactly "
           "(also at finite n > d + 1). A boundary tie, not a sign error: the caption's 'always' fails only on the "
           "line theta = 0. The corrected form is checked on its own (refutes=False, target 'derived'): sympy "
           "identities (13) = (10) - lim (12) = -sin^2 theta at sigma = 0, gamma > 1, and the limit n = gamma d, "
           "d -> oo of the exact finite-size E R_sc - E R_lt; and Monte Carlo of the literal fits (scratch X^+ y and "
           "the rank-one transfer, same data, sigma = 0, d = 20, gamma = 2 and 4, theta = pi/6, pi/3, pi/2) against "
           "that finite form, -sin^2 theta (n-1)/(n-2): it would reject a scratch risk above 0 at sigma = 0, a "
           "transfer risk other than (12), or transfer that does not lose by sin^2 theta. theta = 0 is not simulated: "
           "both risks are 0 on every draw there (a test that cannot fail); the identities cover it. Role caption "
           "(issue 22); the caption's own reason ('since the scratch trained model can perfectly learn the target "
           "task as there is no label noise') holds for transfer too at theta = 0, so 'always' is the authors' slip "
           "on one line of the figure (root cause tahir2024.tie_theta0_sigma0, with the strict reading of the "
           "abstract). Margin: T_lt itself (0 at the tie); the uniform draw runs over gamma in (1, 10]."),
    check=AllOf([
        PropertySearch(examples=EX, name="sigma = 0, gamma > 1: T_lt < 0",
                       holds=_fig6_holds, bounds={"gamma": (1.0, 10.0)},
                       margin=lambda p: float(T_lt(p["gamma"], p["theta"], 0.0))),
        Identity("corrected form: sigma = 0, gamma > 1: (10) - lim (12) = -sin^2 theta",
                 lhs=lambda: _branch(T.transferability_derived(), T.gamma > 1).subs(T.sigma, 0),
                 rhs=-sp.sin(T.theta) ** 2, variables={T.gamma: (1.01, 50.0), T.theta: (0.0, HALF_PI)},
                 refutes=False),
        Identity("corrected form: the exact finite-size E R_sc - E R_lt at sigma = 0, n = gamma d > d + 1, tends to "
                 "-sin^2 theta as d -> oo",
                 lhs=lambda: sp.limit(_branch(T.transferability_finite(), T.n > T.d + 1).subs(T.sigma, 0)
                                      .subs(T.n, T.gamma * T.d), T.d, sp.oo),
                 rhs=-sp.sin(T.theta) ** 2, variables={T.gamma: (1.01, 50.0), T.theta: (0.0, HALF_PI)},
                 refutes=False),
        Expectation(points=[{"gamma": g, "theta": t} for g in (2.0, 4.0) for t in (PI / 6, PI / 3, HALF_PI)],
                    predicted=_fig6_finite, sampler=_fig6_rows, vector="theta", trials=MC_TRIALS, target="derived",
                    name="corrected form: E R_sc - E R_lt at sigma = 0, d = 20, n = gamma d"),
    ]),
)


CLAIMS = [DD_OVER, DD_UNDER, OUT_OF_SUBSPACE, SNR, SNR_ALL, NOISE_SHRINKS, IRREDUCIBLE, RIDGE_REGION, FIG6]
