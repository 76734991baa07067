"""Sentences of 001 (Tahir, Ganguli, Rotskoff) that need a literal simulation: the order of the
limits alpha -> 0 and 'solve (11) exactly' behind Theorems 3.7-3.8, and the monotonicity in mu of
the out-of-RKHS norm of Sec. 4 / Fig. 4(d).

The networks are pretrained literally (numerics.deep_linear: gradient descent on the population
loss (4) from alpha * Wbar with (22)); the pretraining is shared with the rate claims
(text_helpers.pretrained).  Each pretrained network is reused for K target data sets (the trial
value is the mean over its K data sets, so the trials stay independent).
"""
from __future__ import annotations

import dataclasses
import math
from functools import lru_cache, partial

import numpy as np
import sympy as sp
import torch

import numerics.deep_linear as DL
from derivations import transfer as T
from numerics.least_squares import min_norm_solve
from numerics.sampling import gaussian_design
from numerics.teacher_transfer import exact_solve_transfer, out_of_span_fraction_trials, target_around
from verify.kit import (Alternative, Check, Claim, Constraint, Custom, Domain, Evidence, Kind, Param, Source, Tol, label_of,
                        OverOpenSetting, ordering_test, pick, stat_test, stated_value)

from .common import C_LAW
from .text_helpers import DIFF_NEGATIVE, DIFF_POSITIVE, PI, PRE_ALPHAS, PRE_TRIALS, pretrained

INF = math.inf
K_TASKS = {"quick": 3, "standard": 6, "full": 16}


def src(where: str) -> Source:
    return Source("tahir2024", where)


def _repeat(pre_res, k: int):
    """The pretrained weights repeated k times along the trial dimension (trial-major: i*k + j)."""
    import copy
    res = copy.copy(pre_res)
    res.Ws = [W.repeat_interleave(k, 0) for W in pre_res.Ws]
    res.converged = pre_res.converged.repeat_interleave(k, 0)
    res.upstream_converged = pre_res.upstream_converged.repeat_interleave(k, 0)
    return res


def _solve_runs(claim, ctx, p, lam):
    """Per alpha of the shared grid: the exact (lam = 0) or ridge solve on K target sets per pretrained
    network; returns [(alpha, {key: per-trial mean over the K sets (B,)}, seed)] or a Check."""
    d, L = int(p["d"]), int(p["L"])
    B, K = pick(ctx.profile, PRE_TRIALS), pick(ctx.profile, K_TASKS)
    out = []
    for a in pick(ctx.profile, PRE_ALPHAS):
        bs, _, res, _ = pretrained(ctx, d, L, a, B)
        if not bool(res.ok.all()):
            return Check(f"pretraining {label_of(p)}, alpha={a:g}", None,
                         f"{int((~res.ok).sum())} of {B} runs did not converge", refutes=False)
        gen, seed = ctx.generator(claim.id, label_of(p), a)
        r = exact_solve_transfer(_repeat(res, K), bs.repeat_interleave(K, 0), int(p["n"]), p["theta"], p["sigma"],
                                 gen, lam=lam)
        out.append((a, {k: v.reshape(B, K).mean(-1).cpu().numpy() for k, v in r.items()},
                    {k: float(v.max()) for k, v in r.items()}, seed))
    return out


def _eq12(p):
    s2 = math.sin(p["theta"]) ** 2
    return s2 + (p["sigma"] ** 2 + s2) / (p["n"] - 2)


#: extra target data sets per pretrained network for the rank-one end state only (the alpha -> 0-first order, target
#: 'derived'): its per-task variance is (sin^2 + sigma^2)^2 (3/((n-2)(n-4)) - 1/(n-2)^2) (derivations.transfer.
#: linear_transfer_risk_variance_derived), 0.89 at n = 5, so the tolerance 0.022 of (12) there needs ~3600 tasks per
#: network with 12 networks (7200 with the 6 networks of quick: before issue 22 quick had none, the order being tested
#: there only as target 'derived'; now tahir2024.text.sec3_3.order_of_limits tests it against the stated (12));
#: the exact solve keeps its K_TASKS (its tests reject by many standard errors already)
K_EXTRA_RANK_ONE = {"quick": 8000, "standard": 4000, "full": 2000}


def _rank_one_extra(ctx, claim, p, a, bs, k_extra):
    """Per pretrained network, the mean risk of the rank-one end state b beta_s (eq. (108)) over ``k_extra``
    further target data sets around the same beta_s (own seed), or None; in chunks of 500 sets per network."""
    if not k_extra:
        return None
    gen, _ = ctx.generator(claim.id, "rank-one extra", label_of(p), a)
    B, d = bs.shape
    n, total = int(p["n"]), torch.zeros(B, dtype=bs.dtype, device=bs.device)
    for done in range(0, k_extra, 500):
        k = min(500, k_extra - done)
        b_s = bs.repeat_interleave(k, 0)
        bt = target_around(b_s, p["theta"], gen)
        X = gaussian_design(B * k, n, d, gen, dtype=bs.dtype)
        y = torch.einsum("bnd,bd->bn", X, bt)
        if p["sigma"]:
            y = y + p["sigma"] * torch.randn(B * k, n, generator=gen, device=X.device, dtype=X.dtype)
        z = torch.einsum("bnd,bd->bn", X, b_s)
        b = (z * y).sum(-1) / z.square().sum(-1)
        total += DL.risk(b.unsqueeze(-1) * b_s, bt).reshape(B, k).sum(-1)
    return (total / k_extra).cpu().numpy()


