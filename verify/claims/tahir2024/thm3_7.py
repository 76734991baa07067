"""Theorem 3.7 (linear transfer, eq. (12)) of 001_759117b8232d72ac.txt and its proof's chi-square
integral (App. B.6, eqs. (116)-(120)).

- ``thm3.7``       eq. (12), E R_lt = sin^2 theta + (sigma^2 + sin^2 theta)/(n-2), exact at finite n;
- ``thm3.7.chi2``  eqs. (116)-(120), E 1/||z||^2 = 1/(n-2) (the sign of (117) as printed: tahir2024.proof.thm3_7.eq117).

The simulated procedure is the theorem's (numerics.transfer): teachers at angle theta, a Gaussian
target data set with noisy labels, the rank-one pretrained features Phi = (X beta_s) v^T of
Theorem 3.4 (the alpha -> 0 end state of pretraining; that gradient descent on the deep network
reaches it is the separate claim on Theorem 3.4, and ``common.literal_cross_check`` compares the
two draw by draw), and the last layer solved as minimum-norm least squares; the risk is
||beta_hat - beta_t||^2.
"""
from __future__ import annotations

import math
from dataclasses import replace

import sympy as sp
from scipy import stats as sps

from derivations import transfer as T
from derivations import wishart as W
from verify.kit import (raised, trials_to_decide_at, AllOf, Check, Claim, Constraint, Custom, Domain, Evidence, Expectation, Identity, Kind, Tol,
                        label_of, per_profile, pick, point_tests, trials_for_budget, STATED)

from .common import (D, HALF_PI, LINEAR_TRANSFER, N, SIGMA, THETA, TRANSFER_CHUNK, literal_cross_check_open_alpha,
                     src, transfer_cost, transfer_sampler)

PI = math.pi


def _lt_value(p, *_):
    return T.linear_transfer_risk_value(int(p["n"]), float(p["theta"]), float(p["sigma"]))


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
    (N, D, THETA, SIGMA),
    (Constraint(lambda p: p["n"] > 2, "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),
     Constraint(lambda p: p["d"] >= 2 or p["theta"] == 0, "an angle theta > 0 between the teachers needs d >= 2")))

#: nearby forms the evidence should tell apart from (12); the report says where each is excluded (issue 8:
#: at n = 200 the 2 % tolerance is about twice the finite-n term, so the small-n points must exclude it)
ALTERNATIVES = {
    "without the finite-n term: sin^2 theta": lambda p, *_: math.sin(p["theta"]) ** 2,
    "n-2 -> n-1": lambda p, *_: math.sin(p["theta"]) ** 2 + (p["sigma"] ** 2 + math.sin(p["theta"]) ** 2) / (p["n"] - 1),
    "n-2 -> n-3": lambda p, *_: math.sin(p["theta"]) ** 2 + (p["sigma"] ** 2 + math.sin(p["theta"]) ** 2) / (p["n"] - 3),
}

#: the tolerance at >= this many standard errors of the exact per-trial spread: a point left undecided at
#: about 1e-4 of seeds
_Z_DECIDE = 6.0
#: the same at n <= 8, where the per-trial risk has an infinite fourth moment: one draw with a tiny ||z|| can make
#: the sample spread several times the exact one (at n = 5 with Z = 6 the 95% CI was still wider than the tolerance
#: at 0.7% of seeds, one of 20 in the issue-13 run; at Z = 11, simulated, below 0.1%)
_Z_DECIDE_HEAVY = 11.0
_LT_VARIANCE = sp.lambdify((W.n, T.theta, W.sigma), T.linear_transfer_risk_variance_derived())


