"""Linear transfer (§3.3) and ridge linear transfer (§3.3.1) of 001_759117b8232d72ac.txt.

Claims, each split as the source's sentences are:

- ``thm3.7``            eq. (12), E R_lt = sin^2 theta + (sigma^2 + sin^2 theta)/(n-2), exact at finite n;
- ``thm3.7.chi2``       eqs. (116)-(120), E 1/||z||^2 = 1/(n-2) (with the sign typo of (117));
- ``eq13``              the transferability (13), the n, d -> infinity limit of E R_sc - E R_lt;
- ``eq13.roots``        gamma_{+-} are the zeros of (13) for gamma < 1;
- ``eq13.under``        gamma > 1: T < 0 iff gamma - 1 > sigma^2 / sin^2 theta;
- ``eq13.sigma_lt_1``   gamma < 1: negative transfer only when sigma < 1;
- ``eq13.angle``        sigma < 1, gamma < 1: T < 0 iff theta in (arccos(1-sigma), pi/2), gamma in (gamma_-, gamma_+);
- ``eq13.noiseless``    sigma = 0: T < 0 iff theta in (0, pi/2) and cos^2 theta < gamma < 1;
- ``eq13.anomalous``    Fig. 1 (sigma = 0.2): positive transfer persists at theta = pi/2;
- ``eq13.anomalous.all_sigma``  the same sentence read over every sigma >= 0 of Assumption 3.1;
- ``thm3.8``            eq. (15), lim_n E R_lt^lambda = 1 - cos^2 theta (1 + 2 lambda)/(1 + lambda)^2;
- ``thm3.8.finite``     eq. (128) with (129)-(130), exact at finite n (and Figure 2);
- ``thm3.8.monotone``   (15) is strictly increasing in lambda >= 0 for every theta in [0, pi/2];
- ``thm3.8.saddle``     eqs. (138)-(140): n I_1(n) -> 1/(1+lam)^2, I_1(n+2) -> 1/(1+lam)^2, I_2(n) -> 1/(1+lam).

The simulated procedure is the theorem's: teachers at angle theta, a Gaussian target data set
with noisy labels, the rank-one pretrained features Phi = (X beta_s) v^T of Theorem 3.4 (the
alpha -> 0 end state of pretraining; that gradient descent on the deep network reaches it is
the separate claim on Theorem 3.4, simulated with numerics.deep_linear), and the last layer
solved as the theorem says (minimum-norm least squares, or ridge (121)); the risk is
||beta_hat - beta_t||^2.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from hypothesis import strategies as st
from scipy import stats as sps

from derivations import transfer as T
from derivations import wishart as W
from numerics.transfer import linear_transfer_risk, scratch_and_transfer_risks
from verify.claim import Claim, Constraint, Domain, Kind, Param, Source
from verify.evidence import Check, Evidence, StatTest
from verify.judge import (AllOf, Asymptotic, Custom, Expectation, Figure, Identity, PropertySearch, Tol,
                          figure_data, label_of, monte_carlo, stat_test)
from verify.stats import mean_estimate

PI = math.pi
HALF_PI = math.pi / 2
INF = float("inf")
ASSUME = ("Assumption 3.1: x ~ N(0, I_d), a target data set of n i.i.d. samples with Gaussian label noise of "
          "variance sigma^2 >= 0; Assumption 3.2: unit teachers beta_s, beta_t with beta_s^T beta_t = cos(theta), "
          "theta in [0, pi/2]; pretraining in the feature-learning limit alpha -> 0, so Phi = (X beta_s) v^T "
          "(Theorem 3.4); the last layer is retrained on the target data (linear transfer, eq. (11)).")
ASSUME_ASYM = ASSUME + (" High-dimensional limit n, d -> infinity at gamma = n/d fixed; the scratch model is "
                        "X^+ y (Theorem 3.5) with the risk (10) (Theorem 3.6).")

# ============================================================================ helpers


def _prec(*xs):
    """An mpmath working precision that resolves every given float next to 1 (tiny values such as
    sigma = 5e-324 or gamma = 1e-266 that hypothesis likes to try): 60 digits plus twice the
    decimal exponent of the smallest non-zero |x| < 1."""
    small = [math.ceil(-math.log10(abs(x))) for x in xs if x and abs(x) < 1]
    return mpmath.workdps(min(4000, 60 + 2 * max([0] + small)))


def _mp_theta(theta):
    """theta as an mpmath number, the float pi/2 read as the exact endpoint."""
    return mpmath.pi / 2 if theta == HALF_PI else mpmath.mpf(theta)


def _trig(theta):
    """(cos theta, sin theta) in mpmath, exact at the endpoints 0 and pi/2 of the domain."""
    if theta == HALF_PI:
        return mpmath.mpf(0), mpmath.mpf(1)
    if theta == 0:
        return mpmath.mpf(1), mpmath.mpf(0)
    t = mpmath.mpf(theta)
    return mpmath.cos(t), mpmath.sin(t)


def _T(g, theta, sig):
    """Eq. (13) at the working precision of the caller, theta endpoints exact."""
    cs, sn = _trig(theta)
    return T.transferability_mp(g, cs, sn, sig)


def _gamma_pm(theta, sig):
    """(gamma_-, gamma_+) of the text after (13), or None when the discriminant is negative.
    The discriminant is evaluated in its factored form ((1-c)^2 - sigma^2)((1+c)^2 - sigma^2) with
    1 - c = 2 sin^2(theta/2) (checked equal to the stated one by sympy in eq13.roots), so that its sign
    is right even where 1 + cos^2 - sigma^2 rounds."""
    cs, _ = _trig(theta)
    one_minus_c = 2 * mpmath.sin(_mp_theta(theta) / 2) ** 2 if theta not in (0, HALF_PI) else 1 - cs
    sg = mpmath.mpf(sig)
    disc = (one_minus_c ** 2 - sg ** 2) * ((1 + cs) ** 2 - sg ** 2)
    if disc < 0:
        return None
    a = 1 + cs ** 2 - sg ** 2
    return (a - mpmath.sqrt(disc)) / 2, (a + mpmath.sqrt(disc)) / 2


def _theta_st():
    """theta over the closed domain [0, pi/2], endpoints always included in the search."""
    return st.one_of(st.sampled_from([0.0, HALF_PI]), st.floats(0.0, HALF_PI))


def _sigma_st(lo=0.0, hi=100.0, include_lo=True, hi_open=False):
    base = st.floats(lo, hi, exclude_min=not include_lo, exclude_max=hi_open)
    return st.one_of(st.just(lo), base) if include_lo else base


def _gamma_lt1_st():
    return st.floats(0.0, 1.0, exclude_min=True, exclude_max=True)


def _gamma_gt1_st():
    return st.floats(1.0, 1e4, exclude_min=True)


def _budget_trials(budget: dict, lo: dict, hi: dict):
    """Trials per point from a compute budget: a pseudo-inverse / Gram solve costs ~ min(n,d)^2 max(n,d)
    and sampling ~ n d, so small designs (where the heavy tails of 1/chi^2_n bite) get more trials."""
    def f(profile, p):
        n, d = int(p["n"]), int(p["d"])
        cost = n * d + 0.1 * min(n, d) ** 2 * max(n, d) + 200
        name = profile.name if profile.name in budget else "standard"
        return int(min(hi[name], max(lo[name], budget[name] / cost)))
    return f


def _chunk(p):
    return max(64, int(2e7 // (int(p["n"]) * int(p["d"]))))


# ============================================================================ Theorem 3.7, eq. (12)

def _lt_value(p):
    return T.linear_transfer_risk_value(int(p["n"]), float(p["theta"]), float(p["sigma"]))


def _lt_sampler(p, trials, gen, ctx):
    return linear_transfer_risk(trials, int(p["n"]), int(p["d"]), float(p["theta"]), float(p["sigma"]), gen,
                                0.0, ctx.dtype)


# Grid: n on both sides of d, every theta in {0, pi/8, pi/4, 3pi/8, pi/2} and sigma in {0, 0.2, 1, 2}
# appear; n >= 5 because the per-trial risk sin^2 + (sin^2 + sigma^2) g^2/chi^2_n has a finite
# variance only for n > 4 (E[g^4/chi^4_n] = 3/((n-2)(n-4))).  n = 3, 4 are judged through the
# exact law of the per-trial risk (_f_law_check).  (theta, sigma) = (0, 0) is omitted: the risk is
# then identically 0 (up to rounding) and tells nothing.
_LT_SMALL = [(5, 2, PI / 4, 0.2), (5, 30, HALF_PI, 0.0), (6, 6, 3 * PI / 8, 0.2), (10, 4, PI / 8, 1.0),
             (10, 10, 0.0, 0.2), (10, 40, HALF_PI, 2.0), (20, 7, 0.0, 1.0)]
# n = 6 with sigma = 1 needs ~6e4 trials for a 2% interval (the 4th moment of 1/chi^2_6 is infinite)
_LT_SMALL_EXTRA = [(6, 6, 3 * PI / 8, 1.0), (8, 3, PI / 4, 2.0)]
_LT_LARGE = {"quick": [(50, 8, 0.0, 1.0), (50, 80, PI / 4, 2.0), (200, 12, PI / 8, 0.2), (200, 3, HALF_PI, 1.0)],
             "standard": [(50, 8, 0.0, 1.0), (50, 80, PI / 4, 2.0), (200, 12, PI / 8, 0.2), (200, 3, HALF_PI, 1.0),
                          (40, 120, 3 * PI / 8, 0.0), (100, 20, PI / 4, 0.2)],
             "full": [(50, 8, 0.0, 1.0), (50, 80, PI / 4, 2.0), (200, 12, PI / 8, 0.2), (200, 3, HALF_PI, 1.0),
                      (40, 120, 3 * PI / 8, 0.0), (100, 20, PI / 4, 0.2), (100, 300, PI / 8, 1.0), (500, 50, 0.0, 2.0)]}


def _pts(rows):
    return [{"n": n, "d": d, "theta": th, "sigma": s} for (n, d, th, s) in rows]


_lt_domain = Domain(
    (Param("n", 1, INF, integer=True, doc="target sample size"), Param("d", 1, INF, integer=True),
     Param("theta", 0, HALF_PI, doc="angle between source and target teachers"),
     Param("sigma", 0, INF, doc="label-noise standard deviation")),
    (Constraint(lambda p: p["n"] > 2, "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),
     Constraint(lambda p: p["d"] >= 2 or p["theta"] == 0, "an angle theta > 0 between the teachers needs d >= 2")))


def _f_law_check(claim, ctx) -> Evidence:
    """n = 3, 4: the per-trial risk has infinite variance, so no CLT interval exists for its mean.
    Instead test its exact law: n (R - sin^2 theta)/(sin^2 theta + sigma^2) ~ F(1, n) (derived: the
    transferred coefficient is b = cos theta + sqrt(sin^2 + sigma^2) g/||z||, g independent of ||z||),
    whose mean n/(n-2) is (12).  Kolmogorov-Smirnov test on the literal simulation."""
    trials = {"quick": 5000, "standard": 20000, "full": 100000}.get(ctx.profile.name, 20000)
    checks, seeds, rows = [], [], []
    for (n, d, th, sg) in [(3, 3, PI / 4, 1.0), (3, 20, HALF_PI, 0.0), (4, 2, PI / 8, 0.2), (4, 10, 0.0, 2.0)]:
        p = {"n": n, "d": d, "theta": th, "sigma": sg}
        x, seed = monte_carlo(_lt_sampler, p, trials, ctx, (claim.id, "F-law", label_of(p)), 4096)
        seeds.append(seed)
        s2 = math.sin(th) ** 2
        f = n * (x - s2) / (s2 + sg ** 2)
        ks = sps.kstest(f, "f", args=(1, n))
        ok = bool(ks.pvalue > 1e-3)
        rows.append({**p, "ks_stat": float(ks.statistic), "ks_p": float(ks.pvalue), "trials": trials,
                     "sample_mean": float(np.mean(x)), "eq12": _lt_value(p)})
        checks.append(Check(f"law of the literal risk at {label_of(p)}: n(R - sin^2)/(sin^2 + sigma^2) ~ F(1, n)",
                            ok, f"KS statistic {ks.statistic:.4f}, p = {ks.pvalue:.3g} over {trials} trials "
                            f"(pass: p > 1e-3); E F(1,n) = n/(n-2) gives (12)", refutes=False))
    return Evidence(checks=checks, seeds=seeds, details={"n<=4 law": rows})


def _literal_cross_check(lam: float):
    """The reduced path against literal training of the deep network, draw by draw.

    Literal: pretrain W_1..W_L by gradient descent on the population loss from alpha * Wbar
    (numerics.deep_linear.pretrain), then train the last layer on the target data: by gradient
    descent on (5) over W_L (lam = 0, eq. (11)) or by the ridge solve (121) on the finite-alpha
    features (lam > 0).  Reduced: beta_hat = b beta_s with b = z.y/(||z||^2 + n lam), z = X beta_s,
    the rank-one end state used by this module's Monte Carlo.  Target 'derived': a disagreement
    would mean our fast path is not the theorem's procedure.
    """
    import numerics.deep_linear as DL
    from numerics.transfer import target_task

    def check(claim, ctx) -> Evidence:
        ev = Evidence()
        trials = {"quick": 8, "standard": 16, "full": 32}.get(ctx.profile.name, 16)
        for L, alpha in ((2, 1e-3), (3, 1e-2)):
            for (n, d) in ((6, 12), (20, 12)):
                p = {"n": n, "d": d, "L": L, "alpha": alpha, "theta": PI / 3, "sigma": 0.5, "lam": lam}
                gen, seed = ctx.generator(claim.id, "literal", label_of(p))
                task = target_task(trials, n, d, p["theta"], p["sigma"], gen)
                pre = DL.pretrain(trials, d, L, alpha, task["beta_s"], gen)
                X, y, bs = task["X"], task["y"], task["beta_s"]
                res = DL.linear_transfer(pre, X, y) if lam == 0 else DL.ridge_transfer(pre, X, y, lam)
                if not bool(res.ok.all()):
                    ev.checks.append(Check(label_of(p), None, "literal run did not converge", refutes=False))
                    continue
                z = (X @ bs.unsqueeze(-1)).squeeze(-1)
                b = (z * y).sum(-1) / (z.square().sum(-1) + n * lam)
                dist = (res.beta - b.unsqueeze(-1) * bs).square().sum(-1).cpu().numpy()
                ev.tests.append(stat_test(f"literal deep network vs rank-one end state, ||diff||^2: {label_of(p)}",
                                          p, 0.0, dist, Tol(rel=0, abs=1e-4), "derived", seed,
                                          {"steps_max": int(res.steps.max())}, margin=True))
                ev.seeds.append(seed)
        return ev

    return Custom(check)


THM37 = Claim(
    id="tahir2024.thm3.7",
    kind=Kind.EXACT,
    source=Source("tahir2024", "Theorem 3.7, eq. (12); proof App. B.6, eqs. (104)-(120)"),
    statement=r"\mathbb{E}_{\mathcal D}\mathcal R_{lt}=\sin^2\theta+\frac{\sigma^2+\sin^2\theta}{n-2}",
    assumptions=ASSUME + " Finite n > 2, any d.",
    domain=_lt_domain,
    stated=T.linear_transfer_risk_stated(),
    derived=T.linear_transfer_risk_derived(),
    notes=("Exact at finite n (no limit is taken in the proof). Simulated literally: teachers at angle theta "
           "(numerics.sampling.teacher_pair), Gaussian X, noisy labels, rank-one features Phi = (X beta_s) v^T, "
           "last layer = Phi^+ y by a generic SVD pseudo-inverse (min-norm choice of (11)), risk "
           "||beta_hat - beta_t||^2. Our sympy derivation: b = cos + sqrt(sin^2+sigma^2) g/||z||, g ~ N(0,1) "
           "independent of ||z||, so E[R | z] = sin^2 + (sin^2+sigma^2)/||z||^2 and E 1/||z||^2 = 1/(n-2) (sympy "
           "integral), giving (12). n must exceed 2 (the expectation diverges for n <= 2). For n = 3, 4 the "
           "per-trial risk has infinite variance, so its mean has no CLT interval; there the exact law of the "
           "risk, n(R - sin^2)/(sin^2+sigma^2) ~ F(1, n), is tested on the literal simulation instead (its mean "
           "n/(n-2) is (12)). The features are the Theorem 3.4 end state (reduced path); that gradient descent on "
           "the deep network reaches it is cross-checked by the Theorem 3.4 claim with numerics.deep_linear, and the "
           "whole procedure (pretraining by GD, then GD on the last layer) is compared draw by draw with this fast "
           "path at d = 12 (L = 2, 3). Note the order of limits: an EXACT min-norm solve of (11) on features "
           "pretrained at any finite alpha interpolates the data (Phi has n nonzero singular values, n-1 of them "
           "O(alpha)), so (12) describes alpha -> 0 taken before the last-layer solve, or gradient descent on W_L "
           "over any practical horizon (directions with O(alpha) singular values do not move)."),
    check=AllOf([
        Identity("our derivation (sympy: (108)-(115) + chi-square integral) = (12)", T.linear_transfer_risk_derived,
                 T.linear_transfer_risk_stated(), {W.n: (3, 200), T.theta: (0, HALF_PI), W.sigma: (0, 3)},
                 refutes=False),
        Expectation(points={"quick": _pts(_LT_SMALL), "standard": _pts(_LT_SMALL + _LT_SMALL_EXTRA),
                            "full": _pts(_LT_SMALL + _LT_SMALL_EXTRA)},
                    predicted=_lt_value, sampler=_lt_sampler, name="n<=20",
                    trials=_budget_trials({"quick": 1.2e7, "standard": 6e7, "full": 3e8},
                                          {"quick": 2000, "standard": 8000, "full": 40000},
                                          {"quick": 16000, "standard": 100000, "full": 400000}), chunk=_chunk),
        Expectation(points={k: _pts(v) for k, v in _LT_LARGE.items()}, predicted=_lt_value, sampler=_lt_sampler,
                    name="n>=40", chunk=_chunk,
                    trials=_budget_trials({"quick": 2e7, "standard": 1.2e8, "full": 6e8},
                                          {"quick": 1000, "standard": 4000, "full": 20000},
                                          {"quick": 10000, "standard": 40000, "full": 200000})),
        Custom(_f_law_check),
        _literal_cross_check(0.0),
    ]),
)


# ============================================================================ eqs. (116)-(120)

def _chi2_checks(claim, ctx) -> Evidence:
    checks, details = [], {}
    k = T.k
    res = T.inverse_chi2_mean_derived()
    branch, cond = res.args[0]
    ok = sp.simplify(branch - 1 / (k - 2)) == 0 and cond == (k > 2)
    checks.append(Check("sympy: int_0^inf (1/x) chi^2_k density dx = 1/(k-2), convergent exactly for k > 2", bool(ok),
                        f"sympy returns {sp.sstr(res)[:160]}"))
    bad, rows = [], []
    top = 16 if ctx.profile.name == "quick" else 40
    for m in range(1, top + 1):
        x = sp.Symbol("x", positive=True)
        val = sp.integrate(T.chi2_density(x, sp.Integer(m)) / x, (x, 0, sp.oo))
        want = sp.oo if m <= 2 else sp.Rational(1, m - 2)
        rows.append((m, str(val)))
        if sp.simplify(val - want) != 0 and val != want:
            bad.append((m, str(val)))
    checks.append(Check(f"exact integrals for integer n = 1..{top}: 1/(n-2) for n >= 3, divergent for n = 1, 2",
                        not bad, "all agree" if not bad else f"disagree at {bad[:3]}"))
    details["integer n"] = rows
    p117 = T.eq117_as_printed(+1, 5)
    m117 = T.eq117_as_printed(-1, 5)
    checks.append(Check("erratum (117): as printed, e^{+r^2/2} makes the integral diverge; e^{-r^2/2} gives 1/(n-2)",
                        p117 == sp.oo and sp.simplify(m117 - sp.Rational(1, 3)) == 0,
                        f"at n = 5: printed sign -> {p117}, Gaussian sign -> {m117} (= 1/(5-2))", refutes=False))
    return Evidence(checks=checks, details=details)


THM37_CHI2 = Claim(
    id="tahir2024.thm3.7.chi2",
    kind=Kind.SYMBOLIC,
    source=Source("tahir2024", "Theorem 3.7 proof, App. B.6, eqs. (116)-(120)"),
    statement=(r"\mathbb{E}_z\frac{1}{\|z\|_2^2}=\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{-r^2/2}dr"
               r"=\frac{S_{n-1}}{4\pi^{n/2}}\Gamma\left(\frac n2-1\right)=\frac{1}{n-2}"),
    assumptions="z ~ N(0, I_n), n > 2; S_{n-1} = 2 pi^{n/2}/Gamma(n/2) is the area of the unit sphere in R^n.",
    domain=Domain((Param("n", 1, INF, integer=True),),
                  (Constraint(lambda p: p["n"] > 2, "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),)),
    stated=1 / (T.k - 2),
    derived=T.inverse_chi2_mean_derived(),
    notes=("Eq. (117) is printed with e^{r^2/2}; this is a sign typo for e^{-r^2/2} (the Gaussian weight of "
           "(116)): as printed the integral diverges, and (118) follows only with the minus sign "
           "(t = r^2/2 gives r^{n-3} dr = 2^{n/2-2} t^{n/2-2} dt). (118)-(120) are then correct. Checked: sympy's "
           "integral against the chi-square density for symbolic n (convergence condition n > 2 included), the "
           "paper's chain (119) with S_{n-1} = 2 pi^{n/2}/Gamma(n/2), and exact integrals for n = 1..40."),
    check=AllOf([
        Custom(_chi2_checks),
        Identity("paper's (119): S_{n-1} Gamma(n/2-1)/(4 pi^{n/2}) = 1/(n-2)", T.inverse_chi2_mean_paper,
                 1 / (T.k - 2), {T.k: (2.5, 200)}),
    ]),
)


# ============================================================================ eq. (13), asymptotic

def _T_stated(p):
    with mpmath.workdps(30):
        return float(_T(float(p["gamma"]), float(p["theta"]), float(p["sigma"])))


def _T_finite(p):
    n, d = int(p["n"]), int(p["d"])
    return (W.scratch_risk_finite_value(n, d, float(p["sigma"])) -
            T.linear_transfer_risk_value(n, float(p["theta"]), float(p["sigma"])))


def _T_finite_real(gam, d, theta, sig):
    """The finite-size form at real n = gamma d (a smooth curve for figures)."""
    n = gam * d
    if abs(n - d) <= 1 or n <= 2:
        return math.nan
    s2 = math.sin(theta) ** 2
    sc = (1 - n / d) + sig ** 2 * n / (d - n - 1) if n < d else sig ** 2 * d / (n - d - 1)
    return sc - (s2 + (sig ** 2 + s2) / (n - 2))


def _T_sampler(p, trials, gen, ctx):
    r_sc, r_lt = scratch_and_transfer_risks(trials, int(p["n"]), int(p["d"]), p["theta"], float(p["sigma"]), gen,
                                            ctx.dtype)
    return r_sc - r_lt


def _eq13_finite_params(p, N):
    n = round(p["gamma"] * N)
    return {"n": n, "d": N, "theta": p["theta"], "sigma": p["sigma"]}


def _eq13_limit_checks() -> list[Check]:
    """sympy: the exact finite-size transferability tends to (13) on each side of gamma = 1."""
    D = sp.Symbol("D", positive=True)
    fin = T.transferability_finite()
    stated = T.transferability_stated()
    out = []
    for i, side in enumerate(("gamma < 1", "gamma > 1")):
        expr = fin.args[i][0].subs({W.n: T.gamma * D, W.d: D})
        lim = sp.simplify(sp.limit(expr, D, sp.oo))
        ok = sp.simplify(lim - stated.args[i][0]) == 0
        out.append(Check(f"lim_(d->inf) [E R_sc(n,d) - E R_lt(n)] at n = gamma d equals (13), {side}", bool(ok),
                         f"sympy: limit = {sp.sstr(lim)}"))
    diff = sp.simplify(T.transferability_derived() - stated)
    out.append(Check("(13) = eq. (10) - lim_(n->inf) eq. (12) (sympy)", diff == 0, f"difference {sp.sstr(diff)}"))
    return out


_EQ13_POINTS = [
    {"gamma": 0.5, "theta": HALF_PI, "sigma": 0.2},
    {"gamma": 0.3125, "theta": PI / 8, "sigma": 1.0},
    {"gamma": 0.625, "theta": 3 * PI / 8, "sigma": 0.0},
    {"gamma": 1.5, "theta": 0.0, "sigma": 1.0},
    {"gamma": 2.0, "theta": PI / 4, "sigma": 0.5},
]
def _eq13_trials(profile, p):
    """The per-trial spread of R_sc - R_lt shrinks as d grows (both risks self-average): 6000 / 24000 /
    96000 trials at d = 32 (quick / standard / full), scaled by 32/d."""
    base = {"quick": 6000, "standard": 24000, "full": 96000}.get(profile.name, 24000)
    return max(500, int(base * 32 / int(p["d"])))


_EQ13_SIZES = {"quick": (32, 64), "standard": (32, 64, 128), "full": (64, 128, 256, 512)}
_FIG_D = {"quick": 40, "standard": 100, "full": 500}
_FIG_TRIALS = {"quick": 100, "standard": 500, "full": 1000}
_FIG_GAMMAS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.3, 1.5, 1.75, 2.0)
_FIG_THETAS = (PI / 8, PI / 4, 3 * PI / 8)


def _transferability_figure(name: str, sigma: float, title: str):
    """Figure-only Monte Carlo (the figure's setting, L = 2 reduced to its Theorem 3.4 end state):
    points with 95% CI bars at d = 40 / 100 / 500 (quick / standard / full), theory curve (13) and the
    exact finite-size curve. These points illustrate the figure; the verdict rests on the tests above."""
    def run(claim, ctx) -> Evidence:
        d = _FIG_D.get(ctx.profile.name, 100)
        trials = _FIG_TRIALS.get(ctx.profile.name, 500)
        tests, seeds, rows = [], [], []
        for g in _FIG_GAMMAS:
            n = round(g * d)
            if abs(n - d) <= 1 or n <= 4:
                continue
            p = {"n": n, "d": d, "theta": list(_FIG_THETAS), "sigma": sigma}
            x, seed = monte_carlo(_T_sampler, p, trials, ctx, (claim.id, name, n, d), _chunk(p))
            seeds.append(seed)
            for j, th in enumerate(_FIG_THETAS):
                est = mean_estimate(x[:, j])
                fp = {"gamma": g, "theta": th, "sigma": sigma, "n": n, "d": d}
                fin = _T_finite(fp)
                tests.append(StatTest(label=label_of(fp), params=fp, predicted=fin, estimate=est.mean,
                                      stderr=est.stderr, trials=est.n, tol=0.0, pvalue=math.nan, target="derived",
                                      seed=seed, ci=est.ci(0.95)))
                rows.append({**fp, "mean": est.mean, "ci": est.ci(0.95), "std": est.std, "finite": fin,
                             "limit (13)": _T_stated(fp)})
        # gamma = 1 itself is kept (the curves are NaN there, which breaks the line at the divergence)
        fine = [i / 200 for i in range(20, 401) if abs(i / 200 - 1) > 0.05 or i == 200]
        spec = Figure(x="gamma", xlabel=r"$\gamma = n/d$", ylabel=r"transferability $\mathcal{T}$", group=("theta",),
                      title=f"{title} (Monte Carlo at d={d}, {trials} draws)", curve=_T_stated,
                      curve_label="eq. (13)", fine=fine,
                      extra_curves=((f"exact finite size, d={d}", lambda q: _T_finite_real(q["gamma"], d, q["theta"],
                                                                                          q["sigma"])),))
        return Evidence(figures=[figure_data(spec, tests, ctx)], seeds=seeds, details={name: rows})
    return run


_eq13_domain = Domain(
    (Param("gamma", 0, INF, lower_open=True, doc="gamma = n/d"), Param("theta", 0, HALF_PI),
     Param("sigma", 0, INF)),
    (Constraint(lambda p: p["gamma"] != 1, "eq. (13) is undefined at gamma = 1 (the scratch risk (10) diverges)"),))

EQ13 = Claim(
    id="tahir2024.eq13",
    kind=Kind.ASYMPTOTIC,
    source=Source("tahir2024", "§3.3, eq. (13) (from (10) and (12)); Figures 1(c) and 6(c)"),
    statement=(r"\mathcal T_{lt}=\begin{cases}\frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma}-\sin^2\theta&\gamma<1\\"
               r"\frac{\sigma^2}{\gamma-1}-\sin^2\theta&\gamma>1\end{cases}"),
    assumptions=ASSUME_ASYM,
    domain=_eq13_domain,
    stated=T.transferability_stated(),
    derived=T.transferability_finite(),
    notes=("Asymptotic statement, judged without comparing one finite size with the limit: per trial we compute "
           "R_sc - R_lt on the SAME target data (scratch = X^+ y, transfer = min-norm last layer on Phi = "
           "(X beta_s) v^T, through the exact rank-one pseudo-inverse, which tests/test_transfer_forms.py checks "
           "against the SVD pseudo-inverse), test the mean against the exact finite-size form "
           "E R_sc(n,d) - E R_lt(n) (scratch part from derivations.wishart, (12) for the transfer part) at several "
           "d with n = gamma d, and show with sympy that this form tends to (13). Figures 1(c) (sigma = 0.2) and "
           "6(c) (sigma = 0) are reproduced as figure-only Monte Carlo at d = 40 / 100 / 500 by profile (the paper: "
           "d = 500, 20 draws); they are illustrations and do not enter the verdict. Points on the grid avoid "
           "|T| ~ 0 only because a 2% tolerance around 0 would need ~10^5 trials."),
    check=AllOf([
        Asymptotic(points=_EQ13_POINTS, sizes=_EQ13_SIZES, finite_params=_eq13_finite_params, stated=_T_stated,
                   sampler=_T_sampler, finite=_T_finite, limit_checks=_eq13_limit_checks, chunk=_chunk,
                   trials=_eq13_trials),
        Custom(_transferability_figure("fig1c", 0.2, "Fig. 1(c): linear transferability, sigma = 0.2")),
        Custom(_transferability_figure("fig6c", 0.0, "Fig. 6(c): linear transferability, sigma = 0")),
    ]),
)


# ============================================================================ eq. (13): phase boundaries

def _expand_trig(e):
    """Expand after writing sin^2 theta = 1 - cos^2 theta (fast; sympy's simplify of the nested radical is slow)."""
    return sp.expand(e.subs(sp.sin(T.theta) ** 2, 1 - sp.cos(T.theta) ** 2))


def _roots_checks(claim, ctx) -> Evidence:
    """Their discriminant factors as ((1-c)^2 - sigma^2)((1+c)^2 - sigma^2)."""
    c = sp.cos(T.theta)
    a = 1 + c ** 2 - W.sigma ** 2
    disc = sp.expand(a ** 2 - 4 * c ** 2)
    fact = sp.expand(((1 - c) ** 2 - W.sigma ** 2) * ((1 + c) ** 2 - W.sigma ** 2))
    ok = sp.simplify(disc - fact) == 0
    return Evidence(checks=[Check("discriminant = ((1-cos)^2 - sigma^2)((1+cos)^2 - sigma^2): real roots iff "
                                  "sigma <= 1 - cos theta (i.e. theta >= arccos(1 - sigma)) or sigma >= 1 + cos theta",
                                  bool(ok),
                                  "sympy expands both sides equal" if ok else "sympy leaves a difference",
                                  refutes=False)])


def _roots_in_branch(p):
    """sigma > 0: if sigma <= 1 - cos theta, gamma_+- are real and lie in [0, 1) (zeros of T on the branch
    gamma < 1, by the two Identities); if 1 - cos < sigma < 1 + cos they are complex; if sigma >= 1 + cos
    they are real but <= 0, so T has no zero on (0, 1)."""
    th, sg = p["theta"], p["sigma"]
    with _prec(th, sg):
        gp = _gamma_pm(th, sg)
        cs, _ = _trig(th)
        one_minus_c = 2 * mpmath.sin(_mp_theta(th) / 2) ** 2
        if sg <= one_minus_c:
            return gp is not None and 0 <= gp[0] <= gp[1] < 1
        if sg < 1 + cs:
            return gp is None
        return gp is not None and gp[1] <= 0


EQ13_ROOTS = Claim(
    id="tahir2024.eq13.roots",
    kind=Kind.SYMBOLIC,
    source=Source("tahir2024", "§3.3, text after eq. (13)"),
    statement=(r"\mathcal T_{lt}(\gamma_\pm)=0\ (\gamma<1),\quad \gamma_\pm=\tfrac12\Big[(1+\cos^2\theta-\sigma^2)\pm"
               r"\sqrt{(1+\cos^2\theta-\sigma^2)^2-4\cos^2\theta}\Big]"),
    assumptions=ASSUME_ASYM + " Overparameterized branch gamma < 1.",
    domain=Domain((Param("theta", 0, HALF_PI), Param("sigma", 0, INF))),
    stated=T.gamma_pm_stated(),
    derived=sp.Eq(sp.expand(T.transferability_numerator()), 0),
    notes=("For gamma < 1, (1 - gamma) T = gamma^2 - (1 + cos^2 theta - sigma^2) gamma + cos^2 theta, whose roots "
           "are gamma_+-. Their discriminant is ((1-cos)^2 - sigma^2)((1+cos)^2 - sigma^2): for sigma <= 1 - cos theta "
           "(the origin of arccos(1 - sigma) in eq13.angle) they are real and lie in [0, 1) for sigma > 0 (product "
           "cos^2 theta, and the quadratic is sigma^2 > 0 at gamma = 1); for 1 - cos < sigma < 1 + cos they are "
           "complex; for sigma >= 1 + cos they are real but <= 0, so not zeros of T on (0, 1). "
           "At sigma = 0, gamma_+ = 1 is not a zero of T (T -> -sin^2 theta as gamma -> 1-): the branch check is "
           "therefore run for sigma > 0."),
    check=AllOf([
        Identity("(1-gamma) T at gamma_+ vanishes (expanded)",
                 lambda: _expand_trig(T.transferability_numerator().subs(T.gamma, T.gamma_pm_stated()[0])),
                 0, {T.theta: (0, HALF_PI), W.sigma: (0, 2)}),
        Identity("(1-gamma) T at gamma_- vanishes (expanded)",
                 lambda: _expand_trig(T.transferability_numerator().subs(T.gamma, T.gamma_pm_stated()[1])),
                 0, {T.theta: (0, HALF_PI), W.sigma: (0, 2)}),
        Custom(_roots_checks),
        PropertySearch("sigma > 0: gamma_+- in [0, 1) iff sigma <= 1 - cos theta; complex, or real and <= 0, otherwise",
                       lambda: st.fixed_dictionaries({"theta": _theta_st(),
                                                      "sigma": _sigma_st(0.0, 2.0, include_lo=False)}),
                       _roots_in_branch, refutes=False),
    ]),
)


def _under_holds(p):
    """gamma > 1: (T < 0) == (gamma - 1 > sigma^2/sin^2 theta); at sin theta = 0 the right side is read
    as +inf for sigma > 0 and, for sigma = 0 (0/0), as the cross-multiplied sigma^2 < (gamma-1) sin^2 = 0."""
    g, th, sg = p["gamma"], p["theta"], p["sigma"]
    with _prec(g - 1, th, sg):
        neg = _T(g, th, sg) < 0
        _, sn = _trig(th)
        cond = (mpmath.mpf(sg) ** 2 < (mpmath.mpf(g) - 1) * sn ** 2) if sn == 0 else \
            (mpmath.mpf(g) - 1 > mpmath.mpf(sg) ** 2 / sn ** 2)
        return bool(neg) == bool(cond)


EQ13_UNDER = Claim(
    id="tahir2024.eq13.under",
    kind=Kind.BOUND,
    source=Source("tahir2024", "§3.3, text after eq. (13)"),
    statement=r"\gamma>1:\quad \mathcal T_{lt}<0\iff \gamma-1>\frac{\sigma^2}{\sin^2\theta}",
    assumptions=ASSUME_ASYM + " Underparameterized branch gamma > 1.",
    domain=Domain((Param("gamma", 1, INF, lower_open=True), Param("theta", 0, HALF_PI), Param("sigma", 0, INF))),
    stated=sp.StrictGreaterThan(T.gamma - 1, W.sigma ** 2 / sp.sin(T.theta) ** 2),
    derived=sp.StrictLessThan(W.sigma ** 2, (T.gamma - 1) * sp.sin(T.theta) ** 2),
    notes=("Read as an equivalence ('there is negative transfer for all gamma - 1 > sigma^2/sin^2 theta', and the "
           "boundary is the zero of (13)). At theta = 0 the threshold sigma^2/sin^2 theta is +inf for sigma > 0 "
           "(never negative: T = sigma^2/(gamma-1) > 0) and 0/0 for sigma = 0, read as the cross-multiplied "
           "sigma^2 < (gamma-1) sin^2 theta (T = 0, not negative). Searched with hypothesis over gamma in (1, 1e4], "
           "theta in [0, pi/2] (endpoints exact), sigma in [0, 100], at 50 digits."),
    check=PropertySearch("T < 0 iff gamma - 1 > sigma^2/sin^2 theta (gamma > 1)",
                         lambda: st.fixed_dictionaries({"gamma": _gamma_gt1_st(), "theta": _theta_st(),
                                                        "sigma": _sigma_st()}), _under_holds),
)


def _sigma_lt_1_holds(p):
    with _prec(p["gamma"], 1 - p["gamma"], p["theta"], p["sigma"]):
        return not (_T(p["gamma"], p["theta"], p["sigma"]) < 0) or p["sigma"] < 1


EQ13_SIGMA = Claim(
    id="tahir2024.eq13.sigma_lt_1",
    kind=Kind.BOUND,
    source=Source("tahir2024", "§3.3, text after eq. (13)"),
    statement=r"\gamma<1:\quad \mathcal T_{lt}<0\ \Rightarrow\ \sigma<1",
    assumptions=ASSUME_ASYM + " Overparameterized branch gamma < 1.",
    domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), Param("theta", 0, HALF_PI),
                   Param("sigma", 0, INF))),
    stated=sp.Implies(sp.StrictLessThan(T.transferability_stated().args[0][0], 0), W.sigma < 1),
    derived=sp.Implies(sp.StrictLessThan(T.transferability_numerator(), 0), W.sigma < 1),
    notes=("'In the overparameterized regime (gamma < 1), negative transfer only occurs when sigma < 1.' Derived: "
           "for sigma >= 1, (1-gamma) T >= (1-gamma)^2 + gamma - (1-gamma) = gamma^2 > 0. Searched over "
           "gamma in (0, 1), theta in [0, pi/2], sigma in [0, 100] at 50 digits."),
    check=PropertySearch("gamma < 1 and T < 0 imply sigma < 1",
                         lambda: st.fixed_dictionaries({"gamma": _gamma_lt1_st(), "theta": _theta_st(),
                                                        "sigma": st.one_of(st.sampled_from([0.0, 1.0]),
                                                                           st.floats(0.0, 100.0))}),
                         _sigma_lt_1_holds),
)


