"""Figure 1 of 000_efaf07e323d59f0e.txt (§4.2): "Top Eigen Align" vs "Bottom Eigen Align".

Setting of the paper: d = 1000, Sigma with its first m = 50 eigenvalues 1.5 and the other 950 equal to
0.3; theta_T - theta_S in the bottom span ("Top Eigen Align": P_<=m(theta_T - theta_S) = 0) or in the top
span ("Bottom Eigen Align": P_>m(theta_T - theta_S) = 0), with the same norm (here 1).  Sizes: the full
profile uses the paper's d = 1000, m = 50; standard d = 200, m = 10; quick d = 100, m = 5 (m/d = 0.05 and
the eigenvalues kept).  n is given as a fraction of d.

- ``fig1.small_n``  "for very few samples Top Eigen Align has a lower population loss";
- ``fig1.large_n``  "the population loss of Bottom Eigen Align drops significantly as n grows" / better at
                    large n (the bound's prediction, §4.2);
- ``fig1.zero``     "... and drops to zero well before n = d".

The risk of each draw is eq. (2) (exact per draw by Thm 4.1, checked against literal gradient descent in
shachaf2021.thm4.1); per draw both alignments share the design X (common random numbers), so the ordering
tests are on the per-draw difference.
"""
from __future__ import annotations

import torch

from numerics import linear_finetune as LF
from verify.kit import (AllOf, Alternative, Claim, Custom, Domain, Evidence, Figure, FigureSweep, Kind, Param, label_of,
                        ordering_test, per_profile, pick)

from .common import GAUSS_ANISO, LIN_SETTING, src

SIZES = per_profile((100, 5), (200, 10), (1000, 50))   # (d, m)
TOP, BOTTOM = 1.5, 0.3
ZERO_LEVEL = 0.03   # "zero" at the figure's resolution: 2% of its vertical scale (the n = 0 risk 1.5)


def _sizes(ctx):
    return pick(ctx.profile, SIZES)


def risks(B: int, n: int, d: int, m: int, gen: torch.Generator, dtype=torch.float64) -> torch.Tensor:
    """(B, 2): eq. (2) risk of Top Eigen Align and of Bottom Eigen Align on the same design, ||v|| = 1."""
    lam = LF.two_level_spectrum(d, m, TOP, BOTTOM, dtype=dtype, device=gen.device)
    X = LF.design(B, n, lam, gen, dtype=dtype)
    vt = torch.zeros(B, d, dtype=dtype, device=gen.device)
    vt[:, m:] = torch.randn(B, d - m, generator=gen, dtype=dtype, device=gen.device)   # bottom span: P_<=m v = 0
    vb = torch.zeros(B, d, dtype=dtype, device=gen.device)
    vb[:, :m] = torch.randn(B, m, generator=gen, dtype=dtype, device=gen.device)       # top span: P_>m v = 0
    vt, vb = vt / vt.norm(dim=-1, keepdim=True), vb / vb.norm(dim=-1, keepdim=True)
    z = torch.zeros_like(vt)
    return torch.stack([LF.risk_eq2(X, z, vt, lam), LF.risk_eq2(X, z, vb, lam)], -1)


TRIALS = per_profile(200, 300, 200)


def _per_n(test):
    """A Custom check body: at each n = frac d, the risks (B, 2) of both alignments on B shared designs (seeded per
    point) and one ordering test ``test(R, pp, seed)`` on them."""

    def fn(claim, ctx, points) -> Evidence:
        ev = Evidence()
        d, m = _sizes(ctx)
        B = pick(ctx.profile, TRIALS)
        for p in points:
            n = max(1, round(float(p["frac"]) * d))
            pp = {"frac": p["frac"], "n": n, "d": d, "m": m}
            gen, seed = ctx.generator(claim.id, label_of(pp))
            ev.tests.append(test(risks(B, n, d, m, gen, ctx.dtype), pp, seed))
            ev.seeds.append(seed)
        return ev

    return fn


def _ordering(which: str, fracs):
    """Custom check: at each n = frac d, E[R_top - R_bottom] < 0 ('small') or > 0 ('large')."""

    def test(R, pp, seed):
        diff = (R[:, 0] - R[:, 1]) if which == "small" else (R[:, 1] - R[:, 0])
        extra = {"mean_R_top_align": float(R[:, 0].mean()), "mean_R_bottom_align": float(R[:, 1].mean())}
        lab = ("R_top - R_bottom < 0: " if which == "small" else "R_bottom - R_top < 0: ") + label_of(pp)
        return ordering_test(lab, pp, diff.cpu().numpy(), seed=seed, extra=extra)

    return Custom(_per_n(test), points=[{"frac": f} for f in fracs])


def _zero_test(R, pp, seed):
    R = R[:, 1]
    return ordering_test(f"R_bottom - {ZERO_LEVEL} < 0: " + label_of(pp), pp, (R - ZERO_LEVEL).cpu().numpy(),
                         seed=seed, extra={"mean_R_bottom_align": float(R.mean()), "fraction_of_R(0)": float(R.mean()) / TOP})


_zero_check = _per_n(_zero_test)


def _sweep_sampler(p, B, gen, ctx):
    d, m = int(p["d"]), int(p["m"])
    return risks(B, int(p["n"]), d, m, gen, ctx.dtype)[:, int(p["align"])]


FRACS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
SWEEP = {prof: [{"align": a, "n": max(1, round(f * d)), "d": d, "m": m} for a in (0, 1) for f in FRACS]
         for prof, (d, m) in SIZES.items()}
_figure = Figure(x="n", xlabel="$n$ (number of target samples)", ylabel=r"population loss $R(\gamma)$",
                 group=("align",), values={"align": {"0": "Top Eigen Align", "1": "Bottom Eigen Align"}},
                 like_source=True, title="Figure 1 regenerated: Top vs Bottom Eigen Align (eq. (2) per draw)")

