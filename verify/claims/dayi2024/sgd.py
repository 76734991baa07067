"""The online-SGD guarantees of 003_83d15a9763fa9a30.txt: Theorems 1/5 and 4 (orthonormal features,
Frobenius and spectral scales), Theorems 2/6 (angularly separated features) and Theorem 7 (the generic
weak/strong recovery statement under Conditions 1-3).

Every rate, step size and horizon of these theorems was lost in extraction; what survives is their
structure (L5: 'converge to the teacher in [..] iterations'; L74-75: 'the iteration complexity does not
depend on fine-grained properties of the activation'; L84: 'sample complexity scaling linearly in d as we
show online SGD does'; L98: 'achieve linear dependence in d').  So the checks are:

* iterations to weak (m >= 1/2) and strong (m >= 3/4) recovery are O~(d) at fixed k: every instance (c, c^,
  and its initial coordinate along u) is run at every d (a factor 4 in d), its hitting times are measured in its
  own unit C/(kappa lambda^2), and the exponent is the log-log slope of the Kaplan-Meier median over d with a
  paired bootstrap interval; the claim tested is exponent <= 1 + 2 s, the slope d log^2 d has on the grid
  (``common.LOG_READING``), which also excludes the GLM's d^{p*-1} = d^2;
* the same for an activation of information exponent 3 (sigma(r .) = h_3), which a GLM would need
  ~ d^{p*-1} = d^2 iterations for;
* the final overlap has the sign of phi(0) (given the sign condition at initialization).

Censored runs stay in the estimate (Kaplan-Meier, per-instance censoring levels budget/unit); a median that
is undefined (more than half censored at some d) leaves the test undecided, never a false confirmation.
"""
from __future__ import annotations

import math

import numpy as np

from derivations import lowrank as LR
from verify.kit import (AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Kind, Param, Rate, per_profile,
                        pick, stated_slope)

from . import common as CM
from . import prescribed as PR
from .common import ASSUME_ORTHO, ASSUME_SEP, CHAIN, HITTING, STEP_SIZE, mark_reconstructed, src

#: d grids (a factor 4 in d) and instances per d
DS = per_profile([32, 64, 128], [64, 128, 256])
RUNS = per_profile(32, 40)   # the tensor holds runs x steps x d x arms: its cost is now linear in the runs
#: the step grid nu (eta = nu lambda_i/C_i, the same at every d): sqrt(2)-spaced from 8 sqrt(2)/d_min down to
#: 2/d_max (measured at quick seed 0, ReLU k = 5: the best nu d was 5.6-8 at d = 32 and 2.8-5.6 at d = 128)
GRID_HI, GRID_LO = 8.0 * math.sqrt(2.0), 2.0
#: the common budget, in units of median(C/lambda^2) times d_max: T* to strong recovery at d_max was ~ 0.2 of
#: that unit (quick seed 0), so a truth of d^{3/2} would still be observed and d^2 is censored at d_max, which
#: the censoring-aware lower bound sees
TAU = per_profile(0.75, 0.75)
_CACHE: dict = {}
R5 = math.sqrt(5)
#: the arms simulated together (one tensor) whenever any of them is requested: the settings of Thms 1/4/5/6/7
CANON = {(5, 0): ((0.5 * R5, 0), (1.0, 0), (1.0, 1)), (5, 2): ((0.5 * R5, 0),)}


def _arms_key(p):
    return (int(p["k"]), int(p["act"]))


def grid_of(ds) -> list:
    return CM.step_grid(GRID_LO / max(ds), GRID_HI / min(ds))