@lru_cache(maxsize=None)
def _var_lt():
    return sp.lambdify((T.n, T.theta, T.sigma), T.linear_transfer_risk_variance_derived(), modules="math")


def _rank_one_variance(p):
    """Exact variance of one task's rank-one risk (n > 4; infinite for n <= 4), from derivations.transfer."""
    return float(_var_lt()(p["n"], p["theta"], p["sigma"])) if p["n"] > 4 else None


def _order_of_limits(claim, ctx, points, alpha_first: bool = False):
    """alpha_first=True: the paper's order (alpha -> 0 before the solve, features (X beta_s) v^T of Thm 3.4): the
    rank-one end state against the claim's stated (12), target 'stated'.  False: the solve at each finite alpha
    against the stated (12) (target 'stated') beside the rank-one end state (target 'derived')."""
    ev = Evidence()
    rows = []
    K, k_extra = pick(ctx.profile, K_TASKS), pick(ctx.profile, K_EXTRA_RANK_ONE)
    stated = stated_value(claim)   # the claim's (12): what the exact solve is tested against
    for p in points:
        runs = _solve_runs(claim, ctx, p, 0.0)
        if isinstance(runs, Check):
            ev.checks.append(runs)
            continue
        pred = _eq12(p)   # (12) as our derivation has it (derivations.transfer.linear_transfer_risk_derived)
        for a, m, mx, seed in runs:
            q = {**p, "alpha": a}
            ev.seeds.append(seed)
            if not alpha_first:
                ev.tests.append(stat_test(f"exact min-norm solve of (11) on features pretrained at alpha: risk vs "
                                          f"(12): {label_of(q)}", q, stated(p), m["risk"], Tol(), "stated", seed))
            r1, var = m["risk_rank_one"], None
            extra = _rank_one_extra(ctx, claim, p, a, pretrained(ctx, int(p["d"]), int(p["L"]), a,
                                                                 pick(ctx.profile, PRE_TRIALS))[0], k_extra)
            if extra is not None:   # per network: the mean over its K same-draw sets and its k_extra further sets
                r1 = (K * r1 + k_extra * extra) / (K + k_extra)
                v1 = _rank_one_variance(p)
                var = None if v1 is None else v1 / (K + k_extra)
            ev.tests.append(stat_test(f"alpha -> 0 taken first (rank-one features, the proof's order): risk vs (12): "
                                      f"{label_of(q)}", q, stated(p) if alpha_first else pred, r1, Tol(),
                                      "stated" if alpha_first else "derived", seed, variance=var,
                                      extra={"tasks_per_network": K + k_extra}))
            rows.append({"point": q, "risk exact solve": float(m["risk"].mean()),
                         "risk rank-one": float(m["risk_rank_one"].mean()), "eq12": pred,
                         "max train loss (5) exact": mx["train_loss"], "max ||beta - X^+ y||^2": mx["dist_sc"]})
            if alpha_first:
                continue
            if p["n"] < p["d"]:
                ok = mx["train_loss"] <= 1e-12
                ev.checks.append(Check(f"n < d: the exact solve interpolates the target data at alpha = {a:.3g}: "
                                       f"{label_of(p)}", ok, f"largest training loss (5) = {mx['train_loss']:.3g}",
                                       refutes=False))
            else:
                ok = mx["dist_sc"] <= 1e-10
                ev.checks.append(Check(f"n > d: the exact solve is the scratch least-squares fit X^+ y at alpha = "
                                       f"{a:.3g}: {label_of(p)}", ok,
                                       f"largest ||beta_hat - X^+ y||^2 = {mx['dist_sc']:.3g}", refutes=False))
    ev.details["order of limits"] = rows
    return ev


_OL_DOMAIN = Domain((Param("n", 3, INF, integer=True), Param("d", 2, INF, integer=True),
                     Param("L", 2, INF, integer=True), Param("theta", 0, PI / 2), Param("sigma", 0, INF)),
                    (Constraint(lambda p: p["n"] != p["d"], "n = d: the square case is not simulated"),))
_OL_BASE = [{"n": 5, "d": 10, "theta": PI / 3, "sigma": 0.5}, {"n": 30, "d": 10, "theta": PI / 3, "sigma": 0.5}]
#: the depths are those of the shared pretraining (text_helpers.PRE_DEPTHS), so no extra training is needed
_OL_POINTS = {"quick": [{**q, "L": 2} for q in _OL_BASE],
              "standard": [{**q, "L": L} for L in (2, 3) for q in _OL_BASE],
              "full": [{**q, "L": L} for L in (2, 3, 4) for q in _OL_BASE]}