_DOM = Domain((Param("frac", 0, 1, lower_open=True, upper_open=True, doc="n/d, n < d (Assumption 3.1)"),))
ASSUME = (LIN_SETTING + " " + GAUSS_ANISO + " Sigma: first m = d/20 eigenvalues 1.5, the rest 0.3 (Figure 1: d = 1000, "
          "m = 50); ||theta_T - theta_S|| = 1, uniformly distributed in the top span (Bottom Eigen Align) or in the "
          "bottom span (Top Eigen Align).")

FIG1_OPEN = ("  Settings the source leaves open (issue 24): the source fixes d = 1000, m = 50, the eigenvalues 1.5 and 0.3 "
             "and the two alignments; it leaves open ||theta_T - theta_S|| ('the same norm', no value), the direction "
             "of theta_T - theta_S within its span, the step and budget of the training and the number of draws per "
             "point. None can move the verdict, so none is varied (covered): the fine-tuned predictor is the end state "
             "of Thm 4.1 (eq. (2) per draw), the same for every step and budget that reach it; eq. (2) is quadratic in "
             "theta_T - theta_S, so its norm scales both curves (and the n = 0 risk that fig1.zero's 'zero' level is a "
             "fraction of) by the same factor; the Gaussian design with Sigma constant on each span is invariant under "
             "rotations within the span, so the direction there does not change the law of the risk (drawn uniformly "
             "anyway); the draws are the test's trials. d = 1000 is the paper's at the full profile only (quick 100, "
             "standard 200, m/d kept), and n is swept by the claims themselves.")

CLAIMS = [
    Claim(
        id="shachaf2021.fig1.small_n", kind=Kind.ORDERING,
        source=src("§4.2 and Figure 1: 'for very few samples \"Top Eigen Align\" has a lower population loss than "
                   "\"Bottom Eigen Align\"'"),
        statement=r"n\ \text{small}:\ \mathbb E R_{\mathrm{top\,align}}<\mathbb E R_{\mathrm{bottom\,align}}",
        assumptions=ASSUME, domain=_DOM,
        notes=("'Very few samples' read as n <= 0.1 d (n <= 100 at the paper's d = 1000). One-sided test of the mean "
               "per-draw difference R_top - R_bottom (same X) at each n; confirmed when its whole 95% interval is "
               "below 0. The crossover lies near n = d/3 (see the figure), so the ordering at n <= 0.1 d is far from "
               "a tie. Own construction: as n -> 0 the ordering is the ratio of the eigenvalues the figure's setup fixes "
               "(R -> v^T Sigma v = 0.3 against 1.5), so n = 0.005 d cannot fail; the points with power are n = 0.02 d "
               "and 0.1 d, where a crossover earlier than the measured d/3 (the plausible wrong statement, the power "
               "witness's reversed ordering) would show." + FIG1_OPEN),
        check=AllOf([_ordering("small", (0.005, 0.02, 0.1)),
                     FigureSweep(points=SWEEP, sampler=_sweep_sampler, figure=_figure,
                                 trials=per_profile(50, 100, 100), chunk=100, name="figure 1")]),
        power=(Alternative("the ordering reversed at small n (Bottom Eigen Align lower)",
                           _ordering("large", (0.005, 0.02, 0.1)), "the ordering reversed"),),
    ),
    Claim(
        id="shachaf2021.fig1.large_n", kind=Kind.ORDERING,
        source=src("§4.2: 'our bound suggests better generalization performance of \"Bottom Eigen Align\" for large n "
                   "... the population loss of \"Bottom Eigen Align\" drops significantly as n grows'"),
        statement=r"n\ \text{large}:\ \mathbb E R_{\mathrm{bottom\,align}}<\mathbb E R_{\mathrm{top\,align}}",
        assumptions=ASSUME, domain=_DOM,
        notes="'Large n' read as n in {0.5 d, 0.7 d, 0.9 d}. One-sided test of the mean per-draw R_bottom - R_top." + FIG1_OPEN,
        check=_ordering("large", (0.5, 0.7, 0.9)),
        power=(Alternative("the ordering reversed at large n (Top Eigen Align lower)",
                           _ordering("small", (0.5, 0.7, 0.9)), "the ordering reversed"),),
    ),
    Claim(
        id="shachaf2021.fig1.zero", kind=Kind.ORDERING,
        source=src("§4.2: 'the population loss of \"Bottom Eigen Align\" ... drops to zero well before n = d'"),
        statement=r"\mathbb E R_{\mathrm{bottom\,align}}(n)\approx0\ \text{for } n\ \text{well below}\ d",
        assumptions=ASSUME, domain=_DOM,
        notes=("A sentence describing a figure: R(gamma) = ||Sigma^{1/2}P_perp v||^2 is exactly 0 only at n = d "
               "(P_perp v = 0 needs v in row(X)), so 'drops to zero' describes the plotted curve. Reading encoded: 'zero' at the "
               "figure's resolution, E R <= 0.03 (2% of the vertical scale, the n = 0 risk 1.5), and 'well before' "
               "= by n = 0.8 d; tested one-sided at n = 0.8 d. For reference (d = 1000): E R_bottom is about 0.095 "
               "(6% of 1.5) at n = d/2 and 0.019 (1.3%) at n = 0.8 d; the figure's sweep shows the whole curve."
               + FIG1_OPEN),
        check=Custom(_zero_check, points=[{"frac": 0.8}]),
        power=(Alternative("zero already by n = d/2", Custom(_zero_check, points=[{"frac": 0.5}]),
                           "'well before n = d' read as half-way (E R_bottom ~ 0.095 there at d = 1000)"),),
    ),
]