def _decisive(budget, cap):
    """A ``trials=`` function: the compute budget's count, raised where the exact variance of the per-trial risk
    (derivations.transfer.linear_transfer_risk_variance_derived, n > 4) needs more for the tolerance to sit at
    _Z_DECIDE (_Z_DECIDE_HEAVY at n <= 8) standard errors, up to ``cap``.  Issue 13: with the budget alone (16000
    draws at most for n <= 20, 1000 at n = 50, d = 80) six quick points had their tolerance at 2.7-4.3 standard
    errors and the claim was decided at 5 of 20 seeds; the exact variance calls for about 40000-170000 draws at
    n = 5-20 and 4800 at n = 50, sigma = 2."""
    def trials(profile, p) -> int:
        base = budget(profile, p)
        n = int(p["n"])
        if n <= 4:  # infinite variance: judged by the law test, never by a mean
            return base
        tol = Tol().of(_lt_value(p))
        z = _Z_DECIDE_HEAVY if n <= 8 else _Z_DECIDE
        need = trials_to_decide_at(_LT_VARIANCE(n, float(p["theta"]), float(p["sigma"])), tol, z)
        return raised(base, need, pick(profile, cap))
    return trials


# The mean of the per-trial risk at n >= 5, on two grids with their own compute budgets
# (verify.kit.trials_for_budget at common.transfer_cost per trial), raised to decide (_decisive).
_MEAN_SMALL_N = Expectation(
    points=per_profile(_pts(_LT_SMALL), _pts(_LT_SMALL + _LT_SMALL_EXTRA)), predicted=STATED,
    sampler=transfer_sampler, name="n<=20", chunk=TRANSFER_CHUNK, alternatives=ALTERNATIVES,
    trials=_decisive(trials_for_budget(per_profile(1.2e7, 6e7, 3e8),
                                       per_profile((2000, 16000), (8000, 100000), (40000, 400000)), transfer_cost),
                     per_profile(200000, 200000, 400000)))
_MEAN_LARGE_N = Expectation(
    points={k: _pts(v) for k, v in _LT_LARGE.items()}, predicted=STATED, sampler=transfer_sampler,
    name="n>=40", chunk=TRANSFER_CHUNK, alternatives=ALTERNATIVES,
    trials=_decisive(trials_for_budget(per_profile(2e7, 1.2e8, 6e8),
                                       per_profile((1000, 10000), (4000, 40000), (20000, 200000)), transfer_cost),
                     per_profile(10000, 40000, 200000)))

# n = 3, 4: the samples of the same literal simulation (seeded as an Expectation named "F-law"),
# judged by a Kolmogorov-Smirnov test of their exact law instead of a mean.
_F_LAW = Expectation(points=_pts([(3, 3, PI / 4, 1.0), (3, 20, HALF_PI, 0.0), (4, 2, PI / 8, 0.2), (4, 10, 0.0, 2.0)]),
                     predicted=_lt_value, sampler=transfer_sampler, name="F-law",
                     trials=per_profile(5000, 20000, 100000), chunk=4096)


def _f_law_check(claim, ctx, points) -> Evidence:
    """n = 3, 4: the per-trial risk has infinite variance, so no CLT interval exists for its mean.
    Instead test its exact law: n (R - sin^2 theta)/(sin^2 theta + sigma^2) ~ F(1, n)
    (derivations.transfer.linear_transfer_f_statistic_derived), whose mean n/(n-2) is (12).
    Kolmogorov-Smirnov test on the literal simulation."""
    rows = []

    def ks_check(lab, p, x, seed):
        n = int(p["n"])
        ks = sps.kstest(T.linear_transfer_f_statistic(x, n, float(p["theta"]), float(p["sigma"])), "f", args=(1, n))
        rows.append({**p, "ks_stat": float(ks.statistic), "ks_p": float(ks.pvalue), "trials": len(x),
                     "sample_mean": float(x.mean()), "eq12": _lt_value(p)})
        return Check(f"law of the literal risk at {label_of(p)}: n(R - sin^2)/(sin^2 + sigma^2) ~ F(1, n)",
                     bool(ks.pvalue > 1e-3), f"KS statistic {ks.statistic:.4f}, p = {ks.pvalue:.3g} over {len(x)} "
                     f"trials (pass: p > 1e-3); E F(1,n) = n/(n-2) gives (12)", refutes=False)

    ev = point_tests(_F_LAW, claim, ctx, ks_check)  # its "tests" are the KS checks built above
    return Evidence(checks=ev.checks + ev.tests, seeds=ev.seeds, details={"n<=4 law": rows})