def _angle_holds(p, theta_closed_at_half_pi: bool):
    g, th, sg = p["gamma"], p["theta"], p["sigma"]
    with _prec(g, 1 - g, th, sg):
        neg = _T(g, th, sg) < 0
        t = _mp_theta(th)
        in_theta = mpmath.acos(1 - mpmath.mpf(sg)) < t and (t <= mpmath.pi / 2 if theta_closed_at_half_pi
                                                             else t < mpmath.pi / 2)
        gp = _gamma_pm(th, sg)
        in_gamma = gp is not None and gp[0] < g < gp[1]
        return bool(neg) == bool(in_theta and in_gamma)


def _angle_domain_st():
    return st.fixed_dictionaries({"gamma": _gamma_lt1_st(), "theta": _theta_st(),
                                  "sigma": st.one_of(st.just(0.0), st.floats(0.0, 1.0, exclude_max=True))})


def _angle_show(p):
    with _prec(p["gamma"], 1 - p["gamma"], p["theta"], p["sigma"]):
        gp = _gamma_pm(p["theta"], p["sigma"])
        out = {"T": float(_T(p["gamma"], p["theta"], p["sigma"])),
               "arccos(1-sigma)": float(mpmath.acos(1 - mpmath.mpf(p["sigma"])))}
    if gp is not None:
        out.update({"gamma_-": float(gp[0]), "gamma_+": float(gp[1])})
    return out


