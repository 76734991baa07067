"""Corollary 6.3: R <= 6 ||theta_T - theta_S|| / sqrt(n) + O(.), the composition 2 x 3 and the first term
against the risk (kernel limit and literal networks)."""
from __future__ import annotations

import math

import numpy as np
import torch

from derivations import ntk_bounds as NB
from numerics.ntk_finetune import kernel_finetune_trials
from verify.kit import (AllOf, Alternative, Check, Claim, Constraint, Custom, Domain, Evidence, Identity, Kind,
                        Param, Source, label_of, per_profile, pick, stated_value)

from ..common import binomial_bound_test, split_unspecified
from .common import (DELTA, DISTS, KERNEL_TRIALS, NS, N_S, PAPER, SETTING, THETA_S_NORM,
                     _literal_runs, _ns_tensor, _risk_vs_m, _width_points)


# ============================================================================= Corollary 6.3
#: distances ||theta_T - theta_S|| of the kernel-limit test: 0.5 as before, and a small one, where a wrong power of
#: the distance in the first term (e.g. ||dtheta||^2) is visible (the kernel-limit risk is linear in it)
KERNEL_DISTS = (0.05, 0.5)


def _cor63_kernel(claim, ctx, points, form=None) -> Evidence:
    """Kernel limit under Assumption 3.2, many draws per (d, n): how often R exceeds the first term as stated
    (6||dtheta||/sqrt(n), the claim's stated form read through ``stated_value``, so ``verify mutants`` substitutes
    perturbed forms; ``form``: a power witness's form in its place), against delta (exact binomial, target
    'stated': a significant excess refutes this companion claim)."""
    f = stated_value(claim) if form is None else form
    ev = Evidence()
    for p in points:
        d, n = int(p["d"]), int(p["n"])
        gen, seed = ctx.generator(claim.id, "kernel", label_of({"d": d, "n": n}))
        r = kernel_finetune_trials(pick(ctx.profile, KERNEL_TRIALS), d, N_S, (n,), KERNEL_DISTS, gen,
                                   theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, per_profile(500, 1000, 2000)),
                                   exact_pretraining=True, device=ctx.device, dtype=ctx.dtype)
        ev.seeds.append(seed)
        for k, dist in enumerate(KERNEL_DISTS):
            bound = float(f({"Delta": dist, "n": n}))
            ratio = (r["risk"][:, 0, k] / bound).cpu().numpy() if bound > 0 else np.full(r["risk"].shape[0], np.inf)
            q = {"d": d, "n": n, "dist": dist}
            t = binomial_bound_test(f"kernel limit, Assumption 3.2, d={d}, n={n}, ||dtheta||={dist}: R <= first "
                                    f"term (O-term dropped)", q, DELTA, (ratio > 1).astype(float), seed)
            t.extra["max R / first term"] = float(ratio.max())
            ev.tests.append(t)
            ev.details.setdefault("kernel limit: largest R / first term", {})[label_of(q)] = float(ratio.max())
    return ev


def _cor63_witness(name: str, form, why: str) -> Alternative:
    """A power witness of cor6.3.first_term: the first term changed to ``form(Delta, n)``, judged by the claim's own
    kernel-limit test."""
    return Alternative(name, Custom(lambda claim, ctx, points: _cor63_kernel(
        claim, ctx, points, form=lambda q: form(q["Delta"], q["n"])), points=_cor63_points), why)


def _cor63_points(profile):
    return [{"d": 20, "n": 20}, {"d": 40, "n": 20}, {"d": 40, "n": 40}]


def _cor63_literal(claim, ctx, points) -> Evidence:
    """Literal networks (shared with thm6.1): violations of the O-dropped bound among all draws and widths."""
    ev = Evidence()
    f = stated_value(claim)   # the first term as stated, 6||dtheta||/sqrt(n)
    lit, k, N, worst = [], 0, 0, 0.0
    for m, run, seed in _literal_runs(ctx, points, ev):
        bound = torch.tensor([[f({"Delta": float(s), "n": int(n)}) for s in run.dists] for n in run.ns],
                             dtype=run.risk.dtype, device=run.risk.device)
        ratio = run.risk / bound
        k += int((ratio > 1).any(-1).any(-1).sum())
        N += int(ratio.shape[0])
        worst = max(worst, float(ratio.max()))
        ev.details.setdefault("literal: R / (6||dtheta||/sqrt(n)), mean over nets [n][dist]", []).append(
            {"m": m, "mean": ratio.mean(0).tolist(), "max": float(ratio.max()),
             "literal / kernel-limit risk": float((run.risk / run.risk_kernel).mean())})
        lit.append((m, run, seed))
    if N:
        ev.checks.append(Check(f"literal networks, all widths ({N} nets x n in {NS} x distances {DISTS}): "
                               "R <= 6||theta_T - theta_S||/sqrt(n), O-term dropped", True if k == 0 else None,
                               f"{k}/{N} networks exceed it somewhere; largest R / (6||dtheta||/sqrt n) = {worst:.3g}",
                               refutes=False))
    if lit:
        ev.figures.append(_risk_vs_m(lit, "cor6.3"))
    return ev


