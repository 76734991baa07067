"""Lemma 3.3, Theorems 3.4 and 3.5 of 001_759117b8232d72ac.txt: what gradient descent on a
deep linear network (9) reaches from the initialization alpha * Wbar of App. A, eq. (22).

All three are simulated literally (numerics.deep_linear: batched full-batch gradient descent,
adaptive steps below the curvature bound) at decreasing alpha, so that the approach to the
stated limit is shown, not assumed.
"""
from __future__ import annotations

import math

import numpy as np
import torch

import numerics.deep_linear as DL
from numerics.least_squares import min_norm_solve
from numerics.sampling import gaussian_design, noisy_labels, unit_vectors
from verify.kit import Alternative, Check, Claim, Custom, Domain, Evidence, Kind, Param, Tol, label_of, per_profile, pick, stat_test

from .common import DEPTH, SIGMA, src

INIT = ("W_l(0) = alpha * Wbar_l with Wbar_l = c_l Q_l (Haar orthogonal Q_l, c_l = sqrt(1 + L - l)), which "
        "satisfies (22) with lambda = 1 (numerics.deep_linear.init_weights, kind='balanced_margin').")
ALPHAS = per_profile((1e-1, 1e-2, 1e-3), (1e-1, 1e-2, 1e-3, 1e-4))
TRIALS = per_profile(8, 24, 64)
#: Theorem 3.5 runs 16 at quick: with 8 its power witness (the limit alpha -> 0 dropped: ||beta(T) - X^+ y||^2 =
#: 1.7e-3 [1.1e-3, 2.3e-3] at alpha = 0.1, n = 6, against the tolerance 1e-4) was only detected, not rejected, after
#: the Holm correction over a full run's family (it was rejected at standard)
TRIALS35 = per_profile(16, 24, 64)
DEPTHS = per_profile((2, 3), (2, 3, 4))
P_D = Param("d", 2, math.inf, integer=True, doc="width d_l = d")
P_ALPHA = Param("alpha", 0, math.inf, lower_open=True, doc="initialization scale alpha > 0")
_domain = Domain((P_D, DEPTH, P_ALPHA))
_domain35 = Domain((P_D, Param("n", 1, math.inf, integer=True, doc="samples"), DEPTH, SIGMA, P_ALPHA))


def _init_check(Ws0, alpha, lab) -> Check:
    lam = DL.min_invariant_eigenvalue([W / alpha for W in Ws0])
    ok = bool((lam > 0.5).all())
    return Check(f"initialization satisfies (22): {lab}", ok, f"min eigenvalue of Wbar_l^T Wbar_l - "
                 f"Wbar_(l+1) Wbar_(l+1)^T = {float(lam.min()):.3g} (lambda = 1 by construction)", refutes=False)


def _alpha_figure(title, ylabel, rows):
    series = []
    for lab, pts in rows.items():
        series.append({"kind": "points", "label": lab, "group": lab, "x": [a for a, _, _ in pts],
                       "y": [max(m, 1e-300) for _, m, _ in pts], "yerr": [h for _, _, h in pts]})
    return {"x": "alpha", "xlabel": r"$\alpha$ (log scale: smaller to the left)", "ylabel": ylabel,
            "title": title, "logy": True, "logx": True, "series": series}


#: the training runs of this module, (run, seed, trials, point label, alpha, dtype) -> the run's output: the power
#: witnesses (verify mutants) judge the same runs as the claim's check instead of training them again
_RUNS: dict = {}


def _cached(run, seed, key, make):
    k = (getattr(run, "__name__", str(run)), seed) + tuple(key)
    if k not in _RUNS:
        _RUNS[k] = make()
    return _RUNS[k]


