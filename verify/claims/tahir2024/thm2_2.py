"""Theorem 2.2 of 001_759117b8232d72ac.txt (Sec. 2.1, proof App. B.1): distances between the
label-shift models p_f, p_g of Assumption 2.1, and the steps of its proof.

Concrete instance for the numbers: x ~ N(0, I_d), linear features f(x) = a^T x, g(x) = b^T x
(Phi = the linear functions, orthonormal basis x_1..x_d), so ||f||_{L2(p)} = |a|.  Closed forms:
:mod:`derivations.divergences`; literal Monte Carlo of the densities: :mod:`numerics.label_shift`.

- ``thm2.2.kl_form``     (31)-(34): D_KL(p_f || p_g) = ||f - g||^2 / (2 sigma^2)
- ``thm2.2.kl``          the KL half: for every delta some g in Phi has D_KL >= delta
- ``thm2.2.kl_witness``  the proof's last line: g = -alpha f with alpha > sigma delta^{1/2}/||f||
- ``thm2.2.dudley``      the Dudley half, (23)-(30)
- ``thm2.2.eq28``        the step (27) -> (28) of its proof
- ``thm2.2.w1``          footnote 4: the same for the W1 metric
"""
from __future__ import annotations

import dataclasses
import math
from functools import cache

import mpmath
import sympy as sp

from derivations import divergences as dv
from numerics import label_shift as LS
from verify.kit import (AllOf, Alternative, Check, Claim, Constraint, Custom, Domain, Evidence, Expectation, Figure, Identity, Kind,
                        Param, PropertySearch, STATED, label_of, ordering_test, per_profile, pick)

from .common import D, src

DPS = 60  # mpmath digits of every property search
INNER = 256  # draws (x, y) averaged inside one Monte Carlo trial

# ============================================================================ closed forms (mpmath)
_kl_linear = dv.mp(dv.KL_LINEAR, dv.s_f, dv.s_g, dv.cos_theta, dv.sigma)
_kl_neg = dv.mp(dv.KL_NEG_MULTIPLE, dv.alpha, dv.s_f, dv.sigma)
_alpha_stated = dv.mp(dv.ALPHA_STATED, dv.sigma, dv.delta, dv.s_f)
_alpha_exact = dv.mp(dv.ALPHA_EXACT, dv.sigma, dv.delta, dv.s_f)
_alpha_above_stated = dv.mp(dv.ALPHA_ABOVE_STATED, dv.sigma, dv.delta, dv.s_f, dv.eta)
_alpha_witness = dv.mp(dv.ALPHA_WITNESS, dv.sigma, dv.delta, dv.s_f)
_g_norm_witness = dv.mp(dv.G_NORM_WITNESS, dv.sigma, dv.delta)
_cos_witness_signed = dv.mp(dv.COS_WITNESS_SIGNED, dv.s_f, dv.c, dv.sigma)
_cos_witness = dv.mp(dv.COS_WITNESS_LINEAR, dv.s_f, dv.c, dv.sigma)
_l1_linear = dv.mp(dv.L1_LINEAR, dv.r, dv.sigma)
_l1_multiple = dv.mp(dv.L1_MULTIPLE, dv.s_f, dv.c, dv.sigma)
_eq28_lhs = dv.mp(dv.EQ28_LHS, dv.s_f, dv.s_g, dv.sigma)
_eq28_rhs = dv.mp(dv.EQ28_RHS, dv.s_f, dv.s_g, dv.sigma)
_cited_lhs = dv.mp(dv.CITED_IDENTITY_LHS, dv.x_)
_cited_rhs = dv.mp(dv.CITED_IDENTITY_RHS, dv.z_)
_w1_lower = dv.mp(dv.W1_LOWER_ABS_Y, dv.s_f, dv.s_g, dv.sigma)
_w1_witness_norm = dv.mp(dv.W1_WITNESS_NORM, dv.s_f, dv.sigma, dv.delta)


def _kl_value(p) -> float:
    return float(_kl_linear(p["s_f"], p["s_g"], p["cos_theta"], p["sigma"]))


def _mpf(p, *names):
    return [mpmath.mpf(p[k]) for k in names]


def _kl_sampler(p, B, gen, ctx):
    return LS.kl_log_ratio_trials(B, int(p["d"]), p["s_f"], p["s_g"], p.get("cos_theta", 1.0), p["sigma"], INNER, gen,
                                  device=ctx.device, dtype=ctx.dtype)


# ============================================================================ shared domain pieces
P_SIGMA = Param("sigma", 0.0, math.inf, lower_open=True, doc="label noise sd; Assumption 2.1 needs sigma > 0 "
                                                             "for the densities of (25), (31)")
P_SF = Param("s_f", 0.0, math.inf, doc="||f||_{L2(p)} = |a|")
P_SG = Param("s_g", 0.0, math.inf, doc="||g||_{L2(p)} = |b|")
P_DELTA = Param("delta", 0.0, math.inf, lower_open=True)
P_COS = Param("cos_theta", -1.0, 1.0, doc="a.b / (|a||b|)")
NEED_2D = Constraint(lambda p: p["d"] >= 2 or abs(p["cos_theta"]) == 1.0,
                     "an angle with |cos_theta| < 1 between a and b needs d >= 2")
#: the finite search box of the existence statements (they are scale-free; see the notes of thm2.2.kl)
EXISTS_BOX = dict(s_f=(0.0, 1e4), sigma=(1e-4, 1e4), delta=(1e-8, 1e8))


