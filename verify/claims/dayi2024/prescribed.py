"""Issue 36: Thms 1, 3-8 at the step and budget the theorems prescribe, judged by verify.kit.Rate.

A point of these sweeps: ``d``, ``k``, ``act`` (common.ACTS code), ``sep`` (0 orthonormal, 1 separated rows,
2 the Claim-2 instance of Thm 8, 3 separated rows with stronger correlations: common.gram_correlated, SEP_SETTING), ``recovery`` (0 weak m >= 1/2, 1 strong m >= 3/4), ``kappa`` (the step constant,
an open setting: KAPPA_SETTING; common.KAPPA when absent) and either ``xi`` or ``alpha`` (xi = alpha sqrt(k), the
Frobenius scale of Thms 1/5).  The sampler returns T_i/u_i per instance (common.run_prescribed,
common.PRESCRIBED_DESIGN); the runs are drawn from seeds keyed by the setting, not by the claim, so the claims that
share a setting share its runs (and each claim's numbers do not depend on which others run); the seed does not name
kappa, so the runs at each kappa share their instances and noise streams (common random numbers).
"""
from __future__ import annotations

import math
import numpy as np

from derivations import lowrank as LR
from verify.kit import Evidence, OpenSetting, OverOpenSetting, Rate, per_profile

from . import common as CM

_CACHE: dict = {}
#: instances per setting (the bootstrap resamples them)
RUNS = per_profile(8, 16)


def _xi(p) -> float:
    return float(p["xi"]) if "xi" in p else float(p["alpha"]) * math.sqrt(int(p["k"]))


def _setting(p) -> tuple:
    return (int(p["k"]), round(_xi(p), 9), int(p["sep"]), int(p["act"]), float(p.get("kappa", CM.KAPPA)))


#: issue 37: the step constant kappa, open in every theorem judged here ('for a sufficiently small kappa'); the quick
#: profile runs kappa = 1/2 only, so nothing is open there
KAPPA_SETTING = OpenSetting(
    "kappa", CM.KAPPAS, "the step constant kappa of the prescribed step eta = kappa lambda/(C d)",
    "Thm 4: 'For a sufficiently small [kappa], set' (L133); Thm 5: the same words (L137); Thm 7: 'set the learning "
    "rate with scaling ,' (L195); Thm 6 (L145) and Thm 8 (L274): the step's constant is missing from the extracted "
    "text.  'Sufficiently small' admits every smaller kappa; 1/4 and 1/2 are run (the d sweeps; k and xi at 1/2).")
KAPPA_OPEN_AT = per_profile((), (KAPPA_SETTING,))
#: issue 37: alpha of xi = alpha sqrt(k) (Thms 1 and 5), open like kappa and crossed with it (every (kappa, alpha) of
#: KAPPAS x ALPHAS is run by the d sweeps at standard; the quick profile runs alpha = 1/2 only)
ALPHA_SETTING = OpenSetting(
    "alpha", CM.ALPHAS, "the constant alpha of the Frobenius scale xi = alpha sqrt(k) (Thms 1 and 5)",
    "Thm 1: 'let [xi = alpha sqrt(k)] for sufficiently small absolute constant factor' (L74); Thm 5: 'for some small "
    "[alpha]' (L137).  'Sufficiently small' admits every smaller alpha; 1/4 and 1/2 are run (the d sweeps, at both "
    "kappa; the k sweep at 1/2).")
KAPPA_ALPHA_OPEN_AT = per_profile((), (KAPPA_SETTING, ALPHA_SETTING))


#: issue 37: the separation of Thm 6's rows (as for Lemma 2, conditions.LEMMA2_SEP): the separated-rows d sweeps of Thms 6
#: and 7 run at the Gram used before (sep = 1) and a correlated one (sep = 3), crossed with kappa (standard only)
SEP_SETTING = OpenSetting(
    "sep", (1, 3), "the angular separation of the rows of Thms 6/7's separated arm (max |<w_i, w_j>|: in [0.2, 0.45] at "
                   "sep = 1, [0.7, 0.8] at sep = 3, common.gram_separated / gram_correlated)",
    "Thm 6: 'Suppose Assumptions 1-4 hold' with Assumption 4: 'For all [i != j], we have [..].' (L79, as extracted: "
    "the separation threshold is missing from the extracted text); 'very mild angular separation' (L69).  Range: the "
    "Gram used before issue 37 (sep = 1) and one with much stronger correlations (sep = 3), which a 'very mild' "
    "separation admits; the d sweeps run at both (the k sweep of Thm 6 at sep = 1).")
KAPPA_SEP_OPEN_AT = per_profile((), (KAPPA_SETTING, SEP_SETTING))


def held_over_kappa(points: list, alphas: tuple = (), seps: tuple = ()) -> dict:
    """The held points of a d sweep per profile: at kappa = 1/2 (quick), at every kappa of KAPPA_SETTING (standard,
    full; the smaller kappa first), crossed with every alpha of ``alphas`` (ALPHA_SETTING: the points then carry
    ``alpha``, not ``xi``) and every sep of ``seps`` (SEP_SETTING) where given; quick: the points as given."""
    over = [dict(({} if a is None else {"alpha": a}), **({} if sp is None else {"sep": sp}))
            for a in (tuple(alphas) or (None,)) for sp in (tuple(seps) or (None,))]

    def at(ks, overs):
        return [dict(p, kappa=kp, **o) for kp in ks for o in overs for p in points]
    return per_profile(at((CM.KAPPA,), [{}]), at(CM.KAPPAS, over))


