"""Theorem 3.6 (scratch-trained risk, eq. (10)) of 001_759117b8232d72ac.txt, with its proof's
Marchenko-Pastur limit (eqs. (99)-(102)).

Split into three claims:

- ``thm3.6.finite``      the proof's eq. (95) evaluated exactly at finite n, d (inverse-Wishart
                         means), against minimum-norm least squares on sampled designs;
- ``thm3.6.asymptotic``  eq. (10) itself, an n, d -> infinity statement: judged through the
                         exact finite-size form and its symbolic limit, never one size against
                         the limit;
- ``thm3.6.stieltjes``   eqs. (101)-(102): lim_{z->0} g_C(z) = -1/(1-gamma), recomputed
                         with sympy minding the square root's branch.
"""
from __future__ import annotations


import sympy as sp

from derivations import wishart as W
from numerics.scratch import gd_vs_min_norm, min_norm_risk
from verify.kit import (raised, trials_to_decide_at, STATED, AllOf, Asymptotic, Check, Claim, Constraint, Custom, Domain, Evidence, Expectation, Figure,
                        Identity, Kind, Param, Tol, chunk_for, per_profile, pick, trials_for_budget)

from .common import DATA, GAMMA, N, SIGMA, src

SRC = src("Theorem 3.6, eq. (10); proof App. B.5, eqs. (91)-(103)")
ASSUME = (f"{DATA}; ||beta_t|| = 1 (Assumption 3.2); the scratch model is the end state of gradient flow from "
          "small initialization, i.e. beta_hat = X^+ y (Theorem 3.5).")

STATEMENT = (r"\mathbb{E}_{\mathcal D}\mathcal R_{sc}=\begin{cases}\frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma}"
             r"&\gamma<1\\ \frac{\sigma^2}{\gamma-1}&\gamma>1\end{cases}")
FINITE_LATEX = (r"\mathbb{E}\,\|X^+y-\beta_t\|^2=\begin{cases}1-\frac{n}{d}+\sigma^2\frac{n}{d-n-1}&n<d-1\\"
                r"\sigma^2\frac{d}{n-d-1}&n>d+1\end{cases}")

# ------------------------------------------------------------------ grids
SIGMAS = (0.0, 0.5, 1.0, 2.0)
# (n, d) pairs on both sides of n = d, |n - d| >= 6 so that the per-trial risk has a finite
# variance (tr of an inverse Wishart has a second moment only for d - n - 3 > 0).
FINITE_PAIRS = {
    "quick": [(5, 20), (10, 20), (14, 20), (26, 20), (40, 20), (25, 60), (70, 60), (120, 60)],
    "standard": [(2, 20), (5, 20), (10, 20), (14, 20), (26, 20), (40, 20), (80, 20),
                 (25, 100), (50, 100), (90, 100), (110, 100), (200, 100), (300, 100)],
    "full": [(2, 20), (5, 20), (10, 20), (14, 20), (26, 20), (40, 20), (80, 20), (25, 100), (50, 100),
             (90, 100), (110, 100), (200, 100), (300, 100), (100, 400), (250, 500), (600, 500)],
}
GAMMAS = (0.25, 0.5, 0.75, 1.5, 2.0, 3.0)
ASYM_SIGMAS = (0.0, 0.5, 1.0)
# sizes d of the asymptotic check (n = gamma d): the per-trial risk self-averages as d grows,
# so larger sizes need fewer trials for the same interval
SIZES = {"quick": (20, 40, 80), "standard": (40, 80, 160), "full": (100, 200, 400, 800)}


def _finite_points(profile):
    return [{"n": n, "d": d, "sigma": s} for (n, d) in FINITE_PAIRS[profile.name] for s in SIGMAS]


def _sampler(p, trials, gen, ctx):
    s = p["sigma"]
    return min_norm_risk(trials, int(p["n"]), int(p["d"]), [float(v) for v in s] if isinstance(s, list) else float(s),
                         gen, ctx.dtype)