def _search_over(*params, bounds):
    """Points of the sub-domain ``params`` only, for an existence statement 'for all f, sigma, delta there
    is g': the search runs over the universally quantified parameters; g (s_g, c) is what the statement
    quantifies existentially, and d plays no role in the closed forms."""
    return lambda: Domain(params).strategy(bounds)


# ============================================================================ thm2.2.kl_form
KL_GRID = per_profile(
    quick=[dict(d=3, sigma=sg, s_f=a, s_g=b, cos_theta=ct)
           for (sg, a, b, ct) in ((0.2, 1.0, 1.0, 1.0), (0.2, 1.0, 1.0, 0.0), (0.2, 0.0, 1.5, 1.0),
                                  (1.0, 1.0, 1.0, 0.0), (1.0, 1.0, 2.0, -1.0), (1.0, 2.0, 0.5, 0.5),
                                  (3.0, 1.0, 2.0, -1.0), (3.0, 3.0, 1.0, -0.3))],
    # (sigma, |a-b|) chosen with |a-b|/sigma = 0, <= 0.1 or >= 1: in between, a 2% tolerance needs far more draws
    standard=[dict(d=d, sigma=sg, s_f=a, s_g=b, cos_theta=ct)
              for d in (1, 4)
              for sg, pairs in ((0.05, "all"), (0.2, "all"), (1.0, "all"),
                                (3.0, ((1.0, 2.0, -1.0), (3.0, 1.0, -0.3), (0.1, 0.0, 1.0))))
              for (a, b, ct) in (((1.0, 1.0, 1.0), (1.0, 1.0, 0.0), (1.0, 2.0, -1.0), (0.0, 1.5, 1.0),
                                  (2.0, 0.5, 0.5), (3.0, 1.0, -0.3)) if pairs == "all" else pairs)
              if d >= 2 or abs(ct) == 1.0])


def _kl_sympy_checks(claim, ctx):
    """(31)-(32): the y-integral of the conditional log-ratio by sympy, and E_x (a^T x - b^T x)^2 = |a-b|^2."""
    der = dv.kl_conditional_derived()
    e2, dist2 = dv.l2_distance_linear_derived(3)
    return Evidence(checks=[
        Check("(31)-(32): int N(y;f,s^2) log[N(y;f,s^2)/N(y;g,s^2)] dy = (f-g)^2/(2 s^2) (sympy)",
              sp.simplify(der - dv.KL_COND_STATED) == 0, f"sympy integral gives {sp.sstr(der)}", refutes=True,
              extra={"derived": sp.latex(der), "stated": sp.latex(dv.KL_COND_STATED)}),
        Check("(33)-(34) for linear features: E_x (a^T x - b^T x)^2 = |a - b|^2 (sympy.stats, d=3)",
              sp.simplify(e2 - dist2) == 0, f"E = {sp.sstr(e2)}", refutes=True)])


KL_FORM = Claim(
    id="tahir2024.thm2.2.kl_form", role="proof step", holds_by=("tahir2024.thm2.2.kl",),
    kind=Kind.EXACT,
    source=src("Theorem 2.2 (Sec. 2.1), proof App. B.1, eqs. (31)-(34)"),
    statement=r"D_{KL}(p_f\|p_g) = \frac{1}{2\sigma^2}\left[\|f\|^2_{L_2}+\|g\|^2_{L_2}-2\langle f,g\rangle\right]"
              r" = \frac{1}{2\sigma^2}\|f-g\|^2_{L_2(p)}",
    assumptions="Assumption 2.1: f, g in L2(R^d, p), y = f(x) + eps, eps ~ N(0, sigma^2) independent of x; "
                "instance: p = N(0, I_d), f = a^T x, g = b^T x",
    domain=Domain((D, P_SIGMA, P_SF, P_SG, P_COS), (NEED_2D,)),
    stated=dv.KL_STATED_NORMS,
    derived=dv.KL_LINEAR,
    check=AllOf([
        Custom(_kl_sympy_checks),
        Expectation(points=KL_GRID, predicted=STATED, sampler=_kl_sampler, chunk=1024,
                    name="E_{p_f}[log p_f - log p_g] vs (34)", trials=per_profile(2000, 2000, 20_000),
                    figure=Figure(x="sigma", xlabel=r"$\sigma$", ylabel=r"$D_{KL}(p_f\|p_g)$", logy=True,
                                  group=("d", "s_f", "s_g", "cos_theta"), curve=_kl_value, curve_label="(34)")),
    ]),
    notes="(31) is read as D_KL = int p(x) N(y; f(x), sigma^2) [(y-g)^2 - (y-f)^2]/(2 sigma^2) dx dy (the "
          "bracket is log p_f - log p_g; p(x) cancels); (32) multiplies the bracket out. The Monte Carlo "
          "samples (x, y) from p_f and averages the exact log-density ratio (literal definition of KL), "
          f"{INNER} draws per trial. Points with a = b (KL = 0) are included.",
)


# ============================================================================ thm2.2.kl (existence)
def _kl_exists_g(p) -> bool:
    """Derived witness (mpmath): for ||f|| > 0, g = -alpha f with alpha = 2 sigma delta^{1/2}/||f||
    (KL = (||f|| + 2 sigma delta^{1/2})^2/(2 sigma^2) >= 2 delta); for f = 0, any g in Phi with
    ||g|| = 2 sigma delta^{1/2} (KL = 2 delta).  Evaluated with (34)."""
    with mpmath.workdps(DPS):
        s, sig, dl = _mpf(p, "s_f", "sigma", "delta")
        if s == 0:
            return _kl_linear(0, _g_norm_witness(sig, dl), 1, sig) >= dl
        return _kl_neg(_alpha_witness(sig, dl, s), s, sig) >= dl


