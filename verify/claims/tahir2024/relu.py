"""§4 and App. D.2 of 001_759117b8232d72ac.txt (Tahir, Ganguli, Rotskoff): two-layer ReLU networks in the mean-field
scaling (18), trained on a ReLU teacher with ablated features (19)-(20), then transferred linearly (the readout
refit on the frozen pretrained features).  Every claim runs the literal procedure of :mod:`numerics.meanfield`
(projected gradient descent on the population loss for pretraining, on the empirical loss for scratch training;
the generalization error (8) exactly, by the arc-cosine overlap (153)).

- ``relu.fig4ab.kernel``    Fig. 4(a)-(b), L593-596: training moves the model's kernel onto the source teacher's
                            restricted kernel (sum over A^c only)
- ``relu.eq21``             (21): the linear-transfer error is C(n) + ||P_perp f*_t||^2 with C(n) -> 0, the
                            projection of App. C (158)-(159) on the pretrained features
- ``relu.fig4c.exponent``   Fig. 4(c), L616-617: the scratch-trained error ~ A n^-nu, nu = 1.18 (extension: read at
                            sizes smaller than App. D.2's at quick and standard)
- ``relu.fig4e.boundary``   Fig. 4(e), L618-629, and the abstract's "the rigorous results ... also apply to nonlinear
                            networks" (L19-21): the sign of the transferability R_sc - R_lt is the sign of
                            R_sc(n) - ||P_perp f*_t||^2 (extension at quick and standard sizes, as fig4c)

Sizes.  App. D.2 gives d = 100, m = 1000, m* = 100, lr 0.01 m, 1e5 iterations or loss 1e-6, 100 data draws and 10
initializations.  Neither fits the CPU budget of the quick and standard profiles (one step of population GD at
m = 1000 costs an m x m arc-cosine Gram matrix; 1e5 of them per network), so quick uses d = m* = 8, m = 80 (App. D.2's
m = 10 m*) and 1500 steps, standard the same sizes and 3000 steps, and ``full`` App. D.2's sizes and 1e5 steps (at
standard, 1e5 steps did not fit the budget: d = m* = 16, m = 160 took over ten CPU minutes for one claim, and d = m* =
8, m = 80 with 20 networks as long).  The
learning rate 0.01 m and the 1e-7 output initialization are kept at every profile.  A run stopped by a step cap
below App. D.2's 1e5 without reaching the loss 1e-6 is not the source's procedure: checks that need the trained
state then record their numbers as undecided (never as evidence).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp
import torch

from derivations import kernels as kn
from numerics import meanfield as mf
from numerics.sampling import gaussian_design
from verify.kit import (Alternative, Asymptotic, Check, Claim, Constraint, Custom, Domain, Evidence, Kind,
                        OpenSetting, OverOpenSetting, Param, Tol, label_of, ordering_test, per_profile, pick, slope_test_means,
                        stated_value)

from .common import C_LAW, RAN, src

# ------------------------------------------------------------------ the setting of §4 / App. D.2
P_D = Param("d", 2, math.inf, integer=True, doc="input dimension")
P_M = Param("m", 1, math.inf, integer=True, doc="student width")
P_MS = Param("m_star", 1, math.inf, integer=True, doc="teacher width m*")
P_MU = Param("mu", 0.0, 1.0, upper_open=True, doc="ablated fraction of teacher neurons, |A| = mu m*")
_MU_INT = Constraint(lambda p: abs(p["mu"] * p["m_star"] - round(p["mu"] * p["m_star"])) < 1e-9,
                     "mu m_star must be an integer (|A| = mu m*, A a subset of the m* teacher neurons)")
SETTING = ("x ~ N(0, I_d); student f = (1/m) sum_i c_i relu(w_i^T x) (18); target teacher (20) with m* neurons, "
           "source teacher (19) = the target's neurons outside a uniformly random A, |A| = mu m*; w_i, w*_j on "
           "S^{d-1}, c* ~ N(0, 1) or c* = 1 (not stated in the source: an open setting, common.C_LAW); source "
           "trained on the population loss (4), target on n samples (5) (both with the 1/2 of (4)-(5)), noiseless (sigma = 0, Fig. 4 caption); App. D.2: hidden weights uniform on the sphere, "
           "output weights initialized at 1e-7, full-batch GD with lr 0.01 m, 1e5 iterations or loss 1e-6")
OPEN = ("Settings the source leaves open: how c* is drawn ((19)-(20), L563-572, give c*_i no law), declared open "
        "(common.C_LAW, issue 37) by fig4ab.kernel, fig4c.exponent and fig4e.boundary, which run both c* ~ N(0, 1) "
        "and c* = 1 under the open-settings rule (refuted only if the check fails under both laws; c* = 1 because "
        "the scale of Fig. 4(d)'s axis points to positive weights, text.sec4.mu_monotone), while eq21 keeps N(0, 1) "
        "(its limit holds for any teacher and features); whether the output weights start at the value 1e-7 or at "
        "scale 1e-7 (the value here); how the sphere constraint is kept during training (projected gradient descent here: tangent "
        "gradient, then renormalization); the range of n of Fig. 4(c) beyond its axis (10^2 to 10^3); and the mu of "
        "panels (a)-(c) (declared open for fig4ab.kernel; fig4c's teacher is not ablated). The 1/2 of the loss is "
        "stated (eqs. (4)-(5)).")
STEP_CAP = per_profile(1500, 3000, mf.MAX_STEPS)
#: what decides a check left undecided by a reduced step cap (appended to its message, in a referee's words): no
#: reduced path (a closed-form or mean-field limit of the 1e5-step training) is checked against the literal run
#: here, so only the literal procedure at App. D.2's settings decides (the full profile runs it)
FULL_DECIDES = ("; what decides it: App. D.2's full training (1e5 steps or loss 1e-6, at d = 100, m = 1000, m* = 100), "
                "which only the full run performs")


def _reduced_cap(ctx) -> bool:
    return pick(ctx.profile, STEP_CAP) < mf.MAX_STEPS


def _teachers(B, p, gen, ctx):
    """B target teachers and their ablated sources (numerics.meanfield.ablated_teachers at p's d, m*, mu), with c*
    by the open law ``p["c_law"]`` (C_LAW; N(0, 1) without it): ``"ones"`` sets every c*_i to 1 after the same
    draws (the features and the ablated set A are drawn as for N(0, 1))."""
    Wt, ct, Ws, cs = mf.ablated_teachers(B, int(p["d"]), int(p["m_star"]), p["mu"], gen, dtype=ctx.dtype)
    law = p.get("c_law", "normal")
    if law == "ones":
        ct, cs = torch.ones_like(ct), torch.ones_like(cs)
    elif law != "normal":
        raise ValueError(f"c_law must be 'normal' or 'ones', not {law!r}")
    return Wt, ct, Ws, cs


def _generator(claim, ctx, p):
    """The point's generator: c* ~ N(0, 1) keeps the stream the point had before the law was an open setting (its
    label without the law), c* = 1 gets its own."""
    return ctx.generator(claim.id, "instance", label_of({k: v for k, v in p.items()
                                                         if not (k == "c_law" and v == "normal")}))


def _by_law(points):
    """Each point at every law of c* (C_LAW): the law is a setting of the procedure, not a point of the domain."""
    return [{**p, "c_law": law} for p in points for law in C_LAW.values]


def _pretrained(p, B, gen, ctx):
    """B teachers and B students pretrained on the source population loss (the profile's step cap)."""
    Wt, ct, Ws, cs = _teachers(B, p, gen, ctx)
    W0, c0 = mf.init_student(B, int(p["m"]), int(p["d"]), gen, dtype=ctx.dtype)
    run = mf.pretrain(W0, c0, Ws, cs, steps=pick(ctx.profile, STEP_CAP))
    return (Wt, ct, Ws, cs), (W0, c0), run


# ============================================================================ Fig. 4(a)-(b): the kernel
KERNEL_DOMAIN = Domain((P_D, P_M, P_MS, P_MU), (_MU_INT,))
#: the ablated fraction mu of Fig. 4(a)-(b): neither the caption of (a)-(b) nor the text gives it, so it is open; its
#: range is the mu ticks of Fig. 4(d)'s axis (0.25, 0.5, 0.75; Fig. 4(e)'s axis spans 0.2-0.8), integer mu m* at m* = 8
KERNEL_MU = OpenSetting(
    "mu", (0.25, 0.5, 0.75), "the ablated fraction mu of Fig. 4(a)-(b)",
    "Fig. 4's caption: '(a) Gram matrix from the kernel of the pretrained model (b) Gram matrix from the kernel of the "
    "ground truth source function f*_s(x). The two gram matrices are nearly indistinguishable suggesting that the "
    "kernel sparsifies to the represent features in the source task' (L545-548), and §4: 'we demonstrate empirically "
    "in Fig. 4(a)-(b) that this relationship is preserved at the level of the model's kernel' (L593-596): no mu is "
    "given for panels (a)-(b)")
KERNEL_GRID = per_profile(
    quick=[dict(d=8, m=80, m_star=8, mu=mu) for mu in KERNEL_MU.values],
    standard=[dict(d=8, m=80, m_star=8, mu=mu) for mu in KERNEL_MU.values],
    full=[dict(d=100, m=1000, m_star=100, mu=mu) for mu in KERNEL_MU.values])
#: networks per (mu, c* law): full App. D.2's 10 random initializations; quick and standard fewer than the 20 of one
#: point before issue 37 (6 combinations now, 36 networks at standard): enough for the paired ordering D_end < D_init
#: (standard, seed 0, before: mu = 0.5, c* ~ N(0, 1), 20 networks, D_end - D_init = -0.187 with SD 0.086 over
#: networks, so 6 networks put its 95% upper bound near -0.10); the second ordering is undecided at the step caps
KERNEL_TRIALS = per_profile(4, 6, 10)


def _kernel_check(claim, ctx, points, reverse=False):
    """Per point, B pretrainings (fresh teacher, ablation and initialization each): the relative L2(p x p) distance
    D = ||k_W - k_s||^2/||k_s||^2 of the model's kernel to the source teacher's restricted kernel
    k_s = (1/((1-mu) m*)) sum_{A^c} relu relu (numerics.meanfield.kernel_distance2, exact), at initialization and
    after training; and the distance D_t to the target's full kernel (all m* neurons).
    Tests: D_end < D_init (training moves the kernel toward k_s; a paired one-sided t-test over networks) and, where
    mu > 0, D_end < D_t (the trained kernel is nearer the features present in pretraining than the target's: what
    'sparsifies to the present features' distinguishes); the second is undecided when the run stopped at a reduced
    step cap without reaching the loss 1e-6.  ``reverse``: the power witness (the kernel moves away)."""
    ev = Evidence()
    for p in _by_law(points):
        gen, seed = _generator(claim, ctx, p)
        B = pick(ctx.profile, KERNEL_TRIALS)
        (Wt, ct, Ws, cs), (W0, _), run = _pretrained(p, B, gen, ctx)
        ks2, kt2 = mf.kernel_norm2(Ws), mf.kernel_norm2(Wt)
        d0 = (mf.kernel_distance2(W0, Ws) / ks2).cpu().numpy()
        d1 = (mf.kernel_distance2(run.W, Ws) / ks2).cpu().numpy()
        dt = (mf.kernel_distance2(run.W, Wt) / kt2).cpu().numpy()
        loss_rel = (run.loss / (0.5 * mf.population_risk(run.W, 0 * run.c, Ws, cs))).cpu().numpy()
        info = {"steps": run.steps, "final loss (mean)": float(run.loss.mean()),
                "final loss / initial loss (mean)": float(loss_rel.mean()), "converged (loss <= 1e-6)":
                int(run.converged.sum()), "D_init": d0.tolist(), "D_end": d1.tolist(), "D_end to target": dt.tolist()}
        ev.details.setdefault("kernel_runs", []).append({"point": p, **info})
        ev.details.setdefault(RAN, []).append(p)
        ev.seeds.append(seed)
        a, b = (d0, d1) if reverse else (d1, d0)
        ev.tests.append(ordering_test(f"||k_W - k_s||^2/||k_s||^2 after training < at init, {label_of(p)}", p, a, b,
                                      seed, what="D_end < D_init" if not reverse else "D_init < D_end",
                                      extra={"steps": run.steps}))
        if p["mu"] == 0:
            continue
        if _reduced_cap(ctx) and not bool(run.converged.all()):
            ev.checks.append(Check(
                f"trained kernel nearer k_s (A^c) than the target's k_t, {label_of(p)}", None,
                f"undecided: pretraining stopped after {run.steps} steps (App. D.2: 1e5, or loss 1e-6) at loss "
                f"{float(run.loss.mean()):.3g} > 1e-6; measured D_end = {d1.mean():.3g}, D_end to target = "
                f"{dt.mean():.3g}" + FULL_DECIDES, refutes=False))
            continue
        ev.tests.append(ordering_test(f"trained kernel nearer k_s (A^c) than the target's k_t, {label_of(p)}", p,
                                      d1, dt, seed, what="D_end(k_s) < D_end(k_t)"))
    return ev


KERNEL = Claim(
    id="tahir2024.relu.fig4ab.kernel",
    kind=Kind.ORDERING,
    role="remark",
    source=src("§4, L593-596 and Fig. 4(a)-(b); settings App. D.2 (L1499-1504)"),
    statement=r"k(x,x')=\frac1m\sum_{i=1}^m\sigma(w_i^Tx)\sigma(w_i^Tx')\approx\frac{1}{(1-\mu)m_*}"
              r"\sum_{i\in A^c}\sigma(w_i^{*T}x)\sigma(w_i^{*T}x')\ \text{after pretraining}",
    assumptions=SETTING,
    domain=KERNEL_DOMAIN,
    check=OverOpenSetting(Custom(_kernel_check, points=KERNEL_GRID), (KERNEL_MU, C_LAW)),
    notes="Source: 'we demonstrate empirically in Fig. 4(a)-(b) that this relationship is preserved at the level of "
          "the model's kernel, so that k(x,x') = (1/m) sum_i sigma(w_i^T x) sigma(w_i^T x') ~ (1/((1-mu)m*)) "
          "sum_{i in A^c} sigma(w*_i^T x) sigma(w*_i^T x')' and the caption 'the two gram matrices are nearly "
          "indistinguishable suggesting that the kernel sparsifies to the represent features in the source task'. "
          "'Nearly indistinguishable' has no number; the claim is read as two orderings of the exact L2(p x p) "
          "distance between the kernels (relative to ||k_s||^2): training shrinks it, and the trained kernel is "
          "nearer the source's restricted kernel than the target's full kernel (mu > 0). The value of the distance "
          "is recorded. " + OPEN + " Open settings of this claim (issue 37): mu of panels (a)-(b) over 0.25, 0.5, 0.75 "
          "(the mu ticks of Fig. 4(d)'s axis; Fig. 4(e)'s spans 0.2-0.8; the second ordering weakens as mu -> 0, "
          "where k_s -> k_t), crossed with the law of c* (N(0, 1), 1): six combinations at every profile, judged by "
          "the open-settings rule (refuted only if an ordering fails at every combination; holding at some and "
          "failing or undecided at others is inconclusive, with the values named). Quick: d = m* = 8, m = 80 (m = 10 "
          "m* as App. D.2), 4 networks per combination, 1500 steps (so the second ordering is undecided at quick); "
          "standard: the same sizes, 6 networks per combination, 3000 steps (undecided unless converged); full: App. "
          "D.2's sizes and 1e5 steps, 10 networks per combination (before issue 37: mu = 0.5 with 20 networks at "
          "quick and standard, mu = 0.2 and 0.5 as separate points at full).",
    power=(Alternative("the kernel moves away from the source teacher's during training",
                       OverOpenSetting(Custom(lambda claim, ctx, pts: _kernel_check(claim, ctx, pts, reverse=True),
                                                 points=KERNEL_GRID), (KERNEL_MU, C_LAW)),
                       "the ordering reversed: pretraining spreads the features instead of concentrating them"),),
)

# ============================================================================ (21): C(n) -> 0
#: the stated n -> oo limit of E_D R_lt by (21): ||P_perp f*_t||^2 (App. C (159) on the pretrained features)
P_PERP2 = sp.Symbol("P_perp2", nonnegative=True)
EQ21_DOMAIN = Domain((P_D, P_M, P_MS, P_MU, Param("draw", 0, math.inf, integer=True, doc="pretraining instance")),
                     (_MU_INT,))
EQ21_GRID = per_profile(
    quick=[dict(d=8, m=40, m_star=8, mu=0.5, draw=0)],
    standard=[dict(d=8, m=80, m_star=8, mu=mu, draw=0) for mu in (0.25, 0.5)],
    full=[dict(d=100, m=1000, m_star=100, mu=mu, draw=0) for mu in (0.2, 0.5)])
#: four n from 10 m: extrapolated in 1/n and 1/n^2 (verify.model.stats.extrapolate_inverse_size), one dof for the fit's test
EQ21_SIZES = per_profile([400, 800, 1600, 3200], [800, 1600, 3200, 6400], [10_000, 20_000, 40_000, 80_000])
EQ21_TRIALS = per_profile(100, 400, 100)   # data draws per n (App. D.2: 100)
EQ21_TOL = Tol(rel=0.02, abs=2e-4)          # as appC.projection, the same quantity (159)


def _transfer_risk_trials(B, n, W, Wt, ct, gen):
    """Per trial: n target samples (noiseless, (20)), the readout refit on the frozen features W
    (numerics.meanfield.readout_fit), and its exact generalization error (8) -> (B,)."""
    X = gaussian_design(B, n, W.shape[-1], gen, dtype=W.dtype)
    y = (torch.relu(X @ Wt.mT) @ ct) / Wt.shape[0]
    Wb = W.expand(B, *W.shape)
    c = mf.readout_fit(Wb, X, y)
    return mf.population_risk(Wb, c, Wt.expand(B, *Wt.shape), ct.expand(B, *ct.shape))


def _eq21_check(claim, ctx, points, extra_c=0.0):
    """Per point: one pretrained network; ||P_perp f*_t||^2 by App. C (159) on its features
    (derivations.kernels.projection_norms_stated); the literal linear-transfer error at several n, extrapolated in
    1/n (Asymptotic), against the stated limit.  ``extra_c``: the power witness's non-vanishing C = extra_c
    ||P_perp f*_t||^2."""
    ev = Evidence()
    sub_ctx = dataclasses.replace(ctx, at=None)
    stated = stated_value(claim)
    for p in points:
        gen, seed = ctx.generator(claim.id, "instance", label_of(p))
        (Wt, ct, _, _), _, run = _pretrained(p, 1, gen, ctx)
        W, Wt, ct = run.W[0], Wt[0], ct[0]
        f2, _, perp2 = (float(v) for v in kn.projection_norms_stated(W, Wt, ct))
        limit = stated({**p, "P_perp2": perp2}) + extra_c * perp2
        ev.seeds.append(seed)
        ev.details.setdefault("eq21_instances", []).append(
            {"point": p, "||f*_t||^2": f2, "||P_perp f*_t||^2 (159)": perp2, "relative": perp2 / f2,
             "pretraining steps": run.steps, "pretraining loss": float(run.loss[0])})
        ev.extend(Asymptotic(points=[p], sizes=EQ21_SIZES, finite_params=lambda q, n: {**q, "n": n},
                             stated=lambda _q, v=limit: v, tol=EQ21_TOL, trials=EQ21_TRIALS, chunk=50,
                             sampler=lambda q, B, g, c: _transfer_risk_trials(B, int(q["n"]), W, Wt, ct, g),
                             size_name="n", name="E_D R_lt -> ||P_perp f*_t||^2 (C(n) -> 0)").run(claim, sub_ctx))
    return ev


EQ21 = Claim(
    id="tahir2024.relu.eq21",
    kind=Kind.ASYMPTOTIC,
    source=src("§4, eq. (21) (L599-605); projection App. C (158)-(159)"),
    statement=r"\mathbb E_D\mathcal R_{lt}=C(n)+\|P_\perp f_t^*(x)\|^2_{L_2},\quad C(n)\to0\ (n\to\infty)",
    assumptions=SETTING + "; linear transfer: the output weights refit on n target samples with the pretrained "
                          "features frozen (kernel interpolation with the pretrained kernel)",
    domain=EQ21_DOMAIN,
    stated=P_PERP2,
    check=Custom(_eq21_check, points=EQ21_GRID),
    notes="Source: 'linear transfer in this model can be formulated as a kernel interpolation problem with this "
          "kernel. The generalization error of kernel interpolation can be separated into an n-dependent component, "
          "and an irreducible error term which corresponds to the norm of the projection of the target function "
          "into the subspace of L2(p) orthogonal to the RKHS defined by the kernel: E_D R_lt = C(n) + "
          "||P_perp f*_t(x)||^2 (21)' and, of Fig. 4(e), 'the n-dependent component of the kernel regression "
          "generalization error goes to zero in this limit'. Read as: the expected error of the refit readout tends "
          "to ||P_perp f*_t||^2 of App. C (159), computed on the pretrained network's own features (its RKHS is "
          "their span). The readout is the least-squares fit (the limit of gradient descent on the readout from 0; "
          "tests/test_meanfield.py checks it against that descent), its error (8) exact; each n gets fresh data "
          "draws, extrapolated in 1/n over four n above the width (Asymptotic, the tolerance of appC.projection). "
          "The statement holds for any features, so the pretraining need not have converged (its steps and loss are "
          "recorded). " + OPEN + " Quick: d = m* = 8, m = 40 (5 m*: the statement is about any kernel), mu = 0.5, n in {400, 800, 1600, 3200} (from 10 m; the least-squares excess has a 1/n^2 term ~ m^2 ||P_perp f||^2/n^2, so the extrapolation fits 1/n and 1/n^2: with 1/n alone over {1600, 3200, 6400} the intercept sat 0.06% below the stated value, about 2 standard errors), 100 draws.",
    power=(Alternative("C(n) tends to a quarter of ||P_perp f*_t||^2, not 0",
                       Custom(lambda claim, ctx, pts: _eq21_check(claim, ctx, pts, extra_c=0.25), points=EQ21_GRID),
                       "a non-vanishing n-independent part of C (kernel interpolation of a misspecified target "
                       "keeping an excess error)"),),
)

# ============================================================================ Fig. 4(c): the scratch exponent
NU_STATED = 1.18
NU_TOL = 0.25   # the band of verify.judge.orders.slope_test_means (a fitted exponent of a finite range, not a limit)
SCRATCH_DOMAIN = Domain((P_D, P_M, P_MS), ())
SCRATCH_GRID = per_profile(
    quick=[dict(d=8, m=80, m_star=8)],
    standard=[dict(d=8, m=80, m_star=8)],
    full=[dict(d=100, m=1000, m_star=100)])
#: n over a decade from n = d, as Fig. 4(c)'s axis (10^2 to 10^3 at d = 100)
SCRATCH_NS = per_profile([8, 16, 32, 64], [8, 16, 32, 64, 128], [100, 200, 400, 800, 1000])
#: networks per n and per law of c*: quick and standard 3 and 6 (4 and 10 of one law before issue 37; the runs are
#: undecided at their step caps, so these give the recorded unconverged errors), full 100 (App. D.2's data draws)
SCRATCH_TRIALS = per_profile(3, 6, 100)


def _scratch_trained(Wt, ct, ns, B, m, gen, ctx):
    """The scratch model of (7) on each of E = B len(ns) target teachers (Wt (E, m*, d), ct (E, m*)): n noiseless samples
    per trial (trial b of size ns[b // B], all sizes in one padded batch), App. D.2's initialization, GD on (5) to the
    profile's step cap -> (the trained run, exact errors (8) as (len(ns), B))."""
    E, ms, d = Wt.shape
    X = gaussian_design(E, max(ns), d, gen, dtype=ctx.dtype)
    y = (torch.relu(X @ Wt.mT) @ ct.unsqueeze(-1)).squeeze(-1) / ms
    weight = mf.padded_design(X, [n for n in ns for _ in range(B)])
    W0, c0 = mf.init_student(E, m, d, gen, dtype=ctx.dtype)
    run = mf.train_empirical(W0, c0, X, y, weight, steps=pick(ctx.profile, STEP_CAP))
    return run, mf.population_risk(run.W, run.c, Wt, ct).cpu().numpy().reshape(len(ns), B)


def _scratch_check(claim, ctx, points, nu=NU_STATED):
    """Per point: for each n, B fresh teachers, data sets of n noiseless samples and networks initialized as in
    App. D.2, trained on (5) by projected GD (:func:`_scratch_trained`); the exact error (8); the weighted
    log-log slope of the mean error in n against -nu (verify.judge.orders.slope_test_means).  Undecided when the runs
    stopped at a reduced step cap without reaching the loss 1e-6."""
    ev = Evidence()
    for p in _by_law(points):
        m = int(p["m"])
        ns = pick(ctx.profile, SCRATCH_NS)
        B = pick(ctx.profile, SCRATCH_TRIALS)
        gen, seed = _generator(claim, ctx, p)
        Wt, ct, _, _ = _teachers(B * len(ns), {**p, "mu": 0.0}, gen, ctx)
        run, R = _scratch_trained(Wt, ct, ns, B, m, gen, ctx)
        ev.seeds.append(seed)
        ev.details.setdefault(RAN, []).append(p)
        ev.details.setdefault("scratch_runs", []).append(
            {"point": p, "n": ns, "mean R_sc": R.mean(1).tolist(), "steps": run.steps,
             "training loss (mean per n)": run.loss.cpu().numpy().reshape(len(ns), B).mean(1).tolist(),
             "converged (loss <= 1e-6)": int(run.converged.sum())})
        label = f"R_sc ~ A n^-nu, nu = {nu}, {label_of(p)}"
        if _reduced_cap(ctx) and not bool(run.converged.all()):
            slope = float(np.polyfit(np.log(ns), np.log(R.mean(1)), 1)[0])
            ev.checks.append(Check(label, None, f"undecided: training stopped after {run.steps} steps "
                                   f"(App. D.2: 1e5, or loss 1e-6) at training loss up to {float(run.loss.max()):.3g} > 1e-6; the "
                                   f"unconverged errors give a log-log slope {slope:.3g}" + FULL_DECIDES,
                                   refutes=False))
            continue
        ev.tests.append(slope_test_means(label, p, ns, list(R), -nu, [seed], tol=NU_TOL))
    return ev


SCRATCH = Claim(
    id="tahir2024.relu.fig4c.exponent",
    kind=Kind.ASYMPTOTIC,
    role="caption",
    tags=("extension",),
    source=src("§4, L613-617 and Fig. 4(c); settings App. D.2 (L1499-1504)"),
    statement=r"\mathcal R_{sc}\sim An^{-\nu},\ \nu=1.18",
    assumptions=SETTING + "; the scratch model: (18) trained on the n target samples from App. D.2's initialization",
    domain=SCRATCH_DOMAIN,
    check=OverOpenSetting(Custom(_scratch_check, points=SCRATCH_GRID), C_LAW),
    notes="Source: 'we demonstrate empirically (Fig. 4(c)) that the generalization error obeys a power law R_sc ~ "
          "A n^-nu with nu = 1.18' (panel legend 'fit nu=-1.18', n from 10^2 to 10^3). A figure-level number: "
          "judged as the weighted log-log slope of the mean error over n with its 95% CI against -1.18 +- 0.25 "
          "(the band of verify.judge.orders for a fitted exponent). Tagged extension: at quick and standard the exponent "
          "is read at smaller d, m*, m (same ratios n/d over a decade, m* = d) than the figure's, where the source "
          "does not claim it; the full profile is App. D.2's setting. " + OPEN + " Open setting of this claim (issue 37): the law of c* (N(0, 1), "
          "1), both run at every profile (quick 3, standard 6, full 100 networks per n and law; 4 and 10 of N(0, 1) "
          "alone before) under the open-settings rule; the exponent is a property of the target function, so it may "
          "depend on the law.",
    power=(Alternative("nu = 1/2",
                       OverOpenSetting(Custom(lambda claim, ctx, pts: _scratch_check(claim, ctx, pts, nu=0.5),
                                                 points=SCRATCH_GRID), C_LAW),
                       "the generic n^-1/2 rate of a parametric estimate's error amplitude"),),
)

# ============================================================================ Fig. 4(e): the boundary heuristic
FIG4E_GRID = per_profile(
    quick=[dict(d=8, m=40, m_star=8, mu=mu) for mu in (0.25, 0.75)],
    standard=[dict(d=8, m=40, m_star=8, mu=mu) for mu in (0.25, 0.75)],
    full=[dict(d=100, m=1000, m_star=100, mu=mu) for mu in (0.2, 0.5, 0.8)])
FIG4E_NS = per_profile([16, 64, 256], [16, 64, 256], [100, 300, 1000])
#: networks per n, mu and law of c*: quick and standard 3 and 5 (4 and 8 of one law before issue 37; undecided at
#: their step caps), full 10 (App. D.2's initializations)
FIG4E_TRIALS = per_profile(3, 5, 10)
FIG4E_SEP = 2.0   # |mean R_sc - ||P_perp f||^2| in standard errors of R_sc below which the heuristic predicts no sign


def _fig4e_check(claim, ctx, points, flip=False):
    """Per point (mu): one target teacher and its ablated source, one network pretrained on the source (the
    profile's step cap); ||P_perp f*_t||^2 on its features by App. C (159); at each n, B scratch networks trained on
    n samples of the target (App. D.2's procedure, as fig4c) and B linear transfers (the readout refit on n fresh
    target samples, as eq21).  The heuristic predicts positive transfer (R_lt < R_sc) where R_sc(n) exceeds
    ||P_perp f*_t||^2 by more than FIG4E_SEP standard errors and negative transfer where it falls below by as much;
    each prediction is a one-sided Welch test of the ordering (refuted only by a significant reversal).  Undecided
    when the scratch runs stopped at a reduced step cap without reaching the loss 1e-6 (as fig4c).  ``flip``: the
    power witness (the heuristic's predictions reversed)."""
    ev = Evidence()
    for p in _by_law(points):
        m = int(p["m"])
        ns, B = pick(ctx.profile, FIG4E_NS), pick(ctx.profile, FIG4E_TRIALS)
        gen, seed = _generator(claim, ctx, p)
        ev.details.setdefault(RAN, []).append(p)
        (Wt, ct, _, _), _, run = _pretrained(p, 1, gen, ctx)
        W, Wt1, ct1 = run.W[0], Wt[0], ct[0]
        perp2 = float(kn.projection_norms_stated(W, Wt1, ct1)[2])
        E = B * len(ns)
        sc, Rsc = _scratch_trained(Wt1.expand(E, *Wt1.shape), ct1.expand(E, *ct1.shape), ns, B, m, gen, ctx)
        Rlt = np.stack([_transfer_risk_trials(B, n, W, Wt1, ct1, gen).cpu().numpy() for n in ns])
        ev.seeds.append(seed)
        ev.details.setdefault("fig4e_runs", []).append(
            {"point": p, "n": ns, "||P_perp f*_t||^2": perp2, "mean R_sc": Rsc.mean(1).tolist(),
             "mean R_lt": Rlt.mean(1).tolist(), "scratch steps": sc.steps,
             "scratch converged (loss <= 1e-6)": int(sc.converged.sum()), "pretraining steps": run.steps})
        if _reduced_cap(ctx) and not bool(sc.converged.all()):
            ev.checks.append(Check(f"sign of R_sc - R_lt = sign of R_sc - ||P_perp f*_t||^2, {label_of(p)}", None,
                                   f"undecided: scratch training stopped after {sc.steps} steps (App. D.2: 1e5, or loss 1e-6) "
                                   f"at training loss up to {float(sc.loss.max()):.3g} > 1e-6" + FULL_DECIDES,
                                   refutes=False))
            continue
        for i, n in enumerate(ns):
            q = {**p, "n": n}
            se = float(Rsc[i].std(ddof=1) / math.sqrt(B)) if B > 1 else float("inf")
            gap = float(Rsc[i].mean()) - perp2
            if not abs(gap) > FIG4E_SEP * se:
                ev.checks.append(Check(f"heuristic's prediction at {label_of(q)}", None,
                                       f"no prediction: mean R_sc - ||P_perp f||^2 = {gap:.3g} within {FIG4E_SEP} "
                                       f"standard errors ({se:.3g})", refutes=False))
                continue
            positive = (gap > 0) != flip
            a, b = (Rlt[i], Rsc[i]) if positive else (Rsc[i], Rlt[i])
            ev.tests.append(ordering_test(
                f"{'positive' if positive else 'negative'} transfer predicted by R_sc vs ||P_perp f||^2, "
                f"{label_of(q)}", q, a, b, seed, paired=False,
                what="R_lt < R_sc" if positive else "R_sc < R_lt",
                extra={"R_sc - ||P_perp f||^2": gap, "||P_perp f||^2": perp2}))
    return ev


FIG4E = Claim(
    id="tahir2024.relu.fig4e.boundary",
    kind=Kind.ORDERING,
    tags=("extension",),
    source=src("§4, L618-629 and Fig. 4(e); abstract L19-21"),
    statement=r"\operatorname{sign}(\mathcal R_{sc}-\mathcal R_{lt})=\operatorname{sign}"
              r"(\mathcal R_{sc}(n)-\|P_\perp f_t^*\|^2_{L_2})",
    assumptions=SETTING + "; scratch model as fig4c, linear transfer as eq21, on the same target teacher",
    domain=KERNEL_DOMAIN,
    check=OverOpenSetting(Custom(_fig4e_check, points=FIG4E_GRID), C_LAW),
    notes="Source: 'By setting our theoretically predicted generalization error of our transferred model "
          "||P_perp f*_t||^2 equal to the empirically observed scaling law A n^-nu for our scratch-trained model, we "
          "can approximately identify the point of negative transfer in n for any given mu ... this heuristic for "
          "finding the boundary between positive and negative transfer becomes more accurate as the number of "
          "target points becomes large' (L620-626), and the abstract's 'we demonstrate numerically that the rigorous "
          "results we derive for the linear case also apply to nonlinear networks' (L19-21), whose demonstration is "
          "this phase boundary ('Overall, this demonstrates that we are able to predict the phase boundary between "
          "positive and negative transfer in the ReLU case', L628-629). Read as: wherever the measured scratch error "
          "R_sc(n) and ||P_perp f*_t||^2 are clearly apart (more than 2 standard errors of R_sc), the transferability "
          "R_sc - R_lt has the sign of their difference (R_sc itself measured, not its fitted power law: the fit is "
          "fig4c's claim). Tagged extension: at quick and standard the sizes (d = m* = 8, m = 40, n up to 256) are "
          "far below App. D.2's, where the source does not claim the boundary; the full profile is App. D.2's "
          "setting. The scratch runs need App. D.2's 1e5 steps or the loss 1e-6; at the reduced caps of quick and standard the check "
          "is undecided. " + OPEN + " Open setting of this claim (issue 37): the law of c* (N(0, 1), 1), both run at "
          "every mu and profile (quick 3, standard 5, full 10 networks per n, mu and law; 4 and 8 of N(0, 1) alone "
          "before) under the open-settings rule; both R_sc(n) and ||P_perp f*_t||^2 depend on the teacher. The mu "
          "of this claim are stated (Fig. 4(e)'s axis), not open.",
    power=(Alternative("the heuristic's predictions reversed",
                       OverOpenSetting(Custom(lambda claim, ctx, pts: _fig4e_check(claim, ctx, pts, flip=True),
                                                 points=FIG4E_GRID), C_LAW),
                       "a boundary on the wrong side: transfer helping where ||P_perp f||^2 exceeds the scratch error"),),
)

CLAIMS = [KERNEL, EQ21, SCRATCH, FIG4E]