def _cor63_n_dependence(claim, ctx) -> Evidence:
    """Not judged: E[R] / ||theta_T - theta_S|| against n in the kernel limit under Assumption 3.2 (d = 20), drawn
    with the stated first term 6/sqrt(n) and ours 4/sqrt(n)."""
    ns = (1, 2, 5, 10, 20)
    gen, seed = ctx.generator(claim.id, "n-dependence")
    r = kernel_finetune_trials(pick(ctx.profile, per_profile(200, 500, 2000)), 20, N_S, ns, (0.5,), gen,
                               theta_S_norm=THETA_S_NORM, n_test=pick(ctx.profile, per_profile(500, 1000, 2000)),
                               exact_pretraining=True, device=ctx.device, dtype=ctx.dtype)
    x = (r["risk"] / r["delta"])[:, :, 0].cpu().numpy()
    mean, se = x.mean(0), x.std(0, ddof=1) / math.sqrt(x.shape[0])
    slope = float(np.polyfit(np.log(ns), np.log(mean), 1)[0])
    fine = list(np.geomspace(1, 20, 50))
    return Evidence(seeds=[seed], details={"kernel limit, d=20: E[R]/||dtheta|| per n": dict(zip(map(str, ns), mean.tolist())),
                                           "log-log slope in n (the bound's: -1/2)": slope},
                    figures=[{"x": "n", "xlabel": "target samples n", "ylabel": "E[R] / ||theta_T - theta_S||",
                              "logx": True, "logy": True,
                              "title": f"cor6.3: risk per unit distance vs n, kernel limit, d=20 (slope {slope:.2f})",
                              "series": [{"kind": "points", "label": "kernel limit (Assumption 3.2)", "group": "mc",
                                          "x": list(ns), "y": mean.tolist(), "yerr": (1.96 * se).tolist()},
                                         {"kind": "line", "label": "stated first term 6/sqrt(n)", "group": "b",
                                          "x": fine, "y": [6 / math.sqrt(v) for v in fine]},
                                         {"kind": "line", "label": "with our constant 4/sqrt(n)", "group": "b",
                                          "x": fine, "y": [4 / math.sqrt(v) for v in fine], "dash": True}]}])