def scaling_runs(ctx, points):
    """Run every point (k, xi, sep, act) of ``points`` over the d grid and the step grid (common.run_tuned);
    points sharing (k, act) go into one tensor.  Results are cached per (seed, profile, group) and drawn from
    seeds that do not depend on the claim id, so a claim's numbers do not depend on which other claims run."""
    ds, R = pick(ctx.profile, DS), pick(ctx.profile, RUNS)
    groups: dict = {}
    for p in points:
        groups.setdefault(_arms_key(p), []).append(p)
    out = {}
    for (k, act), pts in groups.items():
        req = {(float(p["xi"]), int(p["sep"])) for p in pts}
        canon = CANON.get((k, act), ())
        arms = tuple(sorted(set(canon) | req)) if req <= set(canon) else tuple(sorted(req))
        key = (ctx.seed, ctx.profile.name, k, act, arms, tuple(ds), R)
        if key not in _CACHE:
            gen, seed = ctx.generator("dayi2024.sgd.tuned", f"k={k}", f"act={act}", str(arms))
            name, inner = CM.ACTS[act]
            arm_list = [(xi, CM.gram_separated(k) if sep else np.eye(k)) for xi, sep in arms]
            scs = CM.run_tuned(gen, k=k, arms=arm_list, act_name=name, inner=inner, ds=ds, R=R, grid=grid_of(ds),
                               budget_units=pick(ctx.profile, TAU) * max(ds), device=ctx.device, dtype=ctx.dtype)
            _CACHE[key] = (dict(zip(arms, scs)), seed)
        scs, seed = _CACHE[key]
        for p in pts:
            out[CM.label_of_point(p)] = (p, scs[(float(p["xi"]), int(p["sep"]))], seed)
    return out


def _pstar(act: int) -> int:
    return {0: 1, 1: 1, 2: 3, 3: 2, 4: 1, 5: 1, 6: 4}[int(act)]


def scaling_fits(ctx, points) -> dict:
    """label -> (point, Tuned, seed, {which: fit_tuned})."""
    out = {}
    for lab, (p, sc, seed) in scaling_runs(ctx, points).items():
        out[lab] = (p, sc, seed, {w: CM.fit_tuned(sc, w, seed + w) for w in (0, 1)})
    return out


def _fits_cached(ctx, points):
    key = ("fits", ctx.seed, ctx.profile.name, tuple(CM.label_of_point(p) for p in points))
    if key not in _CACHE:
        _CACHE[key] = scaling_fits(ctx, points)
    return _CACHE[key]


def exponent_evidence(claim, ctx, points, *, bound_of, upper: bool, which=(0, 1), sign_check: bool = True,
                      what_claim: str = "", target: str = "derived") -> Evidence:
    """Tests of the tuned exponent of d against ``bound_of(ds)`` (upper or lower), one per point and threshold."""
    ev = Evidence()
    fig_series = []
    for lab, (p, sc, seed, fits) in _fits_cached(ctx, points).items():
        bound = bound_of(sc.ds)
        for w in which:
            what = "weak (m >= 1/2)" if w == 0 else "strong (m >= 3/4)"
            fit = fits[w]
            rel = "<=" if upper else ">="
            ev.tests.append(CM.tuned_test(f"{lab}: exponent of d of the step-tuned iterations to {what} {rel} "
                                          f"{bound:.3f}{what_claim} (d in {sc.ds})", dict(p, recovery=what), fit,
                                          sc.ds, bound=bound, upper=upper, trials=len(sc.scale), seed=seed,
                                          extra={"competing_exponent": max(2, _pstar(p["act"]) - 1)},
                                          target=target))
            ev.seeds.append(seed)
            ev.details[f"{lab} | {what}"] = {k: v for k, v in fit.items()}
            fig_series.append((f"{lab}, {what}", sc.ds, fit["tstar"], fit))
        if sign_check:
            ev.checks.append(_sign_check(lab, sc))
        ev.details[f"{lab} | instances"] = {"phi0": sc.phi0.tolist(), "lambda": sc.lam.tolist(),
                                            "lambda/C": sc.scale.tolist(), "step grid nu": sc.grid,
                                            "budget (steps, every d)": sc.budget}
    ev.figures.append(CM.loglog_figure(f"{claim.id}: step-tuned median iterations to recovery vs d (log-log)",
                                       fig_series, ylabel=r"best-step median iterations $T^*(d)$"))
    return ev


def scaling_evidence(claim, ctx, points, *, which=(0, 1)) -> Evidence:
    """The claim: the step-tuned exponent of d is at most the stated order's slope over the grid (1, read from the
    stated form) plus the allowance for the logs O~ hides."""
    return exponent_evidence(claim, ctx, points, upper=True, which=which,
                             bound_of=lambda ds: stated_slope(claim, ds, "d") + CM.log_allowance(ds, CM.LOG_POWER),
                             what_claim=f" = 1 + {CM.LOG_POWER} s (O~(d) read as d log^{CM.LOG_POWER} d)")