KL_EXISTS = Claim(
    id="tahir2024.thm2.2.kl",
    kind=Kind.BOUND,
    source=src("Theorem 2.2 (Sec. 2.1), second half; proof App. B.1, eqs. (31)-(34)"),
    statement=r"\forall f\in\Phi,\ \forall\delta>0\ \exists g\in\Phi:\ D_{KL}(p_f\|p_g)\ge\delta",
    assumptions="Assumption 2.1 (sigma > 0; Phi a linear subspace of L2(p) with an orthonormal basis "
                "{phi_i}_{i=1}^M, M >= 1); instance Phi = linear functions on N(0, I_d)",
    domain=Domain((P_SF, P_SIGMA, P_DELTA)),
    stated=r"\exists g\in\Phi:\ D_{KL}(p_f\|p_g)\ge\delta",
    derived=r"D_{KL}(p_f\|p_{-\alpha f})=" + sp.latex(dv.KL_NEG_MULTIPLE) + r"\ge\delta\iff\alpha\ge"
            + sp.latex(dv.ALPHA_EXACT) + r";\ f=0:\ \|g\|\ge\sigma\sqrt{2\delta}",
    check=AllOf([
        Identity("derived exact threshold: D_KL(p_f || p_{-alpha f}) = delta at alpha = sigma(2 delta)^{1/2}/||f|| - 1",
                 lhs=dv.KL_NEG_MULTIPLE.subs(dv.alpha, dv.ALPHA_EXACT), rhs=dv.delta,
                 variables={dv.s_f: (0.01, 10), dv.sigma: (0.01, 10), dv.delta: (0.01, 10)}),
        PropertySearch("an explicit g in Phi with D_KL >= delta exists (derived witness, mpmath)",
                       holds=_kl_exists_g, bounds=EXISTS_BOX),
    ]),
    power=(Alternative("D_KL(p_f || p_g) < 2 for every g in Phi (bounded, as the Dudley metric of the first half is)",
                       PropertySearch("no g in Phi reaches D_KL >= delta once delta >= 2: the derived witness falls "
                                      "short", holds=lambda p: not _kl_exists_g(p),
                                      strategy=_search_over(P_SF, P_SIGMA, P_DELTA,
                                                            bounds=dict(EXISTS_BOX, delta=(2.0, 1e8)))),
                       "the statement reversed to a bound: the theorem's other half (gamma_beta) is bounded by 2 "
                       "(tahir2024.thm2.2.dudley), and a referee may expect the same of D_KL"),),
    notes="True whenever Phi != {0} and sigma > 0: by (34) D_KL = ||f-g||^2/(2 sigma^2) is unbounded in g. "
          "The witness used here is g = -alpha f with alpha = 2 sigma delta^{1/2}/||f|| (or, for f = 0, any g "
          "with ||g|| = 2 sigma delta^{1/2}); the proof's own witness is judged separately as "
          "tahir2024.thm2.2.kl_witness. The search box is ||f|| in [0, 1e4], sigma in [1e-4, 1e4], "
          "delta in [1e-8, 1e8]; the statement is scale-free, so this covers all ratios that matter.",
)


# ============================================================================ thm2.2.kl_witness
def _witness_alpha(p):
    """alpha = (1 + eta) sigma delta^{1/2} / ||f|| (mpmath, at the caller's precision)."""
    return _alpha_above_stated(*_mpf(p, "sigma", "delta", "s_f", "eta"))


def _kl_witness_holds(p) -> bool:
    with mpmath.workdps(DPS):
        return _kl_neg(_witness_alpha(p), p["s_f"], p["sigma"]) >= p["delta"]


def _kl_witness_show(p) -> dict:
    with mpmath.workdps(DPS):
        al = _witness_alpha(p)
        return {"alpha": float(al), "stated_threshold": float(_alpha_stated(p["sigma"], p["delta"], p["s_f"])),
                "KL_at_witness": float(_kl_neg(al, p["s_f"], p["sigma"])),
                "exact_threshold": float(_alpha_exact(p["sigma"], p["delta"], p["s_f"]))}


def _kl_witness_margin(p) -> float:
    """How far the proof's witness falls short: (delta - D_KL at the witness)/delta (> 0 where it fails)."""
    with mpmath.workdps(DPS):
        d = mpmath.mpf(p["delta"])
        return float((d - _kl_neg(_witness_alpha(p), p["s_f"], p["sigma"])) / d)


#: The statement is scale-free (D_KL depends on ||f||/sigma and delta), so the box of the search and of the uniform
#: draw (severity) is ||f||, sigma in [1e-3, 10], delta in [1e-6, 10]: ratios ||f||/(sigma sqrt(delta)) from ~0 to
#: ~3e6 on both sides of the failure threshold sqrt(2) - 1 (a box of 1e3 per side drew almost only failures).
WITNESS_SEARCH = PropertySearch("g = -alpha f with alpha just above sigma delta^{1/2}/||f|| gives D_KL >= delta "
                                "(closed form (34), mpmath)", holds=_kl_witness_holds, show=_kl_witness_show,
                                bounds=dict(s_f=(1e-3, 10.0), sigma=(1e-3, 10.0), delta=(1e-6, 10.0),
                                            eta=(0.0, 1e-2)), margin=_kl_witness_margin)