_chunk = chunk_for(4e7, lambda p: p["n"] * p["d"])  # keep one chunk of designs under ~40M doubles

# Trials per point from a compute budget: the Gram solve costs ~ min(n,d)^2 max(n,d) flops, so
# small designs (where the inverse-Wishart tails are heaviest) get many more trials.
_trials = trials_for_budget(per_profile(4e9, 4e10, 2e11), per_profile((2000, 40000), (5000, 200000), (20000, 1000000)),
                            lambda p: 2 * min(p["n"], p["d"]) ** 2 * max(p["n"], p["d"]) + 4 * p["n"] * p["d"])
#: the most trials a point may get to be decided (:func:`_decisive_trials`)
DECIDE_CAP = per_profile(100000, 400000, 2000000)


def _finite_value(p):
    return W.scratch_risk_finite_value(int(p["n"]), int(p["d"]), float(p["sigma"]))


#: the tolerance at >= this many standard errors of the exact per-trial spread: a point undecided at about
#: 1e-4 of seeds (the sample spread, unreliable for |n - d| <= 7, may come out larger than the exact one)
Z_DECIDE = 6.0


def _decisive_trials(sigmas, cap):
    """A ``trials=`` function: the compute budget's count (``_trials``), raised where the exact variance of the
    per-trial risk (derivations.wishart.scratch_risk_variance_value) needs more for the tolerance to sit at
    ``Z_DECIDE`` standard errors at each sigma of ``sigmas`` (the points share their draws over sigma, so the
    group's point has none), up to ``cap``.  Issue 13: with the budget alone the quick grids had their tolerance at
    3.1-4.5 standard errors at n = 70, d = 60; n = 120, 160, d = 80; n = 15, 26, d = 20 (the heavy-tailed
    inverse-Wishart noise term), and thm3.6.finite / .asymptotic were decided at 15 / 17 of 20 seeds."""
    def trials(profile, p) -> int:
        base = _trials(profile, p)
        n, d = int(p["n"]), int(p["d"])
        need = 0.0
        for s in ([p["sigma"]] if "sigma" in p else sigmas):
            tol = Tol().of(_finite_value({"n": n, "d": d, "sigma": s}))
            need = max(need, trials_to_decide_at(W.scratch_risk_variance_value(n, d, float(s)), tol, Z_DECIDE))
        return raised(base, need, pick(profile, cap))
    return trials


def _finite_variance(p):
    """Exact per-trial variance (derivations.wishart.scratch_risk_variance): the standard error
    of a point is never taken below it (the risk has an infinite fourth moment for |n - d| <= 7)."""
    return W.scratch_risk_variance_value(int(p["n"]), int(p["d"]), float(p["sigma"]))


#: nearby forms of the finite-size risk (index shifts, a dropped term): the report says where each is excluded
FINITE_ALTERNATIVES = {
    "d-n-1 -> d-n (and n-d-1 -> n-d)": lambda p: ((1 - p["n"] / p["d"] + p["sigma"] ** 2 * p["n"] / (p["d"] - p["n"]))
                                              if p["n"] < p["d"] else p["sigma"] ** 2 * p["d"] / (p["n"] - p["d"])),
    "noise term dropped": lambda p: max(0.0, 1 - p["n"] / p["d"]),
}


def _stated_value(p):
    return W.scratch_risk_stated_value(float(p["gamma"]), float(p["sigma"]))


def _gd_reaches_min_norm(claim, ctx) -> Evidence:
    """The literal procedure at small size: gradient descent from zero lands on X^+ y."""
    checks = []
    for n, d in [(5, 12), (12, 5)]:
        gen, seed = ctx.generator(claim.id, "gd", n, d)
        r = gd_vs_min_norm(16, n, d, 0.5, gen)
        ok = r["max_distance"] < 1e-8
        checks.append(Check(f"gradient descent from 0 reaches X^+ y (n={n}, d={d})", ok,
                            f"max ||w_GD - X^+ y|| = {r['max_distance']:.2e} over 16 draws", refutes=False))
    return Evidence(checks=checks)


