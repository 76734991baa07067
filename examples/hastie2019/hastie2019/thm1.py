"""Theorem 1 (isotropic features): the limiting risk of the minimum-norm least-squares interpolator.

Model: x_i ~ N(0, I_p), y_i = x_i^T beta + eps_i, Var(eps) = sigma^2, ||beta|| = r, n samples, p features,
gamma = p / n fixed as n, p -> infinity.  The risk of beta_hat = X^+ y at a fresh x is ||beta_hat - beta||^2, and

    R(gamma) -> sigma^2 gamma / (1 - gamma)                        gamma < 1
    R(gamma) -> r^2 (1 - 1/gamma) + sigma^2 / (gamma - 1)          gamma > 1

Three claims: the theorem as stated (confirmed), the same theorem with a deliberate misprint of the kind papers
make (the numerator gamma of the first branch copied into the second: refuted), and the location of the best
over-parametrized gamma, a consequence of the theorem checked by a hypothesis search over the closed form.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from derivations import wishart as W                    # our exact finite-size risk (unit teacher)
from numerics.scratch import min_norm_risk              # the literal procedure: X^+ y on Gaussian designs
from verify.kit import (STATED, Asymptotic, Check, Claim, Constraint, Domain, Kind, Param, PropertySearch,
                        Source, Tol, per_profile, pick, raised, trials_to_decide_at)

gamma, sigma, r = sp.symbols("gamma sigma r", positive=True)
n = sp.Symbol("n", positive=True)

STATED_FORM = sp.Piecewise((sigma**2 * gamma / (1 - gamma), gamma < 1),
                           (r**2 * (1 - 1 / gamma) + sigma**2 / (gamma - 1), True))
#: the over-parametrized branch (gamma > 1), as stated
OVER = r**2 * (1 - 1 / gamma) + sigma**2 / (gamma - 1)
#: a misprint as papers make them: that branch's variance term with the first branch's numerator gamma
MISPRINT = r**2 * (1 - 1 / gamma) + sigma**2 * gamma / (gamma - 1)

ASSUME = ("x ~ N(0, I_p) (isotropic), y = x^T beta + eps with E eps = 0, Var eps = sigma^2, ||beta|| = r; "
          "beta_hat = X^+ y (minimum-norm least squares, the limit of gradient descent from zero); n, p -> infinity "
          "with p/n = gamma.  Here r = 1: min_norm_risk draws a unit teacher (the bias term scales as r^2).")

SIGMA = Param("sigma", 0, float("inf"), doc="noise standard deviation, sigma >= 0")
R = Param("r", 1, 1, doc="signal norm ||beta||; the sampler draws a unit teacher, so r = 1")
DOMAIN = Domain((Param("gamma", 0, float("inf"), lower_open=True, doc="gamma = p/n > 0, p features, n samples"),
                 SIGMA, R),
                (Constraint(lambda p: p["gamma"] != 1, "the risk diverges at the interpolation threshold gamma = 1"),))
OVER_DOMAIN = Domain((Param("gamma", 1, float("inf"), lower_open=True, doc="gamma = p/n > 1 (over-parametrized)"),
                      SIGMA, R))


def _finite(p):
    """Our exact E||X^+ y - beta||^2 at finite n, p (derivations.wishart, inverse-Wishart means)."""
    return W.scratch_risk_finite_value(int(p["n"]), int(p["d"]), float(p["sigma"]))


def _sampler(p, trials, gen, ctx):
    return min_norm_risk(trials, int(p["n"]), int(p["d"]), float(p["sigma"]), gen, ctx.dtype)


def _trials(profile, p) -> int:
    """Enough trials for the tolerance to sit at 5 standard errors of the exact per-trial spread
    (derivations.wishart.scratch_risk_variance_value): small n, just below the threshold, needs the most."""
    var = W.scratch_risk_variance_value(int(p["n"]), int(p["d"]), float(p["sigma"]))
    need = trials_to_decide_at(var, Tol().of(_finite(p)), 5.0)
    return raised(pick(profile, per_profile(quick=2000, standard=10000)), need,
                  pick(profile, per_profile(quick=40000, standard=200000)))


def _limit_checks_of(stated):
    """sympy: the finite-size risk at p = gamma n tends, as n -> oo, to each branch of ``stated`` (a Piecewise of
    both branches, or the gamma > 1 branch alone)."""
    def checks():
        over = 1 - n / (gamma * n) + sigma**2 * n / (gamma * n - n - 1)     # p > n + 1
        under = sigma**2 * gamma * n / (n - gamma * n - 1)                  # n > p + 1
        out = []
        pairs = ([("gamma < 1", under, stated.args[0][0]), ("gamma > 1", over, stated.args[1][0])]
                 if isinstance(stated, sp.Piecewise) else [("gamma > 1", over, stated)])
        for label, fin, branch in pairs:
            lim = sp.limit(fin, n, sp.oo)
            ok = sp.simplify(lim - branch.subs(r, 1)) == 0
            out.append(Check(f"lim_(n->oo) finite risk at p = gamma n = stated form, {label}", ok,
                             f"sympy: limit {sp.sstr(sp.simplify(lim))}, stated {sp.sstr(branch.subs(r, 1))}"))
        return out
    return checks


def _check(stated, gammas=per_profile(quick=(0.5, 2.0), standard=(0.25, 0.5, 2.0, 4.0))):
    return Asymptotic(
        points=per_profile(quick=[{"gamma": g, "sigma": 1.0, "r": 1.0} for g in gammas["quick"]],
                           standard=[{"gamma": g, "sigma": s, "r": 1.0} for g in gammas["standard"]
                                     for s in (0.5, 1.0)]),
        sizes=per_profile(quick=(24, 48, 96), standard=(40, 80, 160)),     # n; p = gamma n
        finite_params=lambda p, N: {"n": N, "d": round(p["gamma"] * N), "sigma": p["sigma"]},
        stated=STATED, finite=_finite, limit_checks=_limit_checks_of(stated), sampler=_sampler,
        size_name="n", trials=_trials)


def _risk(g, s, rr):
    """Theorem 1's over-parametrized branch, r^2 (1 - 1/gamma) + sigma^2 / (gamma - 1)."""
    return rr**2 * (1 - 1 / g) + s**2 / (g - 1)