def _witness_mc(claim, ctx, q) -> Evidence:
    """Simulate D_KL(p_f || p_{-alpha f}) literally (d = 3) at the witness of point q and test whether
    its CI reaches delta."""
    al = float(_witness_alpha(q))
    mc = dict(d=3, sigma=q["sigma"], s_f=q["s_f"], s_g=al * q["s_f"], cos_theta=-1.0)
    ev = Expectation(points=[mc], predicted=_kl_value, sampler=_kl_sampler, target="derived", chunk=1024,
                     name=f"Monte Carlo D_KL at the proof's witness (alpha={al:.6g}, delta={q['delta']:.6g})"
                     ).run(claim, dataclasses.replace(ctx, at=None))
    t = ev.tests[0]
    ev.checks.append(Check(f"simulated D_KL at the witness reaches delta={q['delta']:.6g} "
                           f"(s_f={q['s_f']:.6g}, sigma={q['sigma']:.6g}, alpha={al:.6g})",
                           bool(t.ci[1] >= q["delta"]),
                           f"Monte Carlo D_KL = {t.estimate:.6g}, 95% CI [{t.ci[0]:.6g}, {t.ci[1]:.6g}], "
                           f"delta = {q['delta']:.6g}", refutes=True))
    return ev


def _witness_at(claim, ctx, points) -> Evidence:
    ev = Evidence()
    for q in points:
        ev.extend(_witness_mc(claim, ctx, q))
    return ev


def _witness_search(claim, ctx) -> Evidence:
    """Search for a point where the proof's witness gives D_KL < delta, and simulate at the counterexample."""
    ev = WITNESS_SEARCH.run(claim, ctx)
    cx = ev.checks[0].counterexample
    if cx:
        ev.extend(_witness_mc(claim, ctx, {k: cx[k] for k in ("s_f", "sigma", "delta", "eta")}))
    return ev


KL_WITNESS = Claim(
    id="tahir2024.thm2.2.kl_witness", role="proof step", holds_by=("tahir2024.thm2.2.kl",),
    kind=Kind.BOUND,
    source=src("App. B.1, last line of the proof of Theorem 2.2 (after eq. (34))"),
    statement=r"\forall\delta>0:\ g=-\alpha f,\ \alpha>\frac{\sigma\delta^{1/2}}{\|f\|_{L_2(p)}}"
              r"\ \Rightarrow\ D_{KL}(p_f\|p_g)\ge\delta",
    assumptions="Assumption 2.1, ||f||_{L2(p)} > 0, sigma > 0; alpha = (1 + eta) sigma delta^{1/2}/||f||, eta > 0",
    domain=Domain((Param("s_f", 0.0, math.inf, lower_open=True, doc="||f||_{L2(p)} > 0"), P_SIGMA, P_DELTA,
                   Param("eta", 0.0, math.inf, lower_open=True, doc="relative excess of alpha over the stated threshold"))),
    stated=sp.Ge(dv.KL_NEG_MULTIPLE.subs(dv.alpha, dv.ALPHA_STATED), dv.delta),
    derived=dv.KL_AT_STATED_THRESHOLD,
    corrected=r"D_{KL}(p_f\|p_{-\alpha f})=\frac{(1+\alpha)^2\|f\|^2}{2\sigma^2}\ge\delta\iff"
              r"\alpha\ge\frac{\sigma\sqrt{2\delta}}{\|f\|_{L_2(p)}}-1\ (\alpha>-1);\ "
              r"e.g.\ \alpha\ge\frac{\sigma\sqrt{2\delta}}{\|f\|_{L_2(p)}}",
    check=AllOf([
        Custom(_witness_search),
        Custom(_witness_at, points=[dict(s_f=1.0, sigma=1.0, delta=16.0, eta=1e-3)]),
    ]),
    notes="The proof ends 'we can choose g = -alpha f with alpha > sigma delta^{1/2}/||f||_{L2(p)}', read as: "
          "this g has D_KL(p_f || p_g) >= delta. By (34), D_KL = (1+alpha)^2 ||f||^2/(2 sigma^2); at the "
          "stated threshold it is (||f|| + sigma delta^{1/2})^2/(2 sigma^2), which is < delta whenever "
          "||f|| < (sqrt 2 - 1) sigma delta^{1/2} (the factor 2 of 2 sigma^2 was dropped and the +1 of "
          "f - g = (1 + alpha) f ignored). The theorem itself survives (tahir2024.thm2.2.kl). The Monte "
          "Carlo at the counterexample (and at s_f = sigma = 1, delta = 16) samples p_f literally. Role: the last "
          "line of the proof (a witness); the KL half of Theorem 2.2 holds (tahir2024.thm2.2.kl) with the corrected "
          "threshold. Margin: (delta - D_KL at the witness)/delta; search box ||f||, sigma in [1e-3, 10], delta in "
          "[1e-6, 10], which spans both sides of the failure threshold ||f|| < (sqrt 2 - 1) sigma sqrt(delta).",
)


# ============================================================================ thm2.2.dudley
@cache
def _sup_l1():
    """sup_g ||p_f - p_g||_1 = lim_{r->oo} (4/pi) arctan(r/(2 sigma)) (sympy limit): 2."""
    return dv.dudley_sup_bound()


def _dudley_holds(p) -> bool:
    """'There is g in Phi with gamma_beta(p_f, p_g) >= delta'.  Derived: gamma_beta(p_f, p_g) <=
    ||p_f - p_g||_1 = (4/pi) arctan(|a-b|/(2 sigma)) < 2 for every g (||h||_inf <= ||h||_BL <= 1), so
    for delta >= 2 no g exists; for delta < 2 the tent witness gives an explicit g."""
    with mpmath.workdps(DPS):
        if mpmath.mpf(p["delta"]) >= _sup_l1():
            return False
        lb, _, _ = dv.tent_witness_mp(p["s_f"], p["sigma"], p["delta"])
        return lb >= p["delta"]