def _witness(offset: float, upper: bool, name: str, why: str, points):
    """A power witness: the same evidence judged against the exponent 1 + offset (+ the log allowance for an upper
    bound; a lower bound 'iterations grow at least like d^{1+offset}' gets none)."""
    def bound_of(ds):
        return 1.0 + offset + (CM.log_allowance(ds, CM.LOG_POWER) if upper else 0.0)

    def check(claim, ctx, points):
        return exponent_evidence(claim, ctx, points, upper=upper, bound_of=bound_of, sign_check=False,
                                 what_claim=f" (witness: {name})", target="stated")
    return Alternative(name, Custom(check, points=points), why)


def _sign_check(lab, sc) -> Check:
    """Every run (any step of the grid) that reached strong recovery at the largest d ends with sign(m_T) =
    sign(phi(0))."""
    d = sc.ds[-1]
    sgn = np.where(sc.phi0 >= 0, 1.0, -1.0)[None, :]
    hit = sc.hits[d][..., 1] >= 0
    agree = np.sign(sc.m_final[d]) == sgn
    return Check(f"{lab}: every run that reached strong recovery at d={d} ends with sign(m_T) = sign(phi(0))",
                 bool(agree[hit].all()), f"{int(agree[hit].sum())} of {int(hit.sum())} runs over the step grid "
                 f"(censored: {int((~hit).sum())}); lambda/|phi(0)| min over instances = "
                 f"{float(np.min(sc.lam / np.abs(sc.phi0))):.3f}")


def _domain():
    return Domain((Param("k", 3, 50, integer=True), Param("xi", 0, 20, lower_open=True),
                   Param("sep", 0, 1, integer=True, doc="0 orthonormal rows, 1 angularly separated rows"),
                   Param("act", 0, 6, integer=True, doc=CM.ACT_DOC)))


def _pt(k, xi, sep, act):
    return {"k": k, "xi": xi, "sep": sep, "act": act}


_THM1 = per_profile([_pt(5, 0.5 * R5, 0, 0), _pt(5, 0.5 * R5, 0, 2)],
                    [_pt(5, 0.5 * R5, 0, 0), _pt(5, 0.5 * R5, 0, 2)])
_THM5 = per_profile([_pt(5, 0.5 * R5, 0, 0)], [_pt(5, 0.5 * R5, 0, 0)], [_pt(5, 0.5 * R5, 0, 0), _pt(9, 1.5, 0, 0)])
_THM4 = per_profile([_pt(5, 1.0, 0, 0)], [_pt(5, 1.0, 0, 0)], [_pt(5, 1.0, 0, 0), _pt(9, 1.0, 0, 0)])
_THM6 = per_profile([_pt(5, 1.0, 1, 0)], [_pt(5, 1.0, 1, 0)], [_pt(5, 1.0, 1, 0), _pt(9, 1.0, 1, 0)])
_THM7 = per_profile([_pt(5, 0.5 * R5, 0, 0), _pt(5, 1.0, 0, 0), _pt(5, 1.0, 1, 0)],
                    [_pt(5, 0.5 * R5, 0, 0), _pt(5, 1.0, 0, 0), _pt(5, 1.0, 1, 0)])

_NOTES = " ".join((CM.TUNED_DESIGN, CM.TUNED_TARGET, STEP_SIZE, HITTING, CHAIN, CM.LOG_READING,
                   "Issue 24: before, every run used eta = kappa lambda/(C d), so the drift time 1/(eta lambda) ~ d built "
                   "the claimed exponent into the design; now the step is tuned per d over one grid fixed for all d (nu "
                   "from 2/d_max to 8 sqrt(2)/d_min: nu d spans 0.5-11.3 at d_min and 2-45 at d_max; the earlier "
                   "kappa = 1/2, nu d = 1/2, lies below the grid at d_max, where every measured optimum had nu d >= 2.8, "
                   "so smaller steps would only be slower).  "
                   "(STEP_SIZE's eta = kappa lambda/(C d) and HITTING's per-d budget describe that earlier design; the "
                   "thresholds, Kaplan-Meier medians and pairing across d are kept.)  "
                   "Quick: d in {32, 64, 128}, 32 instances; standard: d in {64, 128, 256}, 40 instances, each at every "
                   "step of the grid (10 steps); k = 5 (the full "
                   "profile adds k = 9).  Odd k (no atoms of <c^, c> or 1^T c at 0).  The settings of Thms 1 (ReLU arm), 4, "
                   "5, 6 and 7 are simulated together in one tensor and shared between these claims."))