#: (which points a part judges, the part): mutually exclusive, so a user point (--at) goes to exactly one
_PARTS = ((lambda p: 4 < p["n"] <= 20, _MEAN_SMALL_N),
          (lambda p: p["n"] > 20, _MEAN_LARGE_N),
          (lambda p: p["n"] <= 4, Custom(_f_law_check, points=_F_LAW.points)))


def _mean_or_law(claim, ctx, points) -> Evidence:
    """Without --at, each part on its own grid.  Under --at, each user point goes to the one part that
    can judge it: n <= 4 (infinite variance) to the law test, otherwise to the mean test of its n range."""
    ev = Evidence()
    for accepts, part in _PARTS:
        if ctx.at is None:
            ev.extend(part.run(claim, ctx))
        elif mine := [p for p in points if accepts(p)]:
            ev.extend(part.run(claim, replace(ctx, at=mine)))
    return ev


def _all_grids(profile):
    return [p for _, part in _PARTS for p in (pick(profile, part.points) if isinstance(part.points, dict)
                                              else part.points)]


THM37 = Claim(
    id="tahir2024.thm3.7",
    kind=Kind.EXACT,
    source=src("Theorem 3.7, eq. (12); proof App. B.6, eqs. (104)-(120)"),
    statement=r"\mathbb{E}_{\mathcal D}\mathcal R_{lt}=\sin^2\theta+\frac{\sigma^2+\sin^2\theta}{n-2}",
    assumptions=LINEAR_TRANSFER + " Finite n > 2, any d.",
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
           "path at d = 12 (L = 2, 3). Settings the source leaves open (issue 37): the pretraining scale alpha of that "
           "cross-check at L = 3 (the theorem takes alpha -> 0, and App. D.1's alpha = 1e-5 is for its 'two layer' "
           "networks only, L1494-1495), run over 1e-2, 1e-3, 1e-4, 1e-5 (from the largest value used before, whose "
           "O(alpha^(L-1)) remainder is the largest, down to D.1's value) under the open-settings rule; at L = 2 alpha "
           "= 1e-4 (D.1 states 1e-5; the larger alpha leaves the larger remainder, so the harder test). Note the "
           "order of limits: an EXACT min-norm solve of (11) on features pretrained at any finite alpha interpolates "
           "the data (Phi has n nonzero singular values, n-1 of them O(alpha)), so (12) describes alpha -> 0 taken "
           "before the last-layer solve, or gradient descent on W_L over any practical horizon (directions with "
           "O(alpha) singular values do not move). Trials per point: the compute budget's count, raised where the "
           "exact per-trial variance (sin^2 + sigma^2)^2 (3/((n-2)(n-4)) - 1/(n-2)^2) needs it for the 2% tolerance "
           "to sit at 6 standard errors, 11 at n <= 8 where the sample variance is unreliable (e.g. 66000 draws at n = 10, d = 4, sigma = 1; 151000 at n = 5, d = 30)."),
    check=AllOf([
        Identity("our derivation (sympy: (108)-(115) + chi-square integral) = (12)", T.linear_transfer_risk_derived,
                 T.linear_transfer_risk_stated(), {W.n: (3, 200), T.theta: (0, HALF_PI), W.sigma: (0, 3)},
                 refutes=False),
        Custom(_mean_or_law, points=_all_grids),
        *literal_cross_check_open_alpha(0.0),
    ]),
)


# ============================================================================ eqs. (116)-(120)