def _approach(claim, ctx, points, run, metric_names, tols, title, tested_alpha: str = "smallest", trials=TRIALS):
    """Run ``run(config, alpha, gen, trials) -> dict of per-trial metrics (and 'ok')`` at every point
    (a config and an alpha); per config, test the smallest alpha against 0 (one-sided margin) and
    check the trend over the alphas.  ``tested_alpha='largest'`` (a power witness: the limit alpha -> 0 dropped)
    tests the largest alpha of the grid instead."""
    ev = Evidence()
    trials = pick(ctx.profile, trials)
    configs: dict[str, tuple[dict, list]] = {}
    for p in points:
        cfg = {k: v for k, v in p.items() if k != "alpha"}
        configs.setdefault(label_of(cfg), (cfg, []))[1].append(p["alpha"])
    rows = {m: {} for m in metric_names}
    for lab, (cfg, alphas) in configs.items():
        alphas = sorted(alphas, reverse=True)
        means = {m: [] for m in metric_names}
        for a in alphas:
            gen, seed = ctx.generator(claim.id, lab, a)
            out = _cached(run, seed, (trials, lab, a, str(ctx.dtype)), lambda: run(cfg, a, gen, trials))
            ev.seeds.append(seed)
            if not bool(out["ok"].all()):
                ev.checks.append(Check(f"{lab}, alpha={a:g}", None, f"{int((~out['ok']).sum())} of {trials} runs "
                                       "did not converge", refutes=False))
                break
            for m in metric_names:
                x = out[m].detach().cpu().numpy()
                means[m].append(float(x.mean()))
                rows[m].setdefault(lab, []).append((a, float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))))
                if a == (alphas[-1] if tested_alpha == "smallest" else alphas[0]):
                    ev.tests.append(stat_test(f"{m}: {lab}, alpha={a:g}", {**cfg, "alpha": a}, 0.0, x,
                                              Tol(rel=0, abs=tols[m]), "stated", seed,
                                              {"steps_max": int(out["steps"].max())}, margin=True))
        for m in metric_names:
            v = means[m]
            if len(v) == len(alphas):
                slope = float(np.polyfit(np.log(alphas), np.log(np.maximum(v, 1e-300)), 1)[0])
                floor = 1e-3 * tols[m]  # at or below it the metric is numerically converged to 0
                dec = all(v[i + 1] < v[i] or abs(v[i + 1]) <= floor for i in range(len(v) - 1))
                ev.checks.append(Check(f"{m} decreases as alpha -> 0: {lab}", dec,
                                       "means " + ", ".join(f"{x:.2e}" for x in v) + f" at alpha = "
                                       + ", ".join(f"{a:g}" for a in alphas) + f"; log-log slope {slope:.2f} "
                                       f"(values below {floor:.0e} count as converged)",
                                       refutes=False, extra={"slope": slope}))
    for m in metric_names:
        ev.figures.append(_alpha_figure(title, m, rows[m]))
    return ev


# ------------------------------------------------------------------ Lemma 3.3
def _lemma33_grid(profile):
    return [{"d": d, "L": L, "alpha": a} for L in pick(profile, DEPTHS) for d in (8, 16) for a in (1e-2, 1.0)]


def _lemma33_run(d, L, alpha, gen, trials, dtype):
    bs = unit_vectors(trials, d, gen, dtype=dtype)
    W0 = DL.init_weights(trials, d, L, alpha, gen, dtype=dtype)
    lab = label_of({"d": d, "L": L, "alpha": alpha})
    return bs, _init_check(W0, alpha, lab), DL.train(W0, "population", beta_s=bs, tol=1e-24, alpha=alpha)


def _lemma33(claim, ctx, points, scale=None) -> Evidence:
    """The end state against beta_s (``scale``: a power witness, against scale(alpha) * beta_s instead)."""
    ev = Evidence()
    trials = pick(ctx.profile, TRIALS)
    for p in points:
        d, L, alpha = int(p["d"]), int(p["L"]), p["alpha"]
        lab = label_of(p)
        gen, seed = ctx.generator(claim.id, lab)
        bs, init, res = _cached(_lemma33_run, seed, (trials, lab, str(ctx.dtype)),
                                lambda: _lemma33_run(d, L, alpha, gen, trials, ctx.dtype))
        ev.checks.append(init)
        if not bool(res.ok.all()):
            ev.checks.append(Check(lab, None, "did not converge", refutes=False))
            continue
        target, what = (bs, "beta_s") if scale is None else (scale(alpha) * bs, "(1 - alpha^2/2) beta_s")
        ev.tests.append(stat_test(f"||beta(T) - {what}||^2: {lab}", dict(p), 0.0,
                                  DL.risk(res.beta, target).cpu().numpy(),
                                  Tol(rel=0, abs=1e-6), "stated", seed, {"steps_max": int(res.steps.max()),
                                                                          "max_final_loss": float(res.loss.max())},
                                  margin=True))
        ev.seeds.append(seed)
    return ev