#: what the step-tuned design measured (issue 24), quoted in the notes so that a reader sees why the verdicts moved
MEASURED = (
    "Measured with this design (seed 0).  Quick (d 32-128, 32 instances, 10 steps): in every ReLU setting the best "
    "step for weak recovery at d = 32 is the grid's largest (nu d = 11.3: at such d a large step's noise carries m "
    "to 1/2 by chance), so those tests are undecided; strong recovery: exponents 1.37 (xi = sqrt(5)/2), 1.31 "
    "(xi = 1), 1.35 (separated) with intervals up to 1.55-1.75 against the bound 1.49 (undecided); the h_3 arm of "
    "Thm 1: T* = 705, 5109, 12176 to strong recovery (slope 2.9 from d = 32 to 64, 1.25 from 64 to 128), best step "
    "on the grid's edge at d = 32.  Standard (d 64-256, 40 instances, thm7): strong recovery 1.15 [1.02, 1.34], "
    "1.14 [1.05, 1.29], 1.15 [1.02, 1.52]; weak 1.26 [1.11, 1.48], 1.36 (best step on the edge at d = 64), "
    "1.34 [1.14, 1.68]; bound 1.415.  The best step's nu d falls from 8-11 at d = 32-64 to 2.8-4 at d = 128-256: "
    "the step ~ 1/d of the theorem emerges from the tuning instead of being imposed, but only from d ~ 128, and "
    "below it the step-tuned iteration count grows faster than d.  So these confirmations became inconclusive at "
    "quick (and Thm 7 at standard): what would decide them is a larger d range (d up to ~1024: the chain costs "
    "O(runs x steps), ~ 4x the standard budget) or a source-stated step schedule (lost).  Since T*(d) <= T(d) at "
    "the theorem's own step, a step-tuned exponent significantly above 1 + 2 s refutes (as LOG_READING reads O~(d) "
    "on a finite window); one within it confirms only that the best step of the grid achieves O~(d).")
_STATED_NOTE = ("Stated form: the order d of the iteration count (derivations.lowrank.sgd_iterations_stated; the "
                "surviving 'linear in d', L84, L98), an upper bound; each test's bound is its log-log slope over the d "
                "grid (read through verify.kit.stated_slope) plus the allowance for the logs O~ hides.")
_STAT = r"T_{\rm weak},\,T_{\rm strong}=\tilde O(d\,\mathrm{poly}(k))\ \text{at}\ \eta\asymp\lambda/(Cd)"


#: the prescribed-step sweeps (issue 36): d over a factor 16 (quick and standard; instances per profile in PR.RUNS),
#: k over odd values (no atoms of <c^, c> at 0), xi (Thm 7 only) over a factor 4 around the spectral scale
PR_DS = per_profile([32, 64, 128], [32, 128, 512])
PR_DS_H3 = per_profile([16, 32, 64], [32, 64, 128])    # h_3: Thm 7's unit C/lambda^2 is ~ 10^3 steps
PR_KS = per_profile([3, 5, 9], [3, 5, 9])
PR_XIS = per_profile([0.5, 1.0, 2.0], [0.5, 1.0, 2.0])
_BOTH = (0, 1)
_WHY_K_STRONG = ("the k sweep is judged at weak recovery: the step's dependence on eps is lost (L195), and at the "
                 "fixed kappa = 1/2 the noise floor of m at k = 9 lies near 3/4 (measured: strong recovery censored)")


def _held(base: dict, recoveries=_BOTH, **over) -> list:
    return [dict(base, **over, recovery=w) for w in recoveries]


def _rate(arm: dict, *, ks=True, xi_fixed: str | None = None, xis=False, ds=PR_DS, arms=None, label: str = "",
          alphas: tuple = (), seps: tuple = ()) -> Rate:
    return _rate_of(arm, ks=ks, xi_fixed=xi_fixed, xis=xis, ds=ds, arms=arms, label=label, alphas=alphas, seps=seps)


#: issue 36: instances of the k sweep of Thm 6 (separated rows) at standard: with 16 its exponent of k was 0.14
#: [-0.05, 0.39] against the bound 0 + 0.25, 'about 68 trials per point would decide' (standard, seed 0); 96 leave
#: room for the estimate's own spread
K_TRIALS_THM6 = per_profile(8, 96)