ORDER_OF_LIMITS = Claim(
    id="tahir2024.text.sec3_3.order_of_limits", role="remark", kind=Kind.LIMIT,
    source=src("Sec. 3.3, eq. (11) and the sentences around it: 'W_{l<=L-1} are fixed after pretraining and W_L solves "
               "the linear regression problem with features Phi = X W_1...W_{L-1} ... When there are multiple "
               "solutions to (11), we choose the solution with minimum norm'; pretraining 'in the feature learning "
               "regime alpha -> 0' (Sec. 3), Theorem 3.4; Theorem 3.7 (12); proof App. B.6 (104)"),
    statement=(r"\Phi=\lim_{\alpha\to0}XW_1\cdots W_{L-1}=(X\beta_s)v^T:\ \mathbb E\,\mathcal R\big[W_1\cdots W_{L-1}"
               r"\,\Phi^+y\big]=\sin^2\theta+\frac{\sigma^2+\sin^2\theta}{n-2}"),
    assumptions=("Assumptions 3.1-3.2; the network pretrained by gradient flow from alpha Wbar (22) on the source, in the "
                 "feature-learning limit alpha -> 0 (Theorem 3.4: the features become (X beta_s) v^T); then (11) "
                 "solved with minimum norm on those features."),
    domain=_OL_DOMAIN,
    stated=T.linear_transfer_risk_stated(),
    notes=("Reading (issue 22; before: the solve at each finite alpha, then alpha -> 0, refuted; now the extension "
           "tahir2024.text.sec3_3.order_of_limits.finite_alpha). The paper takes alpha -> 0 first: 'Since transfer "
           "learning relies on learning features in the source task, we initialize the network in the feature "
           "learning regime alpha -> 0' (Sec. 3); Theorem 3.4 gives the pretrained features as 'lim_{alpha->0} "
           "lim_{t->oo} Phi = beta_s v^T_{L-1}'; Theorem 3.7's proof substitutes Phi = (X beta_s) v^T (104); App. "
           "D.1 fits the last layer by gradient descent from alpha = 1e-5. So (11) is solved on the limiting "
           "rank-one features. Simulated literally on the shared pretraining (alpha in [1e-2, 1e-1] at quick, down "
           "to 10^-2.5 at standard; n = 5 and 30, d = 10, L = 2 (standard: also L = 3), theta = pi/3, sigma = 0.5): "
           "the minimum-norm solve on the rank-one end state b beta_s of the pretrained direction, risk against "
           "(12) (target stated), averaged per pretrained network over its K target sets (and, at standard and "
           "full, K_EXTRA_RANK_ONE further sets, with the exact per-set variance as a floor on the standard "
           "error)."),
    check=Custom(partial(_order_of_limits, alpha_first=True), points=_OL_POINTS),
)