EQ13_ANGLE = Claim(
    id="tahir2024.eq13.angle",
    kind=Kind.BOUND,
    source=Source("tahir2024", "§3.3, text after eq. (13)"),
    statement=(r"\sigma<1,\ \gamma<1:\quad \mathcal T_{lt}<0\iff \theta\in(\arccos(1-\sigma),\pi/2)\ \text{and}\ "
               r"\gamma\in(\gamma_-,\gamma_+)"),
    assumptions=ASSUME_ASYM + " sigma < 1 (SNR > 1), gamma < 1.",
    domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), Param("theta", 0, HALF_PI),
                   Param("sigma", 0, 1, upper_open=True))),
    stated=sp.And(T.theta > sp.acos(1 - W.sigma), T.theta < sp.pi / 2, T.gamma > T.gamma_pm_stated()[1],
                  T.gamma < T.gamma_pm_stated()[0]),
    corrected=(r"\sigma<1,\ \gamma<1:\ \mathcal T_{lt}<0\iff\theta\in(\arccos(1-\sigma),\pi/2]\ \text{and}\ "
               r"\gamma\in(\gamma_-,\gamma_+);\ \text{at }\theta=\pi/2:\ \gamma_-=0,\ \gamma_+=1-\sigma^2"),
    notes=("Read as an equivalence ('negative transfer occurs when ... and ...', the description of the red "
           "region of Fig. 1(b)). The domain theta in [0, pi/2] of Assumption 3.2 is searched closed, endpoints "
           "exact. The stated theta-interval is open at pi/2, but at theta = pi/2 (gamma_- = 0, gamma_+ = 1 - "
           "sigma^2) T = gamma (gamma - 1 + sigma^2)/(1 - gamma) < 0 for every gamma in (0, 1 - sigma^2): negative "
           "transfer does occur there, so the 'iff' fails on the endpoint theta = pi/2 only. The corrected "
           "half-open interval (arccos(1-sigma), pi/2] is checked by a second search (our form, refutes=False). "
           "At theta = arccos(1-sigma) gamma_- = gamma_+ and the gamma-interval is empty, consistently."),
    check=AllOf([
        PropertySearch("T < 0 iff theta in (arccos(1-sigma), pi/2) and gamma in (gamma_-, gamma_+), as stated",
                       _angle_domain_st, lambda p: _angle_holds(p, False), show=_angle_show),
        PropertySearch("corrected: theta in (arccos(1-sigma), pi/2] (closed at pi/2)",
                       _angle_domain_st, lambda p: _angle_holds(p, True), show=_angle_show, refutes=False),
    ]),
)