def _dudley_show(p) -> dict:
    with mpmath.workdps(DPS):
        if mpmath.mpf(p["delta"]) >= _sup_l1():
            return {"bound": "gamma_beta(p_f,p_g) <= ||p_f-p_g||_1 = (4/pi) arctan(|a-b|/(2 sigma)) < 2 <= delta "
                             "for every g",
                    "||p_f-p_g||_1 at |a-b|=10": float(_l1_linear(10, p["sigma"])),
                    "||p_f-p_g||_1 at |a-b|=10^6": float(_l1_linear(1e6, p["sigma"]))}
        lb, gn, Rv = dv.tent_witness_mp(p["s_f"], p["sigma"], p["delta"])
        return {"tent_lower_bound": float(lb), "g_norm": float(gn), "R": float(Rv)}


def _dudley_margin(p) -> float:
    """The shortfall of the best g, in units of delta: (delta - sup_g gamma_beta)/delta >= (delta - 2)/delta where
    no g exists (sup_g ||p_f - p_g||_1 = 2); 0 where the tent witness reaches delta."""
    with mpmath.workdps(DPS):
        d = mpmath.mpf(p["delta"])
        return float(max(mpmath.mpf(0), (d - _sup_l1()) / d))


def _cos_witness_bounded(p) -> bool:
    """Derived: the cos(y)/2 witness of (26)-(27) gives at most e^{-sigma^2/2}/2 <= 1/2 for any c."""
    with mpmath.workdps(DPS):
        return _cos_witness(p["s_f"], p["c"], p["sigma"]) <= mpmath.mpf(1) / 2


def _cos_signed_value(p) -> float:
    return float(_cos_witness_signed(p["s_f"], p["c"], p["sigma"]))


def _l1_of_c(p) -> float:
    """(4/pi) arctan(|a - b|/(2 sigma)) at g = c f, |a - b| = |1 - c| s_f."""
    return float(_l1_multiple(p["s_f"], p["c"], p["sigma"]))


def _delta_of(p) -> float:
    """The delta that Theorem 2.2 asks gamma_beta(p_f, p_g) to reach at a Monte Carlo grid point (a line to compare
    the witness and the upper bound with)."""
    return float(p["delta"])


DELTA_LINE = r"Thm 2.2 asks $\gamma_\beta\geq\delta$ ($\delta=2$ here)"

DUDLEY_MC_GRID = per_profile(
    quick=[dict(d=3, sigma=sg, s_f=s, c=c, delta=2.0) for sg in (0.5,) for s in (0.5, 1.0)
           for c in (1.0, 2.0, 8.0, 64.0)],
    standard=[dict(d=3, sigma=sg, s_f=s, c=c, delta=2.0) for sg in (0.1, 1.0)
              for s in (0.5, 2.0) for c in (-1.0, 1.0, 4.0, 64.0, 256.0)])
#: the theory curves' c grid: c spans -1 to 256 (a symmetric-log axis), so the grid is linear on [-1, 1] and
#: geometric beyond (a linear grid of 200 points leaves two between c = -1 and 1)
DUDLEY_FINE = sorted({*(-1.0 + i / 40 for i in range(81)), *(256.0 ** (i / 119) for i in range(120))})
P_SF_D = Param("s_f", 0.0, math.inf)
P_C = Param("c", -math.inf, math.inf, doc="g = c f")