def _rate_k_apart(arm: dict, *, k_trials, xi_fixed: str) -> list:
    """Two Rates of one setting: d swept with the instances of every claim (PR.RUNS, runs shared with Thm 7) and k
    swept apart with ``k_trials`` instances (where the interval of the exponent of k was too wide to decide)."""
    rd = _rate_of(arm, ks=False, xi_fixed=xi_fixed, label="d", seps=PR.SEP_SETTING.values)
    rd.fixed = dict(rd.fixed, k="swept by this claim's second Rate (more instances)")
    rk = _rate_of(arm, ks=True, xi_fixed=xi_fixed, trials=k_trials, label="k")
    rk.sweeps = {"k": rk.sweeps["k"]}
    rk.held = {"k": rk.held["k"]}
    rk.fixed = dict(rk.fixed, d="swept by this claim's first Rate (the instances of every claim)")
    return [rd, rk]


def _rate_of(arm: dict, *, ks=True, xi_fixed: str | None = None, xis=False, ds=PR_DS, arms=None,
             trials=None, label: str = "", alphas: tuple = (), seps: tuple = ()) -> Rate:
    """The prescribed-step Rate of one setting ``arm`` (k, xi or alpha, sep, act), d swept at every arm of ``arms``
    (default: ``arm``) and at every kappa of PR.KAPPA_SETTING (issue 37; kappa = 1/2 only at quick), k at d = 64
    (quick) / 128 (standard) at weak recovery (_WHY_K_STRONG), xi at the same d and k = 5 when ``xis`` (cost ~ d x
    the largest unit C/(kappa lambda^2) among the instances); k and xi at kappa = 1/2 (CM.KAPPA_OPEN).  ``label``:
    the Rate's details key where a claim joins several (verify.kit.Rate.label).  ``alphas``: the d sweep also at every
    alpha of xi = alpha sqrt(k) (PR.ALPHA_SETTING, crossed with kappa; standard only; k at the arm's alpha); ``seps``:
    likewise at every Gram of PR.SEP_SETTING."""
    no_d = {k: v for k, v in arm.items() if k != "k"}
    fixed = {}
    if not ks:
        fixed["k"] = ks_reason(arm)
    if xi_fixed:
        fixed["xi"] = xi_fixed
    half = dict(kappa=CM.KAPPA)
    r = PR.rate(ds=ds, held_d=PR.held_over_kappa([h for a in (arms or [arm]) for h in _held(a)], alphas, seps),
                ks=PR_KS if ks else None,
                held_k=per_profile(_held(dict(no_d, d=64, **half), (0,)), _held(dict(no_d, d=128, **half), (0,))) if ks else None,
                xis=PR_XIS if xis else None,
                held_xi=per_profile(*[_held({"d": d, "k": 5, "sep": arm["sep"], "act": arm["act"], **half}) for d in (64, 128)])
                if xis else None,
                fixed=fixed, trials=trials)
    r.label = label
    return r


def _sep_arm_rate() -> Rate:
    """Thm 7's separated-rows arm (issue 37: its d sweep at both Grams of PR.SEP_SETTING), a Rate of its own so that
    it is judged over the Gram apart from the orthonormal arms (which do not run it); k and xi are swept on the
    orthonormal arm (the claim's first Rate)."""
    r = _rate({"k": 5, "xi": 1.0, "sep": 1, "act": 0}, ks=False, seps=PR.SEP_SETTING.values,
              label="separated rows (open Gram)")
    r.fixed = {"k": "swept on the orthonormal arm (this claim's first Rate)",
               "xi": "swept on the orthonormal arm (this claim's first Rate)"}
    return r


def ks_reason(arm) -> str:
    return "one k (5) is simulated for this arm: Thm 7's unit C/lambda^2 of h_3 is ~ 10^3 steps (cost)"


def _prescribed_witness(name: str, why: str, exponent: float, bound: str, arms) -> Alternative:
    """A power witness on the same prescribed-step runs: the exponent of d stated as ``exponent`` (O(.): 'upper',
    Theta(.): 'theta', without the log allowance)."""
    r = Rate(exponents={"d": exponent, "k": 0.0, "xi": 0.0}, sweeps={"d": PR_DS}, held={"d": arms},
             sampler=PR.sample, fixed={"k": "a witness of the exponent of d only", "xi": "a witness of d only"},
             bound=bound, tol=0.25 if bound == "theta" else 0.0, trials=PR.RUNS, name="prescribed",
             quantity="T/(C/(kappa lambda^2))")
    return Alternative(name, r, why)