def _noiseless_holds(p, closed: bool):
    g, th = p["gamma"], p["theta"]
    with _prec(g, 1 - g, th):
        neg = _T(g, th, 0.0) < 0
        cs, _ = _trig(th)
        in_theta = th > 0 and (th <= HALF_PI if closed else th < HALF_PI)
        return bool(neg) == bool(in_theta and cs ** 2 < g < 1)


def _noiseless_limit_checks(claim, ctx) -> Evidence:
    gp, gm = T.gamma_pm_stated()
    lp = sp.simplify(sp.limit(gp, W.sigma, 0))
    lm = sp.simplify(sp.limit(gm, W.sigma, 0))
    # sqrt((1+c^2)^2 - 4c^2) = |1 - c^2| = sin^2 theta on [0, pi/2]
    lp2 = sp.simplify(lp.subs(sp.sqrt((sp.cos(T.theta) ** 2 - 1) ** 2), sp.sin(T.theta) ** 2))
    lm2 = sp.simplify(lm.subs(sp.sqrt((sp.cos(T.theta) ** 2 - 1) ** 2), sp.sin(T.theta) ** 2))
    ok_p = sp.simplify(lp2 - 1) == 0 or all(abs(complex(sp.N(lp.subs(T.theta, v))) - 1) < 1e-12
                                            for v in (0.1, 0.7, 1.3))
    ok_m = sp.simplify(lm2 - sp.cos(T.theta) ** 2) == 0 or all(
        abs(complex(sp.N(lm.subs(T.theta, v))) - math.cos(v) ** 2) < 1e-12 for v in (0.1, 0.7, 1.3))
    return Evidence(checks=[Check("sigma -> 0: gamma_+ -> 1 and gamma_- -> cos^2 theta (sympy limit)",
                                  bool(ok_p and ok_m), f"limits: gamma_+ -> {sp.sstr(lp)}, gamma_- -> {sp.sstr(lm)}",
                                  refutes=False)])