DUDLEY = Claim(
    id="tahir2024.thm2.2.dudley", role="statement",
    kind=Kind.BOUND,
    source=src("Theorem 2.2 (Sec. 2.1), first half; definition (23)-(24), proof App. B.1, eqs. (25)-(30)"),
    statement=r"\forall f\in\Phi,\ \forall\delta>0\ \exists g\in\Phi:\ \gamma_\beta(p_f,p_g)\ge\delta,\quad"
              r"\gamma_\beta(p,q)=\sup_{\|h\|_{BL}\le1}|E_ph-E_qh|,\ \|h\|_{BL}=\|h\|_L+\|h\|_\infty",
    assumptions="Assumption 2.1 (sigma > 0, Phi != {0}); instance p = N(0, I_d), Phi = linear functions; "
                "the Monte Carlo points use g = c f",
    domain=Domain((D, P_SIGMA, P_SF_D, P_C, P_DELTA)),
    stated=r"\gamma_\beta(p_f,p_g)\ge\delta",
    derived=r"\gamma_\beta(p_f,p_g)\le\|p_f-p_g\|_1=" + sp.latex(dv.L1_LINEAR) + r",\quad r=\|f-g\|_{L_2(p)}",
    corrected=r"\gamma_\beta(p_f,p_g)\le\|p_f-p_g\|_{1}=\tfrac{4}{\pi}\arctan\tfrac{\|f-g\|_{L_2}}{2\sigma}<2"
              r"\ \text{(linear features)};\ \forall f\in\Phi,\ \forall\delta\in(0,2)\ \exists g\in\Phi:\ "
              r"\gamma_\beta(p_f,p_g)\ge\delta",
    check=AllOf([
        # over (f, sigma, delta) only: g = c f is existentially quantified (see _search_over)
        # over the claim's domain (d and c do not enter: g is existentially quantified, _dudley_holds takes the
        # best g), so that the uniform draw of the severity measurement covers it; delta in (0, 4]: twice the
        # bound 2 that every Dudley distance obeys
        PropertySearch("some g in Phi has gamma_beta(p_f, p_g) >= delta (upper bound ||p_f-p_g||_1 < 2; "
                       "explicit tent witness for delta < 2)",
                       bounds=dict(d=(1, 10), s_f=(0.0, 1e3), sigma=(1e-3, 1e3), c=(-10.0, 10.0), delta=(1e-6, 4.0)),
                       holds=_dudley_holds, show=_dudley_show, margin=_dudley_margin),
        Identity("(26) -> (27): E_{N(mu, sigma^2)} cos y = e^{-sigma^2/2} cos mu (sympy integral)",
                 lhs=dv.cos_mean_derived, rhs=sp.exp(-dv.sigma ** 2 / 2) * sp.cos(dv.mu),
                 variables={dv.mu: (-5, 5), dv.sigma: (0.01, 5)}, refutes=False),
        # over (f, sigma, c): d and delta do not enter the witness h = cos(y)/2
        PropertySearch("the proof's witness h = cos(y)/2 of (26)-(27) never exceeds 1/2 for g = c f (derived)",
                       strategy=_search_over(P_SF_D, P_SIGMA, P_C,
                                             bounds=dict(s_f=(0.0, 1e3), sigma=(0.0, 1e3), c=(-1e6, 1e6))),
                       holds=_cos_witness_bounded, refutes=False),
        Expectation(points=DUDLEY_MC_GRID, predicted=_cos_signed_value, target="derived", chunk=1024,
                    sampler=lambda p, B, gen, ctx: LS.cos_witness_trials(
                        B, int(p["d"]), p["s_f"], p["c"], p["sigma"], INNER, gen, device=ctx.device, dtype=ctx.dtype),
                    trials=per_profile(1000, 5000, 20_000),
                    name="E_{p_f} cos(y)/2 - E_{p_cf} cos(y)/2 (witness (26)) vs (27)",
                    figure=Figure(x="c", xlabel="c  (g = c f)", ylabel=r"$E_{p_f}h-E_{p_g}h$, $h=\cos(y)/2$",
                                  group=("d", "sigma", "s_f"), fine=DUDLEY_FINE, curve=_cos_signed_value, curve_label="(27)",
                                  extra_curves=((DELTA_LINE, _delta_of),))),
        Expectation(points=DUDLEY_MC_GRID, predicted=_l1_of_c, target="derived", chunk=1024,
                    sampler=lambda p, B, gen, ctx: LS.l1_distance_trials(
                        B, int(p["d"]), p["s_f"], p["c"], p["sigma"], INNER, gen, device=ctx.device, dtype=ctx.dtype),
                    trials=per_profile(250, 500, 10_000),
                    name="upper bound: Monte Carlo ||p_f - p_cf||_1 vs (4/pi) arctan(|1-c| ||f|| / (2 sigma)) < 2",
                    figure=Figure(x="c", xlabel="c  (g = c f)", ylabel=r"$\|p_f-p_g\|_1\ \geq\ \gamma_\beta(p_f,p_g)$",
                                  group=("d", "sigma", "s_f"), fine=DUDLEY_FINE, curve=_l1_of_c, curve_label="(4/pi) arctan",
                                  extra_curves=((DELTA_LINE, _delta_of),))),
    ]),
    notes="Any two probability distributions have gamma_beta <= 2: |E_p h - E_q h| <= 2 ||h||_inf <= "
          "2(1 - ||h||_L) <= 2, and here even gamma_beta <= ||p_f - p_g||_1 = 2 E_x erf(|f-g|/(2 sqrt2 sigma)) "
          "< 2 (for linear features (4/pi) arctan(|a-b|/(2 sigma))), so the statement fails for every delta >= 2 "
          "(the property search shrinks to such a delta). For delta < 2 it holds: the y-only witness "
          "h = c0(1 - 2 min(1, |y|/R)), c0 = R/(R+2), gives gamma_beta >= 2 - (2 - delta)/2 for ||g|| large "
          "(in general Phi: if some phi in Phi is nonzero p-a.e.). The proof's witness cos(y)/2 (26)-(27) "
          "saturates at e^{-sigma^2/2}|e^{-||f||^2/2} - 0|/2 as c grows (Monte Carlo of the literal "
          "expectations against (27), target 'derived'); its step (28) is wrong (tahir2024.thm2.2.eq28), and the proof's "
          "g = sqrt(|2 delta e^{sigma^2/2} - a|/a) f cannot reach delta >= 2 either. The upper bound "
          "||p_f - p_cf||_1 is also simulated literally (E_{p_f} w + E_{p_g} w, w = |p_f - p_g|/(p_f + p_g)) "
          "against (4/pi) arctan(|1-c| ||f||/(2 sigma)): it approaches but never reaches 2. "
          "Footnote 4's transfer to W1 is tahir2024.thm2.2.w1. The delta of the Monte Carlo grid points is "
          "not used by the simulation. Reading (issue 22): the theorem as stated, 'for any f in Phi, and any delta > 0 "
          "there exists g in Phi such that gamma_beta(p_f, p_g) >= delta', with the Dudley metric of (23)-(24); the "
          "authors' own definition bounds it by 2, so no reading of theirs rescues delta >= 2 (role statement). The "
          "sentence it serves ('distributions that are arbitrarily far apart') holds for W1 (tahir2024.thm2.2.w1) and "
          "D_KL (tahir2024.thm2.2.kl). Severity is measured over the box delta in (0, 4] (twice the bound), ||f|| in "
          "[0, 1e3], sigma in [1e-3, 1e3]; the margin is the shortfall (delta - 2)/delta of the best g.",
)