def _optimum_holds(p):
    """R(gamma*) <= R(gamma) at the drawn point, in exact rational arithmetic (gamma* = sqrt(SNR)/(sqrt(SNR) - 1)
    = r / (r - sigma) is rational in r and sigma; floats are exact rationals): no rounding near gamma* = 1."""
    g, s, rr = (Fraction(p[k]) for k in ("gamma", "sigma", "r"))
    return _risk(rr / (rr - s), s, rr) <= _risk(g, s, rr)


CLAIMS = [
    Claim(
        id="hastie2019.thm1", kind=Kind.ASYMPTOTIC, source=Source("hastie2019", "Theorem 1 (isotropic features)"),
        statement=(r"R_X(\hat\beta;\beta)\to\begin{cases}\sigma^2\frac{\gamma}{1-\gamma}&\gamma<1\\"
                   r"r^2\left(1-\frac1\gamma\right)+\frac{\sigma^2}{\gamma-1}&\gamma>1\end{cases}"),
        assumptions=ASSUME, domain=DOMAIN, stated=STATED_FORM, derived=W.scratch_risk_finite(), stated_at={"r": 1},
        notes=("The paper's text is not in this repository: the statement is the well-known form of Theorem 1 "
               "(the same limit as eq. (10) of the suite's source 001, tahir2024.thm3.6.asymptotic, whose "
               "gamma = n/d is the reciprocal of ours). Judged as every asymptotic claim: Monte Carlo of X^+ y "
               "against our exact finite-size risk at three sizes n, and sympy's limit of that form against each "
               "stated branch."),
        check=_check(STATED_FORM)),
    Claim(
        id="hastie2019.thm1.misprint", kind=Kind.ASYMPTOTIC,
        source=Source("hastie2019", "Theorem 1 (isotropic features), second branch retyped with a misprint"),
        statement=(r"R_X(\hat\beta;\beta)\to r^2\left(1-\frac1\gamma\right)+\sigma^2\frac{\gamma}{\gamma-1}"
                   r"\quad(\gamma>1)"),
        assumptions=ASSUME + " gamma > 1.", domain=OVER_DOMAIN, stated=MISPRINT, stated_at={"r": 1},
        derived=OVER,             # our derived limit, the theorem's own branch (sympy's limit of the finite risk)
        corrected=r"r^2\left(1-\frac1\gamma\right)+\frac{\sigma^2}{\gamma-1}",
        notes=("NOT in the paper: a deliberate misprint for the worked example (docs/tutorial.md), the first "
               "branch's numerator gamma copied into the second branch's variance term, as papers mistype. "
               "The suite must refute it: the sympy limit of the exact finite-size risk differs from it for "
               "gamma > 1 (sigma^2/(gamma-1), not sigma^2 gamma/(gamma-1)), while the same Monte Carlo runs agree "
               "with the finite form."),
        check=_check(MISPRINT, gammas=per_profile(quick=(2.0,), standard=(2.0, 4.0)))),   # the misprinted branch
    Claim(
        id="hastie2019.optimal_gamma", kind=Kind.BOUND,
        source=Source("hastie2019", "Theorem 1, the over-parametrized branch: its minimum over gamma > 1"),
        statement=(r"\mathrm{SNR}=r^2/\sigma^2>1\ \Rightarrow\ \min_{\gamma>1}R(\gamma)=R(\gamma^*),\quad"
                   r"\gamma^*=\frac{\sqrt{\mathrm{SNR}}}{\sqrt{\mathrm{SNR}}-1}"),
        assumptions="Theorem 1's limiting risk for gamma > 1, SNR = r^2/sigma^2 > 1.",
        domain=Domain((Param("gamma", 1, float("inf"), lower_open=True, doc="gamma = p/n > 1"),
                       Param("sigma", 0, float("inf"), lower_open=True, doc="noise standard deviation > 0"),
                       Param("r", 0, float("inf"), lower_open=True, doc="signal norm > 0")),
                      (Constraint(lambda p: p["r"] > p["sigma"], "SNR = r^2/sigma^2 > 1"),)),
        notes=("A consequence of Theorem 1 that we derived (dR/dgamma = r^2/gamma^2 - sigma^2/(gamma-1)^2 = 0); "
               "its wording has not been checked against the paper's text (not in this repository). A hypothesis "
               "search over the closed form, in exact rational arithmetic."),
        check=PropertySearch("R(gamma*) <= R(gamma) for every gamma > 1", holds=_optimum_holds,
                             bounds={"gamma": (1, 100), "sigma": (0, 10), "r": (0, 10)})),
]
