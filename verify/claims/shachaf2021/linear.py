"""§4 of 000_efaf07e323d59f0e.txt: fine-tuning linear regression from theta_S (Theorems 4.1, 4.2 and the
sentences after them).

- ``thm4.1``          eq. (1) and (2) against literal gradient descent from theta_S, draw by draw, with
                      anisotropic Sigma; E R = (1 - n/d)||theta_T - theta_S||^2 for Sigma = I (derived by us);
- ``thm4.2``          bound (3) with probability 1 - e^{-delta}: the constant c is unspecified, so "there
                      exists c" cannot be refuted by a finite experiment (inconclusive by design);
- ``thm4.2.c1``       its companion: (3) as stated at c = 1 against the end-state risk, per draw, violation
                      counts against e^{-delta} (target 'stated'; an extension);
- ``thm4.2.event``    the proof's deterministic step (our reading): on every draw (3) holds with
                      g = ||Sigma_tilde - Sigma||;
- ``sec4.rates``      "the term relating to the top-k span decreases like n^{-1.5}, the bottom like n^{-0.5}";
- ``sec4.regimes``    "for small n s.t. g > 1 the bound mainly depends on ||P_<=m v||, for g < 1 on ||P_>m v||".
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st

from derivations import linear_finetune as LFD
from numerics import linear_finetune as LF
from verify.kit import (EVERY_VALUE, AllOf, Alternative, Check, Claim, Constraint, Custom, Domain, Evidence, Expectation, Identity,
                        Kind, Param, PropertySearch, RootCause, Tol, label_of, per_profile, pick, stat_test,
                        stated_value)

from .common import GAUSS_ANISO, LIN_SETTING, PAPER, ROOT_REGIMES, binomial_bound_test, split_unspecified, src

# spectra by code (a Domain parameter must be a number)
SPECTRA = {0: "identity", 1: "two-level (first d/10 eigenvalues 1.5, rest 0.3, as Figure 1)",
           2: "power law lambda_i = 1/i", 3: "power law lambda_i = 1/i^2"}


def spectrum(code: int, d: int, device=None) -> torch.Tensor:
    code = int(code)
    if code == 0:
        return torch.ones(d, dtype=torch.float64, device=device)
    if code == 1:
        return LF.two_level_spectrum(d, max(1, d // 10), 1.5, 0.3, device=device)
    if code == 2:
        return LF.power_spectrum(d, 1.0, device=device)
    if code == 3:
        return LF.power_spectrum(d, 2.0, device=device)
    raise ValueError(f"unknown spectrum code {code} (0-3: {SPECTRA})")


SPEC = Param("spectrum", 0, 3, integer=True, doc="; ".join(f"{k}: {v}" for k, v in SPECTRA.items()))


def _draw(p, B, gen, dtype=torch.float64):
    """Design, source and target teachers for a point (||theta_T - theta_S|| = 1, random direction)."""
    n, d = int(p["n"]), int(p["d"])
    lam = spectrum(p["spectrum"], d, gen.device)
    X = LF.design(B, n, lam, gen, dtype=dtype)
    tS = torch.randn(B, d, generator=gen, dtype=dtype, device=gen.device)
    v = torch.randn(B, d, generator=gen, dtype=dtype, device=gen.device)
    v = v / v.norm(dim=-1, keepdim=True)
    return lam, X, tS, tS + v


# ------------------------------------------------------------------ thm4.1
def _gd_check(claim, ctx, points) -> Evidence:
    """Literal GD from theta_S vs eqs. (1), (2), draw by draw (relative squared distances)."""
    ev = Evidence()
    B = pick(ctx.profile, per_profile(24, 64, 128))
    tol = Tol(rel=0.0, abs=1e-8, resolution=0.0)
    f2 = stated_value(claim)   # eq. (2) as stated, in the scalars Q_TT, Q_TS, Q_SS of each draw
    for p in points:
        lab = label_of(p)
        gen, seed = ctx.generator(claim.id, "gd", lab)
        lam, X, tS, tT = _draw(p, B, gen, ctx.dtype)
        y = torch.einsum("bnd,bd->bn", X, tT)
        try:
            w, info = LF.gd_finetune(X, y, tS)
        except Exception as e:  # NotConverged
            ev.checks.append(Check(f"GD: {lab}", None, f"not converged: {e}", refutes=False))
            continue
        v2 = (tT - tS).square().sum(-1)
        e1 = LF.end_state_eq1(X, tS, tT)
        d1 = ((w - e1).square().sum(-1) / v2).cpu().numpy()
        R_gd = LF.risk(w, tT, lam)
        pT, pS = LF.perp_part(X, tT), LF.perp_part(X, tS)
        R2 = torch.tensor([f2({"Q_TT": a, "Q_TS": b, "Q_SS": c}) for a, b, c in zip(
            (pT.square() * lam).sum(-1).tolist(), (pT * pS * lam).sum(-1).tolist(), (pS.square() * lam).sum(-1).tolist())],
            dtype=R_gd.dtype, device=R_gd.device)
        # relative to the simulated risk R(w_GD) > 0 (equal to eq.(2) to ~1e-11), so that the denominator does not
        # depend on the form tested: a wrong form that is small or negative on some draws is not rescued by it
        d2 = ((R_gd - R2).abs() / R_gd).cpu().numpy()
        extra = {"max_steps": int(info["steps"].max()), "max_rel_loss": float(info["rel_loss"].max())}
        ev.tests.append(stat_test(f"||w_GD - eq.(1)||^2/||theta_T-theta_S||^2: {lab}", p, 0.0, d1, tol, "stated",
                                  seed, extra, margin=True))
        ev.tests.append(stat_test(f"|R(w_GD) - eq.(2)|/R(w_GD): {lab}", p, 0.0, d2, tol, "stated", seed, extra,
                                  margin=True))
        ev.seeds.append(seed)
    return ev


GD_POINTS = per_profile(
    [{"n": n, "d": 24, "spectrum": s} for n in (4, 12) for s in (0, 1)] + [{"n": 4, "d": 24, "spectrum": 2}],
    [{"n": n, "d": d, "spectrum": s} for (n, d) in ((4, 24), (12, 24), (16, 24), (20, 60)) for s in (0, 1, 2)]
    + [{"n": 4, "d": 24, "spectrum": 3}, {"n": 8, "d": 60, "spectrum": 3}],
    [{"n": n, "d": d, "spectrum": s} for (n, d) in ((4, 24), (12, 24), (16, 24), (20, 60), (60, 200))
     for s in (0, 1, 2)] + [{"n": 4, "d": 24, "spectrum": 3}, {"n": 8, "d": 60, "spectrum": 3}])


def _risk_gd_sampler(p, B, gen, ctx):
    """R(w_GD) for Sigma = I, literal GD from theta_S, ||theta_T - theta_S|| = 1."""
    lam, X, tS, tT = _draw({**p, "spectrum": 0}, B, gen, ctx.dtype)
    y = torch.einsum("bnd,bd->bn", X, tT)
    w, _ = LF.gd_finetune(X, y, tS)
    return LF.risk(w, tT, lam)


EXP_POINTS = per_profile([{"n": n, "d": d} for (n, d) in ((2, 20), (6, 30))],
                         [{"n": n, "d": d} for (n, d) in ((2, 20), (5, 20), (10, 20), (10, 50))],
                         [{"n": n, "d": d} for (n, d) in ((2, 20), (5, 20), (10, 20), (14, 20), (10, 50), (25, 50),
                                                          (35, 50), (50, 200))])


# ------------------------------------------------------------------ thm4.2
C_DS = 8 + 2 * math.sqrt(2)  # our constant for Sigma = I (Davidson-Szarek), see notes
MS = 12                      # number of values of m tested per draw (spread over 1..d)


def _m_values(d: int):
    return sorted({max(1, round(d * (i + 1) / MS)) for i in range(MS)} | {1, max(1, d // 10)})


def _bound_quantities(p, B, gen, dtype, cov=True):
    n, d, delta = int(p["n"]), int(p["d"]), float(p["delta"])
    lam, X, tS, tT = _draw(p, B, gen, dtype)
    v = tT - tS
    R = LF.risk_eq2(X, tS, tT, lam)
    g1 = LF.g_function(1.0, lam, delta, n)
    cs = LF.c_star(R, g1, lam, v, _m_values(d))
    if not cov:
        return {"R": R, "g1": g1, "c_risk": cs}
    dev = LF.covariance_deviation(X, lam)
    return {"R": R, "g1": g1, "c_risk": cs, "c_cov": dev / g1, "dev": dev, "lam": lam, "v": v}


def _c1_stated_check(variant: str | None = None):
    """Issue 36: bound (3) at c = 1 as the claim states it, against the risk of the fine-tuned end state, per draw.

    Per point, B draws of (X, theta_S, theta_T); R(gamma) of the end state gamma = P_perp theta_S + P_par theta_T
    (eq. (1): the limit of literal GD from theta_S, checked draw by draw against literal GD in shachaf2021.thm4.1);
    the right side of (3) read through the claim's stated form (``stated_value``: ``verify mutants`` substitutes
    perturbed forms) at g = g(lambda, delta, n) with c = 1, at every tested m; a draw violates when R exceeds it for
    some m.  The violation count is judged against the stated failure probability e^{-delta} (exact binomial, target
    'stated': a rejection refutes this companion claim).  ``variant``: a power witness, (3) changed (see
    :func:`_variant_violations`), judged by the same test."""
    def run(claim, ctx, points) -> Evidence:
        ev = Evidence()
        f3 = stated_value(claim) if variant is None else None
        B = pick(ctx.profile, PB_TRIALS)
        for p in points:
            lab = label_of(p)
            gen, seed = ctx.generator(claim.id, "c = 1, stated form", lab)
            delta = float(p["delta"])
            parts = []
            for b0 in range(0, B, CHUNK):       # chunks of draws from the point's generator (memory at full)
                parts.append(_c1_violations(f3, variant, p, min(CHUNK, B - b0), gen, ctx.dtype))
            viol = np.concatenate(parts)
            t = binomial_bound_test(f"(3) at c = 1{'' if variant is None else ', ' + variant}: {lab}", p,
                                    math.exp(-delta), viol, seed)
            ev.tests.append(t)
            ev.seeds.append(seed)
        return ev
    return Custom(run, points=_pb_points(1.0))


CHUNK = 1000


def _c1_violations(f3, variant, p, B, gen, dtype) -> np.ndarray:
    """0/1 per draw: whether (3) at c = 1 fails for some tested m, (3) read through ``f3`` (the claim's stated form)
    or, for a power witness, changed by ``variant``."""
    n, d, delta = int(p["n"]), int(p["d"]), float(p["delta"])
    lam, X, tS, tT = _draw(p, B, gen, dtype)
    v = tT - tS
    R = LF.risk_eq2(X, tS, tT, lam)      # R(gamma) of the end state (1)
    if variant is not None:
        return _variant_violations(variant, 1.0, p, lam, R, v).cpu().numpy()
    g = LF.g_function(1.0, lam, delta, n)
    viol = np.zeros(B, dtype=bool)          # host values: the stated form is evaluated per draw
    Rl = R.tolist()
    for m in _m_values(d):
        top2, bot2 = (x.tolist() for x in LF.split_norms(v, m))
        lm = float(lam[m - 1])
        viol |= np.array([Rl[b] > f3({"g": g, "lambda_m": lm, "T": top2[b], "B": bot2[b]}) for b in range(B)])
    return viol.astype(np.float64)


def _variant_violations(variant: str, c: float, p, lam, R, v) -> torch.Tensor:
    """Per draw, whether (3) changed by ``variant`` fails for some m: ``"bottom g^3"`` the bottom term 2 g^3
    ||P_>m v||^2 (the top term's power of g); ``"fast rate"`` g's square-root terms dropped, g = c lambda_1
    max{sum lambda_i/(n lambda_1), delta/n} (the rate n^-1 for n^-1/2); ``"no bottom"`` / ``"no top"`` (3) at the
    stated g with that term dropped."""
    n, d, delta = int(p["n"]), int(p["d"]), float(p["delta"])
    l1, tr = float(lam[0]), float(lam.sum())
    g = c * l1 * max(tr / (n * l1), delta / n) if variant == "fast rate" else LF.g_function(c, lam, delta, n)
    viol = torch.zeros(R.shape[0], dtype=torch.bool, device=R.device)
    for m in _m_values(d):
        top2, bot2 = LF.split_norms(v, m)
        if variant == "bottom g^3":
            viol |= R > 2 * g**3 * top2 / float(lam[m - 1]) ** 2 + 2 * g**3 * bot2
            continue
        top2, bot2 = (0 * top2 if variant == "no top" else top2), (0 * bot2 if variant == "no bottom" else bot2)
        viol |= R > LF.bound3(g, float(lam[m - 1]), top2, bot2)
    return viol.double()


def _c1_witness(label: str, variant: str, why: str) -> Alternative:
    """A power witness of thm4.2.c1: (3) changed by ``variant``, judged by the claim's own c = 1 test (target
    'stated': a rejection refutes the witness)."""
    return Alternative(label, _c1_stated_check(variant), why + "; judged by the claim's own c = 1 test")


def _event_and_cstar(claim, ctx, points) -> Evidence:
    """Per point: the proof's deterministic step on every draw, and the smallest c each setting needs."""
    ev = Evidence()
    B = pick(ctx.profile, per_profile(200, 600, 4000))
    rows, worst, worst_c, evaluated = [], 0.0, 0.0, 0
    f3 = stated_value(claim)   # eq. (3) as stated, in g, lambda_m, T = ||P_<=m v||^2, B = ||P_>m v||^2
    for p in points:
        gen, seed = ctx.generator(claim.id, "event", label_of(p))
        q = _bound_quantities(p, B, gen, ctx.dtype)
        ratio = float((q["c_risk"] / q["c_cov"]).max())  # <= 1 iff (3) holds with g = ||Sigma~ - Sigma||
        worst_c = max(worst_c, ratio)
        # (3) as stated (claim.stated through stated_value) with g = ||Sigma~ - Sigma||, per draw and per m
        R, dev, lam, v = q["R"].tolist(), q["dev"].tolist(), q["lam"], q["v"]
        for m in _m_values(int(p["d"])):
            top2, bot2 = (x.tolist() for x in LF.split_norms(v, m))
            lm = float(lam[m - 1])
            for b in range(len(R)):
                bound = f3({"g": dev[b], "lambda_m": lm, "T": top2[b], "B": bot2[b]})
                worst = max(worst, R[b] / bound if bound > 0 else (math.inf if R[b] > 0 else 0.0))
                evaluated += 1
        qq = 1 - math.exp(-float(p["delta"]))
        rows.append({"point": p, "trials": B, "seed": seed,
                     "c_needed_bound3": float(torch.quantile(q["c_risk"], qq)),
                     "c_needed_concentration": float(torch.quantile(q["c_cov"], qq)),
                     "max_c_risk_over_c_cov": ratio})
        ev.seeds.append(seed)
    ev.checks.append(Check("on every draw, (3) holds with g = ||Sigma_tilde - Sigma|| (the proof's step)",
                           worst <= 1.0 + 1e-9,
                           f"max over {len(points)} settings x {B} draws x {len(_m_values(int(points[0]['d'])))} "
                           f"values of m of R/(3) at g = ||Sigma~ - Sigma|| = {worst:.3g} ({evaluated} comparisons); "
                           f"max of c*_bound/c*_concentration = {worst_c:.3g}",
                           extra={EVERY_VALUE: True}))   # a draw that violates it is a counterexample (refutes)
    ev.details["smallest c per setting (quantile 1 - e^-delta)"] = rows
    ev.details["largest c needed"] = {"bound (3)": max(r["c_needed_bound3"] for r in rows),
                                      "concentration ||Sigma~ - Sigma|| <= g": max(r["c_needed_concentration"]
                                                                                  for r in rows)}
    return ev


PB_POINTS = per_profile(
    [{"n": n, "d": 40, "spectrum": s, "delta": dl} for (n, dl) in ((5, 1.0), (30, 3.0)) for s in (0, 1, 3)],
    [{"n": n, "d": 50, "spectrum": s, "delta": dl} for n in (5, 20, 45) for s in (0, 1, 2, 3) for dl in (1.0, 3.0)],
    [{"n": n, "d": d, "spectrum": s, "delta": dl} for (n, d) in ((5, 50), (20, 50), (45, 50), (60, 100), (150, 200))
     for s in (0, 1, 2, 3) for dl in (1.0, 3.0, 6.0)])
PB_TRIALS = per_profile(200, 600, 4000)
#: issue 24: where g >= lambda_1/2^(1/3), bound (3) cannot fail for any estimator: R = ||Sigma^(1/2) P_perp v||^2 <=
#: lambda_1 ||v||^2, while (3) >= min(2g^3/lambda_1^2, 2g)||v||^2 >= lambda_1 ||v||^2 (lambda_m <= lambda_1).  At
#: Sigma = I this is every point (g >= c d/n > c >= 1), and with c = c_DS ~ 10.8 every point of every profile.  The
#: c = 1 tests of thm4.2 run only where they can fail (the automatic points stay in thm4.2.event, whose
#: per-draw step with g = ||Sigma~ - Sigma|| is not automatic)
AUTOMATIC = 2 ** (-1 / 3)


def can_fail(p, c: float) -> bool:
    """Whether bound (3) with constant c can fail at point p for some estimator (g/lambda_1 < 2^(-1/3))."""
    lam = spectrum(p["spectrum"], int(p["d"]))
    return LF.g_function(c, lam, float(p["delta"]), int(p["n"])) / float(lam[0]) < AUTOMATIC


def _pb_points(c: float) -> dict:
    return {k: [q for q in v if can_fail(q, c)] for k, v in PB_POINTS.items()}


# ------------------------------------------------------------------ sec4.regimes
def _regimes_hold(p) -> bool:
    """'g > 1 => the top term dominates, g < 1 => the bottom term dominates', read on the coefficients of
    ||P_<=m v||^2 (2 g^3/lambda_m^2) and ||P_>m v||^2 (2 g).  It fails where the other coefficient is strictly the
    larger one; at the exact tie g = lambda_m neither term dominates and the sentence is not contradicted (a set of
    measure zero; issue 22: the tie was the shrunk counterexample), compared exactly (no rounding at the tie)."""
    from fractions import Fraction
    g, lm = Fraction(p["g"]), Fraction(p["lambda_m"])
    top, bot = 2 * g**3 / lm**2, 2 * g
    if g > 1:
        return top >= bot
    if g < 1:
        return top <= bot
    return True


def _regimes_corrected(p) -> bool:
    """The corrected threshold: g > lambda_m => 2 g^3/lambda_m^2 > 2 g, g < lambda_m => 2 g^3/lambda_m^2 < 2 g."""
    from fractions import Fraction
    g, lm = Fraction(p["g"]), Fraction(p["lambda_m"])        # exact: no rounding near the tie g = lambda_m
    top, bot = 2 * g**3 / lm**2, 2 * g
    if g > lm:
        return top > bot
    if g < lm:
        return top < bot
    return True


def _regimes_margin(p) -> float:
    """The violation in units of the coefficient the sentence says dominates (> 0 where it fails): for g > 1 the top
    coefficient 2 g^3/lambda_m^2 should exceed 2 g, margin (2g)/(2g^3/lambda_m^2) - 1 = lambda_m^2/g^2 - 1; for g < 1
    the bottom one should, margin g^2/lambda_m^2 - 1."""
    g, lm = p["g"], p["lambda_m"]
    if g > 1:
        return lm**2 / g**2 - 1
    if g < 1:
        return g**2 / lm**2 - 1
    return 0.0


def _g3_slope(p) -> float:
    """d log g^3 / d log n of the paper's g at p (n, r, delta), by a log-log difference quotient (g is piecewise a power
    of n, so the quotient is exact away from the kinks n = r, n = delta)."""
    n_, h = float(p["n"]), 1e-6
    g0, g1 = (LFD.g_value(1.0, 1.0, float(p["r"]), float(p["delta"]), n_ * f) for f in (1.0, 1.0 + h))
    return 3 * math.log(g1 / g0) / math.log1p(h)


def _rate_plain(p) -> bool:
    return abs(_g3_slope(p) + 1.5) < 1e-4


def _rate_plain_margin(p) -> float:
    return abs(_g3_slope(p) + 1.5) / 1.5


def _rate_corrected(p) -> bool:
    n_, m = float(p["n"]), max(float(p["r"]), float(p["delta"]))
    if abs(n_ / m - 1) < 1e-5:   # the kink itself: the one-sided quotient there is either branch
        return True
    return abs(_g3_slope(p) - (-1.5 if n_ >= m else -3.0)) < 1e-4


#: why shachaf2021.sec4.rates.plain fails, in words (a root cause with one witness): the exponents are those its
#: searches establish (-3/2 for n >= max(r, delta), -3 below)
ROOT_RATES_PLAIN = RootCause(
    "shachaf2021.sec4_rates_regime", PAPER,
    "§4.1's n^{-3/2} decay of g^3 holds only for n >= max(r, delta); below, g^3 falls like n^{-3}.",
    r"\frac{d\log g^3}{d\log n}=-\tfrac32\ \text{only for } n\ge\max(r,\delta);\ -3\ \text{for } n<\max(r,\delta)")


_N_LT_D = Constraint(lambda p: p["n"] < p["d"], "Assumption 3.1 needs n < d (X X^T non-singular)")
_LIN_DOMAIN = Domain((Param("n", 1, math.inf, integer=True), Param("d", 2, math.inf, integer=True), SPEC), (_N_LT_D,))

CLAIMS = [
    Claim(
        id="shachaf2021.thm4.1", kind=Kind.EXACT, source=src("Theorem 4.1, eqs. (1)-(2)"),
        statement=(r"\gamma=\lim_t w(t)=P_\perp\theta_S+P_\parallel\theta_T,\qquad "
                   r"R(\gamma)=\|\Sigma^{1/2}P_\perp(\theta_T-\theta_S)\|^2"),
        assumptions=LIN_SETTING + " " + GAUSS_ANISO,
        domain=_LIN_DOMAIN, stated=LFD.risk_eq2_stated(), derived=LFD.expected_risk_identity_derived(),
        notes=("Literal gradient descent on (1/n)||Xw - y||^2 from theta_S (optimal constant step "
               "2/(mu_max + mu_min), until the loss fell by 1e-24), batched over draws; per draw the relative "
               "squared distance to eq. (1) and the relative difference between R(w_GD) = (w-theta_T)^T Sigma "
               "(w-theta_T) and eq. (2) (relative to R(w_GD)), each tested one-sided against 1e-8 (isotropic "
               "and three anisotropic spectra, n/d up to 2/3); eq. (2) is read through the claim's stated form (its square norm written "
               "out in the scalars of a draw, Q_TT - 2 Q_TS + Q_SS, derivations.linear_finetune.risk_eq2_stated). "
               "Our derived expectation for Sigma = I, E R = (1 - n/d)||theta_T - "
               "theta_S||^2 (E P_perp = (1 - n/d) I by rotation invariance and tr P_perp = d - n; exact at "
               "finite size), is tested on the GD end states with the exact per-draw variance "
               "(R/||v||^2 ~ Beta((d-n)/2, n/2)); it is our derivation (target 'derived')."),
        check=AllOf([
            Custom(_gd_check, points=GD_POINTS),
            Expectation(points=EXP_POINTS, name="E R, Sigma = I (derived)", target="derived",
                        predicted=lambda p: LFD.expected_risk_identity_value(int(p["n"]), int(p["d"]), 1.0),
                        variance=lambda p: LFD.risk_variance_identity_value(int(p["n"]), int(p["d"]), 1.0),
                        sampler=_risk_gd_sampler, trials=per_profile(1200, 8000, 40000), chunk=4000),
        ]),
    ),
    Claim(
        id="shachaf2021.thm4.2", kind=Kind.PROB_BOUND, source=src("Theorem 4.2, eq. (3)"),
        statement=(r"\exists c>0\ \forall\delta\ge1,\ 1\le m\le d:\ \Pr\Big[R(\gamma)\le 2g^3\frac{\|P_{\le m}"
                   r"(\theta_T-\theta_S)\|^2}{\lambda_m^2}+2g\|P_{>m}(\theta_T-\theta_S)\|^2\Big]\ge1-e^{-\delta},"
                   r"\ g=c\lambda_1\max\{\sqrt{\tfrac{\sum\lambda_i}{n\lambda_1}},\tfrac{\sum\lambda_i}{n\lambda_1},"
                   r"\sqrt{\tfrac{\delta}{n}},\tfrac{\delta}{n}\}"),
        assumptions=LIN_SETTING + " Rows of X i.i.d. subgaussian centred (here Gaussian, N(0, diag(lambda))).",
        domain=Domain((*_LIN_DOMAIN.params, Param("delta", 1, math.inf, doc="delta >= 1")), (_N_LT_D,)),
        stated=LFD.bound3_stated(),
        notes=("The constant c is unspecified: 'there exists c' cannot be refuted by any finite experiment (every "
               "finite set of draws is covered by a large enough c). What we test: (i) for each setting the "
               "smallest c for which (3) holds at frequency 1 - e^{-delta} (details; per draw c* is the root "
               "of the cubic A c^3 + C c = R, maximised over m); (ii) the bound at the concrete constant c = 1 "
               "(not c = c_DS = 8 + 2 sqrt(2) ~ 10.83, our constant for which ||Sigma_tilde - I|| "
               "<= g holds with probability >= 1 - e^{-delta} for Gaussian X, Sigma = I, n < d "
               "(s_max(Z) <= sqrt(n) + sqrt(d) + sqrt(2 delta), so ||Sigma_tilde - I|| <= 2a + a^2, a = "
               "sqrt(d/n) + sqrt(2 delta/n), <= (2 + 2 sqrt 2 + 6) max{...}), which makes (3) automatic, see "
               "below); c = 1 is our choice, so its tests are those of the companion shachaf2021.thm4.2.c1 (an "
               "extension; target 'stated' there). The shape (g ~ n^{-1/2} once n >= max(r, delta)) is not contradicted if the "
               "smallest c stays bounded as n grows at fixed spectrum, which the table shows. R is computed by "
               "eq. (2) on each draw (checked against literal GD in shachaf2021.thm4.1). Violations are counted "
               "when (3) fails for any of ~12 values of m (stronger than per m).  Issue 24: where g >= lambda_1/2^(1/3) the "
               "bound cannot fail for any estimator (R = ||Sigma^(1/2) P_perp v||^2 <= lambda_1 ||v||^2 <= "
               "min(2g^3/lambda_1^2, 2g)||v||^2 <= (3)); at Sigma = I that is every point (g >= c d/n > c >= 1: "
               "(3) >= 2||v||^2), and with c = c_DS every point of every profile, so those tests are not run "
               "(linear.can_fail; the c = c_DS test is dropped: it has no point where it can fail; the points stay in "
               "thm4.2.event).  What remains is c = 1 at anisotropic spectra where g < "
               "0.79 lambda_1 (quick: two-level at n = 30, 1/i^2 at n = 5 and 30): no violation in 200 draws each; "
               "the c = 1 test and its power are described in shachaf2021.thm4.2.c1's notes."),
        check=_c1_stated_check(),
        power=(_c1_witness("(3) with the bottom term 2g^3 ||P_>m v||^2", "bottom g^3",
                           "an exponent off (the top term's g^3 on the bottom term: the n^-1.5 rate the text gives "
                           "the top term)"),
               _c1_witness("(3) with g's square-root terms dropped (g ~ 1/n)", "fast rate",
                           "a rate off by a square root (the fast rate n^-1 for the n^-1/2 of g's first "
                           "and third terms)"),
               _c1_witness("(3) without its bottom term 2g ||P_>m v||^2", "no bottom",
                           "a term dropped (the top term alone)"),
               _c1_witness("(3) without its top term 2g^3 ||P_<=m v||^2/lambda_m^2", "no top",
                           "a term dropped (the bottom term alone)")),
    ),
    Claim(
        id="shachaf2021.thm4.2.event", kind=Kind.BOUND,
        source=src("Theorem 4.2 and the proof sketch after it (Davis-Kahan sin(Theta))"),
        statement=(r"\|\tilde\Sigma-\Sigma\|\le g\ \Rightarrow\ R(\gamma)\le 2g^3\|P_{\le m}(\theta_T-\theta_S)\|^2"
                   r"/\lambda_m^2+2g\|P_{>m}(\theta_T-\theta_S)\|^2\ \ \forall m"),
        assumptions=LIN_SETTING + " " + GAUSS_ANISO, tags=("extension",),
        domain=Domain((*_LIN_DOMAIN.params, Param("delta", 1, math.inf)), (_N_LT_D,)),
        stated=LFD.bound3_stated(), stated_bound="upper",
        notes=("Our reading of the statement's last clause ('and ||Sigma_tilde - Sigma|| <= g') and of the proof "
               "sketch: the bound holds on the event of the covariance concentration. Derived in "
               "derivations/linear_finetune.py (Sigma_tilde P_perp = 0 gives ||Sigma^{1/2}P_perp w||^2 <= g0 "
               "||P_perp w||^2 and ||P_perp V_<=m|| <= g0/lambda_m, g0 = ||Sigma_tilde - Sigma||). Checked "
               "draw by draw: R(gamma) against the right side of (3) as stated (the claim's stated form, evaluated "
               "with g = ||Sigma_tilde - Sigma|| at every draw and every tested m: an inequality at every recorded "
               "value); equivalently, the smallest c for (3) never exceeds the smallest c for the concentration "
               "(reported too). "
               "Extension: it states the proof's step, not the theorem; a draw on which it fails is a counterexample "
               "(reported as 'does not extend'). Until issue 13 the check had refutes=False and could not fail the claim."),
        check=Custom(_event_and_cstar, points=PB_POINTS),
    ),
    Claim(
        id="shachaf2021.sec4.rates", kind=Kind.SYMBOLIC,
        source=src("§4.1, text after Thm 4.2: 'the term relating to the top-k span decreases like n^{-1.5}, "
                   "while the term relating to bottom-k span decreases like n^{-0.5}'"),
        statement=r"g\propto n^{-1/2}\Rightarrow g^3\propto n^{-3/2}\ \ (n\ge\max(r,\delta),\ r=\textstyle\sum_i\lambda_i/\lambda_1)",
        assumptions="g(lambda, delta, n) of Theorem 4.2.", domain=Domain((Param("n", 1, math.inf),)),
        stated=sp.Rational(-3, 2),
        notes=("stated: the rate exponent of the top-span term, -1.5 (log-slope of g^3 in n); the bottom-span "
               "rate -1/2 is checked by the second identity (one stated form per claim). "
               "Read as the large-n behaviour: for n >= max(r, delta) the square roots win the max and g = c lambda_1 "
               "sqrt(max(r, delta)/n), so the top term (g^3) decays like n^{-1.5} and the bottom (g) like n^{-0.5} "
               "(log-slopes by sympy). For n <= r the ratio r/n wins and the rates are n^{-3} and n^{-1}. With "
               "n < d (Assumption 3.1) the n^{-1/2} regime exists only if r < d, i.e. for anisotropic Sigma: "
               "for Sigma = I (r = d) g ~ d/n throughout: that plain reading is judged by shachaf2021.sec4.rates.plain. "
               "Parameters (issue 36): the sentence names the exponent of n only; c, lambda_1, r and delta enter the "
               "constant of the rate (g^3 = c^3 lambda_1^3 max(r, delta)^{3/2} n^{-3/2}), which the text does not state, "
               "so only n is swept, at every (r, delta, c, lambda_1) of the Identity's box. The exponents are of the "
               "paper's g (its max{...} form, through the property search), so a stated exponent other than -3/2 "
               "(or -1/2 for the bottom term) would fail: the power witnesses are the fast rates n^{-3} and n^{-1}, "
               "the rates of the small-n regime."),
        check=AllOf([
            Identity("d log g^3/d log n = -3/2 (n >= max(r, delta))", LFD.log_slope(LFD.g_large_n_derived() ** 3),
                     sp.Rational(-3, 2), {LFD.n: (1, 100), LFD.r: (1, 100), LFD.c: (0.1, 3), LFD.lam1: (0.1, 3)}),
            Identity("d log g/d log n = -1/2 (n >= max(r, delta))", LFD.log_slope(LFD.g_large_n_derived()),
                     sp.Rational(-1, 2), {LFD.n: (1, 100), LFD.r: (1, 100), LFD.c: (0.1, 3), LFD.lam1: (0.1, 3)}),
            PropertySearch("g equals c lambda_1 sqrt(max(r, delta)/n) for n >= max(r, delta)",
                           holds=lambda p: math.isclose(
                               LFD.g_value(1.0, 1.0, p["r"], p["delta"], max(p["r"], p["delta"]) * p["k"]),
                               math.sqrt(1.0 / p["k"]), rel_tol=1e-12),
                           strategy=lambda: st.fixed_dictionaries(
                               {"r": st.floats(1, 1e4), "delta": st.floats(1, 1e4), "k": st.floats(1, 1e4)})),
        ]),
        power=(Alternative("the top term decreases like n^{-3} (the rate of the small-n regime)",
                           Identity("d log g^3/d log n = -3 (n >= max(r, delta))",
                                    LFD.log_slope(LFD.g_large_n_derived() ** 3), -3,
                                    {LFD.n: (1, 100), LFD.r: (1, 100), LFD.c: (0.1, 3), LFD.lam1: (0.1, 3)}),
                           "another exponent: the n^{-3} the top term has while r/n wins the max"),
               Alternative("the bottom term decreases like n^{-1}",
                           Identity("d log g/d log n = -1 (n >= max(r, delta))", LFD.log_slope(LFD.g_large_n_derived()),
                                    -1, {LFD.n: (1, 100), LFD.r: (1, 100), LFD.c: (0.1, 3), LFD.lam1: (0.1, 3)}),
                           "another exponent: the fast rate 1/n")),
    ),
    Claim(
        id="shachaf2021.sec4.rates.plain", kind=Kind.SYMBOLIC, role="remark", root_cause=ROOT_RATES_PLAIN,
        source=src("§4.1, text after Thm 4.2: 'shows the dependence of the bound on the number of train samples used "
                   "(as it depends on n^{-0.5}) ... the term relating to the top-k span decreases like n^{-1.5}, while "
                   "the term relating to bottom-k span decreases like n^{-0.5}'"),
        statement=r"\frac{d\log g^3}{d\log n}=-\tfrac32\ \ \text{at every } n \text{ of Theorem 4.2 } (n<d)",
        assumptions="g(lambda, delta, n) = c lambda_1 max{sqrt(r/n), r/n, sqrt(delta/n), delta/n} of Theorem 4.2, "
                    "r = sum_i lambda_i / lambda_1 >= 1, delta >= 1.",
        domain=Domain((Param("n", 1, math.inf), Param("r", 1, math.inf), Param("delta", 1, math.inf))),
        corrected=r"\frac{d\log g^3}{d\log n}=-\tfrac32\ \text{only for } n\ge\max(r,\delta);\ -3\ \text{for } n<\max(r,\delta)",
        notes=("The plain reading of the sentence (issue 36): the rates at every sample size the theorem covers, not "
               "only for large n. The exponent is computed from the paper's g itself (its max{...} form, "
               "derivations.linear_finetune.g_value), as a log-log difference quotient at (n, n(1 + 1e-6)). "
               "For n < max(r, delta) the ratio r/n (or delta/n) wins the max, g ~ 1/n and the top term decays like "
               "n^{-3}, the bottom one like n^{-1}; at Sigma = I, r = d > n under Assumption 3.1 (n < d), so the "
               "stated rates never apply there, and at Figure 1's spectrum (r = 240 at d = 1000) they apply only from "
               "n = 240 on. The large-n reading is confirmed by shachaf2021.sec4.rates; the corrected form (the rates "
               "with their regime) is checked by the same search."),
        check=AllOf([
            PropertySearch("d log g^3/d log n = -3/2 wherever Theorem 4.2 applies", holds=_rate_plain,
                           margin=_rate_plain_margin,
                           bounds={"n": (1, 1e4), "r": (1, 1e3), "delta": (1, 1e3)}),
            PropertySearch("corrected: -3/2 for n >= max(r, delta), -3 below", holds=_rate_corrected, refutes=False,
                           bounds={"n": (1, 1e4), "r": (1, 1e3), "delta": (1, 1e3)}),
        ]),
    ),
    Claim(
        id="shachaf2021.sec4.regimes", kind=Kind.ORDERING, role="remark", root_cause=ROOT_REGIMES,
        source=src("§4.1, text after Thm 4.2: 'For small enough n s.t. g > 1, the bound mainly depends on "
                   "||P_<=m(theta_T - theta_S)|| ... for large enough n s.t. g < 1 ... on ||P_>m(...)||'"),
        statement=r"g>1\Rightarrow \tfrac{2g^3}{\lambda_m^2}>2g,\qquad g<1\Rightarrow\tfrac{2g^3}{\lambda_m^2}<2g",
        assumptions="Bound (3) of Theorem 4.2.",
        domain=Domain((Param("g", 0, math.inf, lower_open=True), Param("lambda_m", 0, math.inf, lower_open=True))),
        corrected=r"\tfrac{2g^3}{\lambda_m^2}\gtrless 2g\iff g\gtrless\lambda_m\ \text{(the threshold 1 is right iff }\lambda_m=1)",
        notes=("'Mainly depends on' read as: the coefficient of ||P_<=m v||^2 in (3), 2 g^3/lambda_m^2, exceeds that "
               "of ||P_>m v||^2, 2 g. That holds iff g > lambda_m, so the text's threshold g = 1 is exact only for "
               "lambda_m = 1 (e.g. a normalised spectrum). Its failure for lambda_m != 1 (e.g. the Figure 1 value "
               "lambda_m = 1.5 with 1 < g < 1.5) is an erratum of the sentence, not of Theorem 4.2. "
               "Reading (issue 22): the text's own sentence read as meant ('For small enough n s.t. g(lambda, delta, n) "
               "> 1, the bound mainly depends on ||P_<=m(theta_T - theta_S)|| ... for large enough n s.t. g(lambda, "
               "delta, n) < 1, the bound mainly depends on ||P_>m(theta_T - theta_S)||'), so not an extension: a remark erratum of §4.1's discussion (threshold 1 for lambda_m). The "
               "strongest witness is the failing draw with the largest violation in units of the coefficient the "
               "sentence says dominates (lambda_m^2/g^2 - 1 for g > 1, g^2/lambda_m^2 - 1 for g < 1), away from the tie "
               "g = lambda_m where the two coefficients are equal; the tie itself, where neither term dominates, is "
               "not counted as a failure (measure zero), so the shrunk counterexample is a strict one too."),
        check=AllOf([PropertySearch("coefficient ordering on each side of g = 1", holds=_regimes_hold,
                                    margin=_regimes_margin, bounds={"g": (1e-3, 10), "lambda_m": (1e-3, 10)}),
                     PropertySearch("corrected: coefficient ordering on each side of g = lambda_m",
                                    holds=_regimes_corrected, refutes=False,
                                    bounds={"g": (1e-3, 10), "lambda_m": (1e-3, 10)})]),
    ),
]


def _split_thm42():
    """Issue 36: Theorem 4.2's constant c is unspecified (see common.split_unspecified)."""
    i = next(k for k, c in enumerate(CLAIMS) if c.id == "shachaf2021.thm4.2")
    CLAIMS[i:i + 1] = split_unspecified(
        CLAIMS[i], "the constant c of g (Theorem 4.2: 'there exists c > 0')",
        "a value of c (the proof's constant), at which the tests below become tests of the theorem",
        "shachaf2021.thm4.2.c1", "the bound (3) at c = 1, at anisotropic spectra where it can fail")
    from dataclasses import replace
    CLAIMS[i + 1] = replace(CLAIMS[i + 1], stated_bound="upper", notes=C1_NOTES)


C1_NOTES = (
    "What can be checked of shachaf2021.thm4.2 (Theorem 4.2: 'there exists c > 0 ... with probability at least "
    "1 - e^{-delta}, R(gamma) <= 2 g^3 ||P_<=m(theta_T - theta_S)||^2/lambda_m^2 + 2 g ||P_>m(theta_T - "
    "theta_S)||^2'), read at the concrete constant c = 1 (our choice: the theorem leaves c free, so a failure here "
    "is 'does not extend', never an erratum of the source).  Issue 36: the check now judges the stated form "
    "itself (until then its tests had target 'derived' and could only turn the claim inconclusive).  Per point, "
    "draws of Gaussian X with rows N(0, diag(lambda)), theta_S ~ N(0, I), theta_T = theta_S + v, ||v|| = 1 "
    "uniform; R(gamma) of the fine-tuned end state gamma = P_perp theta_S + P_par theta_T (eq. (1), the limit of "
    "literal gradient descent from theta_S, checked against literal GD draw by draw in shachaf2021.thm4.1), "
    "against the right side of (3) as stated (the claim's stated sympy form, read through stated_value, so the "
    "automatic mutants of verify mutants apply) with g = g(lambda, delta, n) at c = 1, at ~14 values of m per draw "
    "(a draw violates if (3) fails for any of them); the violation count is judged against e^{-delta} by an "
    "exact binomial test (target 'stated': a significant excess refutes).  Points: only where (3) at c = 1 can "
    "fail for some estimator, g < lambda_1/2^(1/3) (issue 24: elsewhere R <= lambda_1||v||^2 <= (3) for every "
    "draw, e.g. every point at Sigma = I): anisotropic spectra, n up to 0.9 d, delta in {1, 3}.  Power: the "
    "bound at c = 1 is far from tight wherever it can fail: the smallest c for which (3) holds on a draw is at "
    "most ~0.22 (two-level spectrum, n >= 0.4 d; 1/i and 1/i^2 spectra: <= 0.1 and <= 0.08; details of "
    "shachaf2021.thm4.2.event), so only gross changes of the form are visible: the declared witnesses (3) "
    "without its bottom term and (3) without its top term are rejected (refuted), while an exponent off in g "
    "(2g^3 on the bottom term, g without its square-root terms) leaves (3) above the risk and survives; the "
    "automatic mutants of the stated form (verify mutants) are counted there.  A confirmation rules out a "
    "failure frequency of (3) at c = 1 above e^{-delta} at these points, and the term-dropped forms.")


_split_thm42()