# ------------------------------------------------------------------ Theorem 3.4
def _thm34_run(cfg, alpha, gen, trials):
    d, L = cfg["d"], cfg["L"]
    bs = unit_vectors(trials, d, gen)
    pre = DL.pretrain(trials, d, L, alpha, bs, gen)
    Vh = torch.linalg.svd(DL.features(pre.Ws))[2]
    return {"ok": pre.ok, "steps": pre.steps, "rank-one distance of Phi": DL.rank_one_distance(DL.features(pre.Ws)),
            "1 - |u_1 . beta_s|": 1 - DL.feature_alignment(pre.Ws, bs),
            # for the power witness 'beta_s the right singular vector': v_1 the top right singular vector of Phi
            "1 - |v_1 . beta_s|": 1 - (Vh[..., 0, :] * bs).sum(-1).abs() / bs.norm(dim=-1)}


def _thm34_grid(profile):
    return [{"d": 12, "L": L, "alpha": a} for L in pick(profile, DEPTHS) for a in pick(profile, ALPHAS)]


def _thm34(claim, ctx, points, metrics=("rank-one distance of Phi", "1 - |u_1 . beta_s|"), tested_alpha="smallest"):
    return _approach(claim, ctx, points, _thm34_run, metrics, {m: 1e-3 for m in metrics},
                     "Thm 3.4: hidden features sparsify to rank one along beta_s as alpha -> 0", tested_alpha)


# ------------------------------------------------------------------ Theorem 3.5
def _thm35_run(cfg, alpha, gen, trials):
    d, n, L = cfg["d"], cfg["n"], cfg["L"]
    beta = unit_vectors(trials, d, gen)
    X = gaussian_design(trials, n, d, gen)
    y = noisy_labels(X, beta, cfg["sigma"], gen)
    sc = DL.scratch(X, y, L, alpha, gen)
    return {"ok": sc.ok, "steps": sc.steps, "||beta(T) - X^+ y||^2": (sc.beta - min_norm_solve(X, y)).square().sum(-1)}


def _thm35_grid(profile):
    return [{"d": 12, "n": n, "L": L, "sigma": 0.5, "alpha": a} for L in pick(profile, per_profile((2,), (2, 3), (2, 3, 4)))
            for n in (6, 18) for a in pick(profile, ALPHAS)]


def _thm35(claim, ctx, points, tested_alpha="smallest"):
    return _approach(claim, ctx, points, _thm35_run, ("||beta(T) - X^+ y||^2",), {"||beta(T) - X^+ y||^2": 1e-4},
                     "Thm 3.5: gradient descent from small init reaches the min-norm solution X^+ y", tested_alpha,
                     trials=TRIALS35)