EQ13_NOISELESS = Claim(
    id="tahir2024.eq13.noiseless",
    kind=Kind.BOUND,
    source=Source("tahir2024", "§3.3, text after eq. (13); Appendix E, Fig. 6"),
    statement=r"\sigma\to0,\ \gamma<1:\quad \mathcal T_{lt}<0\iff\theta\in(0,\pi/2),\ \cos^2\theta<\gamma<1",
    assumptions=ASSUME_ASYM + " Noiseless labels sigma = 0, gamma < 1.",
    domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), Param("theta", 0, HALF_PI))),
    stated=sp.And(T.theta > 0, T.theta < sp.pi / 2, T.gamma > sp.cos(T.theta) ** 2, T.gamma < 1),
    corrected=r"\sigma=0,\ \gamma<1:\ \mathcal T_{lt}<0\iff\theta\in(0,\pi/2],\ \cos^2\theta<\gamma<1",
    notes=("Read at sigma = 0 (T is continuous in sigma, and (10) holds at sigma = 0), as an equivalence on the "
           "overparameterized branch (Fig. 6 caption: for gamma > 1 transfer is always negative, T = -sin^2 theta, "
           "for theta > 0). At theta = pi/2, T = -gamma < 0 for every gamma in (0, 1), while the stated open "
           "interval (0, pi/2) excludes theta = pi/2; the condition cos^2 theta < gamma < 1 alone is right on the "
           "whole closed domain. The corrected form (0, pi/2] is checked by a second search (refutes=False)."),
    check=AllOf([
        Custom(_noiseless_limit_checks),
        PropertySearch("sigma = 0: T < 0 iff theta in (0, pi/2) and cos^2 theta < gamma < 1, as stated",
                       lambda: st.fixed_dictionaries({"gamma": _gamma_lt1_st(), "theta": _theta_st()}),
                       lambda p: _noiseless_holds(p, False)),
        PropertySearch("corrected: theta in (0, pi/2]",
                       lambda: st.fixed_dictionaries({"gamma": _gamma_lt1_st(), "theta": _theta_st()}),
                       lambda p: _noiseless_holds(p, True), refutes=False),
    ]),
)