_TUNED_LABEL = "step-tuned design (issue 24): exponent of d of the best-step iterations"


def _scaling_claim(id, where, statement, assumptions, notes, points, rates, open_alpha: bool = False,
                   sep_rates=()) -> Claim:
    """A claim judged at the prescribed step by the Rates ``rates`` (every parameter its order names), with the
    step-tuned design of issue 24 as an extra, labelled check (details and figure, not the verdict); judged over the
    open kappa (issue 37: PR.over_kappa), and alpha where ``open_alpha`` (Thms 1/5); ``sep_rates`` (the separated-rows
    arm, Thms 6/7) are judged apart over kappa and the Gram (PR.SEP_SETTING: the orthonormal arms do not run it).  The
    power witnesses run at kappa = 1/2, alpha = 1/2 and sep = 1 (the runs of every profile)."""
    arms = [h for r in (*rates[:1], *sep_rates[:1]) for h in r.held["d"]["standard"]
            if h["kappa"] == CM.KAPPA and h.get("alpha", CM.ALPHA) == CM.ALPHA and h["sep"] != 3]
    tuned = Custom(PR.as_extra(_TUNED_LABEL)(scaling_evidence), points=points)
    if sep_rates:
        check = AllOf([*([PR.over_kappa(AllOf(list(rates)))] if rates else []),
                       PR.over_kappa(AllOf(list(sep_rates)), sep=True), tuned])
    else:
        check = PR.over_kappa(AllOf([*rates, tuned]), alpha=open_alpha)
    return Claim(id=id, kind=Kind.ASYMPTOTIC, source=src(where), statement=statement, assumptions=assumptions,
                 domain=_domain(), notes=notes + " " + CM.PRESCRIBED_DESIGN + " " + _WHY_K_STRONG.capitalize() + ".  " + _NOTES + " " + MEASURED + " "
                 + _STATED_NOTE,
                 stated=LR.sgd_iterations_stated(), stated_order=("d",), stated_bound="upper",
                 check=check,
                 power=(_prescribed_witness("O~(d^{1/2}): exponent 1/2 lower",
                                            "an upper bound tightened by half a power of d (as for a sqrt(d) sample "
                                            "complexity)", 0.5, "upper", arms),
                        _prescribed_witness("Theta(d^2): the GLM's d^{p*-1} at p* = 3",
                                            "iterations growing like the from-scratch GLM of information exponent 3 "
                                            "(the contrast the theorems draw)", 2.0, "theta", arms)))


