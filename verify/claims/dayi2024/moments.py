"""Issue 27: moment bounds and the lazy limit of 003_83d15a9763fa9a30.txt, measured by Monte Carlo:

- ``dayi2024.cond2``   Condition 2 (L178-188), Lemma 3 part 1 (L236-238) and Proposition 5 (L353-360): the sample
                       spherical gradient's second moment grows at most linearly in d, and its component along u
                       is dimension-free ('we lose the dimension dependence', L360);
- ``dayi2024.prop4``   Proposition 4 (L344-352): the moments of the squared error are bounded by a constant of
                       (q, sigma) only: free of d;
- ``dayi2024.lazy``    §1.1 (L46): as the scale xi -> 0 'the teacher model becomes well-approximated by its
                       linearization around the base model' (the lazy / NTK regime).

Every formula of these statements is lost; what is checked is the dependence their words name.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from scipy import stats as sps

from numerics import spherical_sgd as S
from verify.kit import (Alternative, Claim, Constraint, Custom, Domain, Evidence, Kind, Param, StatTest, per_profile, pick,
                        slope_upper_test)

from .common import SETTING, mark_reconstructed, src

DS = (64, 256, 1024)
CHUNK = 10000
N = per_profile(10000, 20000)
_CACHE: dict = {}
_MS = (0.1, 0.5, 0.9)


def _samples(ctx, claim_id, k, xi, act_name, m, n):
    """Per-sample ||g||^2, <g, u>^2 and (f_u^ - f*)^2 at overlap m, for d in DS: one (c, c^) for every d (drawn
    once), W, u, u^ drawn per d; x ~ N(0, I_d).  Returns three (n, len(DS)) arrays (cached: dayi2024.prop4 reads
    the samples of dayi2024.cond2)."""
    key = (ctx.seed, ctx.profile.name, claim_id, k, xi, act_name, m, n)
    if key not in _CACHE:
        _CACHE[key] = _draw(ctx, claim_id, k, xi, act_name, m, n)
    return _CACHE[key]


def _draw(ctx, claim_id, k, xi, act_name, m, n):
    gen_c, seed = ctx.generator(claim_id, "c", f"k={k}", f"xi={xi}", act_name)
    c = S.rademacher_c(1, k, gen_c, dtype=ctx.dtype)
    ch = S.rademacher_c(1, k, gen_c, dtype=ctx.dtype)
    act = S.Activation(act_name)
    G2, GU2, E2 = [], [], []
    for d in DS:
        gen, _ = ctx.generator(claim_id, f"d={d}", f"m={m}", f"k={k}", f"xi={xi}", act_name)
        inst = S.instance(k, d, gen, m=m, dtype=ctx.dtype)
        W, u, uh = inst["W"], inst["u"], inst["u_hat"]
        g2, gu2, e2 = [], [], []
        for i0 in range(0, n, CHUNK):
            x = torch.randn(min(CHUNK, n - i0), 1, d, generator=gen, dtype=ctx.dtype, device=ctx.device)
            g = S.spherical_gradients(x, W, c, u, ch, uh, xi, act)[:, 0]
            g2.append((g * g).sum(-1).cpu().numpy())
            gu2.append((g @ u[0]).pow(2).cpu().numpy())
            fs, _ = S.network(x, W, c, u, xi, act)
            fh, _ = S.network(x, W, ch, uh, xi, act)
            e2.append(((fh - fs)[:, 0] ** 2).cpu().numpy())
        G2.append(np.concatenate(g2))
        GU2.append(np.concatenate(gu2))
        E2.append(np.concatenate(e2))
    return np.stack(G2, 1), np.stack(GU2, 1), np.stack(E2, 1), seed


_POINTS = per_profile([{"k": 5, "xi": 1.0, "act": 0}],
                      [{"k": 5, "xi": 1.0, "act": 0}, {"k": 5, "xi": 1.0, "act": 4}])
_ACT = {0: "relu", 4: "tanh"}


def _cond2(claim, ctx, points, *, mode="claim") -> Evidence:
    ev = Evidence()
    n = pick(ctx.profile, N)
    for p in points:
        k, xi, an = int(p["k"]), float(p["xi"]), _ACT[int(p["act"])]
        for m in _MS:
            G2, GU2, _, seed = _samples(ctx, "dayi2024.cond2", k, xi, an, m, n)
            prm = dict(p, m=m)
            if mode in ("claim", "flat"):
                b = 0.0 if mode == "flat" else 1.0
                ev.tests.append(slope_upper_test(
                    f"k={k}, xi={xi}, {an}, m={m}: exponent of d of E||g||^2 <= {b} (+0.1)"
                    + (" (witness: dimension-free)" if mode == "flat" else " (at most linear growth in d)"),
                    prm, DS, G2, b, seed, tol=0.1, extra={"means": G2.mean(0).tolist()}))
            if mode in ("claim", "linear"):
                if mode == "claim":
                    ev.tests.append(slope_upper_test(
                        f"k={k}, xi={xi}, {an}, m={m}: exponent of d of E<g, u>^2 <= 0 (+0.1): dimension-free",
                        prm, DS, GU2, 0.0, seed + 1, tol=0.1, extra={"means": GU2.mean(0).tolist()}))
                else:   # witness: E<g, u>^2 grows like d (the dimension dependence not lost): slope >= 1 - 0.1
                    t = slope_upper_test("x", prm, DS, GU2, 0.0, seed + 1)
                    x, se = -t.estimate, t.stderr
                    pv = float(sps.norm.sf((x + 0.9) / se)) if se > 0 else 1.0
                    ev.tests.append(StatTest(
                        label=f"k={k}, xi={xi}, {an}, m={m}: exponent of d of E<g, u>^2 >= 0.9 (witness: grows like d)",
                        params=prm, predicted=-0.9, estimate=x, stderr=se, trials=t.trials, tol=0.0, pvalue=pv,
                        seed=seed + 1, ci=(-t.ci[1], -t.ci[0]), sided="upper", extra={"test": "H0: slope >= 0.9"}))
            ev.seeds.append(seed)
            ev.details[f"{an} m={m}"] = {"d": list(DS), "E||g||^2": G2.mean(0).tolist(), "E<g,u>^2": GU2.mean(0).tolist()}
    return ev


def _prop4(claim, ctx, points, *, mode="claim") -> Evidence:
    ev = Evidence()
    n = pick(ctx.profile, N)
    for p in points:
        k, xi, an = int(p["k"]), float(p["xi"]), _ACT[int(p["act"])]
        for m in _MS:
            _, _, E2, seed = _samples(ctx, "dayi2024.cond2", k, xi, an, m, n)
            for q in (1, 2):
                Y = E2 ** q
                if mode == "claim":
                    ev.tests.append(slope_upper_test(
                        f"k={k}, xi={xi}, {an}, m={m}: exponent of d of E[(f_u^ - f*)^{2 * q}] <= 0 (+0.1): "
                        f"a constant of (q, sigma) only", dict(p, m=m, q=q), DS, Y, 0.0, seed + q, tol=0.1,
                        extra={"means": Y.mean(0).tolist()}))
                else:   # witness: the moment grows like d^{q/2} (a dimension factor per power of the error)
                    t = slope_upper_test("x", dict(p, m=m, q=q), DS, Y, 0.0, seed + q)
                    x, se, b = -t.estimate, t.stderr, 0.5 * q
                    pv = float(sps.norm.sf((x + b) / se)) if se > 0 else 1.0
                    ev.tests.append(StatTest(
                        label=f"k={k}, xi={xi}, {an}, m={m}: exponent of d of E[(f_u^ - f*)^{2 * q}] >= {b} "
                              f"(witness: grows like d^(q/2))", params=dict(p, m=m, q=q), predicted=-b, estimate=x,
                        stderr=se, trials=t.trials, tol=0.0, pvalue=pv, seed=seed + q, ci=(-t.ci[1], -t.ci[0]),
                        sided="upper", extra={"test": f"H0: slope >= {b}"}))
            ev.seeds.append(seed)
            ev.details[f"{an} m={m}"] = {"d": list(DS), "E(f-f*)^2": E2.mean(0).tolist(),
                                         "E(f-f*)^4": (E2 ** 2).mean(0).tolist()}
    return ev


# ------------------------------------------------------------------ §1.1: the lazy limit xi -> 0
XIS = (0.8, 0.4, 0.2, 0.1)
D_LAZY = 12


def _lazy(claim, ctx, points, *, mode="claim") -> Evidence:
    """Relative linearization error rho(xi) = E(f* - f_lin)^2 / E(f* - f_W)^2 on common inputs over xi; the claim:
    rho -> 0 as xi -> 0, tested as 'the log-log slope of rho on xi is > 0' (shown as -slope <= 0)."""
    ev = Evidence()
    n = pick(ctx.profile, N)
    for p in points:
        k, an = int(p["k"]), _ACT[int(p["act"])]
        gen, seed = ctx.generator(claim.id, f"k={k}", an)
        inst = S.instance(k, D_LAZY, gen, dtype=ctx.dtype)
        W, u, c = inst["W"], inst["u"], inst["c"]
        act = S.Activation(an)
        x = torch.randn(n, 1, D_LAZY, generator=gen, dtype=ctx.dtype, device=ctx.device)
        f0, z0 = S.network(x, W, c, u, 0.0, act)
        ux = (x[:, 0] @ u[0])[:, None]
        num, den = [], []
        for xi in XIS:
            fs, _ = S.network(x, W, c, u, xi, act)
            flin = f0 + (act.df(z0) * xi * c).sum(-1) * ux
            num.append(((fs - flin)[:, 0] ** 2).cpu().numpy())
            den.append(((fs - f0)[:, 0] ** 2).cpu().numpy())
        num, den = np.stack(num, 1), np.stack(den, 1)
        lx = np.log(np.asarray(XIS))
        rng = np.random.default_rng(seed)

        def slope(idx):
            return float(np.polyfit(lx, np.log(num[idx].mean(0) / den[idx].mean(0)), 1)[0])

        est = slope(np.arange(n))
        boots = np.array([slope(rng.integers(0, n, n)) for _ in range(400)])
        se = float(boots.std(ddof=1))
        lo, hi = np.quantile(boots, [0.025, 0.975])
        ratios = (num.mean(0) / den.mean(0)).tolist()
        if mode == "claim":   # claim slope > 0, shown as -slope <= 0
            pv = float(sps.norm.sf(-est / se)) if se > 0 else 1.0
            ev.tests.append(StatTest(label=f"k={k}, {an}: E(f* - f_lin)^2/E(f* - f_W)^2 -> 0 as xi -> 0 (log-log slope "
                                           f"on xi in {XIS} > 0; shown as -slope <= 0)", params=dict(p),
                                     predicted=0.0, estimate=-est, stderr=se, trials=n, tol=0.0, pvalue=pv, seed=seed,
                                     ci=(-float(hi), -float(lo)), sided="upper",
                                     extra={"slope": est, "ratios": ratios, "xis": list(XIS)}))
        else:                 # witness: the relative error stays of order 1 (slope <= 0.1)
            pv = float(sps.norm.sf((est - 0.1) / se)) if se > 0 else 1.0
            ev.tests.append(StatTest(label=f"k={k}, {an}: log-log slope of the relative linearization error <= 0.1 "
                                           f"(witness: the linearization error does not vanish)", params=dict(p),
                                     predicted=0.1, estimate=est, stderr=se, trials=n, tol=0.0, pvalue=pv, seed=seed,
                                     ci=(float(lo), float(hi)), sided="upper", extra={"ratios": ratios}))
        ev.seeds.append(seed)
        ev.details[f"k={k} {an}"] = {"xi": list(XIS), "relative linearization error": ratios, "slope": est,
                                     "slope ci": [float(lo), float(hi)]}
    return ev


_ACT_PARAM = Param("act", 0, 4, integer=True, doc="activation code (dayi2024.common.ACTS): 0 relu, 4 tanh")
_ACT_OK = Constraint(lambda p: int(p["act"]) in _ACT, "act must be 0 (relu) or 4 (tanh): the activations simulated here")
_DOM = Domain((Param("k", 1, 100, integer=True), Param("xi", 0, 20, lower_open=True), _ACT_PARAM), (_ACT_OK,))
_LAZY_POINTS = per_profile([{"k": 4, "act": 0}, {"k": 4, "act": 4}],
                           [{"k": 4, "act": 0}, {"k": 4, "act": 4}, {"k": 9, "act": 4}])


def _wit(fn, mode, name, why, points):
    return Alternative(name, Custom(lambda c, x, pts: fn(c, x, pts, mode=mode), points=points), why)


CLAIMS = [
    Claim(id="dayi2024.cond2", kind=Kind.ASYMPTOTIC,
          source=src("Condition 2 (L178-188), Lemma 3 part 1 (L236-238), Proposition 5 (L353-360)"),
          statement=r"\mathbb E\|\nabla^S\ell\|^2\le C\,d,\ \ \mathbb E\langle\nabla^S\ell,u\rangle^2\le C\ "
                    r"(\text{free of }d)",
          assumptions=SETTING + " Orthonormal rows, k = 5, xi = 1, at fixed overlaps m = <u^, u>.",
          domain=_DOM,
          construction="the law simulated is affine in d (or free of d) by construction, so the fitted order of d is forced by the design and the confirmation could not have failed",
          notes="The bounds are lost; the words that survive: Condition 2 'there exists some constant that has at most "
                "polynomial growth in [..] such that 1. Variance bound .. 2. Population gradient bound' (L180-186), and "
                "Prop. 5's proof: 'since the spherical projection always leads to a smaller gradient .. For the other "
                "case .. the bound .. does not depend on the dimension, but only on [..]. So, we lose the dimension "
                "dependence' (L356-360).  Reading (ours, the one Theorem 7's time scale C d/lambda^2 needs): the "
                "second moment of the sample spherical gradient grows at most linearly in d, and that of its "
                "component along u is free of d.  Monte Carlo of the literal sample gradient (eq. (4)'s g, "
                "numerics.spherical_sgd.spherical_gradients) at d in {64, 256, 1024}, m in {0.1, 0.5, 0.9}, one (c, c^) "
                "for every d; the exponent of d of each mean with a bootstrap interval, judged with a practical "
                "tolerance of 0.1 in the exponent (a factor 1.32 over the 16x range): 'at most linear' as exponent "
                "<= 1 (+0.1), 'free of d' as exponent <= 0 (+0.1).  The d window starts at 64 because E||g||^2 is "
                "affine in d - k - 2 (below): over d = 16..256 its log-log slope is 1.15-1.18 (measured, quick seed 0) "
                "although E||g||^2 <= C d holds, the offset k + 2 bending the window; at 64..1024 the slope of d - 7 is 1.02 and "
                "the measured exponents are 1.03-1.05 with intervals up to 1.07 (quick seed 0), so with a tolerance of "
                "0 this test would reject a bound that holds: the tolerance 0.1 is needed for that reason and is the "
                "same as for the dimension-free tests.  Derived: "
                "||g||^2 = coef^2 ||(P_perp - u^ u^T) x||^2 with the component of x outside span(W, u, u^) a "
                "chi^2_{d-k-2} independent of coef, so E||g||^2 = a + b (d - k - 2) (exponent < 1 on any finite "
                "window), and <g, u> depends on x only through its coordinates in span(W, u, u^) (law free of d).  "
                "Power (issue 24): witnesses 'E||g||^2 free of d' and 'E<g, u>^2 grows like d'.",
          check=Custom(_cond2, points=_POINTS),
          power=(_wit(_cond2, "flat", "E||g||^2 free of d", "forgetting the dimension factor of the full gradient",
                      _POINTS),
                 _wit(_cond2, "linear", "E<g, u>^2 grows like d",
                      "the dimension factor kept in the component along u (Prop. 5's second case read like its first)",
                      _POINTS))),
    Claim(id="dayi2024.prop4", kind=Kind.ASYMPTOTIC, source=src("Proposition 4 (L344-352)"),
          statement=r"\mathbb E[(f_{\hat u}-f^*)^{2q}]^{1/q}\le C_{q,\sigma}\ \ (\text{free of }d)",
          assumptions=SETTING + " Orthonormal rows, k = 5, xi = 1, at fixed overlaps m.",
          domain=_DOM,
          construction="the law simulated is affine in d (or free of d) by construction, so the fitted order of d is forced by the design and the confirmation could not have failed",
          notes="'there exists some constant that only depends on [q] and [sigma] such that [..]' (L345); the bound is "
                "lost (its proof splits on the size of xi, L348-350).  Checked: the moments q = 1, 2 of the squared "
                "error at d in {64, 256, 1024} and m in {0.1, 0.5, 0.9} do not grow with d (exponent of d <= 0 with the "
                "practical tolerance 0.1), the samples of dayi2024.cond2.  Derived: the error depends on x only through "
                "its coordinates in span(W, u, u^), so its law is free of d exactly.  The dependence on k and xi of the "
                "constant is not checked (lost).  Measured (quick, seed 0, 10000 draws per d): every exponent within "
                "[-0.04, 0.05], but the fourth moment's interval at m = 0.5 reaches 0.115 (heavy tail), so that test "
                "is undecided and the claim inconclusive at quick (about 16000 draws per d would decide; 20000 did in "
                "a side run).  Power (issue 24): witness 'grows like d^(q/2)'.",
          check=Custom(_prop4, points=_POINTS),
          power=(_wit(_prop4, "grow", "moments grow like d^(q/2)", "a dimension factor per power of the error, as a "
                      "bound through ||x|| would give", _POINTS),)),
    Claim(id="dayi2024.lazy", kind=Kind.ASYMPTOTIC, role="remark", source=src("§1.1 (L46)"),
          statement=r"\xi\to0:\ \mathbb E(f^*-f_{\rm lin})^2/\mathbb E(f^*-f_W)^2\to0,\ "
                    r"f_{\rm lin}=f_W+\sum_i\sigma'(\langle w_i,x\rangle)\,\xi c_i\langle u,x\rangle",
          assumptions=SETTING + " Orthonormal rows, d = 12.",
          domain=Domain((Param("k", 1, 100, integer=True), _ACT_PARAM), (_ACT_OK,)),
          notes="'at the other extreme where [xi -> 0], the teacher model becomes well-approximated by its linearization "
                "around the base model, in which case the training dynamics degenerate to the lazy training regime' "
                "(L46).  Reading: the linearization error relative to the perturbation's own size vanishes as xi -> 0. "
                "Monte Carlo on common inputs at xi in {0.8, 0.4, 0.2, 0.1}; the claim is a positive log-log slope of "
                "the ratio (derived: 2 for smooth sigma, 1 for ReLU, whose kink is crossed with probability ~ xi).  "
                "Power (issue 24): witness 'the relative error does not vanish' (slope <= 0.1).",
          check=Custom(_lazy, points=_LAZY_POINTS),
          power=(_wit(_lazy, "flat", "the linearization error does not vanish",
                      "the teacher not approaching its linearization (e.g. for a non-smooth sigma)", _LAZY_POINTS),)),
]

CLAIMS = mark_reconstructed(CLAIMS)

#: claims reading the same cached runs (_samples (the Monte Carlo moments at _POINTS)): a --jobs run gives them to one worker
RUN_TOGETHER = ((
    "dayi2024.cond2",
    "dayi2024.prop4",
),)