CLAIMS = [
    Claim(
        id="tahir2024.lemma3.3", kind=Kind.LIMIT,
        source=src("Lemma 3.3; proof App. B.2, eqs. (35)-(49)"),
        statement=r"\lim_{t\to\infty}\beta(t)=\beta_s\ \text{under gradient flow on the population loss (4)}",
        assumptions="Initialization satisfying (22); x ~ N(0, I_d); d_l = d. " + INIT,
        domain=_domain,
        notes=("Simulated at alpha = 1e-2 and alpha = 1 (the lemma holds for any alpha with (22)), L = 2..4, "
               "d = 8, 16, by gradient descent on the excess population loss 1/2||beta - beta_s||^2 (the "
               "population loss also contains sigma^2/2, which the proof's 'L -> 0' omits: it converges to "
               "sigma^2/2, not 0). Tolerance 1e-6 on ||beta(T) - beta_s||^2, tested one-sided (the judge's float64 "
               "resolution is 1e-9)."),
        check=Custom(_lemma33, points=_lemma33_grid),
        power=(Alternative("lim beta(t) = (1 - alpha^2/2) beta_s: an O(alpha^2) shrinkage left by the conserved "
                           "imbalance alpha^2 Dbar of (35)",
                           Custom(lambda claim, ctx, points: _lemma33(claim, ctx, points,
                                                                      scale=lambda a: 1 - a ** 2 / 2),
                                  points=_lemma33_grid),
                           "a term of order alpha^2 added: the end state is balanced only up to alpha^2 (the invariant "
                           "(35) is alpha^2 Dbar, not 0), so a referee may expect the product to miss beta_s by as much; "
                           "negligible at alpha = 1e-2 (2.5e-9 in the squared distance), 0.25 at alpha = 1"),),
    ),
    Claim(
        id="tahir2024.thm3.4", kind=Kind.LIMIT,
        source=src("Theorem 3.4 (Yun et al.); proof App. B.3, Lemma B.1, eqs. (50)-(77)"),
        statement=r"\lim_{\alpha\to0}\lim_{t\to\infty}\Phi=\beta_s v_{L-1}^T,\quad\Phi=W_1W_2\cdots W_{L-1}",
        assumptions="Pretraining by gradient flow on the population loss (4) from alpha * Wbar with (22). " + INIT,
        domain=_domain,
        notes=("Shown as alpha decreases: the rank-one distance (||Phi||_F^2 - ||Phi||_op^2)/||Phi||_F^2 and "
               "1 - |u_1 . beta_s| (u_1 the top left singular vector of Phi) after pretraining to convergence; "
               "the smallest alpha is tested one-sided against a tolerance of 1e-3, the trend and its log-log "
               "slope are reported (Lemma B.1 predicts O(alpha^2) corrections)."),
        check=Custom(_thm34, points=_thm34_grid),
        power=(Alternative("lim Phi = v beta_s^T (beta_s the right singular vector of Phi: the transposed form)",
                           Custom(lambda claim, ctx, points: _thm34(claim, ctx, points,
                                                                    metrics=("1 - |v_1 . beta_s|",)),
                                  points=_thm34_grid),
                           "the order of the factors reversed: a slip between Phi = W_1...W_{L-1} and its transpose "
                           "(features X Phi read as the rows)"),
               Alternative("Phi is rank one along beta_s already at alpha = 1e-1 (the limit alpha -> 0 dropped)",
                           Custom(lambda claim, ctx, points: _thm34(claim, ctx, points, tested_alpha="largest"),
                                  points=_thm34_grid),
                           "a condition removed: pretraining from any small-ish initialization reaches the rank-one "
                           "features within the tolerance 1e-3")),
    ),
    Claim(
        id="tahir2024.thm3.5", kind=Kind.LIMIT,
        source=src("Theorem 3.5 (Yun et al.); proof App. B.4, eqs. (78)-(90)"),
        statement=r"\lim_{\alpha\to0}\lim_{t\to\infty}\beta(t)=\hat\beta=X^+y_t",
        assumptions="Gradient flow on the empirical loss (5) from alpha * Wbar with (22); n < d and n > d. " + INIT,
        domain=_domain35,
        notes=("Scratch training simulated literally at decreasing alpha on both sides of n = d (d = 12, n = 6 "
               "and 18, sigma = 0.5), L = 2, 3; the squared distance of the end state to X^+ y is tested "
               "one-sided against 1e-4 at the smallest alpha. For n > d the least-squares solution is unique "
               "and reached at every alpha."),
        check=Custom(_thm35, points=_thm35_grid),
        power=(Alternative("gradient descent reaches X^+ y within 1e-4 already at alpha = 1e-1 (the limit alpha -> 0 "
                           "dropped)",
                           Custom(lambda claim, ctx, points: _thm35(claim, ctx, points, tested_alpha="largest"),
                                  points=_thm35_grid),
                           "a condition removed: as for one layer from a zero initialization, a deep linear network "
                           "would reach the minimum-norm solution from any small initialization"),),
    ),
]