ORDER_OF_LIMITS_FINITE = Claim(
    id="tahir2024.text.sec3_3.order_of_limits.finite_alpha", role="remark", kind=Kind.LIMIT,
    tags=("extension",),
    source=src("Sec. 3.3, eq. (11) and the sentence after it: 'W_{l<=L-1} are fixed after pretraining and W_L solves "
               "the linear regression problem with features Phi = X W_1...W_{L-1} ... When there are multiple "
               "solutions to (11), we choose the solution with minimum norm'; Theorem 3.7 (12); proof App. B.6 uses "
               "Phi = (X beta_s) v^T (104)"),
    statement=(r"\lim_{\alpha\to0}\mathbb E\,\mathcal R\big[W_1\cdots W_{L-1}\,\Phi_\alpha^+y\big]=\sin^2\theta+"
               r"\frac{\sigma^2+\sin^2\theta}{n-2},\quad\Phi_\alpha=XW_1(\alpha)\cdots W_{L-1}(\alpha)"),
    assumptions=("Assumptions 3.1-3.2; the network pretrained by gradient flow from alpha Wbar (22) on the source; "
                 "(11) solved exactly (minimum norm) on the features pretrained at alpha; then alpha -> 0."),
    domain=_OL_DOMAIN,
    stated=T.linear_transfer_risk_stated(),
    corrected=(r"\text{(12) needs }\alpha\to0\text{ before the solve: at every }\alpha>0,\ \Phi_\alpha\text{ has rank }"
               r"\min(n,d)\ (n-1\text{ singular values }O(\alpha^{L-1}));\ n>d:\ \hat\beta=X^+y\ (\mathcal T=0);\ "
               r"n<d:\ X\hat\beta=y\ \text{(an interpolator)}"),
    notes=("The text defines linear transfer as the (minimum-norm) solution of (11) on the pretrained features; "
           "Theorem 3.7's proof substitutes the alpha -> 0 features Phi = (X beta_s) v^T. The two orders do not "
           "commute: at any alpha > 0 the pretrained W_1...W_{L-1} is invertible (its subleading singular values are "
           "O(alpha), tahir2024.rate.lemmaB1.eq50), so for n > d the solve gives beta_hat = W_1...W_{L-1} "
           "(X W_1...W_{L-1})^+ y = X^+ y, the scratch fit, whatever alpha (risk sigma^2 d/(n-d-1), T = 0); for n < d "
           "Phi has rank n and the minimum-norm solution interpolates the target data, X beta_hat = y, a weighted "
           "minimum-norm interpolator, not b beta_s. Simulated literally at alpha in [1e-2, 1e-1] (standard: down to "
           "10^-2.5), n = 5 and 30, d = 10, L = 2 (standard: also L = 3), theta = pi/3, sigma = 0.5: the exact-solve risk does not approach "
           "(12) (stated, refutes), while the rank-one end state b beta_s of the same draws does (target derived). "
           "Read as the paper's experiments do it (App. D.1: gradient descent on W_L for 1e5 steps at eta = 1e-3 from "
           "alpha = 1e-5), (12) is right: gradient descent does not move along the O(alpha) directions on that "
           "horizon (tahir2024.thm3.7 checks this draw by draw). So Theorem 3.7 needs alpha -> 0 *before* the "
           "last-layer solve (or a finite training horizon), which the text does not say; for ridge (lambda > 0, "
           "Theorem 3.8) the two orders commute (tahir2024.text.sec3_3_1.order_of_limits). The rank-one end state "
           "(target derived: the corrected order) is averaged per pretrained network over its K same-draw data sets "
           "and, at standard and full, K_EXTRA_RANK_ONE further sets around the same beta_s (12 networks x 6 sets "
           "left 13 of 16 such tests undecided at standard: the per-set variance is 0.89 at n = 5), with the exact "
           "per-set variance as a floor on the standard error (its fourth moment is infinite for n <= 8). Extension "
           "(issue 22): this was the main claim's reading before (refuted). The paper takes alpha -> 0 first: Sec. 3 "
           "'we initialize the network in the feature learning regime alpha -> 0', Theorem 3.4 'After pretraining "
           "lim_{alpha->0} lim_{t->oo} Phi = beta_s v^T', and Theorem 3.7's proof substitutes these features (104); "
           "its experiments (App. D.1) fit the last layer by gradient descent from alpha = 1e-5. Solving (11) exactly "
           "at a finite alpha is a reading the authors did not make; that it differs is worth a remark (the text "
           "could say 'alpha -> 0 before the solve'), not an erratum: tahir2024.text.sec3_3.order_of_limits is the "
           "sentence in the paper's order, where it holds."),
    check=Custom(_order_of_limits, points=_OL_POINTS),
)


def _ridge_commutes(claim, ctx, points):
    ev = Evidence()
    rows = []
    for p in points:
        runs = _solve_runs(claim, ctx, p, p["lam"])
        if isinstance(runs, Check):
            ev.checks.append(runs)
            continue
        means = [float(m["dist_rank_one"].mean()) for _, m, _, _ in runs]
        alphas = [a for a, _, _, _ in runs]
        for a, m, mx, seed in runs:
            ev.seeds.append(seed)
            rows.append({"point": {**p, "alpha": a},
                         "mean ||beta_ridge(alpha) - (126)||^2": float(m["dist_rank_one"].mean()),
                         "risk ridge(alpha)": float(m["risk"].mean()), "risk (126)": float(m["risk_rank_one"].mean())})
        a, m, _, seed = runs[-1]
        ev.tests.append(stat_test(f"||beta_ridge(alpha) - b beta_s||^2 at the smallest alpha: "
                                  f"{label_of({**p, 'alpha': a})}",
                                  {**p, "alpha": a}, 0.0, m["dist_rank_one"], Tol(rel=0, abs=1e-4, resolution=0.0),
                                  "stated", seed, margin=True))
        dec = all(means[i + 1] < means[i] for i in range(len(means) - 1))
        slope = float(np.polyfit(np.log(alphas), np.log(means), 1)[0])
        ev.checks.append(Check(f"the distance decreases as alpha -> 0: {label_of(p)}", dec,
                               "means " + ", ".join(f"{x:.3g}" for x in means) + f" at alpha = "
                               + ", ".join(f"{x:.3g}" for x in alphas) + f"; log-log slope {slope:.2f}"))
    ev.details["ridge order of limits"] = rows
    return ev


