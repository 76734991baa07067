"""Checkable sentences of the abstract, running text and figure captions of 001 (Tahir, Ganguli,
Rotskoff) about the closed forms: orderings, monotonicity, signs, where an optimum or a region
lies, and whether an axis can show what it shows under the paper's own assumptions.

Each sentence is encoded as its source states it; a deliberately wider reading is tagged
"extension" (its failure is not an erratum) and the in-context reading is the main claim.
Orderings over a whole domain are hypothesis searches of the claim's Domain (50-digit mpmath on
the closed forms (10), (13), (15), (17) of derivations/); where a finite-size statement can be
simulated cheaply, a Monte Carlo ordering test with common random numbers is added
(text_helpers.ordering_test: confirmed only when the whole 95% CI lies on the stated side).
Simulation-heavy sentences (order of limits, Sec. 4) are in text_sim.py.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from hypothesis import strategies as st

from derivations import deep_linear as DLF
from derivations import tahir_text as TT
from derivations import transfer as T
from derivations import wishart as W
from numerics.tahir_text import coupling_cost_trials, scratch_transfer_common
from numerics.scratch import min_norm_risk
from verify.kit import (AllOf, Check, Claim, Constraint, Custom, Domain, Evidence, Expectation, Identity, Kind,
                        Param, PropertySearch, Source, Tol, label_of, pick)

from .text_helpers import HALF_PI, PI, R_ridge_limit, R_sc, T_ft_stated, T_lt, ordering_test, prec, trig

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
EX_SLOW = {"quick": 30, "standard": 150, "full": 1000}        # searches whose every example costs more
MC_TRIALS = {"quick": 1000, "standard": 4000, "full": 20000}


def _mc_ordering(rows, trials, sampler_label):
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


# ============================================================================ abstract

def _well_repr_holds(p):
    with prec(p["gamma"], 1 - p["gamma"], p["sigma"]):
        return T_lt(p["gamma"], 0.0, p["sigma"]) > 0


def _well_repr_show(p):
    with mpmath.workdps(DPS):
        return {"T_lt": float(T_lt(p["gamma"], 0.0, p["sigma"])), "R_sc": float(R_sc(p["gamma"], p["sigma"])),
                "R_lt": 0.0}


def _theta0_rows(p, B, gen, ctx):
    n, d = int(p["n"]), int(p["d"])
    r_sc, r_lt = scratch_transfer_common(B, n, d, [p["theta"]], [p["sigma"]], gen, dtype=ctx.dtype)
    return (r_sc - r_lt)[:, 0, 0], "E R_sc - E R_lt > 0 (finite size, literal min-norm fits)"


WELL_REPRESENTED = Claim(
    id="tahir2024.text.abstract.well_represented", kind=Kind.ORDERING,
    source=src("Abstract: 'when the target task is well represented by the feature space of the pretrained model, "
               "transfer learning outperforms training from scratch'"),
    statement=r"\theta=0\ (\beta_t\in\mathrm{span}\,\Phi):\ \mathcal T_{lt}(\gamma,0,\sigma)>0\quad\forall\gamma\ne1,\ \sigma\ge0",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_SIGMA, Param("theta", 0, 0), Param("n", 3, INF, integer=True),
                   Param("d", 1, INF, integer=True)), ()),
    notes=("Read in the deep linear model of Sec. 3, the paper's worked case: the target is 'well represented' by "
           "the pretrained features (span{beta_s}, Thm 3.4) exactly when beta_t = beta_s, theta = 0; 'transfer "
           "learning' is linear transfer (the abstract's next sentence names linear transfer and fine-tuning; for "
           "fine-tuning (17) itself gives T_ft = 0 at gamma > 1, so it cannot 'outperform' there); 'outperforms' is "
           "strict, T > 0. On (13) at theta = 0: T = 1 - gamma + gamma sigma^2/(1 - gamma) > 0 for gamma < 1, and "
           "T = sigma^2/(gamma - 1) for gamma > 1, which is 0 at sigma = 0: with noiseless labels and gamma > 1 "
           "scratch training recovers beta_t exactly, so transfer ties (both risks 0, also at finite n > d + 1), it "
           "does not outperform. The search covers sigma >= 0, gamma in (0, 20] minus 1. A finite-size Monte Carlo "
           "ordering (literal min-norm fits of both models on the same data) is added at noisy points on both "
           "sides of gamma = 1 (the point sigma = 0 has zero-variance samples, so it is decided by the closed form "
           "only)."),
    check=AllOf([
        PropertySearch(examples=EX, name="T_lt(gamma, theta=0, sigma) > 0 on eq. (13)", holds=_well_repr_holds, show=_well_repr_show,
                       strategy=lambda: st.fixed_dictionaries({
                           "gamma": st.one_of(st.just(2.0), st.floats(1e-6, 20.0)).filter(lambda g: g != 1),
                           "sigma": st.one_of(st.just(0.0), st.floats(0.0, 20.0))})),
        Custom(_mc_ordering(_theta0_rows, MC_TRIALS, "theta0"),
               points=[{"gamma": 0.5, "sigma": 0.2, "theta": 0.0, "n": 20, "d": 40},
                       {"gamma": 1.5, "sigma": 0.2, "theta": 0.0, "n": 60, "d": 40}]),
    ]),
)


def _limit_T_ft_derived(theta, sigma, L, gamma=0.0):
    """Our limit T_ft = (1-gamma) k (2 cos theta - k), k = s^{L-1}, s the root of
    derivations.deep_linear.finetune_scale_limit_polynomial at gamma (gamma < 1)."""
    g = mpmath.mpf(gamma)
    c2 = 1 - g
    b2 = g * (1 - g + mpmath.mpf(sigma) ** 2) / (1 - g)
    s = DLF.finetune_scale_mp(b2, c2, int(L), dps=DPS)
    k = s ** (int(L) - 1)
    c, _ = trig(theta)
    return (1 - g) * k * (2 * c - k)


def _strong_overlap_holds(p):
    with mpmath.workdps(DPS):
        return T_lt(0.0, p["theta"], p["sigma"]) > 0 and T_ft_stated(0.0, p["theta"]) > 0


def _strong_overlap_show(p):
    with mpmath.workdps(DPS):
        return {"T_lt(gamma->0)": float(T_lt(0.0, p["theta"], p["sigma"])),
                "T_ft(gamma->0), (17)": float(T_ft_stated(0.0, p["theta"]))}


def _strong_overlap_derived(p):
    with mpmath.workdps(DPS):
        return _limit_T_ft_derived(p["theta"], p["sigma"], p["L"], 0.0) > 0


def _small_gamma_rows(p, B, gen, ctx):
    r_sc, r_lt = scratch_transfer_common(B, int(p["n"]), int(p["d"]), [p["theta"]], [p["sigma"]], gen,
                                         dtype=ctx.dtype)
    return (r_sc - r_lt)[:, 0, 0], "E R_sc - E R_lt > 0 at small gamma (finite size)"


_SO_DOMAIN = Domain((Param("theta", 0, PI / 3, upper_open=True, doc="overlap above the pi/3 threshold of Sec. 3.4"),
                     P_SIGMA, Param("L", 2, INF, integer=True), Param("gamma", 0, INF),
                     Param("n", 3, INF, integer=True), Param("d", 1, INF, integer=True)))

STRONG_OVERLAP = Claim(
    id="tahir2024.text.abstract.strong_overlap", kind=Kind.ORDERING,
    source=src("Abstract: 'when the feature space overlap between the source and target tasks is sufficiently "
               "strong, both linear transfer and fine-tuning improve performance, especially in the low data limit'"),
    statement=(r"\exists\theta_0>0:\ \forall\theta<\theta_0,\ \sigma\ge0:\ \lim_{\gamma\to0}\mathcal T_{lt}>0\ "
               r"\text{and}\ \lim_{\gamma\to0}\mathcal T_{ft}>0"),
    assumptions=ASSUME + " Fine-tuning of depth L >= 2.",
    domain=_SO_DOMAIN,
    notes=("Read with theta_0 = pi/3, the threshold the paper itself gives for fine-tuning (Sec. 3.4), and 'in the "
           "low data limit' as gamma -> 0. (13): T_lt -> cos^2 theta; (17): T_ft -> 2 cos theta - 1; both > 0 for "
           "theta < pi/3 and every sigma. Searched on the stated forms over theta in [0, pi/3), sigma in [0, 20]. "
           "Our derived fine-tuning limit (tahir2024.thm3.9: T_ft = (1-gamma) k (2 cos theta - k), k = s^{L-1}) is "
           "checked too (target derived: k -> 1 as gamma -> 0, depths 2-8). At small but finite gamma and sigma > 0 the derived "
           "k = s^{L-1} exceeds 1 (s^2 - 1 ~ gamma sigma^2), so the derived zero-transfer angle arccos(k/2) lies below "
           "pi/3: e.g. theta = 1.046, sigma = 2, L = 2, gamma = 1e-3 gives T_ft < 0 by our form; only the limit "
           "gamma -> 0 is claimed. Linear transfer "
           "is also simulated at small gamma (literal min-norm fits, d = 100, n = 10). The wider reading 'the "
           "benefit is largest in the low data limit' is tahir2024.text.abstract.strong_overlap.largest_at_low_data "
           "(extension)."),
    check=AllOf([
        PropertySearch(examples=EX, name="lim_{gamma->0} T_lt > 0 and lim_{gamma->0} T_ft > 0 (eqs. (13), (17))",
                       holds=_strong_overlap_holds, show=_strong_overlap_show,
                       strategy=lambda: st.fixed_dictionaries({
                           "theta": st.one_of(st.just(0.0), st.floats(0.0, PI / 3, exclude_max=True)),
                           "sigma": st.one_of(st.just(0.0), st.floats(0.0, 20.0))})),
        PropertySearch(examples=EX_SLOW, name="derived fine-tuning limit (1-gamma) k (2 cos theta - k) > 0 as gamma -> 0",
                       holds=_strong_overlap_derived, refutes=False,
                       strategy=lambda: st.fixed_dictionaries({
                           "theta": st.floats(0.0, PI / 3 - 1e-3), "sigma": st.floats(0.0, 5.0),
                           "L": st.integers(2, 8)})),
        Custom(_mc_ordering(_small_gamma_rows, MC_TRIALS, "small-gamma"),
               points=[{"theta": PI / 4, "sigma": 0.5, "L": 2, "gamma": 0.1, "n": 10, "d": 100}]),
    ]),
)


def _largest_low_holds(p):
    g, th, sg = p["gamma"], p["theta"], p["sigma"]
    with prec(g, 1 - g, th, sg):
        return T_lt(g, th, sg) <= T_lt(0.0, th, sg)


LARGEST_LOW = Claim(
    id="tahir2024.text.abstract.strong_overlap.largest_at_low_data", kind=Kind.ORDERING,
    source=src("Abstract, 'especially in the low data limit', read as 'the benefit of linear transfer is largest "
               "as gamma -> 0'"),
    statement=r"\mathcal T_{lt}(\gamma,\theta,\sigma)\le\lim_{\gamma'\to0}\mathcal T_{lt}(\gamma',\theta,\sigma)\quad\forall\gamma\ne1",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, Param("theta", 0, PI / 3, upper_open=True), P_SIGMA), (NOT_ONE,)),
    tags=("extension",),
    notes=("Extension: 'especially' is read as a maximum at gamma -> 0. It holds at sigma = 0 (T = 1 - gamma - sin^2 "
           "for gamma < 1, -sin^2 for gamma > 1), but for sigma > 0 the scratch risk diverges at gamma = 1 and T_lt "
           "with it (the paper's own 'anomalous positive transfer'), so T_lt is largest near gamma = 1, not at "
           "gamma -> 0. For fine-tuning (17) the reading holds ((1-gamma)(2 cos - 1) is largest at gamma -> 0)."),
    check=PropertySearch(examples=EX, name="T_lt(gamma) <= T_lt(gamma -> 0), eq. (13)", holds=_largest_low_holds,
                         bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 5.0)}),
)


# ============================================================================ Sec. 2.1 and Fig. 5

def _far_kl_holds(p):
    """Witness in the deep linear model: theta = pi/3, gamma = 0.1, sigma^2 = (1 - cos theta)/delta."""
    delta = mpmath.mpf(p["delta"])
    with mpmath.workdps(DPS):
        th = PI / 3
        sg = mpmath.sqrt((1 - mpmath.cos(mpmath.mpf(th))) / delta)
        return TT.kl_unit_teachers_value(th, sg) >= delta * (1 - mpmath.mpf(10) ** -30) and T_lt(0.1, th, sg) > 0


FAR_KL = Claim(
    id="tahir2024.text.sec2_1.far_apart.kl", kind=Kind.BOUND,
    source=src("Sec. 2.1: 'we select a member of each family and prove that, within our model, one can achieve "
               "positive transfer (T > 0) with distributions that are arbitrarily far apart' (phi-divergence member: "
               "D_KL)"),
    statement=r"\forall\delta>0\ \exists(\theta,\sigma,\gamma):\ D_{KL}(p_s\|p_t)\ge\delta\ \text{and}\ \mathcal T_{lt}>0",
    assumptions=ASSUME + " D_KL of (34) for unit teachers: (1 - cos theta)/sigma^2.",
    domain=Domain((Param("delta", 0, INF, lower_open=True),)),
    stated=TT.kl_unit_teachers(),
    notes=("Witness theta = pi/3, gamma = 0.1, sigma^2 = (1 - cos theta)/delta: D_KL = delta and T_lt = 0.9 + "
           "0.1 sigma^2/0.9 - 3/4 > 0. Inside Assumption 3.2 (unit teachers) D_KL = (1 - cos theta)/sigma^2 <= "
           "1/sigma^2, so 'arbitrarily far' needs sigma -> 0 (at a fixed noise level the divergence is bounded); "
           "the paper's Theorem 2.2 witnesses instead change the teacher norm (g = c f), outside Assumption 3.2. "
           "Searched over delta in (0, 1e12]."),
    check=PropertySearch(examples=EX, name="D_KL >= delta with T_lt > 0 (witness)", holds=_far_kl_holds,
                         bounds={"delta": (1e-12, 1e12)}),
)


def _far_w1_holds(p):
    with mpmath.workdps(DPS):
        return TT.w1_upper_value(HALF_PI) >= mpmath.mpf(p["delta"])


def _far_w1_show(p):
    with mpmath.workdps(DPS):
        return {"sup W1 <= 2 sqrt(2/pi) sin(pi/4)": float(TT.w1_upper_value(HALF_PI))}


def _coupling_sampler(p, B, gen, ctx):
    return coupling_cost_trials(B, int(p["d"]), p["theta"], gen, dtype=ctx.dtype)


_COUPLING = Expectation(
    points=[{"delta": 1.0, "theta": th, "d": 5} for th in (PI / 6, HALF_PI)],
    predicted=lambda p: float(TT.w1_upper_value(p["theta"])), sampler=_coupling_sampler, target="derived",
    trials={"quick": 4000, "standard": 20000, "full": 200000},
    name="coupling cost E|x^T(beta_s - beta_t)| = 2 sqrt(2/pi) sin(theta/2) (derived upper bound on W1)")

FAR_W1 = Claim(
    id="tahir2024.text.sec2_1.far_apart.w1", kind=Kind.BOUND,
    source=src("Sec. 2.1: 'we select a member of each family and prove that, within our model, one can achieve "
               "positive transfer (T > 0) with distributions that are arbitrarily far apart' (IPM member; Fig. 5(b) "
               "plots W1)"),
    statement=r"\forall\delta>0\ \exists(\theta,\sigma,\gamma):\ W_1(p_s,p_t)\ge\delta\ \text{and}\ \mathcal T_{lt}>0",
    assumptions=ASSUME,
    domain=Domain((Param("delta", 0, INF, lower_open=True), Param("theta", 0, HALF_PI), Param("d", 1, INF, integer=True))),
    stated=TT.w1_upper(),
    corrected=(r"W_1(p_s,p_t)\le\sqrt{2/\pi}\,\|\beta_s-\beta_t\|=2\sqrt{2/\pi}\sin(\theta/2)\le2/\sqrt\pi\ "
               r"\text{under Assumption 3.2; arbitrarily large only for teachers of unequal norms}"),
    notes=("'Within our model' is read as the deep linear model of Sec. 3, where T is computed (Assumptions 3.1-3.2, "
           "unit teachers). There the coupling that shares x and the label noise moves only y, by |x^T(beta_s - "
           "beta_t)|, so W1(p_s, p_t) <= sqrt(2/pi)||beta_s - beta_t|| = 2 sqrt(2/pi) sin(theta/2) <= 2/sqrt(pi) = "
           "1.128 for every theta in [0, pi/2], sigma and d (derived, derivations.tahir_text.w1_upper; its value is "
           "checked by Monte Carlo of the literal coupling, target derived). So no pair of the model is farther "
           "apart than 1.128 in W1 (and the Dudley metric, <= W1, is below it too): the statement fails for every "
           "delta > 1.128. The Dudley member is refuted separately for delta >= 2 (tahir2024.thm2.2.dudley). The "
           "reading with teachers of other norms (beta_t = c beta_s, as Theorem 2.2's witnesses) is "
           "tahir2024.text.sec2_1.far_apart.w1.free_norm (extension), where it holds."),
    check=AllOf([
        PropertySearch(examples=EX, name="sup over the model of W1(p_s, p_t) >= delta (necessary for a witness)", holds=_far_w1_holds,
                       show=_far_w1_show, strategy=lambda: st.fixed_dictionaries({"delta": st.floats(1e-6, 1e6)})),
        _COUPLING,
    ]),
)


def _free_norm_holds(p):
    delta, sg = mpmath.mpf(p["delta"]), mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        c = 1 + mpmath.sqrt(mpmath.pi) * delta + sg + 1  # then (sqrt(sigma^2 + (c-1)^2) - sigma)/sqrt(pi) >= delta
        return (TT.w1_lower_distance_value(c - 1, sg) >= delta
                and TT.transferability_in_span_value(0.5, c, sg) > 0)


FAR_W1_FREE = Claim(
    id="tahir2024.text.sec2_1.far_apart.w1.free_norm", kind=Kind.BOUND,
    source=src("Sec. 2.1 (as tahir2024.text.sec2_1.far_apart.w1), read with targets beta_t = c beta_s of any norm, "
               "as the witnesses g = c f of Theorem 2.2"),
    statement=r"\forall\delta>0\ \exists c:\ \beta_t=c\beta_s,\ W_1(p_s,p_t)\ge\delta,\ \mathcal T_{lt}>0",
    assumptions="Assumption 3.1; beta_s unit, beta_t = c beta_s (outside Assumption 3.2's equal norms).",
    domain=Domain((Param("delta", 0, INF, lower_open=True), P_SIGMA)),
    stated=TT.transferability_in_span(),
    tags=("extension",),
    notes=("Extension beyond Assumption 3.2. W1 >= (sqrt(sigma^2 + (c-1)^2) - sigma)/sqrt(pi) (test function "
           "|y - x^T beta_s|/sqrt 2, derived) grows without bound in c, and for a target in span{beta_s} linear "
           "transfer has E R_lt = sigma^2/(n-2) -> 0 while E R_sc -> (1-gamma) c^2 + gamma sigma^2/(1-gamma) at "
           "gamma = 0.5 (derived, derivations.tahir_text.transferability_in_span): T > 0. Witness c = 2 + sigma + "
           "sqrt(pi) delta."),
    check=PropertySearch(examples=EX, name="W1 >= delta and T_lt > 0 at beta_t = c beta_s (witness)", holds=_free_norm_holds,
                         bounds={"delta": (1e-9, 1e9), "sigma": (0.0, 100.0)}),
)


def _axis_holds(p):
    with mpmath.workdps(DPS):
        return TT.w1_upper_value(p["theta"]) >= 526


def _axis_show(p):
    with mpmath.workdps(DPS):
        return {"W1_upper_bound": float(TT.w1_upper_value(p["theta"])),
                "W1_lower_bound": float(TT.w1_lower_value(p["theta"], p["sigma"])),
                "max_over_theta_in_[0,pi/2]": float(TT.w1_upper_value(HALF_PI)),
                "max_over_theta_in_[0,pi]": float(TT.w1_upper_value(PI))}


FIG5_AXIS = Claim(
    id="tahir2024.text.fig5.w1_axis", kind=Kind.BOUND,
    source=src("App. E, Fig. 5(b): horizontal axis W1(p_s, p_t) with tick values 526-529; caption: 'We generate "
               "source and target distributions according to the setup in Section 3'"),
    statement=r"W_1(p_s,p_t)\in[526,529]\ \text{for the plotted pairs}",
    assumptions=ASSUME + " Any d (the figures use d = 500), any sigma >= 0.",
    domain=Domain((Param("theta", 0, PI, doc="searched over [0, pi], wider than Assumption 3.2's [0, pi/2]"),
                   P_SIGMA, Param("d", 1, INF, integer=True))),
    stated=TT.w1_upper(),
    corrected=(r"0\le W_1(p_s,p_t)\le2\sqrt{2/\pi}\sin(\theta/2)\le2/\sqrt\pi\approx1.13\ (\theta\le\pi/2),\ "
               r"\le2\sqrt{2/\pi}\approx1.60\ (\theta\le\pi)"),
    notes=("Whatever theta, sigma and d, the coupling that shares x and the noise gives W1(p_s, p_t) <= "
           "2 sqrt(2/pi) sin(theta/2) <= 1.128 (derived; Monte Carlo of the coupling cost, target derived), so "
           "values 526-529 are impossible for the distributions of Sec. 3 at any theta (searched over [0, pi], in case Fig. 5 "
           "went beyond Assumption 3.2: the bound is then <= 2 sqrt(2/pi) = 1.596); the lower bound "
           "(sqrt(sigma^2 + 4 sin^2(theta/2)) - sigma)/sqrt(pi) is reported with the counterexample. The caption says "
           "W1 'is computed from finite samples using the algorithm in Sriperumbudur et al. (2009)': an empirical W1 "
           "between two finite samples in d + 1 = 501 dimensions is dominated by the sampling distance (of order "
           "sqrt(d)), not by p_s vs p_t, which would explain values of hundreds that barely vary (526-529) across "
           "the plotted pairs. Fig. 5(a) (D_KL up to about 40) is possible only if sigma <= 1/sqrt(40) = 0.16 "
           "for theta <= pi/2 (D_KL = (1 - cos theta)/sigma^2 <= 1/sigma^2), or with theta up to pi at sigma = 0.2 "
           "(D_KL <= 2/sigma^2 = 50); Fig. 5 states neither, so that axis is not judged."),
    check=AllOf([
        PropertySearch(examples=EX, name="W1(p_s, p_t) can reach 526 (upper bound >= 526)", holds=_axis_holds, show=_axis_show,
                       bounds={"sigma": (0.0, 10.0), "d": (1, 1000)}),
        _COUPLING,
    ]),
)


def _design_strategy():
    return st.fixed_dictionaries({
        "sigmas": st.lists(st.floats(0.05, 2.0), min_size=1, max_size=3, unique=True),
        "thetas": st.lists(st.floats(0.0, HALF_PI), min_size=2, max_size=6, unique=True),
        "gammas": st.lists(st.floats(0.02, 3.0).filter(lambda g: abs(g - 1) > 1e-3), min_size=1, max_size=6,
                           unique=True),
    })


def _design_corr(p):
    kl, tr = [], []
    with mpmath.workdps(30):
        for s in p["sigmas"]:
            for th in p["thetas"]:
                k = float(TT.kl_unit_teachers_value(th, s))
                for g in p["gammas"]:
                    kl.append(k)
                    tr.append(float(T_lt(g, th, s)))
    kl, tr = np.array(kl), np.array(tr)
    if np.ptp(kl) == 0 or np.ptp(tr) == 0:
        return None
    return float(np.corrcoef(kl, tr)[0, 1])


def _not_neg_holds(p):
    r = _design_corr(p)
    return r is None or r >= 0


def _neg_derived(p):
    r = _design_corr(p)
    return r is None or r < 0


KL_CORR = Claim(
    id="tahir2024.text.sec3_3.kl_not_negatively_correlated", kind=Kind.ORDERING,
    source=src("Sec. 3.3, end: 'In Appendix E Fig. 5 we demonstrate that the dataset based discrepancy measures of "
               "Section 2.1 are indeed misleading: neither D_KL, nor W1 are negatively correlated with increased "
               "transferability'; Fig. 5 caption"),
    statement=r"\mathrm{corr}\big(D_{KL}(p_s\|p_t),\ \mathcal T_{lt}\big)\ge0\ \text{over the pairs of the Sec. 3 setup}",
    assumptions=ASSUME + " D_KL = (1 - cos theta)/sigma^2 (eq. (34) for unit teachers).",
    domain=Domain((P_SIGMA,)),
    stated=TT.kl_unit_teachers(),
    corrected=(r"\mathrm{Cov}(D_{KL},\mathcal T_{lt})<0\ \text{for every product design of }(\theta,\sigma,\gamma):\ "
               r"D_{KL}\uparrow\theta,\downarrow\sigma;\ \mathcal T_{lt}\downarrow\theta,\uparrow\sigma"),
    notes=("The data of Fig. 5 are not given; the caption says the pairs follow 'the setup in Section 3'. In that setup "
           "D_KL = (1 - cos theta)/sigma^2 increases with theta and decreases with sigma, while T_lt (13) = "
           "[scratch risk, increasing in sigma, independent of theta] - sin^2 theta decreases with theta and "
           "increases with sigma; D_KL does not depend on gamma. For any product design of (theta, sigma, gamma) "
           "values, conditioning on gamma and the Harris-FKG (Chebyshev) inequality give Cov(D_KL, T) < 0 whenever "
           "theta or sigma varies: D_KL *is* negatively correlated with transferability (at fixed gamma, sigma it "
           "is a strictly decreasing function of it). Searched: Pearson correlation over product grids of 1-3 "
           "sigmas in [0.05, 2], 2-6 thetas in [0, pi/2], 1-6 gammas in (0, 3] (gamma != 1). The W1 half of the "
           "sentence is not judged (W1 has no closed form here; by the bounds of tahir2024.text.fig5.w1_axis it "
           "also grows with theta). What the paper shows (Thm 2.2, and that distance alone does not fix T because "
           "gamma and the features matter) is a different statement from the sentence."),
    check=AllOf([
        PropertySearch(examples=EX, name="Pearson corr(D_KL, T_lt) >= 0 over a product design", holds=_not_neg_holds,
                       strategy=_design_strategy),
        PropertySearch(examples=EX_SLOW, name="derived: corr(D_KL, T_lt) < 0 for every product design",
                       holds=_neg_derived, strategy=_design_strategy, refutes=False),
    ]),
)


# ============================================================================ Sec. 3.2, double descent

_R_LO = W.scratch_risk_stated().args[0][0]              # gamma < 1 branch of (10)
_DR_LO = sp.lambdify((W.gamma, W.sigma), sp.diff(_R_LO, W.gamma), modules="mpmath")
_DIVERGENCE = sp.limit((1 - W.gamma) * _R_LO, W.gamma, 1, "-")   # sympy: sigma^2, so R ~ sigma^2/(1 - gamma)
_DIV_MP = sp.lambdify((W.sigma,), _DIVERGENCE, modules="mpmath")


def _dd_over_holds(p, sig_range=None):
    s = mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        first_decreases = _DR_LO(mpmath.mpf(0), s) < 0
        becomes_infinite = _DIV_MP(s) > 0   # lim (1 - gamma) R = sigma^2: R -> oo iff sigma > 0
        return bool(first_decreases and becomes_infinite)


def _dd_over_show(p):
    s = mpmath.mpf(p["sigma"])
    with mpmath.workdps(DPS):
        return {"dR/dgamma at 0+": float(_DR_LO(mpmath.mpf(0), s)),
                "lim_{gamma->1-} (1-gamma) R": float(_DIV_MP(s))}


def _dd_rows_factory(n1, n2):
    def rows(p, B, gen, ctx):
        d, s = int(p["d"]), p["sigma"]
        r1 = min_norm_risk(B, n1, d, s, gen, dtype=ctx.dtype)
        r2 = min_norm_risk(B, n2, d, s, gen, dtype=ctx.dtype)
        return r1 - r2, f"E R_sc(n={n1}) - E R_sc(n={n2}) > 0 ('first decreases', independent draws, d={d})"
    return rows


DD_OVER = Claim(
    id="tahir2024.text.sec3_2.double_descent.over", kind=Kind.ORDERING,
    source=src("Sec. 3.2 after Theorem 3.6: 'This expression exhibits double descent behavior: in the "
               "overparameterized regime, the generalization error first decreases, then becomes infinite as "
               "gamma -> 1'"),
    statement=(r"\gamma<1:\ \mathbb E\mathcal R_{sc}=\frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma}\ \text{first decreases "
               r"in }\gamma,\ \text{then}\to\infty\ (\gamma\to1^-),\ \forall\sigma\ge0"),
    assumptions="Theorem 3.6, eq. (10), every sigma >= 0 of Assumption 3.1.",
    domain=Domain((P_SIGMA, Param("d", 1, INF, integer=True))),
    stated=W.scratch_risk_stated(),
    derived=sp.diff(_R_LO, W.gamma),
    corrected=(r"\text{first decreases then diverges}\iff0<\sigma<1;\ \sigma=0:\ \mathbb E\mathcal R_{sc}=1-\gamma\to0;\ "
               r"\sigma\ge1:\ \text{increasing on }(0,1)"),
    notes=("'This expression' is (10), stated for every sigma >= 0, so the sentence is read over every sigma. dR/dgamma "
           "= -1 + sigma^2/(1-gamma)^2 (sympy): at gamma -> 0+ it is sigma^2 - 1, so the risk first decreases only "
           "if sigma < 1; near gamma = 1, R ~ sigma^2/(1-gamma) diverges only if sigma > 0. So the sentence holds "
           "exactly for 0 < sigma < 1 (as in Fig. 1, sigma = 0.2): at sigma = 0 the risk is 1 - gamma, decreasing to "
           "0 with no divergence; for sigma >= 1 it increases from the start. The corrected range is searched too "
           "(refutes=False). Monte Carlo of the literal min-norm fit (numerics.scratch.min_norm_risk, d = 60, "
           "n = 6 vs 24, independent draws) tests the 'first decreases' ordering at sigma = 0.2 (true) and sigma = "
           "1.5 (where the simulated risk increases: the stated ordering is rejected by simulation as well)."),
    check=AllOf([
        PropertySearch(examples=EX, name="(10) first decreases (dR/dgamma(0+) < 0) and diverges as gamma -> 1-", holds=_dd_over_holds,
                       show=_dd_over_show, bounds={"sigma": (0.0, 20.0), "d": (1, 10)}),
        PropertySearch(examples=EX, name="corrected: the same for 0 < sigma < 1", holds=_dd_over_holds, refutes=False,
                       strategy=lambda: st.fixed_dictionaries({"sigma": st.floats(1e-6, 1.0, exclude_max=True)})),
        Custom(_mc_ordering(_dd_rows_factory(6, 24), {"quick": 1500, "standard": 6000, "full": 40000}, "dd"),
               points=[{"sigma": 0.2, "d": 60}, {"sigma": 1.5, "d": 60}]),
    ]),
)


def _dd_under_holds(p):
    g1, dg, s = p["gamma"], p["dgamma"], p["sigma"]
    with prec(g1 - 1, dg, s):
        return R_sc(mpmath.mpf(g1) + mpmath.mpf(dg), s) <= R_sc(g1, s)


DD_UNDER = Claim(
    id="tahir2024.text.sec3_2.double_descent.under", kind=Kind.ORDERING,
    source=src("Sec. 3.2 after Theorem 3.6: 'while in the underparameterized regime, the generalization error "
               "monotonically decreases with increasing gamma'"),
    statement=r"\gamma>1:\ \mathbb E\mathcal R_{sc}=\sigma^2/(\gamma-1)\ \text{is non-increasing in }\gamma,\ \forall\sigma\ge0",
    assumptions="Theorem 3.6, eq. (10).",
    domain=Domain((Param("gamma", 1, INF, lower_open=True), Param("dgamma", 0, INF, lower_open=True), P_SIGMA)),
    stated=W.scratch_risk_stated(),
    notes=("'Monotonically decreases' is read as non-increasing: strictly decreasing for sigma > 0, identically 0 at "
           "sigma = 0 (constant, which a strict reading would reject on that single noise level). Searched over "
           "gamma in (1, 100], steps dgamma in (0, 100], sigma in [0, 20] at 50 digits."),
    check=PropertySearch(examples=EX, name="(10) at gamma + dgamma <= (10) at gamma, gamma > 1", holds=_dd_under_holds,
                         bounds={"gamma": (1.0, 100.0), "dgamma": (1e-9, 100.0), "sigma": (0.0, 20.0)}),
)


# ============================================================================ Sec. 3.3, linear transfer

def _oos_holds(p):
    g, th, dth, s = p["gamma"], p["theta"], p["dtheta"], p["sigma"]
    th2 = min(HALF_PI, th + dth)
    if th2 <= th:
        return True
    with prec(g, 1 - g, th, th2 - th):
        return T_lt(g, th2, s) < T_lt(g, th, s)


def _oos_rows(p, B, gen, ctx):
    r_sc, r_lt = scratch_transfer_common(B, int(p["n"]), int(p["d"]), [p["theta"], p["theta2"]], [p["sigma"]], gen,
                                         dtype=ctx.dtype)
    T = r_sc - r_lt
    return (T[:, 0, 0] - T[:, 1, 0]), "T(theta) - T(theta2) > 0 (common draws, finite size)"


OUT_OF_SUBSPACE = Claim(
    id="tahir2024.text.sec3_3.out_of_subspace_degrades", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13): 'at fixed gamma and sigma, i.e., fixing the number of data points and label "
               "noise, as the norm of the out-of-subspace component increases, transfer efficiency degrades'"),
    statement=r"\partial_\theta\mathcal T_{lt}(\gamma,\theta,\sigma)<0:\ \theta_1<\theta_2\Rightarrow\mathcal T_{lt}(\theta_2)<\mathcal T_{lt}(\theta_1)",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, Param("dtheta", 0, INF, lower_open=True), P_SIGMA,
                   Param("theta2", 0, HALF_PI), Param("n", 3, INF, integer=True), Param("d", 1, INF, integer=True)),
                  (NOT_ONE,)),
    notes=("The out-of-subspace norm is ||P_perp beta_t||^2 = sin^2 theta, increasing on [0, pi/2]; the sentence is "
           "stated in the gamma > 1 paragraph but (13) has the same -sin^2 theta on both branches, so it is searched "
           "on both (theta and theta + dtheta clipped to pi/2, endpoints exact). Monte Carlo at finite size: "
           "transferability at theta = pi/8 vs 3 pi/8 on common draws (same X, noise, beta_s, nu), gamma = 0.5 and "
           "1.5, sigma = 0.2 (Fig. 1)."),
    check=AllOf([
        PropertySearch(examples=EX, name="T_lt strictly decreasing in theta, eq. (13)", holds=_oos_holds,
                       strategy=lambda: st.fixed_dictionaries({
                           "gamma": st.floats(1e-6, 20.0).filter(lambda g: g != 1), "theta": st.floats(0.0, HALF_PI),
                           "dtheta": st.floats(1e-9, HALF_PI), "sigma": st.floats(0.0, 20.0)})),
        Custom(_mc_ordering(_oos_rows, MC_TRIALS, "theta-order"),
               points=[{"gamma": g, "theta": PI / 8, "dtheta": PI / 4, "sigma": 0.2, "theta2": 3 * PI / 8, "n": n,
                        "d": 40} for g, n in ((0.5, 20), (1.5, 60))]),
    ]),
)


def _snr_holds(p):
    g, th, s = p["gamma"], p["theta"], p["sigma"]
    with prec(g, 1 - g, th, s - 1):
        return R_sc(g, s) > 1 and T_lt(g, th, s) > 0


SNR = Claim(
    id="tahir2024.text.sec3_3.snr_below_one", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13), overparameterized paragraph: 'When SNR < 1, scratch training can never "
               "recover the underlying vector beta_t and pretraining is always beneficial'"),
    statement=(r"\gamma<1,\ \sigma>1:\ \mathbb E\mathcal R_{sc}>\|\beta_t\|^2=1\ \text{and}\ \mathcal T_{lt}>0\ "
               r"\forall\theta\in[0,\pi/2]"),
    assumptions=ASSUME + " SNR = 1/sigma^2 < 1, overparameterized gamma < 1 (the paragraph's context).",
    domain=Domain((Param("gamma", 0, 1, lower_open=True, upper_open=True), P_THETA,
                   Param("sigma", 1, INF, lower_open=True))),
    notes=("In context (the paragraph is about gamma < 1). 'Can never recover beta_t' is read as: the scratch risk "
           "exceeds that of the zero predictor, ||beta_t||^2 = 1: R_sc - 1 = gamma (sigma^2 - 1 + gamma)/(1 - gamma) "
           "> 0. 'Always beneficial' as T_lt > 0 for every theta. Searched gamma in (0, 1), theta in [0, pi/2], "
           "sigma in (1, 50]. The reading over gamma > 1 is tahir2024.text.sec3_3.snr_below_one.all_gamma "
           "(extension)."),
    check=PropertySearch(examples=EX, name="R_sc > 1 and T_lt > 0 for gamma < 1, sigma > 1", holds=_snr_holds,
                         bounds={"sigma": (1.0, 50.0)}),
)

SNR_ALL = Claim(
    id="tahir2024.text.sec3_3.snr_below_one.all_gamma", kind=Kind.ORDERING,
    source=src("Sec. 3.3 (as tahir2024.text.sec3_3.snr_below_one), read for every gamma != 1"),
    statement=r"\sigma>1:\ \mathbb E\mathcal R_{sc}>1\ \text{and}\ \mathcal T_{lt}>0\quad\forall\gamma\ne1,\ \theta",
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, Param("sigma", 1, INF, lower_open=True)), (NOT_ONE,)),
    tags=("extension",),
    notes=("Extension beyond the paragraph (gamma < 1). For gamma > 1 the scratch risk sigma^2/(gamma - 1) -> 0 "
           "(scratch training does recover beta_t with enough data, whatever the SNR) and T_lt = sigma^2/(gamma-1) - "
           "sin^2 theta < 0 once gamma > 1 + sigma^2/sin^2 theta: negative transfer at SNR < 1."),
    check=PropertySearch(examples=EX, name="R_sc > 1 and T_lt > 0 for sigma > 1, every gamma", holds=_snr_holds,
                         bounds={"gamma": (1e-6, 1e4), "sigma": (1.0, 10.0)}),
)


def _noise_holds(p):
    g, th, s, ds = p["gamma"], p["theta"], p["sigma"], p["dsigma"]
    with prec(g, 1 - g, s, ds):
        return T_lt(g, th, mpmath.mpf(s) + mpmath.mpf(ds)) > T_lt(g, th, s)


def _noise_rows(p, B, gen, ctx):
    r_sc, r_lt = scratch_transfer_common(B, int(p["n"]), int(p["d"]), [p["theta"]], [p["sigma"], p["sigma2"]], gen,
                                         dtype=ctx.dtype)
    T = r_sc - r_lt
    return T[:, 0, 1] - T[:, 0, 0], "T(sigma2) - T(sigma) > 0 (common draws, finite size)"


NOISE_SHRINKS = Claim(
    id="tahir2024.text.sec3_3.noise_shrinks_negative_region", kind=Kind.ORDERING,
    source=src("Sec. 3.3 after eq. (13): 'As sigma increases, the region of negative transfer shrinks, since the "
               "noise corrupts the scratch trained accuracy'"),
    statement=(r"\sigma_1<\sigma_2\Rightarrow\{\mathcal T_{lt}(\cdot,\cdot,\sigma_2)<0\}\subsetneq\{\mathcal T_{lt}"
               r"(\cdot,\cdot,\sigma_1)<0\};\ \text{via}\ \mathcal T_{lt}(\gamma,\theta,\sigma_2)>\mathcal T_{lt}(\gamma,\theta,\sigma_1)"),
    assumptions=ASSUME,
    domain=Domain((P_GAMMA, P_THETA, P_SIGMA, Param("dsigma", 0, INF, lower_open=True), Param("sigma2", 0, INF),
                   Param("n", 3, INF, integer=True), Param("d", 1, INF, integer=True)), (NOT_ONE,)),
    notes=("T_lt increases strictly with sigma at every (gamma, theta) (by gamma (sigma_2^2 - sigma_1^2)/(1 - gamma) "
           "for gamma < 1 and (sigma_2^2 - sigma_1^2)/(gamma - 1) for gamma > 1), so the negative regions are nested "
           "and strictly shrink (every boundary point moves into positive transfer); the sentence stands in the "
           "gamma < 1 paragraph, the search covers both branches. Monte Carlo: T at sigma = 0.1 vs 0.5 on common "
           "draws (the same unit noise scaled) at gamma = 0.7 and 1.5, theta = pi/3, d = 40."),
    check=AllOf([
        PropertySearch(examples=EX, name="T_lt strictly increasing in sigma, eq. (13)", holds=_noise_holds,
                       bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 20.0), "dsigma": (1e-9, 20.0)}),
        Custom(_mc_ordering(_noise_rows, MC_TRIALS, "sigma-order"),
               points=[{"gamma": g, "theta": PI / 3, "sigma": 0.1, "dsigma": 0.4, "sigma2": 0.5, "n": n, "d": 40}
                       for g, n in ((0.7, 28), (1.5, 60))]),
    ]),
)

_b = sp.Symbol("b", real=True)
_RISK_B = 1 + _b ** 2 - 2 * _b * sp.cos(T.theta)


def _irreducible_lhs():
    bstar = sp.solve(sp.diff(_RISK_B, _b), _b)[0]
    return sp.simplify(_RISK_B.subs(_b, bstar))


def _irreducible_holds(p):
    n, th, s = p["n"], p["theta"], p["sigma"]
    with mpmath.workdps(DPS):
        c, sn = trig(th)
        eq12 = sn ** 2 + (mpmath.mpf(s) ** 2 + sn ** 2) / (n - 2)
        return eq12 >= sn ** 2


IRREDUCIBLE = Claim(
    id="tahir2024.text.sec3_3.irreducible_sin2", kind=Kind.BOUND,
    source=src("Sec. 3.3 after Theorem 3.7: 'the main contribution to the generalization error is sin^2 theta, ... "
               "This is an irreducible error that is the best case risk given that the features cannot change'; "
               "Sec. 4: 'In the deep linear setting, ||P_perp f_t*||^2 = sin^2 theta'"),
    statement=(r"\min_b\|b\beta_s-\beta_t\|^2=\sin^2\theta\ \text{(best risk on the frozen features)},\quad "
               r"\mathbb E\mathcal R_{lt}\ge\sin^2\theta"),
    assumptions=ASSUME + " Finite n > 2.",
    domain=Domain((Param("n", 3, INF, integer=True), P_THETA, P_SIGMA)),
    stated=sp.sin(T.theta) ** 2,
    notes=("With the pretrained features frozen, every transferred predictor is b beta_s (eq. (107)); its risk 1 + b^2 "
           "- 2 b cos theta is minimised at b = cos theta with value sin^2 theta (sympy) = ||beta_t - (beta_s^T beta_t) "
           "beta_s||^2, the out-of-span norm of Sec. 4, and (12) exceeds it by (sigma^2 + sin^2 theta)/(n - 2) >= 0. "
           "'Main contribution' is read in the large-n setting of the figures (n = gamma d, d = 500): at small n or "
           "small theta the finite-sample term can dominate (at theta = 0 it is all of the risk); its 1/n order is "
           "tahir2024.rate.sec3_3.one_over_n."),
    check=AllOf([
        Identity("min_b (1 + b^2 - 2 b cos theta) = sin^2 theta", _irreducible_lhs, sp.sin(T.theta) ** 2,
                 {T.theta: (0, HALF_PI)}),
        PropertySearch(examples=EX, name="(12) >= sin^2 theta", holds=_irreducible_holds,
                       bounds={"n": (3, 10_000), "sigma": (0.0, 20.0)}),
    ]),
)


# ============================================================================ Sec. 3.3.1, ridge

def _ridge_superset_holds(p):
    g, th, s, lam = p["gamma"], p["theta"], p["sigma"], p["lam"]
    with prec(g, 1 - g, th, lam):
        T0 = T_lt(g, th, s)
        Tl = R_sc(g, s) - R_ridge_limit(lam, th)
        return Tl <= T0


def _ridge_strict_holds(p):
    """For lam > 0 and sigma: a point with T^lam < 0 <= T (on the boundary of the lam = 0 negative region)."""
    s, lam = p["sigma"], p["lam"]
    th = PI / 4
    with prec(s, s, lam, base=60 + (int(-2 * math.log10(s)) if 0 < s < 1 else 0)):
        s = mpmath.mpf(s)
        _, sn = trig(th)
        g = 1 + s ** 2 / sn ** 2 if s > 0 else mpmath.cos(mpmath.mpf(th)) ** 2  # T(g, th, s) = 0 there
        T0 = T_lt(g, th, s)
        Tl = R_sc(g, s) - R_ridge_limit(lam, th)
        return Tl < 0 and T0 >= -mpmath.mpf(10) ** -40


RIDGE_REGION = Claim(
    id="tahir2024.text.sec3_3_1.larger_negative_region", kind=Kind.ORDERING,
    source=src("Sec. 3.3.1 before Theorem 3.8: 'the generalization error for regularized linear transfer is a strictly "
               "increasing function of the ridge parameter lambda, leading to a larger region of negative transfer "
               "for any lambda > 0 (Fig. 2)'"),
    statement=(r"\forall\lambda>0:\ \{\mathcal T^\lambda_{lt}<0\}\supsetneq\{\mathcal T_{lt}<0\},\quad\mathcal T^\lambda_{lt}"
               r"=\mathbb E\mathcal R_{sc}-\lim_n\mathbb E\mathcal R^\lambda_{lt}\ \text{(10), (15)}"),
    assumptions=ASSUME + " Ridge linear transfer (14), limit form (15).",
    domain=Domain((P_GAMMA, P_THETA, P_SIGMA, Param("lam", 0, INF, lower_open=True)), (NOT_ONE,)),
    notes=("Read in the limit n, d -> oo where the transferability is defined: T^lambda = (10) - (15). (15) >= sin^2 "
           "theta = lim R_lt, so T^lambda <= T pointwise (superset), and on the boundary of the lambda = 0 negative "
           "region (theta = pi/4: gamma = 1 + 2 sigma^2 for sigma > 0, gamma = cos^2 theta at sigma = 0) T = 0 > "
           "T^lambda: strictly larger, for every lambda > 0 and sigma. Both are searched. At finite n the ridge "
           "optimum is lambda* = (sin^2 + sigma^2)/(n cos^2) > 0 (tahir2024.thm3.8), so there the region first "
           "shrinks for small lambda; the sentence (like Fig. 2) is about the limit."),
    check=AllOf([
        PropertySearch(examples=EX, name="T^lambda <= T pointwise (superset)", holds=_ridge_superset_holds,
                       bounds={"gamma": (1e-6, 20.0), "sigma": (0.0, 20.0), "lam": (1e-9, 1e3)}),
        PropertySearch(examples=EX, name="strictly larger: a point with T^lambda < 0 <= T for every lambda > 0, sigma",
                       holds=_ridge_strict_holds,
                       strategy=lambda: st.fixed_dictionaries({"sigma": st.one_of(st.just(0.0), st.floats(0.0, 20.0)),
                                                               "lam": st.floats(1e-6, 1e3)})),
    ]),
)


# ============================================================================ Fig. 6 caption

def _fig6_holds(p):
    with prec(p["gamma"] - 1, p["theta"]):
        return T_lt(p["gamma"], p["theta"], 0.0) < 0


FIG6 = Claim(
    id="tahir2024.text.fig6.always_negative_gamma_gt1", kind=Kind.ORDERING,
    source=src("App. E, Fig. 6 caption (sigma = 0): 'Note that transfer is always negative when gamma > 1, since the "
               "scratch trained model can perfectly learn the target task as there is no label noise'"),
    statement=r"\sigma=0,\ \gamma>1:\ \mathcal T_{lt}<0\quad\forall\theta\in[0,\pi/2]",
    assumptions=ASSUME + " Noiseless labels (Fig. 6).",
    domain=Domain((Param("gamma", 1, INF, lower_open=True), P_THETA)),
    stated=T.transferability_stated(),
    corrected=r"\sigma=0,\ \gamma>1:\ \mathcal T_{lt}=-\sin^2\theta<0\ \text{for }\theta>0;\ =0\ \text{at }\theta=0",
    notes=("At sigma = 0, gamma > 1: T = -sin^2 theta, negative for theta in (0, pi/2] but 0 at theta = 0, which is on "
           "the figure's theta axis (0 to pi/2): there transfer and scratch training both recover beta_t exactly "
           "(also at finite n > d + 1). A boundary tie, not a sign error: the caption's 'always' fails only on the "
           "line theta = 0."),
    check=PropertySearch(examples=EX, name="sigma = 0, gamma > 1: T_lt < 0", holds=_fig6_holds, bounds={"gamma": (1.0, 1e4)}),
)


CLAIMS = [WELL_REPRESENTED, STRONG_OVERLAP, LARGEST_LOW, FAR_KL, FAR_W1, FAR_W1_FREE, FIG5_AXIS, KL_CORR, DD_OVER,
          DD_UNDER, OUT_OF_SUBSPACE, SNR, SNR_ALL, NOISE_SHRINKS, IRREDUCIBLE, RIDGE_REGION, FIG6]