# ============================================================================ thm2.2.eq28
def _eq28_holds(p) -> bool:
    with mpmath.workdps(DPS):
        return _eq28_lhs(p["s_f"], p["s_g"], p["sigma"]) >= _eq28_rhs(p["s_f"], p["s_g"], p["sigma"])


def _eq28_margin(p) -> float:
    """(rhs (28) - lhs (27)) / rhs (28): the share of the claimed lower bound that (27) misses (> 0 where it fails)."""
    with mpmath.workdps(DPS):
        r = _eq28_rhs(p["s_f"], p["s_g"], p["sigma"])
        return float((r - _eq28_lhs(p["s_f"], p["s_g"], p["sigma"])) / r) if r else 0.0


def _eq28_show(p) -> dict:
    with mpmath.workdps(DPS):
        return {"lhs_(27)": float(_eq28_lhs(p["s_f"], p["s_g"], p["sigma"])),
                "rhs_(28)": float(_eq28_rhs(p["s_f"], p["s_g"], p["sigma"]))}


def _cited_identity_holds(p) -> bool:
    with mpmath.workdps(DPS):
        return _cited_lhs(mpmath.mpf(p["x"])) >= _cited_rhs(mpmath.mpf(p["z"]))


EQ28 = Claim(
    id="tahir2024.thm2.2.eq28", role="proof step", holds_by=("tahir2024.thm2.2.dudley",),
    kind=Kind.BOUND,
    source=src("App. B.1, step (27) -> (28) of the proof of Theorem 2.2"),
    statement=r"\frac{e^{-\sigma^2/2}}{2}\left|\int[\cos f(x)-\cos g(x)]p(x)dx\right|\ \ge\ "
              r"\frac{e^{-\sigma^2/2}}{2}\int[f(x)^2+g(x)^2]p(x)dx",
    assumptions="f, g in L2(p); instance p = N(0, I_d), f = a^T x, g = b^T x (|a| = s_f, |b| = s_g), where "
                "int cos(a^T x) p = e^{-s_f^2/2}",
    domain=Domain((P_SF, P_SG, P_SIGMA)),
    stated=sp.Ge(dv.EQ28_LHS, dv.EQ28_RHS),
    derived=sp.Le(dv.EQ28_LHS, sp.exp(-dv.sigma ** 2 / 2)),
    corrected=r"\text{no such lower bound: (27)}\le e^{-\sigma^2/2}\text{ while the right side is unbounded; the cited "
              r"identity only gives }\int[\cos f-\cos g]p\ge-\int[f^2+g^2]p",
    check=AllOf([
        PropertySearch("(28): (27) >= e^{-sigma^2/2}/2 int (f^2 + g^2) p, at linear features (60-digit arithmetic)",
                       holds=_eq28_holds, show=_eq28_show, margin=_eq28_margin,
                       # sigma enters both sides as the same factor e^{-sigma^2/2}: sigma <= 3 keeps the shown values
                       # readable (at sigma ~ 80 both print as 0.0); ||f||, ||g|| <= 10 where cos still varies
                       bounds=dict(s_f=(0.0, 10.0), s_g=(0.0, 10.0), sigma=(1e-3, 3.0))),
        # beyond the claim's domain: the cited identity is about two free reals x, z
        PropertySearch("the identity cited for (28), cos x + x^2 >= cos z - z^2, holds (it does not imply (28))",
                       strategy=lambda: Domain((Param("x", -1e3, 1e3), Param("z", -1e3, 1e3))).strategy(),
                       holds=_cited_identity_holds, refutes=False),
    ]),
    notes="The extracted text lost the relation signs; read as (27) = e^{-sigma^2/2}/2 |int [cos f - cos g] p| "
          ">= e^{-sigma^2/2}/2 int [f^2 + g^2] p = (28), justified by 'the identity cos(x) + x^2 >= cos(z) - z^2 "
          "for any x, z' (read with >=), and then used with g = sqrt(|2 delta e^{sigma^2/2} - a|/a) f to make "
          "(28) >= delta. The identity is true (cos x + x^2 >= 1 >= cos z - z^2) but only gives "
          "int[cos f - cos g] p >= -int[f^2 + g^2] p. (28) itself fails for f = g != 0 (left side 0) and for "
          "any large f or g (left side <= e^{-sigma^2/2}); for linear Gaussian features it holds only at f = g = 0. "
          "Role: a displayed step of the proof of the Dudley half; that half itself holds only for delta < 2 "
          "(tahir2024.thm2.2.dudley, whose corrected form is confirmed with the tent witness instead).",
)


# ============================================================================ thm2.2.w1
def _w1_holds(p) -> bool:
    """Derived witness: any g in Phi with ||g|| = W1_WITNESS_NORM(2 delta) has W1 >= E_g|y| - E_f|y| = 2 delta."""
    with mpmath.workdps(DPS):
        sg = _w1_witness_norm(p["s_f"], p["sigma"], 2 * mpmath.mpf(p["delta"]))
        return _w1_lower(p["s_f"], sg, p["sigma"]) >= p["delta"]


def _w1_value(p) -> float:
    return float(_w1_lower(p["s_f"], p["s_g"], p["sigma"]))


W1_GRID = per_profile(
    quick=[dict(d=3, sigma=1.0, s_f=1.0, s_g=sg, delta=1.0) for sg in (0.0, 2.0, 4.0, 16.0, 64.0)],
    standard=[dict(d=d, sigma=sig, s_f=1.0, s_g=sg, delta=1.0) for d in (1, 3) for sig in (0.1, 0.5, 1.0)
              for sg in (0.0, 2.0, 4.0, 16.0, 64.0, 256.0) if d == 3 or sig == 1.0])