def _orthogonal_window(sig):
    """Derived: at theta = pi/2, T > 0 exactly on (max(0, 1 - sigma^2), 1) U (1, 1 + sigma^2) (empty at sigma = 0)."""
    s2 = sp.nsimplify(sig) ** 2
    return sp.Union(sp.Interval.open(sp.Max(0, 1 - s2), 1), sp.Interval.open(1, 1 + s2))


def _sympy_positive_set(sig):
    """sympy solves T(gamma, pi/2, sigma) > 0 on each branch at a rational sigma."""
    orth = T.transferability_at_orthogonal()
    s_ = sp.nsimplify(sig)
    lo = sp.solve_univariate_inequality(orth["gamma<1"].subs(W.sigma, s_) > 0, T.gamma, relational=False,
                                        domain=sp.Interval.open(0, 1))
    hi = sp.solve_univariate_inequality(orth["gamma>1"].subs(W.sigma, s_) > 0, T.gamma, relational=False,
                                        domain=sp.Interval.open(1, sp.oo))
    return sp.Union(lo, hi)


def _anomalous_fig1(claim, ctx) -> Evidence:
    sig = sp.Rational(1, 5)
    got = _sympy_positive_set(sig)
    want = _orthogonal_window(sig)
    left = sp.limit(T.transferability_at_orthogonal()["gamma<1"].subs(W.sigma, sig), T.gamma, 1, "-")
    right = sp.limit(T.transferability_at_orthogonal()["gamma>1"].subs(W.sigma, sig), T.gamma, 1, "+")
    neg = sp.Union(sp.Interval.open(0, 1 - sig ** 2), sp.Interval.open(1 + sig ** 2, sp.oo))
    return Evidence(checks=[
        Check("sigma = 0.2, theta = pi/2: positive transfer on a non-empty gamma-window around gamma = 1, "
              "separating the negative regions", got != sp.EmptySet and left == sp.oo and right == sp.oo,
              f"sympy: T > 0 exactly for gamma in {got}; T < 0 on {neg}; T -> {left} as gamma -> 1-, "
              f"{right} as gamma -> 1+"),
        Check("derived window (max(0,1-sigma^2), 1) U (1, 1+sigma^2) = sympy's solution set", got == want,
              f"derived {want}", refutes=False),
    ], details={"window at sigma=0.2": str(got)})


EQ13_ANOMALOUS = Claim(
    id="tahir2024.eq13.anomalous",
    kind=Kind.SYMBOLIC,
    source=Source("tahir2024", "§3.3, last paragraph (about Fig. 1, sigma = 0.2)"),
    statement=(r"\text{Fig. 1 }(\sigma=0.2):\ \text{the two regions of negative transfer are separated by positive "
               r"transfer that persists even when }\theta=\pi/2"),
    assumptions=ASSUME_ASYM + " The setting of Fig. 1: sigma = 0.2.",
    domain=Domain((Param("sigma", 0.2, 0.2, doc="the label noise of Fig. 1"),)),
    stated=sp.Gt(T.transferability_stated().subs(T.theta, sp.pi / 2), 0),
    derived=_orthogonal_window(0.2),
    notes=("At theta = pi/2 (derived): T = gamma (gamma - 1 + sigma^2)/(1 - gamma) for gamma < 1 and "
           "(1 + sigma^2 - gamma)/(gamma - 1) for gamma > 1, so T > 0 exactly on (max(0, 1 - sigma^2), 1) U "
           "(1, 1 + sigma^2) and T -> +inf on both sides of gamma = 1 (the double-descent divergence of the scratch "
           "risk). At sigma = 0.2: (0.96, 1) U (1, 1.04), a thin strip between the negative regions (0, 0.96) and "
           "(1.04, inf). The sentence holds in its stated setting; its reading over every sigma >= 0 is the claim "
           "eq13.anomalous.all_sigma."),
    check=Custom(_anomalous_fig1),
)


def _anomalous_all_holds(p):
    """Positive transfer adjacent to gamma = 1 on both sides at theta = pi/2 (exact one-sided sympy limits)."""
    s_ = sp.nsimplify(p["sigma"], rational=True)
    orth = T.transferability_at_orthogonal()
    left = sp.limit(orth["gamma<1"].subs(W.sigma, s_), T.gamma, 1, "-")
    right = sp.limit(orth["gamma>1"].subs(W.sigma, s_), T.gamma, 1, "+")
    return bool(left > 0) and bool(right > 0)


EQ13_ANOMALOUS_ALL = Claim(
    id="tahir2024.eq13.anomalous.all_sigma",
    kind=Kind.BOUND,
    source=Source("tahir2024", "§3.3, last paragraph, read over the whole domain of Assumption 3.1"),
    statement=(r"\forall\sigma\ge0:\ \exists\ \text{positive transfer at }\theta=\pi/2\text{ separating the negative "
               r"regions (around }\gamma=1)"),
    assumptions=ASSUME_ASYM + " Every sigma >= 0 (Assumption 3.1 allows noiseless labels).",
    domain=Domain((Param("sigma", 0, INF),)),
    stated=sp.Gt(T.transferability_stated().subs(T.theta, sp.pi / 2), 0),
    derived=sp.Union(sp.Interval.open(sp.Max(0, 1 - W.sigma ** 2), 1), sp.Interval.open(1, 1 + W.sigma ** 2)),
    corrected=(r"\theta=\pi/2:\ \mathcal T_{lt}>0\iff\gamma\in(\max(0,1-\sigma^2),1)\cup(1,1+\sigma^2);\ "
               r"\text{non-empty iff }\sigma>0\ (\text{at }\sigma=0,\ \mathcal T_{lt}<0\ \forall\gamma\ne1)"),
    notes=("The paper states the effect for Fig. 1 (sigma = 0.2) and explains it by the divergence of the scratch "
           "risk at gamma = 1, which exists only for sigma > 0; it does not state it for sigma = 0, and its Fig. 6 "
           "(sigma = 0) shows no such strip. This claim tests the sentence over every sigma >= 0 that "
           "Assumption 3.1 allows, as our standards require: hypothesis searches sigma in [0, 100] for a sigma at "
           "which T(gamma -> 1 -+, pi/2, sigma) is not +inf on both sides (sympy one-sided limits at the rational "
           "value of the float). Expected finding: the window (max(0,1-sigma^2),1) U (1,1+sigma^2) has width "
           "~ 2 sigma^2 and is empty at sigma = 0, where T = -gamma (gamma < 1) and T = -1 (gamma > 1). For sigma >= 1 "
           "there is a single negative region (gamma > 1 + sigma^2), positive transfer everywhere for gamma < 1."),
    check=PropertySearch("positive transfer on both sides of gamma = 1 at theta = pi/2, for every sigma >= 0",
                         lambda: st.fixed_dictionaries({"sigma": _sigma_st(0.0, 100.0)}), _anomalous_all_holds,
                         examples={"quick": 60, "standard": 200, "full": 500}),
)


# ============================================================================ Theorem 3.8 (ridge)

def _ridge_finite(p):
    return float(T.ridge_risk_finite_mp(int(p["n"]), float(p["lam"]), float(p["theta"]), float(p["sigma"]), dps=20))


def _ridge_limit(p):
    return float(T.ridge_risk_limit_mp(float(p["lam"]), _mp_theta(float(p["theta"]))))


def _ridge_sampler(p, trials, gen, ctx):
    return linear_transfer_risk(trials, int(p["n"]), int(p["d"]), float(p["theta"]), float(p["sigma"]), gen,
                                p["lam"] if isinstance(p["lam"], list) else float(p["lam"]), ctx.dtype)


_RIDGE_POINTS = [
    {"lam": 0.1, "theta": PI / 4, "sigma": 1.0},
    {"lam": 0.5, "theta": PI / 8, "sigma": 0.2},
    {"lam": 2.0, "theta": 0.0, "sigma": 0.5},
    {"lam": 0.3, "theta": HALF_PI, "sigma": 1.0},
    {"lam": 0.0, "theta": PI / 3, "sigma": 0.5},
]
_RIDGE_SIZES = {"quick": (10, 20, 40), "standard": (10, 25, 50, 100), "full": (25, 50, 100, 200, 400)}
_RIDGE_D = 6  # the risk depends on n only (rotation invariance); thm3.8.finite varies d on both sides of n