def over_kappa(check, alpha: bool = False, sep: bool = False) -> OverOpenSetting:
    """``check`` (its Rates' held points carrying ``kappa``, and ``alpha`` / ``sep`` when asked) judged over the open
    kappa (and alpha or sep: every combination of KAPPA_SETTING x ALPHA_SETTING or x SEP_SETTING).  A d sweep whose runs were
    censored gives an undecided check, no test; it carries its point (kappa included) in ``extra['params']``
    (verify.judge.rates.Rate), so OverOpenSetting counts that kappa as run and not decided."""
    return OverOpenSetting(check, KAPPA_ALPHA_OPEN_AT if alpha else KAPPA_SEP_OPEN_AT if sep else KAPPA_OPEN_AT)


def _runs(ctx, setting, ds, R, thresholds):
    """T/u (R, len(ds), len(thresholds)) of one setting at every d of ``ds`` (one tensor, common random numbers
    across d)."""
    key = (ctx.seed, ctx.profile.name, setting, tuple(ds), R, thresholds)
    if key not in _CACHE:
        k, xi, sep, act, kappa = setting
        gen, _ = ctx.generator("dayi2024.prescribed", *map(str, setting[:4]), str(tuple(ds)))
        name, inner = CM.ACTS[act]
        c_fixed, rank_w = None, None
        if sep == 2:    # Thm 8's Claim-2 instance: a fixed random c (Assumption 3 does not apply), its own xi
            rng = np.random.default_rng(ctx.seed_for("dayi2024.prescribed.claim2", k) % (2 ** 32))
            c_fixed = rng.choice([-1.0, 1.0], k) / math.sqrt(k)
            W, _, xi = LR.claim2_features(k, c_fixed)
            gram, rank_w = W @ W.T, k - 1
        else:
            gram = {0: np.eye, 1: CM.gram_separated, 3: CM.gram_correlated}[sep](k)
        _CACHE[key] = CM.run_prescribed(gen, k=k, xi=xi, gram=gram, act_name=name, inner=inner, ds=list(ds), R=R,
                                        c_fixed=c_fixed, rank_w=rank_w, thresholds=thresholds, kappa=kappa,
                                        device=ctx.device, dtype=ctx.dtype)
    return _CACHE[key]


def sample(points, trials, gen, ctx):
    """Rate's sampler: T/u of each point (columns), ``trials`` instances (rows).  Points sharing a setting (a d
    sweep) are one tensor; a k or xi sweep runs one setting per column."""
    out = np.empty((trials, len(points)))
    groups: dict = {}
    for j, p in enumerate(points):
        groups.setdefault(_setting(p), []).append(j)
    thresholds = (0.5, 0.75) if any(int(p["recovery"]) for p in points) else (0.5,)
    for setting, cols in groups.items():
        ds = [int(points[j]["d"]) for j in cols]
        Y = _runs(ctx, setting, sorted(set(ds)), trials, thresholds)
        order = sorted(set(ds))
        for j, d in zip(cols, ds):
            out[:, j] = Y[:, order.index(d), int(points[j]["recovery"])]
    return out


REGIME = ("what would reach it: a budget beyond Thm 7's horizon 4 C d/(kappa lambda^2) (the theorem's T = O(C d/"
          "lambda^2) up to its lost constant), or larger d where the censored runs are at the smallest d")


def rate(*, ds, held_d, ks=None, held_k=None, xis=None, held_xi=None, fixed=None, trials=None) -> Rate:
    """Thm 7's order T/u = O~(d k^0 xi^0) (u = C/(kappa lambda^2)), each named parameter swept where the theorem
    lets it vary, at the prescribed step and budget; ``fixed``: why a parameter is not swept; ``trials``: instances
    per sweep point (default RUNS)."""
    sweeps, held = {"d": ds}, {"d": held_d}
    for name, xs, h in (("k", ks, held_k), ("xi", xis, held_xi)):
        if xs is not None:
            sweeps[name], held[name] = xs, h
    return Rate(exponents={"d": 1.0, "k": 0.0, "xi": 0.0}, logs={"d": CM.LOG_POWER}, sweeps=sweeps, held=held,
                sampler=sample, fixed=dict(fixed or {}), bound="upper", tol={"d": 0.0, "k": 0.25, "xi": 0.25}, trials=trials or RUNS, regime=REGIME,
                name="prescribed", quantity="T/(C/(kappa lambda^2)) (iterations in Thm 7's time scale)")


def as_extra(label: str):
    """Wrap a check so that its tests become a labelled extra (details and figures only, not the verdict): the
    step-tuned design of issue 24 beside the prescribed-step one."""
    def wrap(check):
        def run(claim, ctx, *pts):
            ev = check(claim, ctx, *pts)
            rows = [{"label": t.label, "estimate": t.estimate, "ci": list(t.ci), "bound": t.predicted,
                     "note": t.extra.get("note")} for t in ev.tests]
            return Evidence(figures=ev.figures, details={f"extra check, not in the verdict: {label}": rows,
                                                         **{f"{label} | {k}": v for k, v in ev.details.items()}},
                            seeds=ev.seeds)
        return run
    return wrap

