"""Shared pieces of the text and rate claims of 001 (no claims here).

* exact trigonometry at the closed endpoints theta = 0, pi/2 of Assumption 3.2;
* the closed forms (10), (13), (15), (17) in mpmath from their derivations modules;
* two Monte Carlo tests the judge strategies do not provide: a one-sided *ordering* test
  (E[diff] > 0, confirmed only when the whole 95% CI lies above 0, refuted when the mean is
  significantly below 0) and a *log-log slope* test of a stated order (the fitted exponent with
  its CI against the stated one, so that the neighbouring exponent is excluded).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import stats as sps

from derivations import transfer as T
from numerics.tahir_text import pretrain_with_init
from derivations import wishart as W
from verify.kit import Constraint, Evidence, Param, Source, StatTest, label_of, pick

HALF_PI = math.pi / 2
PI = math.pi


def prec(*xs, base: int = 50):
    """An mpmath working-precision context that resolves every given float next to 1: 50 digits plus
    the decimal exponent of the smallest nonzero |x| (gamma = 5e-324 next to 1 - gamma needs 374)."""
    small = [abs(float(x)) for x in xs if x and abs(float(x)) < 1]
    extra = int(-math.log10(min(small))) + 5 if small else 0
    return mpmath.workdps(base + extra)


def trig(theta):
    """(cos theta, sin theta) in mpmath, exact at the float endpoints 0 and pi/2."""
    if theta == HALF_PI:
        return mpmath.mpf(0), mpmath.mpf(1)
    if theta == 0:
        return mpmath.mpf(1), mpmath.mpf(0)
    th = mpmath.mpf(theta)
    return mpmath.cos(th), mpmath.sin(th)


def T_lt(gamma, theta, sigma):
    """Eq. (13) in mpmath (derivations.transfer.transferability_mp), exact trig at the endpoints."""
    c, s = trig(theta)
    return T.transferability_mp(gamma, c, s, sigma)


def R_sc(gamma, sigma):
    """Eq. (10) in mpmath (same branches as derivations.wishart.scratch_risk_stated)."""
    g, s = mpmath.mpf(gamma), mpmath.mpf(sigma)
    if g < 1:
        return ((1 - g) ** 2 + g * s ** 2) / (1 - g)
    if g > 1:
        return s ** 2 / (g - 1)
    raise ValueError("eq. (10) diverges at gamma = 1")


def R_ridge_limit(lam, theta):
    """Eq. (15) in mpmath, exact trig at the endpoints."""
    c, _ = trig(theta)
    lam = mpmath.mpf(lam)
    return 1 - c ** 2 * (1 + 2 * lam) / (1 + lam) ** 2


def T_ft_stated(gamma, theta):
    """Eq. (17): (gamma - 1)(1 - 2 cos theta) for gamma <= 1, 0 for gamma > 1."""
    c, _ = trig(theta)
    g = mpmath.mpf(gamma)
    return (g - 1) * (1 - 2 * c) if g <= 1 else mpmath.mpf(0)


def check_forms_pinned() -> bool:
    """R_sc here equals derivations.wishart.scratch_risk_stated_value (spot check, used by tests)."""
    return all(abs(float(R_sc(g, s)) - W.scratch_risk_stated_value(g, s)) < 1e-12
               for g in (0.3, 0.7, 1.5, 3.0) for s in (0.0, 0.4, 2.0))


# ----------------------------------------------------------------------------- Monte Carlo tests

def ordering_test(label: str, params: dict, diff, seed, *, target: str = "stated", extra=None) -> StatTest:
    """Test of the ordering E[diff] > 0 from per-trial samples of diff.

    Built as a one-sided bound on -diff (``sided='upper'``, predicted 0, tolerance 0): the p-value is
    that of H0 "E[diff] >= 0" against E[diff] < 0 (a significantly negative mean rejects, i.e.
    refutes a stated ordering after Holm); the test agrees only when the upper end of the 95% CI of
    E[-diff] is below 0, i.e. the whole CI of E[diff] lies above 0 (a tie is never a confirmation).
    """
    x = -np.asarray(diff, dtype=np.float64)
    n = x.size
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    se = max(se, 1e-300)
    tstat = m / se
    p = float(sps.t.sf(tstat, n - 1))
    q = float(sps.t.ppf(0.975, n - 1))
    return StatTest(label=label, params=dict(params), predicted=0.0, estimate=m, stderr=se, trials=n, tol=0.0,
                    pvalue=p, target=target, seed=seed, df=n - 1, ci=(m - q * se, m + q * se), sided="upper",
                    extra=dict(extra or {}, claim="E[diff] > 0 (estimate shown is E[-diff] <= 0)",
                               mean_diff=-m), alternatives={"no difference (a tie)": 0.0})


def per_trial_slopes(xs, ys) -> np.ndarray:
    """Least-squares slope of log y against log x for every row of ys (trials x len(xs))."""
    lx = np.log(np.asarray(xs, dtype=np.float64))
    ly = np.log(np.asarray(ys, dtype=np.float64))
    lxc = lx - lx.mean()
    return (ly - ly.mean(-1, keepdims=True)) @ lxc / (lxc @ lxc)


def _neighbours(exponent: float) -> dict:
    """The neighbouring orders a slope test must tell apart from the stated one."""
    return {f"order {exponent - 1:g}": exponent - 1.0, f"order {exponent + 1:g}": exponent + 1.0}


def _band_p(m: float, se: float, center: float, tol: float, df) -> float:
    """p-value of H0 'the mean lies in [center - tol, center + tol]': only an estimate significantly
    outside the band rejects (an order is a limit: a finite-range slope may differ from the stated
    exponent by a subleading correction smaller than tol, which must not count as a refutation)."""
    z = (abs(m - center) - tol) / se
    return float(sps.t.sf(z, df) if df else sps.norm.sf(z))


def slope_test_paired(label: str, params: dict, xs, ys, exponent: float, seed, *, tol: float = 0.25,
                      target: str = "stated", extra=None) -> StatTest:
    """The stated order ``exponent`` against the per-trial log-log slopes (common random numbers
    over xs): mean and 95% t-interval of the slopes; agreement needs the CI inside exponent +- tol
    (tol < 1/2 excludes the neighbouring integer and half-integer exponents); rejection needs the
    mean significantly outside that band (:func:`_band_p`)."""
    slopes = per_trial_slopes(xs, ys)
    n = slopes.size
    m, se = float(slopes.mean()), max(float(slopes.std(ddof=1) / math.sqrt(n)), 1e-12)
    q = float(sps.t.ppf(0.975, n - 1))
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=m, stderr=se, trials=n,
                    tol=tol, pvalue=_band_p(m, se, exponent, tol, n - 1), target=target, seed=seed, df=n - 1,
                    ci=(m - q * se, m + q * se), alternatives=_neighbours(exponent),
                    extra=dict(extra or {}, test=f"H0: |slope - {exponent}| <= {tol}", x=list(map(float, xs)),
                               mean_y=list(map(float, np.mean(ys, 0)))))


def slope_test_means(label: str, params: dict, xs, samples: list, exponent: float, seeds, *, tol: float = 0.25,
                     target: str = "stated", extra=None) -> StatTest:
    """The stated order ``exponent`` against the weighted least-squares slope of log(mean) on log x,
    from independent samples at each x (delta method: var log mean = (se/mean)^2); normal CI; the same
    band test as :func:`slope_test_paired`."""
    lx = np.log(np.asarray(xs, dtype=np.float64))
    means = np.array([np.mean(s) for s in samples])
    ses = np.array([np.std(s, ddof=1) / math.sqrt(len(s)) for s in samples])
    if np.any(means <= 0):
        raise ValueError(f"{label}: a mean is not positive, its logarithm is undefined: {means}")
    ly, w = np.log(means), (means / ses) ** 2
    A = np.stack([np.ones_like(lx), lx], 1)
    cov = np.linalg.inv(A.T @ (A * w[:, None]))
    coef = cov @ (A.T @ (w * ly))
    slope, se = float(coef[1]), float(math.sqrt(cov[1, 1]))
    chi2 = float(np.sum(w * (ly - A @ coef) ** 2))
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=slope, stderr=se,
                    trials=int(sum(len(s) for s in samples)), tol=tol, pvalue=_band_p(slope, se, exponent, tol, None),
                    target=target, seed=seeds[0] if seeds else None, ci=(slope - 1.96 * se, slope + 1.96 * se),
                    alternatives=_neighbours(exponent),
                    extra=dict(extra or {}, test=f"H0: |slope - {exponent}| <= {tol}", x=list(map(float, xs)),
                               means=list(map(float, means)),
                               stderrs=list(map(float, ses)), fit_chi2=chi2, fit_dof=len(xs) - 2, seeds=list(seeds)))


def slope_bound_test(label: str, params: dict, xs, ys, exponent: float, seed, *, tol: float = 0.25,
                     target: str = "stated", extra=None) -> StatTest:
    """A stated *bound* O(x^exponent) against the per-trial log-log slopes (common random numbers over xs):
    the claim is slope >= exponent.  Built on -slope with ``sided='upper'`` (predicted -exponent): the
    p-value is that of H0 "slope >= exponent - tol" (only a slope significantly below exponent - tol
    rejects), agreement needs the lower end of the 95% CI of the slope >= exponent - tol.  The
    two-sided CI of the slope is in ``extra``.  No point alternative is declared: a bound's weaker
    neighbouring order is what a refutation finds, and a point value 'exactly p - 1' would be 'excluded'
    by a sharp CI even when the measured order is p - 1 up to a finite-range correction."""
    slopes = per_trial_slopes(xs, ys)
    n = slopes.size
    m, se = float(slopes.mean()), max(float(slopes.std(ddof=1) / math.sqrt(n)), 1e-12)
    q = float(sps.t.ppf(0.975, n - 1))
    p = float(sps.t.sf((-m + exponent - tol) / se, n - 1))
    return StatTest(label=label, params=dict(params), predicted=-float(exponent), estimate=-m, stderr=se, trials=n,
                    tol=tol, pvalue=p, target=target, seed=seed, df=n - 1, ci=(-m - q * se, -m + q * se),
                    sided="upper",
                    extra=dict(extra or {}, slope=m, slope_ci=(m - q * se, m + q * se),
                                              claim=f"slope >= {exponent} (shown as -slope <= {-exponent})",
                                              x=list(map(float, xs)), mean_y=list(map(float, np.mean(ys, 0)))))


# ----------------------------------------------------------------------------- shared pretraining

_PRETRAINED: dict = {}

#: the alpha grid, sizes and depths of the pretraining shared by the rate claims and the order-of-limits
#: claims (one pretraining per (d, L, B, alpha) and run seed, drawn from keys that do not name a claim,
#: so every claim that uses it sees the same networks whichever claims are selected)
PRE_ALPHAS = {"quick": (1e-1, 10 ** -1.5, 1e-2), "standard": (1e-1, 10 ** -1.5, 1e-2, 10 ** -2.5),
              "full": (1e-1, 10 ** -1.5, 1e-2, 10 ** -2.5, 1e-3)}
PRE_DEPTHS = {"quick": (2,), "standard": (2, 3), "full": (2, 3, 4)}
PRE_TRIALS = {"quick": 6, "standard": 12, "full": 32}
PRE_D = 10


def pretrained(ctx, d: int, L: int, alpha: float, B: int):
    """(beta_s, Wbar, TrainResult, seed) of the shared pretraining at (d, L, alpha, B).

    The generator is seeded from ("tahir2024.pretrain", d, L, B) only, so every alpha starts from the
    same beta_s and Wbar (common random numbers for slopes in alpha)."""
    key_label = f"d={d}, L={L}, B={B}"
    seed = ctx.seed_for("tahir2024.pretrain", key_label)
    key = (seed, d, L, B, float(alpha), str(ctx.device), str(ctx.dtype))
    if key not in _PRETRAINED:
        gen, _ = ctx.generator("tahir2024.pretrain", key_label)
        _PRETRAINED[key] = pretrain_with_init(B, d, L, alpha, gen, dtype=ctx.dtype) + (seed,)
    return _PRETRAINED[key]


# ----------------------------------------------------------------------------- shared declarations of the text claims

INF = math.inf
DPS = 50
ASSUME = ("Assumption 3.1 (x ~ N(0, I_d), n i.i.d. target samples, Gaussian label noise sigma >= 0), Assumption 3.2 "
          "(unit teachers at angle theta in [0, pi/2]); pretraining with alpha -> 0 (Thm 3.4); transferability (7) "
          "in the limit n, d -> oo at gamma = n/d, eq. (13) (linear transfer) and (17) (fine-tuning).")


def src(where: str) -> Source:
    return Source("tahir2024", where)


P_GAMMA = Param("gamma", 0, INF, lower_open=True, doc="gamma = n/d > 0")
P_SIGMA = Param("sigma", 0, INF, doc="label-noise standard deviation, sigma >= 0")
P_THETA = Param("theta", 0, HALF_PI, doc="source-target angle, Assumption 3.2")
NOT_ONE = Constraint(lambda p: p["gamma"] != 1, "gamma = 1: the scratch risk (10) diverges")
EX = {"quick": 60, "standard": 500, "full": 5000}          # hypothesis examples per search
EX_SLOW = {"quick": 20, "standard": 150, "full": 1000}        # searches whose every example costs more
MC_TRIALS = {"quick": 1000, "standard": 4000, "full": 20000}


def mc_ordering(rows, trials, sampler_label):
    """Custom(fn, points=...) checking, per point, an ordering E[diff] > 0 from ``rows(point, B, gen)``."""
    def fn(claim, ctx, points):
        ev = Evidence()
        B = pick(ctx.profile, trials)
        for p in points:
            gen, seed = ctx.generator(claim.id, sampler_label, label_of(p))
            diff, what = rows(p, B, gen, ctx)
            ev.tests.append(ordering_test(f"{what}: {label_of(p)}", p, diff.detach().cpu().numpy(), seed))
            ev.seeds.append(seed)
        return ev
    return fn