COR63 = Claim(
    id=f"{PAPER}.cor6.3", kind=Kind.PROB_BOUND,
    source=Source(PAPER, "§6, Corollary 6.3 (Theorem 6.1 with Corollary 6.2)"),
    statement=(r"R(\Theta(t))\le\frac{6\|\theta_T-\theta_S\|_2}{\sqrt n}"
               r"+O\Big(\sqrt{\log\tfrac{n}{\lambda_0\delta}/n}\Big)"),
    assumptions=SETTING + " Conditions of Theorem 6.1 and Corollary 6.2 (Assumption 3.2: perfect pretraining).",
    domain=Domain((Param("d", 1, math.inf, integer=True), Param("n", 1, math.inf, integer=True),
                   Param("m", 1, math.inf, integer=True)),
                  (Constraint(lambda p: p.get("n", 1) <= p.get("d", math.inf), "Assumption 3.1 needs n <= d"),)),
    stated=NB.cor63_stated(), derived=NB.cor63_derived(), stated_bound="upper",
    notes=("The O(.) term has no constant: only the first term is compared with the measured risk (ramp loss), "
           "which makes a strengthened statement (the O-term's constant read as 0).  Issue 36: the kernel-limit test "
           "of that reading now refutes (target 'stated', exact binomial against delta; until then it had "
           "refutes=False and could only confirm), and it reads the first term through the claim's stated form "
           "(stated_value), so verify mutants judges perturbed forms; it runs at two distances, 0.05 and 0.5, so "
           "that a wrong power of ||theta_T - theta_S|| is visible.  Power witnesses (judged by the same test): "
           "the first term with ||theta_T - theta_S||^2 (an exponent off by one: violated at distance 0.05, where "
           "R / (6||dtheta||/sqrt n) ~ 0.1 becomes ~2) and with n^{-3/2} for n^{-1/2} (an exponent off by one: "
           "R exceeds it at n = 20, 40); the first term with a constant off by a factor 2 (3 or 12 for 6) is "
           "not visible (R is ~10x below it).  A failure of this companion is 'does not extend' (the O-term "
           "dropped is our reading), never an erratum.  (i) 6 = 2 x 3: (11)'s first term "
           "with Corollary 6.2 substituted gives the stated first term (sympy); with our constant 2 it would be "
           "4||theta_T - theta_S||/sqrt(n).  (ii) Under Assumption 3.2 in the kernel limit (pretrained function "
           "exactly x^T theta_S, fine-tuning = NTK interpolation of X(theta_T - theta_S)), many draws at "
           "d = 20 and d = 40 with n up to d, violation frequency of the first term alone against delta = 0.1 (exact "
           "binomial, refutes).  In this limit the risk scales (up to the ramp's clipping at 1) with ||theta_T - "
           "theta_S||, so the stated first term fares the same at both distances; a wrong power of the distance would "
           "not.  For n <= 6 "
           "the O-dropped bound holds deterministically (R <= E|x^T dtheta| + sqrt(k(x,x)) sqrt(y~^T H^-1 y~) <= "
           "(1/sqrt d + sqrt 2)||dtheta|| <= 6||dtheta||/sqrt n by Cauchy-Schwarz in the RKHS and our constant 2), "
           "so such points could not fail and are not tested; (d, n) = (20, 20), (40, 20), (40, 40) can.  "
           "(iii) Literal networks (shared with thm6.1) at growing m (reported, not refuting: Theorem 6.1's width "
           "condition has no constant, so no finite width is known to be in its regime, and pretraining there is "
           "only approximately perfect, Assumption 3.2), "
           "where pretraining is only approximately perfect (ramp risk of the pretrained net against x^T theta_S about "
           "0.013-0.023 with n_S = 36, d = 6, against E|x^T theta_S| = 0.16).  The dependence on n and on ||theta_T - theta_S||: "
           "see sec6.distance (ordering in the distance) and the details (risk over the first term).  Measured: "
           "R / (6||dtheta||/sqrt n) <= 0.12 in the kernel limit at (d, n) = (20, 20), (40, 40), at most 0.16 on "
           "the literal networks; the kernel-limit risk per unit distance at d = 20 falls only like n^{-0.12} for "
           "n = 1..20 (the figure), far below the bound but not at its 1/sqrt(n) rate."),
    check=AllOf([
        Custom(_cor63_kernel, points=_cor63_points),
        Custom(_cor63_literal, points=_width_points),
        Custom(_cor63_n_dependence, why_no_points="its n-dependence figure runs a fixed grid of n at d = 20"),
    ]),
    power=(_cor63_witness("the first term 6||theta_T - theta_S||^2/sqrt(n)", lambda D, n: 6 * D**2 / math.sqrt(n),
                          "an exponent off by one on the distance"),
           _cor63_witness("the first term 6||theta_T - theta_S||/n^(3/2)", lambda D, n: 6 * D / n**1.5,
                          "an exponent off by one on n")),
)


#: the source's own algebra, which can fail and stays with the statement: (11)'s first term with Cor. 6.2 substituted
_COMPOSED = Identity("(11) first term with Cor. 6.2 substituted = 6||theta_T - theta_S||/sqrt(n)", NB.cor63_composed(),
                     NB.cor63_stated(), {NB.dist: (0, 3), NB.n: (1, 100)})
#: issue 36: the O(.) term has no constant, so the statement is inconclusive as a whole; the first term alone is
#: cor6.3.first_term (common.split_unspecified)
CLAIMS = list(split_unspecified(
    COR63, "the constant of the O(sqrt(log(n/(lambda_0 delta))/n)) term (and the constants of Theorem 6.1's conditions)",
    "a constant for the O(.) term (the supplement's proof), with which the first-term tests become tests of (11)",
    f"{PAPER}.cor6.3.first_term", "the first term 6||theta_T - theta_S||/sqrt(n) alone against the measured risk",
    keep=_COMPOSED))