_finite_domain = Domain(
    (N, Param("d", 1, float("inf"), integer=True), SIGMA),
    (Constraint(lambda p: abs(p["n"] - p["d"]) > 1, "E R_sc is infinite for |n - d| <= 1 (inverse-Wishart mean)"),))

_asym_domain = Domain(
    (GAMMA, SIGMA),
    (Constraint(lambda p: p["gamma"] != 1, "eq. (10) diverges at gamma = 1"),))

_figure = Figure(x="gamma", xlabel=r"$\gamma = n/d$", ylabel=r"$E\,R_{sc}$", group=("sigma",),
                 curve=_stated_value, curve_label="eq. (10)", ylim=(-0.1, 4.0),
                 fine=[g for g in [i / 100 for i in range(5, 301)] if abs(g - 1) > 0.04],
                 title="Double descent of the scratch risk (Thm 3.6): theory vs Monte Carlo")


def limit_checks_for(stated: sp.Expr):
    """Checks that the d -> inf limit of the finite form equals ``stated`` on each side of gamma = 1."""
    lim = W.finite_to_asymptotic_limit()
    lo_ok = sp.simplify(lim["gamma<1"] - stated.args[0][0]) == 0
    hi_ok = sp.simplify(lim["gamma>1"] - stated.args[1][0]) == 0
    return [Check("lim_{d->inf} finite form (n = gamma d) = eq. (10), gamma < 1", lo_ok,
                  f"sympy: limit = {sp.sstr(lim['gamma<1'])}"),
            Check("lim_{d->inf} finite form (n = gamma d) = eq. (10), gamma > 1", hi_ok,
                  f"sympy: limit = {sp.sstr(lim['gamma>1'])}")]


def _limit_checks():
    return limit_checks_for(W.scratch_risk_stated())