RIDGE_COMMUTES = Claim(
    id="tahir2024.text.sec3_3_1.order_of_limits", role="remark", kind=Kind.LIMIT,
    source=src("Sec. 3.3.1, eq. (14); Theorem 3.8; proof App. B.7, eqs. (121)-(126) with Phi = (X beta_s) v^T (122)"),
    statement=(r"\lim_{\alpha\to0}W_1\cdots W_{L-1}\big(\Phi_\alpha^T\Phi_\alpha+n\lambda I\big)^{-1}\Phi_\alpha^Ty="
               r"\frac{(X\beta_s)^Ty}{\|X\beta_s\|^2+n\lambda}\beta_s\quad(\lambda>0)"),
    assumptions="As tahir2024.text.sec3_3.order_of_limits, with the ridge solve (121) at lambda > 0.",
    domain=Domain(_OL_DOMAIN.params + (Param("lam", 0, INF, lower_open=True),), _OL_DOMAIN.constraints),
    notes=("The proof of Theorem 3.8 also substitutes the alpha -> 0 features; for lambda > 0 this is harmless: the "
           "O(alpha) singular directions of Phi_alpha enter the ridge solution with weight sigma_i^2/(sigma_i^2 + "
           "n lambda) -> 0, so the ridge solve on the features pretrained at alpha converges to (126) as alpha -> 0 "
           "(the limits commute; they do not at lambda = 0, tahir2024.text.sec3_3.order_of_limits). Simulated "
           "literally on the shared pretraining, lambda = 0.1, n = 5 and 30, d = 10: the squared distance to (126) "
           "is tested one-sided against 1e-4 at the smallest alpha, and its decrease over alpha is checked."),
    check=Custom(_ridge_commutes, points={k: [{**q, "lam": 0.1} for q in v] for k, v in _OL_POINTS.items()}),
    power=(Alternative("the limits commute at lambda = 0 too (the condition lambda > 0 removed)",
                       Custom(_ridge_commutes, points={k: [{**q, "lam": 0.0} for q in v] for k, v in _OL_POINTS.items()}),
                       "a condition removed: the minimum-norm solve (11) read as the ridge solve at lambda -> 0+, "
                       "as the proof of Theorem 3.7 implicitly does (the extension tahir2024.text.sec3_3.order_of_"
                       "limits.finite_alpha)"),),
)


# ============================================================================ Sec. 3.4, fine-tuning end states

FT_ALPHA = 1e-2   # one alpha of the shared pretraining grid (text_helpers.PRE_ALPHAS)
#: pretrained networks fine-tuned per point: 16 at quick (the shared pretraining has 6 there), so that the ordering of
#: bias_away_from_min_norm can reject its power witness (fine-tuning reaching X^+ y for n < d) at quick: with 6 runs
#: that witness's test (distance 0.53 [0.23, 0.84] against 1e-6) was only detected, not rejected, after the Holm
#: correction over a full run's family (it was rejected at standard, 12 runs)
FT_TRIALS = {"quick": 16, "standard": 12, "full": 32}


#: the fine-tuning runs, (seed, B, point, dtype) -> _finetune_runs' result: the power witnesses (verify mutants) judge
#: the claim's own runs instead of training again
_FT_RUNS: dict = {}


def _finetune_runs(claim, ctx, p, alpha: float = FT_ALPHA):
    """Fine-tuning (all layers, gradient descent on (5)) from the shared pretraining at ``alpha`` (FT_ALPHA unless
    given) on one target set per pretrained network; returns (||beta_ft - X^+ y||^2 (B,), seed) or a Check."""
    B = pick(ctx.profile, FT_TRIALS)
    seed = ctx.seed_for(claim.id, label_of(p))
    key = (seed, B, label_of(p), str(ctx.dtype), str(ctx.device), float(alpha))
    if key not in _FT_RUNS:
        _FT_RUNS[key] = _finetune_run(claim, ctx, p, B, alpha)
    else:
        ctx.draws += 1   # the evidence rests on simulated draws (basis 'simulation'), as on the first call
    return _FT_RUNS[key]


def _finetune_run(claim, ctx, p, B, alpha=FT_ALPHA):
    d, L, n = int(p["d"]), int(p["L"]), int(p["n"])
    bs, _, pre, _ = pretrained(ctx, d, L, alpha, B)
    gen, seed = ctx.generator(claim.id, label_of(p))
    bt = target_around(bs, p["theta"], gen)
    X = gaussian_design(B, n, d, gen, dtype=bs.dtype)
    y = torch.einsum("bnd,bd->bn", X, bt) + p["sigma"] * torch.randn(B, n, generator=gen, dtype=bs.dtype,
                                                                       device=bs.device)
    ft = DL.finetune(pre, X, y, max_move=None)   # steps below the curvature bound only (see notes)
    if not bool(ft.ok.all()):
        return Check(f"fine-tuning {label_of(p)}", None, f"{int((~ft.ok).sum())} of {B} runs did not converge; "
                     f"final excess loss {float(ft.excess.max()):.3g}", refutes=False), seed
    return (ft.beta - min_norm_solve(X, y)).square().sum(-1).cpu().numpy(), seed


def _finetune_tests(claim, ctx, points, test):
    """Per point, the fine-tuning runs of _finetune_runs judged by test(p, dist, seed) -> one test; a point
    whose runs did not converge gives _finetune_runs' Check instead."""
    ev = Evidence()
    for p in points:
        dist, seed = _finetune_runs(claim, ctx, p)
        ev.seeds.append(seed)
        if isinstance(dist, Check):
            ev.checks.append(dist)
            continue
        ev.tests.append(test(p, dist, seed))
    return ev


def _forgets(claim, ctx, points):
    """||beta_ft - X^+ y||^2 <= 1e-6 (the end state is the minimum-norm solution), one-sided."""
    which = "n > d" if all(p["n"] > p["d"] for p in points) else "n < d"
    return _finetune_tests(claim, ctx, points, _forgets_test(which))