CLAIMS = [
    _scaling_claim("dayi2024.thm1", "Theorem 1 (informal, L73-75), abstract (L5)",
                   _STAT + r",\ \xi=\alpha\sqrt k,\ \text{independent of the Hermite profile of }\sigma",
                   ASSUME_ORTHO + " xi = alpha sqrt(k) with a small constant alpha (open: 1/4 and 1/2, CM.ALPHA_OPEN).",
                   "Orthonormal rows, Frobenius scale.  Two activations: ReLU (information exponent 1) and the normalized "
                   "h_3 (sigma(r .) = h_3, information exponent 3, where a GLM would need ~ d^2 iterations): both must "
                   "stay within O~(d), which is the 'does not depend on fine-grained properties of the activation' part."
                   + CM.ALPHA_OPEN,
                   _THM1,
                   [_rate({"k": 5, "alpha": 0.5, "sep": 0, "act": 0}, xi_fixed="Thm 1 ties xi = alpha sqrt(k): it moves with k",
                          label="ReLU", alphas=CM.ALPHAS),
                    _rate({"k": 5, "alpha": 0.5, "sep": 0, "act": 2}, ks=False, ds=PR_DS_H3,
                          xi_fixed="Thm 1 ties xi = alpha sqrt(k)", label="h_3",
                          arms=[{"k": 5, "alpha": 0.5, "sep": 0, "act": a} for a in (2, 5)], alphas=CM.ALPHAS)],
                   open_alpha=True),
    _scaling_claim("dayi2024.thm5", "Theorem 5 (L136-139) with the proof of Thm 5 (L246-248)",
                   _STAT + r",\ \langle w_i,w_j\rangle=\delta_{ij},\ \xi=\alpha\sqrt k",
                   ASSUME_ORTHO + " xi = alpha sqrt(k), alpha small (open: 1/4 and 1/2, CM.ALPHA_OPEN).",
                   "The formal version of Thm 1 (ReLU); the full profile adds k = 9 (xi = 1.5)." + CM.ALPHA_OPEN, _THM5,
                   [_rate({"k": 5, "alpha": 0.5, "sep": 0, "act": 0}, xi_fixed="Thm 5 ties xi = alpha sqrt(k): it moves with k",
                          alphas=CM.ALPHAS)], open_alpha=True),
    _scaling_claim("dayi2024.thm4", "Theorem 4 (L132-135) with its proof (L243-245)",
                   _STAT + r",\ \langle w_i,w_j\rangle=\delta_{ij},\ \xi=1",
                   ASSUME_ORTHO + " xi = 1 (spectral scale).",
                   "Orthonormal rows at the spectral scale xi = 1 (ReLU); the full profile adds k = 9.", _THM4,
                   [_rate({"k": 5, "xi": 1.0, "sep": 0, "act": 0}, xi_fixed="Thm 4 fixes the spectral scale xi = 1")]),
    _scaling_claim("dayi2024.thm6", "Theorem 6 (L143-146), Theorem 2 (informal, L80-81), proof of Thm 6 (L250-252)",
                   _STAT + r",\ |\langle w_i,w_j\rangle|\le1-\theta\ (i\ne j),\ \xi=1",
                   ASSUME_SEP + " xi = 1.",
                   "Angularly separated rows: fixed Gram matrices with off-diagonal entries up to 0.45 (sep = 1) and "
                   "0.7-0.8 (sep = 3; CM.GRAM_OPEN) (ReLU); the same instances at every d.  Thm 2's side remark about the linearized model is checked by dayi2024.fig2.  "
                   "Issue 36: the k sweep runs apart with 96 instances at standard (K_TRIALS_THM6; with the 16 of "
                   "the d sweep its exponent of k was 0.14 [-0.05, 0.39] against 0 + 0.25, 'about 68 trials per "
                   "point would decide'; with 96: -0.02 [-0.10, 0.08], standard seed 0)." + CM.GRAM_OPEN,
                   _THM6, [],
                   sep_rates=_rate_k_apart({"k": 5, "xi": 1.0, "sep": 1, "act": 0}, k_trials=K_TRIALS_THM6,
                                           xi_fixed="Thm 6's scale of xi is lost (L80: 'unable to show .. at the same "
                                                    "scale as Theorem 1'); xi = 1 is ours, Thm 7 sweeps xi")),
    _scaling_claim("dayi2024.thm7", "Theorem 7 (L194-201), proof App. B.3 (L584-590); Condition 3 (L189-191)",
                   r"\text{Conditions 1-3},\ \eta\asymp\lambda/(Cd):\ m_{T_1}\ge\tfrac12\ \text{(weak)},\ "
                   r"m_t\ge1-\epsilon\ \forall t\in[T_2,T]\ \text{(strong)},\ T_1,T_2=O(Cd/\lambda^2)",
                   "Conditions 1-3 (unbiased gradients, variance bounds, the population-gradient lower bound lambda); "
                   "initialization |m_0| >= gamma/sqrt(d) with sign(m_0) = sign(phi(0)). " + CM.SETTING,
                   "The generic statement, checked on the settings of Thms 4-6: both hitting times O~(d) at "
                   "eta = kappa lambda/(C d), and the recovered sign = sign(phi(0)).  lambda and C are the exact Condition-3 "
                   "constant and the Monte Carlo gradient variance of each instance (each instance's time is measured in "
                   "its own unit C/(kappa lambda^2), Thm 7's time scale)." + CM.GRAM_OPEN, _THM7,
                   [_rate({"k": 5, "xi": 1.0, "sep": 0, "act": 0}, xis=True,
                          arms=[{"k": 5, "alpha": 0.5, "sep": 0, "act": 0}, {"k": 5, "xi": 1.0, "sep": 0, "act": 0}])],
                   sep_rates=[_sep_arm_rate()]),
]

CLAIMS = mark_reconstructed(CLAIMS)   # issue 22: every form of 003 tested here is ours

#: claims reading the same cached runs (prescribed._runs (the prescribed-step sweeps of each setting) and scaling_runs (the step-tuned extra)): a --jobs run gives them to one worker
RUN_TOGETHER = ((
    "dayi2024.thm1",
    "dayi2024.thm5",
    "dayi2024.thm4",
    "dayi2024.thm6",
    "dayi2024.thm7",
),)
