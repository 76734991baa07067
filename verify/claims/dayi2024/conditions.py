"""The population-gradient bounds behind the theorems of 003_83d15a9763fa9a30.txt: Condition 3 via
Lemma 1 (orthonormal) and Lemma 2 (angularly separated), Proposition 6 (upper bound), Claim 4 (variance of
c^T M c), and Appendix C: Theorem 9 (learning u suffices) and Example 1 (non-identifiability without
Assumption 2).

All constants and probabilities of these statements were lost; the notes say which reading is encoded.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import torch
from hypothesis import strategies as st

from derivations import lowrank as LR
from verify.kit import (AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Expectation, Kind, OpenSetting,
                        OverOpenSetting, Param, ProbabilityBound, StatedSearch, per_profile, stated_value)

from . import common as CM
from .common import ACT_DOC, SETTING, mark_reconstructed, src


# ------------------------------------------------------------------ Condition 3 / Lemmas 1-2
def _gram(p):
    """sep: 0 orthonormal rows, 1 gram_separated (max |<w_i, w_j>| in [0.2, 0.45]), 3 gram_correlated (in [0.7, 0.8];
    issue 37: Lemma 2's separation threshold is lost).  (2 is the Claim-2 instance of Thm 8 in prescribed.py.)"""
    k, sep = int(p["k"]), int(p["sep"])
    return {0: np.eye, 1: CM.gram_separated, 3: CM.gram_correlated}[sep](k)


def _cond3_sampler(p, trials, gen, ctx):
    """Per trial a fresh (c, c^): 1.0 if the Lemma's conclusion fails, i.e. unless phi(0) != 0 and
    sign(phi(0)) phi(m) >= |phi(0)|/2 for every m in sign(phi(0)) [0, 1] (201-point grid)."""
    k, xi = int(p["k"]), float(p["xi"])
    r = math.sqrt(1 + xi * xi / k)
    name, inner = CM.activation(int(p["act"]), r)
    kp = LR.kprime_function(name, r, inner)
    bits = torch.randint(0, 2, (2, trials, k), generator=gen, device=gen.device).double().cpu().numpy()
    c, ch = (2 * bits[0] - 1) / math.sqrt(k), (2 * bits[1] - 1) / math.sqrt(k)
    phi0, lam = CM.phi_grid(_gram(p), c, ch, xi, kp, n=101)
    bad = (phi0 == 0) | (lam < np.abs(phi0) / 2)
    return torch.as_tensor(bad.astype(float))  # device: cpu (a host computation; the judge reads it there)


_COND3 = per_profile(
    [{"k": 9, "xi": 1.0, "sep": 0, "act": 0}, {"k": 9, "xi": 1.5, "sep": 0, "act": 2},
     {"k": 9, "xi": 1.0, "sep": 1, "act": 0}],
    [{"k": 9, "xi": 1.0, "sep": 0, "act": 0}, {"k": 9, "xi": 1.5, "sep": 0, "act": 2},
     {"k": 17, "xi": 2.06, "sep": 0, "act": 3}, {"k": 17, "xi": 1.0, "sep": 0, "act": 4},
     {"k": 9, "xi": 1.0, "sep": 1, "act": 0}, {"k": 9, "xi": 1.0, "sep": 1, "act": 2},
     {"k": 15, "xi": 1.0, "sep": 1, "act": 1}])


# ------------------------------------------------------------------ Prop. 6
def _prop6_holds(bound_of, p):
    """|phi(m)| <= the bound at p: ``bound_of(p)``, the claim's stated form (derivations.lowrank.prop6_bound_stated,
    2 xi^2 k E[relu'(r Z)^2] = xi^2 k for ReLU), read by the claim's StatedSearch."""
    k, xi, m = int(p["k"]), float(p["xi"]), float(p["m"])
    rng = np.random.default_rng(int(p["seed"]))
    c, ch = rng.choice([-1.0, 1.0], k) / math.sqrt(k), rng.choice([-1.0, 1.0], k) / math.sqrt(k)
    r = math.sqrt(1 + xi * xi / k)
    G = CM.gram_separated(k) if int(p["sep"]) else np.eye(k)
    phi = float(LR.phi_value(m, G, c, ch, xi, LR.kprime_function("relu", r)))
    return abs(phi) <= bound_of(p) * (1 + 1e-12)


# ------------------------------------------------------------------ Claim 4
def _claim4_instance(p, gen, ctx):
    k, xi = int(p["k"]), 1.0
    r2 = 1 + xi * xi / k
    G = _gram(p)
    name, inner = CM.activation(int(p["act"]), math.sqrt(r2))
    M = LR.moment_matrix(G, LR.kprime_function(name, math.sqrt(r2), inner), r2)
    return {"M": torch.as_tensor(M, dtype=ctx.dtype, device=ctx.device), "Mnp": M}


def _claim4_sampler(p, trials, gen, ctx, inst):
    k = int(p["k"])
    bits = torch.randint(0, 2, (2, trials, k), generator=gen, device=gen.device).to(ctx.dtype)
    c, ch = (2 * bits[0] - 1) / math.sqrt(k), (2 * bits[1] - 1) / math.sqrt(k)
    return torch.einsum("ti,ij,tj->t", ch, inst["M"], c) ** 2


_CLAIM4_MC = Expectation(points=per_profile([{"k": 9, "sep": 1, "act": 0}, {"k": 6, "sep": 0, "act": 2}],
                                           [{"k": 9, "sep": 1, "act": 0}, {"k": 6, "sep": 0, "act": 2},
                                            {"k": 15, "sep": 1, "act": 3}]),
                         # numeric copy of the prediction (tests); the check reads the stated form (_claim4_mean)
                         predicted=lambda p, inst: float((inst["Mnp"] ** 2).sum()) / int(p["k"]) ** 2,
                         sampler=_claim4_sampler, instance=_claim4_instance,
                         # quick: 800000 (was 200000, where the k = 9 point, sd/tol ~ 114, decided
                         # at only ~95 % of seeds: issue 13)
                         trials=per_profile(800_000, 1_000_000), chunk=200_000)


def _claim4_mean(claim, ctx, points) -> Evidence:
    """The Monte Carlo of E[(c^T M c)^2] (:data:`_CLAIM4_MC`), its prediction read from the claim's stated form
    (derivations.lowrank.claim4_variance_stated: ||M||_F^2/k^2) at the point plus the instance's ||M||_F."""
    f = stated_value(claim)
    sub = dataclasses.replace(ctx, at=None)         # the points are resolved (and validated) already
    ev = dataclasses.replace(_CLAIM4_MC, points=points, predicted=lambda p, inst: f(
        {**p, "M_F": float(np.sqrt((inst["Mnp"] ** 2).sum()))})).run(claim, sub)
    ctx.draws = sub.draws
    return ev


def _claim4_ineq(claim, ctx) -> Evidence:
    checks = []
    for k, sep, act in [(9, 0, 0), (9, 1, 0), (15, 1, 3), (7, 1, 2)]:
        inst = _claim4_instance({"k": k, "sep": sep, "act": act}, None, ctx)
        M = inst["Mnp"]
        f2 = float((M ** 2).sum()) / k ** 2
        m11 = float(M[0, 0])
        psd = float(np.linalg.eigvalsh(M).min())
        ok = (m11 ** 2 / k <= f2 * (1 + 1e-12)) and (f2 <= m11 ** 2 * (1 + 1e-12)) and psd > -1e-10 and \
            np.allclose(np.diag(M), m11)
        checks.append(Check(f"k={k}, sep={sep}, act={act}: M PSD with constant diagonal, M11^2/k <= ||M||_F^2/k^2 <= M11^2",
                            bool(ok), f"min eig {psd:.3g}, M11^2/k = {m11 ** 2 / k:.4g}, ||M||_F^2/k^2 = {f2:.4g}, "
                                f"M11^2 = {m11 ** 2:.4g}"))
    return Evidence(checks=checks)


# ------------------------------------------------------------------ Thm 9
def _thm9_holds(bound_of, p):
    """E(f_cand - f*)^2 <= the bound at p: ``bound_of(p)``, the claim's stated form (derivations.lowrank.
    thm9_bound_stated, = LR.thm9_bound_relu for ReLU), read by the claim's StatedSearch and grid."""
    v = _thm9_show(bound_of, p)
    return v["error"] <= v["bound"] * (1 + 1e-9) + 1e-12


def _thm9_show(bound_of, p):
    k, xi, m = int(p["k"]), float(p["xi"]), float(p["m"])
    rng = np.random.default_rng(int(p["seed"]))
    c = rng.choice([-1.0, 1.0], k) / math.sqrt(k)
    G = CM.gram_separated(k) if int(p["sep"]) else np.eye(k)
    return {"error": LR.thm9_error_relu(G, c, xi, m), "bound": bound_of(p)}


def _thm9_strategy():
    return st.fixed_dictionaries({"k": st.integers(2, 12), "xi": st.floats(0.1, 4.0), "m": st.floats(0.0, 1.0),
                                  "sep": st.integers(0, 1), "seed": st.integers(0, 10 ** 6)})


_THM9_NAME = "E(f_cand - f*)^2 <= 2 k xi^2 (1 - m) E[relu'^2]"


#: a fixed grid inside the search's range that reaches m -> 1, where the bound is tight to first order in 1 - m
#: (on the diagonal 1 - rho_ii = (xi^2/k)(1 - m)/r^2 and K'(1) = r^2/2: error/bound 0.93 at k = 2, separated
#: rows, xi = 4, m = 0.999); the random search rarely draws m that close to 1 (issue 13: a bound k xi^{9/5} (1 - m),
#: false there by 23 %, passed the search)
_THM9_GRID = [{"k": k, "xi": xi, "m": m, "sep": sep, "seed": seed} for k in (2, 3, 5, 12) for sep in (0, 1)
              for xi in (0.5, 2.0, 4.0) for m in (0.5, 0.99, 0.999) for seed in range(2)]


def _thm9_grid(bound_of) -> Check:
    rows = [(p, _thm9_show(bound_of, p)) for p in _THM9_GRID]
    bad = [p for p, v in rows if not v["error"] <= v["bound"] * (1 + 1e-9) + 1e-12]     # as _thm9_holds
    worst, w = max(rows, key=lambda pv: pv[1]["error"] / pv[1]["bound"] if pv[1]["bound"] > 0 else math.inf)
    return Check(f"{_THM9_NAME} on a fixed grid of {len(_THM9_GRID)} points (k <= 12, both row types, xi <= 4, "
                 "m up to 0.999, 2 sign draws of c)", not bad,
                 (f"{len(bad)} violations, e.g. {bad[0]}" if bad else "no violation") +
                 f"; largest error/bound {w['error'] / w['bound']:.4f} at k={worst['k']}, sep={worst['sep']}, "
                 f"xi={worst['xi']}, m={worst['m']}")


# ------------------------------------------------------------------ Example 1 (App. C.1)
_EVEN_ACTS = [("|z|", np.abs), ("z^2", np.square), ("h_2", lambda z: (z * z - 1) / math.sqrt(2))]


def _example1(claim, ctx, acts=None) -> Evidence:
    """Substitute instance (the paper's is lost): k = d = 2, W = I, sigma even (|z|, z^2, h_2), xi = 4, c = e_1,
    u = (-1/2, sqrt(3)/2) so <c, u> = -2/xi; Delta_1 = xi c u^T and Delta_2 = -2I - Delta_1 is rank 1 with
    ||Delta_2||_F = xi, and I + Delta_2 = -(I + Delta_1): the two teachers coincide for even sigma."""
    xi = 4.0
    c = np.array([1.0, 0.0])
    u = np.array([-0.5, math.sqrt(3) / 2])
    D1 = xi * np.outer(c, u)
    D2 = -2 * np.eye(2) - D1
    rank2 = np.linalg.matrix_rank(D2, tol=1e-10)
    rng = np.random.default_rng(ctx.seed_for(claim.id))
    X = rng.standard_normal((1000, 2))
    checks = [Check("Delta_2 = -2I - Delta_1 has rank 1 and ||Delta_2||_F = ||Delta_1||_F = xi, Delta_2 != Delta_1",
                    bool(rank2 == 1 and abs(np.linalg.norm(D2) - xi) < 1e-12 and np.abs(D2 - D1).max() > 1),
                    f"rank {rank2}, ||Delta_2||_F = {np.linalg.norm(D2):.6f}")]
    for name, f in (_EVEN_ACTS if acts is None else acts):
        f1 = f(X @ (np.eye(2) + D1).T).sum(1)
        f2 = f(X @ (np.eye(2) + D2).T).sum(1)
        f0 = f(X).sum(1)
        checks.append(Check(f"sigma = {name}: f_(W+Delta_1) = f_(W+Delta_2) on 1000 Gaussian inputs, and differs from the base",
                            bool(np.abs(f1 - f2).max() < 1e-9 and np.abs(f1 - f0).max() > 1),
                            f"max |f1 - f2| = {np.abs(f1 - f2).max():.2e}"))
    return Evidence(checks=checks)


_C3_DOMAIN = Domain((Param("k", 2, 101, integer=True), Param("xi", 0, 20, lower_open=True),
                     Param("sep", 0, 1, integer=True), Param("act", 0, 6, integer=True, doc=ACT_DOC)))
#: Lemma 2's domain: sep also 3 (the correlated Gram, issue 37)
_C3_DOMAIN_SEP = Domain((*_C3_DOMAIN.params[:2], Param("sep", 0, 3, integer=True, doc=(
    "0 orthonormal rows, 1 separated (max |<w_i, w_j>| in [0.2, 0.45]), 3 separated with stronger correlations "
    "(in [0.7, 0.8])")),
                         _C3_DOMAIN.params[3]))
LEMMA2_NOTE = ("  Open setting (issue 37): the separation threshold of Assumption 4 is lost (L79), so the rows' Gram "
               "matrix is ours; the check runs at two (sep = 1: max |<w_i, w_j>| in [0.2, 0.45], the Gram used before; "
               "sep = 3: in [0.7, 0.8], common.gram_correlated) and is judged over both (verify.kit.OverOpenSetting: "
               "refuted only if the bound fails at both, inconclusive if it fails at one).  Stronger correlations "
               "(0.95) are not run: a threshold that close to 1 is not suggested by the text, and the lemma's "
               "constant would then depend on it.  Measured (standard, seed 0): no violation in 6000 draws at any of "
               "the six points (both Grams): confirmed at both.  The power witness is judged over both Grams too: at "
               "sep = 3 its xi = 9 gives a failure frequency ~0.05 (the delta itself: no power there), so it runs at "
               "xi = 18 = 6 sqrt(k) at sep = 3 (frequency ~0.29), xi = 9 at sep = 1 as before.")
LEMMA1_NOTE = (
    "  Open setting (issue 37): alpha in xi = alpha sqrt(k) (Lemma 1: 'Suppose Assumptions 1 to 3 hold and for all .' "
    "L220, the hypothesis missing from the extracted text; Thm 1, which it serves: 'for sufficiently small absolute "
    "constant factor' L74; Thm 5: 'for some small [alpha]' L137).  A smaller alpha is always admissible: the h_3 "
    "(k = 9) and h_2 + h_3 (k = 17) points run at alpha = 1/4 and 1/2 (xi = 0.75 and 1.5; 1.03 and 2.06, to two "
    "decimals) and are judged over alpha (verify.kit.OverOpenSetting over LEMMA1_ALPHA: refuted only if the bound "
    "fails at both, confirmed only if it holds at both); the ReLU and tanh points stay at xi = 1 (alpha = 1/3 and "
    "0.24, one value each, outside the open setting).  The quick profile runs the points as before (alpha = 1/2 "
    "only; nothing open).  Cost: 6000 draws per point, a few seconds each (no simulation of SGD).  Measured (standard, seed 0): no violation in 6000 draws at any "
    "of the six points (alpha = 1/4: xi = 0.75 at k = 9, 1.03 at k = 17; alpha = 1/2; and the two xi = 1 points): "
    "confirmed at both alphas, as before at alpha = 1/2.")
#: issue 37: alpha of xi = alpha sqrt(k), open in Lemma 1 (its hypothesis is lost; Thms 1/5, whose Condition 3 it gives,
#: ask for a 'sufficiently small' alpha): the h_3 and h_2 + h_3 points run at alpha = 1/4 and 1/2 at standard (xi to
#: two decimals: 0.75 and 1.5 at k = 9, 1.03 and 2.06 at k = 17); the ReLU and tanh points stay at xi = 1 (alpha = 1/3
#: and 0.24, outside the open setting); quick: the points as before (alpha = 1/2, nothing open)
LEMMA1_ALPHA = OpenSetting(
    "alpha", CM.ALPHAS, "the constant alpha of xi = alpha sqrt(k) at Lemma 1's h_3 and h_2 + h_3 points",
    "Lemma 1: 'Suppose Assumptions 1 to 3 hold and for all .' (L220: the hypothesis on xi is missing from the "
    "extracted text); Thm 1, which it serves: 'let [xi = alpha sqrt(k)] for sufficiently small absolute constant "
    "factor' (L74); Thm 5: 'for some small [alpha]' (L137).  A smaller alpha is admissible: 1/4 and 1/2 are run.")
_LEMMA1_ALPHA_POINTS = per_profile(
    [p for p in _COND3["quick"] if not p["sep"] and p["act"] not in (0, 4)],
    [dict(p, xi=round(a * math.sqrt(p["k"]), 2), alpha=a) for a in CM.ALPHAS
     for p in _COND3["standard"] if not p["sep"] and p["act"] not in (0, 4)])


def _lemma1_bound(points) -> ProbabilityBound:
    return ProbabilityBound(points=points, delta=lambda p: 0.05, sampler=_cond3_sampler,
                            trials=per_profile(1500, 6000), chunk=1500)


_C3_NOTES = ("Reading of Lemma 1/2 (L219-221, L230-231; proofs L440-446, L489-491): with probability >= 1 - delta over "
             "(c, c^), for every m with sign(m) = sign(phi(0)), sign(m) phi(m) >= |phi(0)|/2 > 0 (the '1/2' is our "
             "reading of 'bound the even terms by half of the constant term', L444).  The probability is lost; we test "
             "the violation frequency against delta = 0.05 ('high probability'), with odd k (no atoms at phi(0) = 0).  "
             "Lemma 1's size of |phi(0)| (Theta(xi^2) or Theta(xi^2/sqrt k)) carries lost constants and is not judged.")

def _cond3_witness(point: dict, name: str, why: str) -> Alternative:
    """A power witness for Lemmas 1-2: the claim's own ProbabilityBound (same delta, sampler and trials) at a point
    where a hypothesis of the lemma is removed and the conclusion's failure probability is measurable."""
    return Alternative(name, ProbabilityBound(points=per_profile([point], [point]), delta=lambda p: 0.05,
                                              sampler=_cond3_sampler, trials=per_profile(1500, 6000), chunk=1500), why)


#: measured at seed 0 with 600 draws of (c, c^): violation frequency 0.31 (orthonormal) and 0.30 (separated) at
#: xi = 9 = 3 sqrt(k), k = 9, sigma(r .) = h_3; 0 at the lemmas' own points (ReLU stays at 0 even at xi = 6)
_LEMMA1_POWER = (_cond3_witness(
    {"k": 9, "xi": 9.0, "sep": 0, "act": 2}, "the scale hypothesis removed: xi = 3 sqrt(k) (h_3, orthonormal rows)",
    "Lemma 1 read without its small-scale hypothesis xi <= alpha sqrt(k) (alpha small): toward the GLM limit "
    "phi(0) shrinks like 1/t^2 while the m^2 term does not, so the even terms can beat half the constant term"),)
#: issue 37: Lemma 2's angular-separation threshold is lost; its check and witness run at two separated Gram
#: matrices (sep 1 and 3, _gram) and are judged over them (refuted only if the bound fails at both)
LEMMA2_SEP = OpenSetting(
    "sep", (1, 3), "the angular separation of Lemma 2's rows (max |<w_i, w_j>|: in [0.2, 0.45] at sep = 1, "
                   "[0.7, 0.8] at sep = 3; one fixed Gram matrix per k each)",
    "'For all [i != j], we have [..].' (Assumption 4, L79, as extracted: the separation threshold is missing from the "
    "extracted text); 'very mild angular separation' (L69).  Range: the Gram used before issue 37 (sep = 1) and one "
    "with much stronger correlations (sep = 3), which a 'very mild' separation (a threshold near 1) admits")
#: the witness at each Gram: xi = 9 = 3 sqrt(k) at sep = 1 (violation frequency ~0.3, seed 0), 18 at sep = 3 (measured
#: with 800 draws: ~0.05 at xi = 9, the delta itself, so no power there; 0.29 at xi = 18, 0.09 at xi = 12)
_W2 = [{"k": 9, "xi": 9.0, "sep": 1, "act": 2}, {"k": 9, "xi": 18.0, "sep": 3, "act": 2}]
_LEMMA2_POWER = (Alternative(
    "the hypothesis xi = 1 removed: xi = 9 (sep = 1) and 18 (sep = 3) (h_3, separated rows)",
    OverOpenSetting(ProbabilityBound(points=per_profile(_W2, _W2),
                                     delta=lambda p: 0.05, sampler=_cond3_sampler, trials=per_profile(1500, 6000),
                                     chunk=1500), LEMMA2_SEP),
    "Lemma 2 read without its spectral-scale hypothesis xi = Theta(1)"),)
_C3_POWER_NOTE = (" Power (issue 24): at the lemmas' own points no violation was seen in any draw (a failure "
                  "probability far below what 1500-6000 draws can see), so the confirmation alone has no power; the "
                  "power witness runs the same test (delta = 0.05, same draws per point) where one hypothesis is "
                  "removed and the failure probability is ~0.3, and must reject there.  What would give the "
                  "lemma's own points power is the lost probability bound (delta as a function of k): with it, "
                  "small k where delta(k) is of order 0.01-0.1 could be tested directly.")

CLAIMS = [
    Claim(id="dayi2024.lemma1", kind=Kind.PROB_BOUND,
          source=src("Lemma 1 (L219-221), proof App. A.4 (L440-446); Claim 1 (L206-209); Condition 3 (L189-191)"),
          statement=r"\Pr_{c,\hat c}\Big[\mathrm{sign}(m)\phi(m)\ge\tfrac12|\phi(0)|>0\ \ \forall m:\ "
                    r"\mathrm{sign}(m)=\mathrm{sign}(\phi(0))\Big]\ge1-\delta",
          assumptions="orthonormal rows; " + SETTING, domain=_C3_DOMAIN, notes=_C3_NOTES + _C3_POWER_NOTE + LEMMA1_NOTE,
          power=_LEMMA1_POWER,
          check=AllOf([_lemma1_bound(per_profile(*[[p for p in _COND3[q] if not p["sep"] and p["act"] in (0, 4)]
                                                   for q in ("quick", "standard")])),
                       OverOpenSetting(_lemma1_bound(_LEMMA1_ALPHA_POINTS), per_profile((), (LEMMA1_ALPHA,)))])),
    Claim(id="dayi2024.lemma2", kind=Kind.PROB_BOUND,
          source=src("Lemma 2 (L230-231), proof App. A.5 (L489-491); Proposition 2 (L227-229)"),
          statement=r"\Pr_{c,\hat c}\Big[\mathrm{sign}(m)\phi(m)\ge\tfrac12|\phi(0)|>0\ \ \forall m:\ "
                    r"\mathrm{sign}(m)=\mathrm{sign}(\phi(0))\Big]\ge1-\delta\ \ (\xi=1,\ \text{separated rows})",
          assumptions="angularly separated rows (fixed Gram matrices, max |<w_i, w_j>| <= 0.45), xi = 1; " + SETTING,
          domain=_C3_DOMAIN_SEP, notes=_C3_NOTES + _C3_POWER_NOTE + LEMMA2_NOTE, power=_LEMMA2_POWER,
          check=OverOpenSetting(ProbabilityBound(
              points=per_profile(*[[p for p in _COND3[q] if p["sep"]] + [dict(p, sep=3) for p in _COND3[q] if p["sep"]]
                                   for q in ("quick", "standard")]),
              delta=lambda p: 0.05, sampler=_cond3_sampler, trials=per_profile(1500, 6000), chunk=1500), LEMMA2_SEP)),
    Claim(id="dayi2024.prop6", kind=Kind.BOUND, source=src("Proposition 6 (L361-365); Lemma 3.2 (L240-241)"),
          statement=r"\|\nabla^SL(\hat u)\|\le|\phi(m)|\le2\xi^2k\,\mathbb E[\sigma'(rZ)^2]",
          assumptions=SETTING,
          domain=Domain((Param("k", 1, 30, integer=True), Param("xi", 0, 10, lower_open=True), Param("m", -1, 1),
                         Param("sep", 0, 1, integer=True), Param("seed", 0, 10 ** 6, integer=True))),
          construction="the bound tested is one the suite proved itself from |rho| <= 1 (the printed bound is lost), so it could not have failed",
          notes="Reading of the lost bound: |rho_ij| <= 1 and non-negative sum_p p beta_p^2 |rho|^{p-1} <= sum_p p beta_p^2 "
                "= r^2 E[sigma'(r Z)^2] give |phi| <= (2 xi^2/r^2) sum_ij |c^_i c_j| r^2 E[sigma'^2] = 2 xi^2 k E[sigma'^2]; "
                "||grad^S L|| = |phi| sqrt(1 - m^2) <= |phi|.  Searched for ReLU over random instances (seed).  The search "
                "reads the bound from the stated form (derivations.lowrank.prop6_bound_stated, xi^2 k for ReLU).",
          stated=LR.prop6_bound_stated(), stated_bound="upper",
          check=StatedSearch("|phi(m)| <= 2 xi^2 k E[relu'(rZ)^2] (ReLU)", holds=_prop6_holds,
                             bounds={"k": (3, 30), "xi": (0.05, 10.0)}, precise=False)),
    Claim(id="dayi2024.claim4", kind=Kind.EXACT, source=src("Claim 4 (L406-412), Eq. (11) (L401-404)"),
          statement=r"\mathbb E[(\hat c^TMc)^2]=\frac{\|M\|_F^2}{k^2},\quad\frac{M_{11}^2}{k}\le\frac{\|M\|_F^2}{k^2}\le M_{11}^2",
          assumptions="xi = 1; c, c^ independent uniform on {+-1/sqrt k}^k; M of Eq. (11)",
          domain=Domain((Param("k", 2, 50, integer=True), Param("sep", 0, 1, integer=True),
                         Param("act", 0, 6, integer=True, doc=ACT_DOC))),
          construction="with M read as below, Claim 4's identity holds by the definition of M (a tautology of our reading), so its confirmation could not have failed",
          notes="M is read as M_ij = sum_p p beta_p^2 (<w_i, w_j>/r^2)^{p-1} (so phi(0) = (2 xi^2/r^2) c^T M c); the "
                "variance identity holds for any fixed matrix M (Walsh characters c^_i c_j are orthonormal), the "
                "inequalities need M PSD with constant diagonal.  The Monte Carlo's prediction is read from the stated form "
                "(derivations.lowrank.claim4_variance_stated, ||M||_F^2/k^2) with the instance's ||M||_F added to the point.",
          stated=LR.claim4_variance_stated(),
          check=AllOf([Custom(_claim4_mean, points=_CLAIM4_MC.points), Custom(_claim4_ineq)])),
    Claim(id="dayi2024.thm9", kind=Kind.BOUND, source=src("Theorem 9 (L604-612), Definition 2 (L600-603)"),
          statement=r"m\ge1-\epsilon':\ \exists a:\ \mathbb E(f_a-f^*)^2\le2k\xi^2(1-m)\,\mathbb E[\sigma'(rZ)^2]\ "
                    r"(\le\epsilon\ \text{for}\ \epsilon'=\epsilon/(2k\xi^2\mathbb E[\sigma'^2]))",
          assumptions="the linear family of Eq. (16) with the 2k features sigma(<w_i +- (xi/sqrt k) u^, x>); ReLU",
          domain=Domain((Param("k", 2, 12, integer=True), Param("xi", 0, 10, lower_open=True), Param("m", 0, 1),
                         Param("sep", 0, 1, integer=True), Param("seed", 0, 10 ** 6, integer=True))),
          construction="the bound tested is the one the suite derived for the candidate (the printed bound is lost), so it could not have failed",
          notes="Reconstructed: the candidate a_{i,s} = 1{s = sqrt(k) c_i} is the student with c^ = c; the proof's bound "
                "(Cauchy-Schwarz, E(sigma(a x) - sigma(b x))^2 = 2 sum_p beta_p^2 (1 - rho^p) <= 2 (1 - rho) sum_p p beta_p^2, "
                "1 - rho_ii = (xi^2/k)(1 - m)/r^2) gives 2 k xi^2 (1 - m) E[sigma'(rZ)^2], consistent with the surviving "
                "'which is [O(eps/k)] for [xi = 1] and [O(eps/k^2)] for [xi = sqrt k]'.  The error is computed exactly "
                "with the ReLU arc-cosine kernel; searched over k, xi, m, orthonormal and separated rows.  The search reads "
                "the bound from the stated form (derivations.lowrank.thm9_bound_stated, k xi^2 (1 - m) for ReLU).",
          stated=LR.thm9_bound_stated(), stated_bound="upper",
          check=AllOf([StatedSearch(_THM9_NAME, holds=_thm9_holds, show=_thm9_show, strategy=_thm9_strategy,
                                    precise=False),
                       Custom(lambda claim, ctx: Evidence(checks=[_thm9_grid(stated_value(claim))]))])),
    Claim(id="dayi2024.example1", kind=Kind.EXACT, source=src("Example 1 (App. C.1, L595-597)"),
          statement=r"\exists\,\Delta_1\ne\Delta_2\ \text{rank 1},\ \|\Delta_1\|_F=\|\Delta_2\|_F:\ f_{W+\Delta_1}\equiv f_{W+\Delta_2}"
                    r"\ \ (u\in\mathrm{span}(W))",
          assumptions="Assumption 2 violated (u in the span of the base rows); an even activation",
          domain=Domain(()),
          notes="The paper's instance is lost ('Let [..], let [..], and consider the activation [..]'); we check a "
                "substitute instance consistent with the prose (k = d = 2, W = I, even sigma, xi = 4).  An existence "
                "claim, so one valid instance confirms it; this is our construction, not the paper's.",
          tags=("extension",),
          check=Custom(_example1),
          power=(Alternative("any activation: the same pair non-identifiable for ReLU (not even)",
                             Custom(lambda claim, ctx: _example1(claim, ctx, acts=[("relu", lambda z: np.maximum(z, 0))])),
                             "the example read without its evenness condition (the identity I + Delta_2 = -(I + "
                             "Delta_1) needs sigma(-z) = sigma(z))"),)),
]

CLAIMS = mark_reconstructed(CLAIMS)   # issue 22: every form of 003 tested here is ours