def _bias_away_test(which):
    return lambda p, dist, seed: ordering_test(
        f"E||beta_ft - X^+ y||^2 - 1e-3 > 0 (fine-tuning does not reach the min-norm solution), {which}: "
        f"{label_of(p)}", p, 0.0, dist - 1e-3, seed, what=DIFF_POSITIVE)


def _forgets_test(which):
    return lambda p, dist, seed: stat_test(
        f"||beta_ft - X^+ y||^2 after fine-tuning, {which}: {label_of(p)}", p, 0.0, dist,
        Tol(rel=0, abs=1e-6, resolution=0.0), "stated", seed, margin=True)


def _bias_away(claim, ctx, points):
    """E||beta_ft - X^+ y||^2 > 1e-3 (the end state is not the minimum-norm solution)."""
    which = "n > d" if all(p["n"] > p["d"] for p in points) else "n < d"
    return _finetune_tests(claim, ctx, points, _bias_away_test(which))


#: issue 24 (settings the source leaves open): the pretraining's initialization scale.  The source takes alpha -> 0
#: (Sec. 3.1, 'we assume ... alpha -> 0'), which no run reaches; bias_away_from_min_norm runs at these finite alphas of
#: the shared pretraining grid (text_helpers.PRE_ALPHAS) and holds only if it holds at each (_over_alphas)
FT_ALPHAS = {"quick": (10 ** -1.5, 1e-2), "standard": (10 ** -1.5, 1e-2, 10 ** -2.5), "full": (10 ** -1.5, 1e-2, 10 ** -2.5)}


def _over_alphas(test_of):
    """Issue 24: per point, the fine-tuning runs at every alpha of FT_ALPHAS judged by ``test_of(p, dist, seed)``,
    combined into one intersection-union test (p-value: the largest over the alphas, so the statement is rejected
    only if it is rejected at every alpha; estimate and interval: that alpha's), with the per-alpha estimates,
    intervals and p-values in ``extra``; where the interval does not show the statement at every alpha, an
    undecided Check (refutes=False) names the alphas where it does and where it does not."""
    def check(claim, ctx, points):
        ev = Evidence()
        for p in points:
            group = []
            for a in pick(ctx.profile, FT_ALPHAS):
                dist, seed = _finetune_runs(claim, ctx, p, a)
                if seed not in ev.seeds:
                    ev.seeds.append(seed)
                if isinstance(dist, Check):
                    ev.checks.append(dataclasses.replace(dist, name=f"{dist.name}, alpha={a:g}"))
                    continue
                group.append((a, test_of(p, dist, seed)))
            if not group:
                continue
            rep = max(group, key=lambda at: at[1].pvalue)[1]
            table = {f"{a:g}": {"estimate": t.estimate, "ci": t.ci, "pvalue": t.pvalue} for a, t in group}
            ev.tests.append(dataclasses.replace(rep, extra={**rep.extra, "over pretraining alphas": table,
                                                            "p-value": "largest over the alphas (intersection-union)"}))
            holds = [a for a, t in group
                     if t.ci[1] <= t.predicted + t.tol and not t.ci[0] == t.ci[1] == t.estimate == t.predicted
                     and (t.sided == "upper" or t.ci[0] >= t.predicted - t.tol)]
            if len(holds) < len(group):
                ev.checks.append(Check(
                    f"{rep.label}: shown at every pretraining alpha of {[a for a, _ in group]} (issue 24)", None,
                    f"the 95% interval shows it at alpha = {holds or 'none'}, not at the others: "
                    + "; ".join(f"alpha {a:g}: estimate {t.estimate:.3g}, ci ({t.ci[0]:.3g}, {t.ci[1]:.3g}), "
                                f"p {t.pvalue:.3g}" for a, t in group), refutes=False))
        return ev
    return check


_FT_DOMAIN = Domain((Param("n", 1, INF, integer=True), Param("d", 2, INF, integer=True),
                     Param("L", 2, INF, integer=True), Param("theta", 0, PI / 2), Param("sigma", 0, INF)))
_FT_DEPTHS = {"quick": (2,), "standard": (2, 3), "full": (2, 3, 4)}