def _chi2_symbolic(claim, ctx) -> Evidence:
    """sympy's integral for symbolic n (with its convergence condition)."""
    k = T.k
    res = T.inverse_chi2_mean_derived()
    branch, cond = res.args[0]
    ok = sp.simplify(branch - 1 / (k - 2)) == 0 and cond == (k > 2)
    return Evidence(checks=[
        Check("sympy: int_0^inf (1/x) chi^2_k density dx = 1/(k-2), convergent exactly for k > 2", bool(ok),
              f"sympy returns {sp.sstr(res)[:160]}")])


#: the grid of exact integrals: n = 1..16 / 1..40, the divergent n = 1, 2 (outside the domain) included
_CHI2_INTEGER_N = per_profile([{"n": m} for m in range(1, 17)], [{"n": m} for m in range(1, 41)])


def _chi2_exact_integrals(claim, ctx, points) -> Evidence:
    """sympy's exact integral of 1/x against the chi^2_n density at each integer n (a user's n under --at)."""
    bad, rows = [], []
    ns = [int(p["n"]) for p in points]
    for m in ns:
        x = sp.Symbol("x", positive=True)
        val = sp.integrate(T.chi2_density(x, sp.Integer(m)) / x, (x, 0, sp.oo))
        want = sp.oo if m <= 2 else sp.Rational(1, m - 2)
        rows.append((m, str(val)))
        if sp.simplify(val - want) != 0 and val != want:
            bad.append((m, str(val)))
    span = f"1..{ns[-1]}" if ns == list(range(1, len(ns) + 1)) else ", ".join(map(str, ns))
    return Evidence(checks=[Check(f"exact integrals for integer n = {span}: 1/(n-2) for n >= 3, divergent for n = 1, 2",
                                  not bad, "all agree" if not bad else f"disagree at {bad[:3]}")],
                    details={"integer n": rows})


THM37_CHI2 = Claim(
    id="tahir2024.thm3.7.chi2", role="proof step", holds_by=("tahir2024.thm3.7",),
    kind=Kind.SYMBOLIC,
    source=src("Theorem 3.7 proof, App. B.6, eqs. (116)-(120)"),
    statement=(r"\mathbb{E}_z\frac{1}{\|z\|_2^2}=\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{-r^2/2}dr"
               r"=\frac{S_{n-1}}{4\pi^{n/2}}\Gamma\left(\frac n2-1\right)=\frac{1}{n-2}"),
    assumptions="z ~ N(0, I_n), n > 2; S_{n-1} = 2 pi^{n/2}/Gamma(n/2) is the area of the unit sphere in R^n.",
    domain=Domain((N,),
                  (Constraint(lambda p: p["n"] > 2, "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges for n <= 2"),)),
    stated=1 / (T.k - 2),
    derived=T.inverse_chi2_mean_derived(),
    notes=("Read with the Gaussian weight e^{-r^2/2} of (116) in (117) (the sign as printed is reported by "
           "tahir2024.proof.thm3_7.eq117); (118) follows by t = r^2/2 (r^{n-3} dr = 2^{n/2-2} t^{n/2-2} dt), and "
           "(118)-(120) are correct. Checked: sympy's "
           "integral against the chi-square density for symbolic n (convergence condition n > 2 included), the "
           "paper's chain (119) with S_{n-1} = 2 pi^{n/2}/Gamma(n/2), and exact integrals for n = 1..40."),
    check=AllOf([
        Custom(_chi2_symbolic),
        Custom(_chi2_exact_integrals, points=_CHI2_INTEGER_N,
               outside_domain="n = 1, 2 are evaluated exactly to show the integral diverges where n > 2 fails"),
        Identity("paper's (119): S_{n-1} Gamma(n/2-1)/(4 pi^{n/2}) = 1/(n-2)", T.inverse_chi2_mean_paper,
                 1 / (T.k - 2), {T.k: (2.5, 200)}),
    ]),
)


CLAIMS = [THM37, THM37_CHI2]