CLAIMS = [
    Claim(
        id="tahir2024.thm3.6.finite", role="proof step", holds_by=("tahir2024.thm3.6.asymptotic",),
        kind=Kind.EXACT,
        source=src("Theorem 3.6 proof, eq. (95) with (96)-(97) evaluated at finite n, d"),
        statement=FINITE_LATEX,
        assumptions=ASSUME,
        domain=_finite_domain,
        stated=W.scratch_risk_finite(),
        derived=W.scratch_risk_finite(),
        notes=("The paper states only the limit (10); its proof passes through eq. (95), "
               "E R = 1 - E||P_row(X) beta_t||^2 + sigma^2 E tr((X^+)^T X^+), which is exact at finite size. "
               "We evaluate it exactly (E||P_row beta||^2 = min(n,d)/d; inverse-Wishart mean I/(d-n-1)) and test "
               "it against minimum-norm least squares on sampled Gaussian designs; gradient descent from zero is "
               "shown to reach the same solution. Grid: n on both sides of d with |n-d| >= 6 (finite variance). "
               "The per-trial risk has an infinite fourth moment for |n-d| <= 7, where the sample standard "
               "deviation is unreliable (usually too small, and smallest when the mean is low): the standard error "
               "of each point is the larger of the sample one and the exact one from our inverse-Wishart second "
               "moments (derivations.wishart.scratch_risk_variance, checked against Monte Carlo in the tests). "
               "Trials per point: the compute budget's count, raised where that exact variance needs it for the "
               "tolerance to sit at 6 standard errors (e.g. 29600 draws at n = 70, d = 60 instead of 7680)."),
        check=AllOf([
            Expectation(points=_finite_points, predicted=STATED, sampler=_sampler, chunk=_chunk,
                        trials=_decisive_trials(SIGMAS, DECIDE_CAP), vector="sigma", variance=_finite_variance,
                        alternatives=FINITE_ALTERNATIVES),
            Custom(_gd_reaches_min_norm),
        ]),
    ),
    Claim(
        id="tahir2024.thm3.6.asymptotic",
        kind=Kind.ASYMPTOTIC,
        source=SRC,
        statement=STATEMENT,
        assumptions=ASSUME + " High-dimensional limit n, d -> infinity with gamma = n/d fixed.",
        domain=_asym_domain,
        stated=W.scratch_risk_stated(),
        derived=W.scratch_risk_finite(),
        notes=("Asymptotic statement: judged by (i) Monte Carlo of min-norm least squares against our exact "
               "finite-size form at three or more sizes d (n = gamma d) and (ii) sympy's limit of that form, "
               "which must equal (10) on each side of gamma = 1. The 1/d extrapolation of the Monte Carlo means "
               "is reported alongside. The finite-size bias (e.g. sigma^2 n/(d-n-1) vs gamma sigma^2/(1-gamma)) "
               "is never read as an erratum. Trials per size: the compute budget's count, raised where the exact "
               "per-trial variance (derivations.wishart.scratch_risk_variance) needs it for the tolerance to sit at 6 "
               "standard errors (e.g. 7200 draws at n = 120, d = 80 instead of 2540)."),
        check=Asymptotic(points=[{"gamma": g, "sigma": s} for g in GAMMAS for s in ASYM_SIGMAS],
                         sizes=SIZES, finite_params=lambda p, N: {"n": round(p["gamma"] * N), "d": N,
                                                                   "sigma": p["sigma"]},
                         stated=_stated_value, finite=_finite_value, limit_checks=_limit_checks,
                         sampler=_sampler, chunk=_chunk, figure=_figure,
                         trials=_decisive_trials(ASYM_SIGMAS, DECIDE_CAP), vector="sigma"),
    ),
    Claim(
        id="tahir2024.thm3.6.stieltjes", role="proof step", holds_by=("tahir2024.thm3.6.asymptotic",),
        kind=Kind.LIMIT,
        source=src("Theorem 3.6 proof, App. B.5, eqs. (99)-(102)"),
        statement=(r"\lim_{z\to0}g_C(z)=\lim_{z\to0}\frac{z-(1-\gamma)-\sqrt{z-(1+\sqrt\gamma)^2}"
                   r"\sqrt{z-(1-\sqrt\gamma)^2}}{2\gamma z}=-\frac{1}{1-\gamma}\quad(\gamma<1)"),
        assumptions="C = X X^T/d, X n x d with i.i.d. N(0,1) entries, gamma = n/d < 1 (Marchenko-Pastur law).",
        domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True),)),
        stated=-1 / (1 - W.gamma),
        derived=W.mp_stieltjes_limit_derived(),
        notes=("Eq. (102) is garbled in the extraction ('1 / -1 gamma -'); read as -1/(1-gamma), which is what "
               "(103) needs. The square roots of (101) are read as a product of two principal roots (the branch "
               "with g ~ 1/z at infinity); with a single root of the product the z -> 0 limit is infinite. "
               "Checked symbolically for general gamma (l'Hopital with S(0) = 1 - gamma) and by sympy's limit "
               "of (101) at rational gamma."),
        check=AllOf([
            Identity("derived limit = -1/(1-gamma)", W.mp_stieltjes_limit_derived, -1 / (1 - W.gamma),
                     {W.gamma: (0.01, 0.99)}),
            Custom(lambda claim, ctx: Evidence(checks=[
                Check(f"sympy limit of (101) as z -> 0, gamma = {g}",
                      sp.simplify(sp.limit(W.mp_stieltjes_stated().subs(W.gamma, g), W.z, 0, "-") + 1 / (1 - g)) == 0,
                      f"limit = {sp.limit(W.mp_stieltjes_stated().subs(W.gamma, g), W.z, 0, '-')}, "
                      f"-1/(1-gamma) = {-1 / (1 - g)}")
                for g in (sp.Rational(1, 10), sp.Rational(1, 2), sp.Rational(9, 10))])),
        ]),
    ),
]