FORGETS = Claim(
    id="tahir2024.text.sec3_4.gamma_gt1_forgets", role="remark", kind=Kind.LIMIT,
    source=src("Sec. 3.4 after eq. (17): 'When the model is underparameterized gamma > 1, there is a unique global "
               "minimum in the space of beta = W_1 W_2 ... W_L. Since gradient flow converges to a global minimum "
               "(Theorem 3.5), fine tuning loses the memory of the pretrained initialization leading to zero "
               "transferability (white region in Fig. 3(b))'"),
    statement=r"n>d:\ \lim_{t\to\infty}\beta_{ft}(t)=X^+y_t=\hat\beta_{sc}\ \text{(every draw), so }\mathcal T_{ft}=0",
    assumptions="Fine-tuning by gradient flow on (5) over all layers from the pretrained weights (Sec. 3.4); n > d.",
    domain=_FT_DOMAIN,
    notes=("Exact at finite size, draw by draw, not only in expectation: for n > d the least-squares problem has one "
           "minimiser X^+ y, so the fine-tuned and the scratch predictors coincide and T_ft = 0 identically. "
           "Simulated literally: pretraining on the source (shared, alpha = 1e-2), then gradient descent on the target "
           "loss over all layers to an excess loss <= 1e-10; ||beta_ft - X^+ y||^2 is tested one-sided against "
           "1e-6 (the descent's own tolerance gives about 1e-9). d = 10, n = 20, theta = pi/3, sigma = 0.5; L = 2 "
           "(standard: also L = 3). The descent uses steps below the curvature bound without the per-step "
           "displacement cap of numerics.deep_linear.train: for n > d the end state is the unique minimiser whatever "
           "the path, and for n < d (tahir2024.text.sec3_4.bias_away_from_min_norm) the cap changes the end state by "
           "~1e-3 (numerics.deep_linear), far below the distances tested there."),
    check=Custom(_forgets, points=lambda prof: [{"n": 20, "d": 10, "L": L, "theta": PI / 3, "sigma": 0.5}
                                                for L in pick(prof, _FT_DEPTHS)]),
    power=(Alternative("the ordering reversed: for n > d fine-tuning keeps the memory of the pretrained initialization "
                       "(E||beta_ft - X^+ y||^2 > 1e-3)",
                       Custom(_bias_away, points=lambda prof: [{"n": 20, "d": 10, "L": L, "theta": PI / 3,
                                                                "sigma": 0.5} for L in pick(prof, _FT_DEPTHS)]),
                       "the overparameterized behaviour (tahir2024.text.sec3_4.bias_away_from_min_norm) carried over "
                       "to n > d, on the claim's own runs"),),
)

BIAS_AWAY = Claim(
    id="tahir2024.text.sec3_4.bias_away_from_min_norm", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 3.4 after eq. (17): 'When the network is overparameterized, however, there is a subspace of "
               "global minima. We show in Section B.8 that the pretrained initialization induces an implicit bias of "
               "gradient flow away from the minimum norm solution'"),
    statement=r"n<d:\ \lim_{t\to\infty}\beta_{ft}(t)\ne X^+y_t\quad(\mathbb E\|\beta_{ft}-X^+y\|^2>0)",
    assumptions="As tahir2024.text.sec3_4.gamma_gt1_forgets; n < d.",
    domain=_FT_DOMAIN,
    notes=("Read as: the fine-tuned end state is not the minimum-norm interpolator. Its distance to X^+ y is "
           "s^{2(L-1)} ||(I - P_row(X)) beta_s||^2 by our derivation (tahir2024.thm3.9.end_state), about 1 - gamma. "
           "Tested on the literal fine-tuning (shared pretraining at alpha = 1e-2, gradient descent over all layers) "
           "by an ordering test of E||beta_ft - X^+ y||^2 against 1e-3, far above the descent's convergence error "
           "(~1e-9), so a run that ended at the minimum-norm solution would reject it. d = 10, n = 5, theta = pi/3, "
           "sigma = 0.5; L = 2 (standard: also 3).  Settings the source leaves open (issue 24): the source fixes "
           "gradient flow to convergence from the pretrained weights, and pretraining with alpha -> 0 ('Since transfer "
           "learning ... alpha -> 0. In the following, we assume', Sec. 3.1), which no run reaches; ours was alpha = "
           "1e-2.  Run over alpha in {10^-1.5, 1e-2} at quick and {10^-1.5, 1e-2, 10^-2.5} at standard (the shared "
           "pretraining grid), the same target data at every alpha; one intersection-union test per point (rejected "
           "only if rejected at every alpha), and the claim is inconclusive, with the alphas named, where the "
           "ordering is not shown at some alpha.  The power witness runs over the same alphas.  Not open: the step of "
           "the descent (gradient flow, approximated by steps below the curvature bound to an excess loss <= 1e-10); "
           "n, d, L, theta, sigma are one point of the stated domain (n < d), not settings of the procedure."),
    check=Custom(_over_alphas(_bias_away_test("n < d")),
                 points=lambda prof: [{"n": 5, "d": 10, "L": L, "theta": PI / 3, "sigma": 0.5}
                                      for L in pick(prof, _FT_DEPTHS)]),
    power=(Alternative("the ordering reversed: for n < d fine-tuning also ends at the minimum-norm solution "
                       "(||beta_ft - X^+ y||^2 <= 1e-6)",
                       Custom(_over_alphas(_forgets_test("n < d")), points=lambda prof: [{"n": 5, "d": 10, "L": L, "theta": PI / 3, "sigma": 0.5}
                                                             for L in pick(prof, _FT_DEPTHS)]),
                       "Theorem 3.5's implicit bias (gradient flow from small init reaches X^+ y) carried over to "
                       "fine-tuning from the pretrained weights, on the claim's own runs"),),
)


# ============================================================================ Sec. 4, Fig. 4(d)

MU_GRID = (0.25, 0.5, 0.75)
MU_SIZES = {"quick": 40, "standard": 100, "full": 100}
MU_TRIALS = {"quick": 60, "standard": 200, "full": 1000}