def _w1_bounded_mc(claim, ctx, points) -> Evidence:
    """Power witness of thm2.2.w1 ('W1 < 2 for every g'): at the grid points with ||g|| >= 16, the simulated lower
    bound E_{p_g}|y| - E_{p_f}|y| of W1 (the claim's own sampler and trials) tested one-sided against 2."""
    ev = Evidence()
    B = pick(ctx.profile, per_profile(3000, 3000, 20_000))
    for p in points:
        if p["s_g"] < 16:
            continue
        gen, seed = ctx.generator(claim.id, "w1 bounded", label_of(p))
        x = LS.abs_y_witness_trials(B, int(p["d"]), p["s_f"], p["s_g"], p["sigma"], INNER, gen, device=ctx.device,
                                    dtype=ctx.dtype).cpu().numpy()
        ev.tests.append(ordering_test(f"E_(p_g)|y| - E_(p_f)|y| < 2 (a lower bound on W1 below 2): {label_of(p)}", p,
                                      x, 2.0, seed, what="E[E_g|y| - E_f|y|] < 2"))
        ev.seeds.append(seed)
    return ev


W1 = Claim(
    id="tahir2024.thm2.2.w1", role="remark",
    kind=Kind.BOUND,
    source=src("Footnote 4 to Theorem 2.2 (Sec. 2.1): 'the theorem holds for the Monge-Kantorovich (W1) metric'"),
    statement=r"\forall f\in\Phi,\ \forall\delta>0\ \exists g\in\Phi:\ W_1(p_f,p_g)\ge\delta",
    assumptions="Assumption 2.1 (sigma > 0, Phi != {0}), W1 on R^{d+1} with the Euclidean metric; instance "
                "p = N(0, I_d), Phi = linear functions",
    domain=Domain((D, P_SIGMA, P_SF, P_SG, P_DELTA)),
    stated=r"W_1(p_f,p_g)\ge\delta",
    derived=r"W_1(p_f,p_g)\ge E_{p_g}|y|-E_{p_f}|y|=" + sp.latex(dv.W1_LOWER_ABS_Y),
    check=AllOf([
        # over (f, sigma, delta) only: g (s_g) is existentially quantified (see _search_over)
        PropertySearch("an explicit g in Phi with W1(p_f, p_g) >= delta exists (1-Lipschitz witness |y|, mpmath)",
                       strategy=_search_over(P_SF, P_SIGMA, P_DELTA, bounds=EXISTS_BOX), holds=_w1_holds),
        Expectation(points=W1_GRID, predicted=_w1_value, target="derived", chunk=1024,
                    sampler=lambda p, B, gen, ctx: LS.abs_y_witness_trials(B, int(p["d"]), p["s_f"], p["s_g"],
                                                                           p["sigma"], INNER, gen, device=ctx.device,
                                                                           dtype=ctx.dtype),
                    # quick as standard: at 1000 trials the s_g = 0 point's 95% CI (+-0.003) against its tol
                    # 0.0066 left it undecided at 2 of 20 seeds (issue 13); 3000 puts the tol at ~7 standard errors
                    trials=per_profile(3000, 3000, 20_000),
                    name="E_{p_g}|y| - E_{p_f}|y| (lower bound on W1) vs sqrt(2/pi)(sqrt(s_g^2+s^2) - sqrt(s_f^2+s^2))",
                    figure=Figure(x="s_g", xlabel=r"$\|g\|_{L_2(p)}$", ylabel=r"$E_{p_g}|y|-E_{p_f}|y|\leq W_1$",
                                  group=("d", "sigma"), curve=_w1_value, curve_label="derived lower bound")),
    ]),
    power=(Alternative("W1(p_f, p_g) < 2 for every g in Phi (the footnote's W1 >= gamma_beta with gamma_beta < 2 "
                       "read as a bound)",
                       AllOf([PropertySearch("no g in Phi reaches W1 >= delta once delta >= 2: the derived witness "
                                             "falls short", holds=lambda p: not _w1_holds(p),
                                             strategy=_search_over(P_SF, P_SIGMA, P_DELTA,
                                                                   bounds=dict(EXISTS_BOX, delta=(2.0, 1e8)))),
                              Custom(_w1_bounded_mc, points=W1_GRID)]),
                       "the footnote's own route: W1 >= gamma_beta, and gamma_beta < 2 (tahir2024.thm2.2.dudley), so "
                       "a referee may take W1 to be bounded as well; the search and the simulated lower bound at "
                       "||g|| = 16, 64 reject it"),),
    notes="True, but not for the reason the footnote gives. The footnote argues W1 >= gamma_beta (the BL unit ball "
          "lies in the Lipschitz unit ball), which is right, but gamma_beta < 2 (tahir2024.thm2.2.dudley), so that "
          "inference only covers delta < 2. W1 itself is unbounded: h(x, y) = |y| is 1-Lipschitz, so "
          "W1(p_f, p_g) >= E_{p_g}|y| - E_{p_f}|y| >= E|g| - E|f| - E|eps|, which grows without bound along "
          "g = t phi for any phi in Phi not 0 a.e.; for linear features it is sqrt(2/pi)(sqrt(||g||^2 + sigma^2) - "
          "sqrt(||f||^2 + sigma^2)) exactly. (Upper bound by the synchronous coupling: W1 <= E|f - g| = "
          "sqrt(2/pi)|a - b|.) The delta of the Monte Carlo grid points is not used by the simulation.",
)

CLAIMS = [KL_FORM, KL_EXISTS, KL_WITNESS, DUDLEY, EQ28, W1]