def _richardson(ns, vals):
    """Extrapolate a sequence a + b/n + c/n^2 to n = inf from three sizes (exact solve, mpmath)."""
    A = mpmath.matrix([[1, mpmath.mpf(1) / N, mpmath.mpf(1) / N ** 2] for N in ns])
    return mpmath.lu_solve(A, mpmath.matrix(vals))[0]


def _ridge_limit_checks() -> list[Check]:
    """(128), evaluated by mpmath at n = 1e4, 2e4, 4e4 and extrapolated in 1/n, equals (15)."""
    out = []
    ns = (10_000, 20_000, 40_000)
    for p in _RIDGE_POINTS:
        with mpmath.workdps(30):
            vals = [T.ridge_risk_finite_mp(N, p["lam"], _mp_theta(p["theta"]), p["sigma"], dps=30) for N in ns]
            ext = _richardson(ns, vals)
            lim = T.ridge_risk_limit_mp(p["lam"], _mp_theta(p["theta"]))
            err = abs(ext - lim)
        out.append(Check(f"(128) extrapolated n -> inf equals (15) at {label_of(p)}", bool(err < 1e-9),
                         f"extrapolated {mpmath.nstr(ext, 15)}, (15) = {mpmath.nstr(lim, 15)}, |diff| = "
                         f"{mpmath.nstr(err, 3)}; (128) at n = 1e4: {mpmath.nstr(vals[0], 12)}"))
    return out


def _finite_optimum(claim, ctx) -> Evidence:
    """Is lambda* = 0 at finite n?  Numeric argmin of the exact risk (128) (mpmath, bisection on its
    lambda-derivative) against our closed form lambda*_n = (sin^2 + sigma^2)/(n cos^2)."""
    thetas = {"quick": (PI / 4,), "standard": (PI / 8, PI / 4), "full": (PI / 8, PI / 4, 3 * PI / 8)}.get(
        ctx.profile.name, (PI / 8, PI / 4))
    lam_star = sp.lambdify((W.n, T.theta, W.sigma), T.ridge_optimal_lambda_derived(), "mpmath")
    checks, rows = [], []
    for n_, sg in ((20, 1.0),):
        for th in thetas:
            num = T.ridge_argmin_finite_mp(n_, th, sg, dps=20)
            ana = lam_star(n_, mpmath.mpf(th), sg)
            r_opt = T.ridge_risk_finite_mp(n_, num, th, sg, dps=20)
            r_0 = T.ridge_risk_finite_mp(n_, 0, th, sg, dps=20)
            rows.append({"n": n_, "theta": th, "sigma": sg, "argmin (128) numeric": float(num),
                         "closed form (sin^2+sigma^2)/(n cos^2)": float(ana), "risk at argmin": float(r_opt),
                         "risk at lambda=0": float(r_0)})
            checks.append(Check(f"finite-n optimum at n={n_}, theta={th:.4g}, sigma={sg}: argmin_lambda (128) = "
                                f"(sin^2+sigma^2)/(n cos^2) > 0", bool(abs(num - ana) < 1e-6 * (1 + ana)),
                                f"numeric argmin {mpmath.nstr(num, 10)}, closed form {mpmath.nstr(ana, 10)}; risk "
                                f"{mpmath.nstr(r_opt, 10)} vs {mpmath.nstr(r_0, 10)} at lambda = 0", refutes=False))
    return Evidence(checks=checks, details={"finite-n optimal lambda": rows})


THM38 = Claim(
    id="tahir2024.thm3.8",
    kind=Kind.ASYMPTOTIC,
    source=Source("tahir2024", "Theorem 3.8, eq. (15) = (141); proof App. B.7, eqs. (121)-(141)"),
    statement=(r"\lim_{n\to\infty}\mathbb E_{\mathcal D}\mathcal R^\lambda_{lt}"
               r"=1-\cos^2\theta\frac{1+2\lambda}{(1+\lambda)^2}"),
    assumptions=ASSUME + " Ridge last layer (14), lambda >= 0; n -> infinity.",
    domain=Domain((Param("lam", 0, INF, doc="ridge parameter lambda >= 0"), Param("theta", 0, HALF_PI),
                   Param("sigma", 0, INF))),
    stated=T.ridge_risk_limit_stated(),
    derived=T.ridge_conditional_risk_derived(),
    notes=("Asymptotic in n (the risk of rank-one transfer does not depend on d). Judged by Monte Carlo of the "
           "literal ridge solve (121) on Phi = (X beta_s) v^T (numerics.least_squares.ridge_solve; pseudo-inverse "
           "at lambda = 0) at several n against the exact finite-n risk (128), whose I_1, I_2 (129)-(130) we "
           "evaluate as 1-D mpmath integrals over the chi-square law of ||z||^2, and by extrapolating (128) from "
           "n = 1e4, 2e4, 4e4 to n = inf (must equal (15) to 1e-9). d = 6 in this part; thm3.8.finite varies d. "
           "FINITE n: the optimal lambda is NOT 0. Our sympy derivation gives d/dlambda E[R | u] = "
           "2 n u (n lambda cos^2 - sin^2 - sigma^2)/(u + n lambda)^3 for every u = ||z||^2, so the exact finite-n "
           "risk (128) is minimised at lambda*_n = (sin^2 theta + sigma^2)/(n cos^2 theta) > 0 (whenever "
           "sin^2 + sigma^2 > 0), decreasing on [0, lambda*_n]; lambda*_n -> 0 as n -> inf, consistent with the "
           "limit statement, and at theta = pi/2 the finite-n risk decreases in lambda for all lambda. The numeric "
           "argmin of (128) at n = 20, sigma = 1 is reported in the details (e.g. 0.15 at theta = pi/4)."),
    check=AllOf([
        Asymptotic(points=_RIDGE_POINTS, sizes=_RIDGE_SIZES, size_name="n",
                   finite_params=lambda p, N: {"n": N, "d": _RIDGE_D, **p}, stated=_ridge_limit,
                   sampler=_ridge_sampler, finite=_ridge_finite, limit_checks=_ridge_limit_checks,
                   trials={"quick": 4000, "standard": 20000, "full": 100000}),
        Custom(_finite_optimum),
    ]),
)

_FIG2_LAMS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)