def _mu_monotone(claim, ctx, points, reverse: bool = False):
    """Consecutive mu of MU_GRID compared one-sided (``reverse``: the power witness, decreasing in mu; same draws)."""
    ev = Evidence()
    size = pick(ctx.profile, MU_SIZES)
    B = pick(ctx.profile, MU_TRIALS)
    rows = []
    for p in points:
        p = {**p, "c_law": "ones" if int(p["c_ones"]) else "normal"}
        samples = {}
        for mu in MU_GRID:
            gen, seed = ctx.generator(claim.id, p["c_law"], mu, size)
            samples[mu] = (out_of_span_fraction_trials(B, size, size, mu, gen, c_law=p["c_law"],
                                                       dtype=ctx.dtype).cpu().numpy(), seed)
            ev.seeds.append(seed)
            rows.append({"c_law": p["c_law"], "mu": mu, "d = m*": size, "mean ||P_perp f||^2/||f||^2":
                         float(samples[mu][0].mean()), "trials": B})
        for lo, hi in zip(MU_GRID[:-1], MU_GRID[1:]):
            diff = samples[hi][0] - samples[lo][0]   # independent draws at the two mu
            q = {**p, "mu_lo": lo, "mu_hi": hi}
            ev.tests.append(ordering_test(f"E ratio(mu={hi}) - E ratio(mu={lo}) < 0 (reversed): c*={p['c_law']}, "
                                          f"d=m*={size}", q, diff, 0.0, samples[hi][1], what=DIFF_NEGATIVE)
                            if reverse else
                            ordering_test(f"E ratio(mu={hi}) - E ratio(mu={lo}) > 0: c*={p['c_law']}, d=m*={size}",
                                          q, 0.0, diff, samples[hi][1], what=DIFF_POSITIVE))
    ev.details["out-of-span fraction"] = rows
    return ev


_MU_POINTS = [{"c_law": "normal", "c_ones": 0}, {"c_law": "ones", "c_ones": 1}]
#: the law of the teacher's output weights, an open setting declared once for every §4 claim (common.C_LAW)
MU_C_LAW = C_LAW

MU_MONOTONE = Claim(
    id="tahir2024.text.sec4.mu_monotone", role="remark", kind=Kind.ORDERING,
    source=src("Sec. 4 after eq. (21): 'As expected, the norm of this projection increases monotonically with mu as "
               "shown in Fig. 4(d)'; Fig. 4(d) caption"),
    statement=r"\mu\mapsto\mathbb E\,\|P_\perp f_t^*\|^2_{L_2}/\|f_t^*\|^2_{L_2}\ \text{is increasing}",
    assumptions=("Sec. 4: x ~ N(0, I_d), teacher (20) with m* neurons on S^{d-1}, source (19) = the teacher without a "
                 "uniformly random set of mu m* neurons; P the L2 projection onto the RKHS of the pretrained model, "
                 "taken as span{relu(w*_i^T x): i not in A} (Fig. 4(a)-(b): the pretrained kernel equals the source's)."),
    domain=Domain((Param("c_ones", 0, 1, integer=True),)),
    notes=("The pretrained ReLU network itself (m = 1000, mean-field training) is not simulated: the paper's own "
           "observation that its kernel equals the source teacher's (Fig. 4(a)-(b)) is used to identify the RKHS with "
           "the span of the source neurons. Then ||P_perp f_t||^2 is (159) (derivations.kernels), averaged over "
           "random teachers and ablation sets; consecutive mu of the grid 0.25, 0.5, 0.75 (Fig. 4(d)'s range) are "
           "compared by a one-sided Monte Carlo ordering test on independent draws, d = m* = 40 (quick) or 100 (Fig. "
           "4's d = m* = 100). The source does not say how c* is drawn: c* ~ N(0, 1) (as numerics.relu) and c* = 1 "
           "are both run, as an open setting (common.C_LAW, declared once for this claim and relu.fig4ab.kernel, "
           "relu.fig4c.exponent, relu.fig4e.boundary; refuted only if the ordering fails under both laws). Scale of "
           "Fig. 4(d): its axis spans 0-0.04; with c* = 1 the fraction is about 0.005, 0.016, "
           "0.05 at mu = 0.25, 0.5, 0.75 (d = m* = 100), consistent with the axis, while c* ~ N(0, 1) gives 0.13, "
           "0.30, 0.52, so the figure suggests positive output weights (not judged: c* is not stated)."),
    check=OverOpenSetting(Custom(_mu_monotone, points=_MU_POINTS), MU_C_LAW),
    power=(Alternative("the ordering reversed: the out-of-RKHS fraction decreases with mu",
                       OverOpenSetting(Custom(partial(_mu_monotone, reverse=True), points=_MU_POINTS), MU_C_LAW),
                       "the ordering reversed, on the claim's own draws"),),
)


CLAIMS = [ORDER_OF_LIMITS, ORDER_OF_LIMITS_FINITE, RIDGE_COMMUTES, FORGETS, BIAS_AWAY, MU_MONOTONE]