def _fig2_points(profile):
    d = _FIG_D.get(profile.name, 100)
    return [{"n": d // 2, "d": d, "lam": L, "theta": PI / 8, "sigma": 0.2} for L in _FIG2_LAMS]


_FIG2 = Figure(x="lam", xlabel=r"$\lambda$", ylabel=r"$E\,\mathcal{R}^\lambda_{lt}$", group=("n", "d"),
               title="Fig. 2: ridge linear transfer, gamma = 0.5 (theta = pi/8, sigma = 0.2 assumed)",
               curve=_ridge_limit, curve_label="limit (15)", extra_curves=(("exact finite n (128)", _ridge_finite),),
               fine=[i * 0.05 for i in range(13)])


THM38_FINITE = Claim(
    id="tahir2024.thm3.8.finite",
    kind=Kind.EXACT,
    source=Source("tahir2024", "Theorem 3.8 proof, App. B.7, eq. (128) with (129)-(130); Figure 2"),
    statement=(r"\mathbb E\mathcal R^\lambda_{lt}=1+\cos^2\theta\,I_1(n+2,\lambda)"
               r"+(\sin^2\theta+\sigma^2)I_1(n,\lambda)"
               r"-2\cos^2\theta\,I_2(n,\lambda),\ I_1(m,\lambda)=\mathbb E\frac{\|z\|^{m-n+2}}{(\|z\|^2+n\lambda)^2},\ "
               r"I_2(m,\lambda)=\mathbb E\frac{\|z\|^{m-n+2}}{\|z\|^2+n\lambda}"),
    assumptions=ASSUME + " Ridge last layer (14)/(121), lambda >= 0 (n > 2 at lambda = 0), finite n, any d.",
    domain=Domain((Param("n", 1, INF, integer=True), Param("d", 1, INF, integer=True), Param("lam", 0, INF),
                   Param("theta", 0, HALF_PI), Param("sigma", 0, INF)),
                  (Constraint(lambda p: p["lam"] > 0 or p["n"] > 2,
                              "at lambda = 0, n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),
                   Constraint(lambda p: p["d"] >= 2 or p["theta"] == 0,
                              "an angle theta > 0 between the teachers needs d >= 2"))),
    stated=T.ridge_conditional_risk_stated(),
    derived=T.ridge_conditional_risk_derived(),
    notes=("The proof writes (128) as an identity before any large-n approximation, so it is checked as an exact "
           "finite-n statement: Monte Carlo of the literal ridge solve (121) on the rank-one features against (128) "
           "with I_1, I_2 evaluated by mpmath quadrature over the chi-square law of ||z||^2 (eqs. (129)-(130): the "
           "spherical form S_{n-1}/(2 pi)^{n/2} int r^{m+1} e^{-r^2/2}/(r^2+n lambda)^k dr is the same expectation). "
           "Our derivation: b = (cos u + sqrt(u (sin^2+sigma^2)) g)/(u + n lambda), g ~ N(0,1) independent of "
           "u = ||z||^2, and sympy's E[R | u] equals the integrand of (128). Figure 2 (gamma = 0.5, d = 500 in the "
           "paper) is reproduced at d = 40 / 100 / 500 by profile with n = d/2; the paper does not give theta or "
           "sigma for Fig. 2: theta = pi/8 (sin^2 = 0.146, matching the lambda = 0 end of its axis) and sigma = 0.2 "
           "(as Fig. 1) are assumed. Its points are Monte Carlo tests against (128) at that n."),
    check=AllOf([
        Identity("sympy E[R | u] (our derivation from (126)) = integrand of (128)", T.ridge_conditional_risk_derived,
                 T.ridge_conditional_risk_stated(), {W.n: (1, 100), T.u: (0.01, 300), T.lam: (0, 5),
                                                     T.theta: (0, HALF_PI), W.sigma: (0, 3)}, refutes=False),
        Expectation(points=[{"n": n, "d": d, "lam": L, "theta": th, "sigma": s} for (n, d, L, th, s) in [
            (3, 3, 0.3, PI / 4, 1.0), (5, 3, 0.1, PI / 4, 1.0), (5, 30, 1.0, HALF_PI, 0.2), (10, 4, 0.05, PI / 4, 2.0),
            (10, 40, 0.5, PI / 8, 0.0), (10, 10, 0.0, PI / 3, 0.5), (30, 10, 0.2, 3 * PI / 8, 1.0),
            (30, 60, 2.0, PI / 4, 0.5), (100, 8, 0.02, PI / 8, 0.2)]],
            predicted=_ridge_finite, sampler=_ridge_sampler, name="grid", chunk=_chunk,
            trials=_budget_trials({"quick": 1.5e7, "standard": 8e7, "full": 4e8},
                                  {"quick": 2000, "standard": 8000, "full": 40000},
                                  {"quick": 30000, "standard": 120000, "full": 500000})),
        Expectation(points=_fig2_points, predicted=_ridge_finite, sampler=_ridge_sampler, name="fig2", vector="lam",
                    chunk=_chunk, trials={"quick": 2000, "standard": 8000, "full": 4000}, figure=_FIG2),
        _literal_cross_check(0.3),
    ]),
)


def _monotone_holds(p):
    th, l1, dl = p["theta"], p["lam"], p["dlam"]
    with _prec(th, dl / (1 + l1)):
        cs, _ = _trig(th)
        f = lambda L: 1 - cs ** 2 * (1 + 2 * L) / (1 + L) ** 2  # noqa: E731  (15), exact cos at the endpoints
        a = mpmath.mpf(l1)
        return f(a) < f(a + mpmath.mpf(dl))


THM38_MONO = Claim(
    id="tahir2024.thm3.8.monotone",
    kind=Kind.ORDERING,
    source=Source("tahir2024", "Theorem 3.8 proof, App. B.7, sentence after (141); §3.3.1; Fig. 2 caption"),
    statement=(r"1-\cos^2\theta\frac{1+2\lambda}{(1+\lambda)^2}\ \text{is strictly increasing in }\lambda\ge0\ "
               r"\text{for any }\theta\in[0,\pi/2],\ \text{so }\lambda^*=0"),
    assumptions="The limit form (15); lambda >= 0, theta in [0, pi/2].",
    domain=Domain((Param("lam", 0, INF), Param("theta", 0, HALF_PI))),
    stated=T.ridge_risk_limit_stated(),
    derived=T.ridge_limit_derivative(),
    corrected=(r"\partial_\lambda(15)=\frac{2\lambda\cos^2\theta}{(1+\lambda)^3}:\ \text{strictly increasing for "
               r"}\theta\in[0,\pi/2);\ \text{constant }(=1)\text{ at }\theta=\pi/2,\ \text{where every }\lambda\ge0"
               r"\text{ is optimal}"),
    notes=("Read on the limit form (15)/(141), where the sentence stands. d/dlambda (15) = 2 lambda cos^2 theta/"
           "(1+lambda)^3 (sympy): > 0 for lambda > 0 when cos theta != 0, so (15) is strictly increasing on "
           "[0, inf) for theta in [0, pi/2); at the endpoint theta = pi/2 of the stated closed domain the risk is "
           "identically 1, constant, not strictly increasing (lambda* = 0 is then optimal but not unique). "
           "Searched over theta in [0, pi/2] (endpoints exact), 0 <= lambda_1 < lambda_2, at 50 digits. At finite n "
           "the exact risk (128) is NOT increasing near lambda = 0 (see thm3.8: lambda*_n = (sin^2 + sigma^2)/"
           "(n cos^2) > 0); Fig. 2's caption ('strictly increasing ... optimal regularizer lambda* = 0', at "
           "n = 250) is true only up to this O(1/n) interval, invisible at the figure's resolution."),
    check=AllOf([
        Identity("d/dlambda (15) = 2 lambda cos^2 theta/(1+lambda)^3", T.ridge_limit_derivative,
                 2 * T.lam * sp.cos(T.theta) ** 2 / (1 + T.lam) ** 3, {T.lam: (0, 10), T.theta: (0, HALF_PI)},
                 refutes=False),
        PropertySearch("(15) at lambda_1 < (15) at lambda_2 for 0 <= lambda_1 < lambda_2, theta in [0, pi/2]",
                       lambda: st.fixed_dictionaries({"theta": _theta_st(),
                                                      "lam": st.one_of(st.just(0.0), st.floats(0.0, 100.0)),
                                                      "dlam": st.floats(1e-6, 100.0)}),
                       _monotone_holds),
    ]),
)


def _saddle_checks(claim, ctx) -> Evidence:
    """(138)-(140): n I_1(n, lam) -> 1/(1+lam)^2, I_1(n+2, lam) -> 1/(1+lam)^2, I_2(n, lam) -> 1/(1+lam).
    mpmath quadrature of (129)-(130) at n = 1e3 .. 4e4, extrapolated in 1/n (Richardson, three sizes)."""
    ns = {"quick": (2_000, 4_000, 8_000)}.get(ctx.profile.name, (10_000, 20_000, 40_000))
    lams = (0.0, 0.1, 0.5, 2.0)
    checks, rows = [], []
    for L in lams:
        quantities = {
            "n I_1(n, lam) -> 1/(1+lam)^2 (138)": (lambda N: N * T.ridge_I1_mp(N, L, N, 30) if L > 0
                                                   else mpmath.mpf(N) / (N - 2), 1 / (1 + mpmath.mpf(L)) ** 2),
            "I_1(n+2, lam) -> 1/(1+lam)^2 (139)": (lambda N: T.ridge_I1_mp(N + 2, L, N, 30),
                                                   1 / (1 + mpmath.mpf(L)) ** 2),
            "I_2(n, lam) -> 1/(1+lam) (140)": (lambda N: T.ridge_I2_mp(N, L, N, 30), 1 / (1 + mpmath.mpf(L))),
        }
        for name, (fn, lim) in quantities.items():
            with mpmath.workdps(30):
                vals = [fn(N) for N in ns]
                ext = _richardson(ns, vals)
                err = abs(ext - lim)
            rows.append({"quantity": name, "lam": L, "values": [float(v) for v in vals], "n": list(ns),
                         "extrapolated": float(ext), "limit": float(lim), "n*(value - limit) at largest n":
                         float(ns[-1] * (vals[-1] - lim))})
            checks.append(Check(f"{name}, lam = {L}", bool(err < 1e-8),
                                f"values {[mpmath.nstr(v, 10) for v in vals]} at n = {list(ns)}; extrapolated "
                                f"{mpmath.nstr(ext, 14)} vs {mpmath.nstr(lim, 14)} (|diff| {mpmath.nstr(err, 3)})"))
    return Evidence(checks=checks, details={"saddle": rows})


THM38_SADDLE = Claim(
    id="tahir2024.thm3.8.saddle",
    kind=Kind.LIMIT,
    source=Source("tahir2024", "Theorem 3.8 proof, App. B.7, eqs. (131)-(140)"),
    statement=(r"I_1(n,\lambda)\simeq\frac{1}{n(1+\lambda)^2},\quad I_1(n+2,\lambda)\to\frac{1}{(1+\lambda)^2},\quad "
               r"I_2(n,\lambda)\to\frac{1}{1+\lambda}\quad(n\to\infty)"),
    assumptions="z ~ N(0, I_n); lambda >= 0; I_1, I_2 as in (129)-(130).",
    domain=Domain((Param("lam", 0, INF),)),
    stated=(1 / (1 + T.lam) ** 2, 1 / (1 + T.lam) ** 2, 1 / (1 + T.lam)),
    notes=("(138) is read as n I_1(n, lambda) -> 1/(1+lambda)^2 (a statement about the leading order; "
           "I_1(n, lambda) itself -> 0, as the text says). The saddle-point steps (131)-(137) are garbled in the "
           "extraction ('sqrt(pi n) n^{n/2} e^{-n/2}' in (135)); only their results are checked. Checked by mpmath "
           "quadrature at three sizes and Richardson extrapolation in 1/n (exact at lambda = 0: n I_1(n, 0) = "
           "n/(n-2), I_1(n+2, 0) = I_2(n, 0) = 1); the corrections are O(1/n), so the limits are exact as the "
           "text says."),
    check=Custom(_saddle_checks),
)


CLAIMS = [THM37, THM37_CHI2, EQ13, EQ13_ROOTS, EQ13_UNDER, EQ13_SIGMA, EQ13_ANGLE, EQ13_NOISELESS, EQ13_ANOMALOUS,
          EQ13_ANOMALOUS_ALL, THM38, THM38_FINITE, THM38_MONO, THM38_SADDLE]
