"""Theorem 2 ('UB on Distance between Parameters') and Theorem 4 (the threshold lambda_0 and the r-ball) of
004_04c86723a9734555.txt, as the slides state them and as their proofs derive them.

Stated vs derived (Theorem 2): the statement slides bound ||theta_t - theta_0|| by 2 Lip(f) ||f_theta_t(x*) - y*||
int_0^t e^{-(Lambda_t - Lambda_s)} ds, with the residual at time t; the proof's last line has e^{-Lambda_t} w(0) +
2 Lip(f) ||y(0) - y*|| int ..., the residual at time 0 (larger, since the loss does not increase).  Theorem 4 states
its linear-in-t bound with R~(theta_0) = ||f_theta0(x*) - y*||^2 (the slides' R~ is the squared norm); its proof's
last line has ||y(0) - y*||.

Trajectories: constant-lambda and lambda = 0 flows (solve_ivp; ReLU: split update at eta = 5e-3) and the literal
selective split update (eta = 5e-3), recorded at 0 and 40 geometric times up to T; Lambda_t and the integral are
accumulated exactly for the piecewise-constant lambda_t of the split update.  Lip(f) over the smallest ball that
holds the trajectory: rigorous upper bounds and sampled lower estimates (common.lip_constants); a check fails only
if the bound fails with the upper constants and passes only if it holds with the lower ones.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import sympy as sp
import torch

from numerics import NotConverged
from numerics.proximal import outputs, split_gd
from verify.kit import (Alternative, AllOf, Check, Claim, Custom, Domain, Evidence, Kind, Param, StatedSearch, label_of,
                        per_profile, pick)

from .common import (LIP_BALL, MODEL, ROOT_RESIDUAL_T, ROOT_RTILDE, ROOT_THM2_STEP, SELECTIVE, SQUARED, judge_bound, kind_of, lip_constants, point_problem, problem,
                     resolved_flow, src, stated_tensor)

# ------------------------------------------------------------------ the stated forms (sympy; read by the checks)
LIP_F, LIP_GF, R_T, R0_S, I_S, LAM, T_S, RBALL, RT0 = sp.symbols("Lip_f Lip_grad_f R R0 I lambda t r R_tilde_0",
                                                                  positive=True)
#: Theorem 2 as stated: 2 Lip(f) ||f_theta_t(x*) - y*|| int_0^t e^{-(Lambda_t - Lambda_s)} ds (R the residual at t,
#: I the integral)
THM2_STATED = 2 * LIP_F * R_T * I_S
#: Theorem 2, the proof's last line (w(0) = 0): 2 Lip(f) ||y(0) - y*|| int_0^t e^{-(Lambda_t - Lambda_s)} ds
THM2_PROOF_STATED = 2 * LIP_F * R0_S * I_S
#: Theorem 2, Case 1: limsup_t ||theta_t - theta_0|| <= 2 Lip(f) ||f_theta_t(x*) - y*|| (1/lambda)
THM2_LIMSUP_STATED = 2 * LIP_F * R_T / LAM
#: Theorem 4 as stated: 2 Lip(f) R~(theta_0) (2 r Lip(grad f) + Lip(f)) t, R~(theta_0) = ||f_theta0(x*) - y*||^2
THM4_STATED = 2 * LIP_F * RT0 * (2 * RBALL * LIP_GF + LIP_F) * T_S
#: Theorem 4, the proof's last line: 2 Lip(f) ||y(0) - y*|| (2 r Lip(grad f) + Lip(f)) t
THM4_PROOF_STATED = 2 * LIP_F * R0_S * (2 * RBALL * LIP_GF + LIP_F) * T_S
#: the same (the proof's last line) in the stated form's symbol: ||y(0) - y*|| = sqrt(R~(theta_0)), the slides' R~
#: being the squared norm; our derived form of Theorem 4, one factor sqrt(R~(theta_0)) from the stated one
THM4_DERIVED = 2 * LIP_F * sp.sqrt(RT0) * (2 * RBALL * LIP_GF + LIP_F) * T_S
#: Theorem 4's threshold lambda_o = 2 ||f_theta0(x*) - y*|| Lip(f) / r (R0 = ||f_theta0(x*) - y*||): lambda >= lambda_o
#: keeps theta_t in the r-ball for all t, lambda < lambda_o for t <= ln(1/(1 - lambda/lambda_o))/lambda.  A larger
#: lambda_o weakens both parts (fewer lambda qualify for all t; a shorter horizon), so it is an upper bound.
THM4_LAMBDA0_STATED = 2 * R0_S * LIP_F / RBALL

SRC2 = src("Theorem 2 ('UB on Distance between Parameters'), its statement and proof slides")
SRC4 = src("Theorem 4 (threshold lambda_o) and its slides")
B = per_profile(2, 3)
#: problems per point of thm2 / thm2.proof: the linear counterexample (lambda = 0: ||r_t|| -> 0 while ||theta_t -
#: theta_0|| does not) shows by T = 10 only in problems whose residual decays fast enough (2 sigma_min(X)^2 t large);
#: with 2 problems per point, quick seed 3 drew none (inconclusive); with 4, seeds 0-3 all show it
B_THM2 = per_profile(4, 4)
B_SCALAR = per_profile(24, 48)   # scalar quadratic problems per point of thm4 (cheap: LSODA over long horizons)
T_END = per_profile(10.0, 10.0)
SCHEMES = ("selective", "constant", "zero")
_dom = Domain((MODEL, Param("lam", 0, math.inf, lower_open=True),
               Param("scheme", 0, 2, integer=True, doc="0 selective split update, 1 constant lambda flow, 2 lambda = 0")))
#: model 5 (linear, one sample) makes the bound tight as t -> 0 on the flows (||u_t|| = 2 Lip(f)|r_0| (1 -
#: e^{-(2 Lip(f)^2 + lambda) t})/(2 Lip(f)^2 + lambda) against 2 Lip(f)|r_0| (1 - e^{-lambda t})/lambda), so a
#: bound smaller by a factor 0.9 fails there (verify mutants); the selective split update is not run on it (at a
#: tight bound its O(eta) step error would be judged, not the theorem)
POINTS = per_profile([{"model": m, "lam": 1.0, "scheme": s} for m in (0, 2) for s in (0, 1, 2)]
                     + [{"model": 5, "lam": 1.0, "scheme": s} for s in (1, 2)],
                     [{"model": m, "lam": lam, "scheme": s} for m in (0, 1, 2, 3) for lam in (0.3, 3.0) for s in (0, 1, 2)]
                     + [{"model": 5, "lam": lam, "scheme": s} for lam in (0.3, 3.0) for s in (1, 2)])


def _times(T):
    return np.concatenate([[0.0], np.geomspace(1e-3, T, 40)])


def _run(prob, lam, scheme, T, linear_too=False):
    times = _times(T)
    if scheme == "selective":
        return split_gd(prob, lam, 5e-3, T, selective=True, record=times, linear_too=linear_too)
    return resolved_flow(prob, lam if scheme == "constant" else 0.0, times, linear_too=linear_too)


_RUNS: dict = {}


def _thm2_run(ctx, lab, kind, lam, scheme):
    """The runs of thm2 and thm2.proof: one instance per point, seeded from the run seed and the parent id
    'linearization2025.thm2' (so both claims judge the same trajectories), cached for the run."""
    gen, seed = ctx.generator("linearization2025.thm2", lab)
    key = (seed, ctx.profile.name, lab)
    if key not in _RUNS:
        prob = problem(kind, pick(ctx.profile, B_THM2), gen, ctx)
        T = pick(ctx.profile, T_END)
        try:
            tr = _run(prob, lam, scheme, T)
        except NotConverged as e:
            tr = e
        _RUNS.clear() if len(_RUNS) > 64 else None
        _RUNS[key] = (prob, tr, T, gen.get_state())
    prob, tr, T, state = _RUNS[key]
    g2 = torch.Generator(device=gen.device)
    g2.set_state(state)
    return prob, tr, T, g2, seed


def _thm2_fn(variant):
    def fn(claim, ctx, points):
        ev = Evidence()
        for p in points:
            kind, lam, scheme = kind_of(p), float(p["lam"]), SCHEMES[int(p["scheme"])]
            lab = label_of({"model": kind, "lam": lam, "scheme": scheme})
            prob, tr, T, gen, seed = _thm2_run(ctx, lab, kind, lam, scheme)
            ev.seeds.append(seed)
            if isinstance(tr, NotConverged):
                ev.checks.append(Check(lab, None, str(tr), refutes=False))
                continue
            u = (tr.theta - prob.theta0[:, None]).norm(dim=2)                        # (B, K)
            res = (outputs(prob, tr.theta) - prob.y[:, None]).norm(dim=2)            # (B, K)
            tau = u.max(1).values.clamp_min(1e-9)
            L_low, L_up, _, _ = lip_constants(prob, tau, gen, tr.theta)
            I = tr.I
            tol = 1e-3 if scheme == "selective" else 1e-7
            # the claim's stated bound, with the lower and the upper constants
            if variant == "stated":   # residual at time t
                lhs = u
                rl = stated_tensor(claim, Lip_f=L_low[:, None], R=res, I=I)
                ru = stated_tensor(claim, Lip_f=L_up[:, None], R=res, I=I)
                name = "||theta_t - theta_0|| <= 2 Lip(f) ||f_theta_t(x*) - y*|| int_0^t e^{-(Lambda_t - Lambda_s)} ds"
            else:                     # the proof's last line: residual at time 0
                lhs = u
                rl = stated_tensor(claim, Lip_f=L_low[:, None], R0=res[:, :1], I=I)
                ru = stated_tensor(claim, Lip_f=L_up[:, None], R0=res[:, :1], I=I)
                name = "||theta_t - theta_0|| <= 2 Lip(f) ||f_theta_0(x*) - y*|| int_0^t e^{-(Lambda_t - Lambda_s)} ds (proof)"
            mono = bool((res[:, 1:] <= res[:, :-1] * (1 + 1e-6) + 1e-12).all())
            ev.checks.append(judge_bound(f"{name}: {lab}", lhs, rl, ru, tol,
                                         f"{lhs.numel()} states, t in [0, {T:g}]; loss non-increasing along the run: {mono}",
                                         {"model": kind, "lam": lam, "scheme": scheme}))
            if variant == "stated":   # the corrected form (the proof's last line) on the same runs
                c = judge_bound(f"corrected (residual at time 0): {lab}", u, 2 * L_low[:, None] * res[:, :1] * I,
                                2 * L_up[:, None] * res[:, :1] * I, tol, f"loss non-increasing along the run: {mono}")
                c.refutes = False
                ev.checks.append(c)
        return ev
    return fn


def _limsup(claim, ctx, points):
    """Constant lambda, long time: ||theta_T - theta_0|| against 2 Lip(f) ||r_T||/lambda (stated, residual at T) and
    2 Lip(f) ||r_0||/lambda (proof), at a converged end state."""
    ev = Evidence()
    for p in points:
        kind, lam, lab, gen, prob = point_problem(claim, ctx, ev, p, B)
        T = max(60.0 / lam, 20.0)
        # linear1 attains the bound at the end state (||u|| = 2 Lip(f)|r_T|/lambda): integrated at rtol 1e-12 so
        # that the equality is met to ~1e-11, far inside judge_bound's 1e-7 (at rtol 1e-9: up to 5e-8)
        tight = {"rtol": 1e-12, "atol": 1e-14} if kind == "linear1" else {}
        tr = resolved_flow(prob, lam, np.array([0.0, 0.9 * T, T]), **tight)
        move = (tr.theta[:, 2] - tr.theta[:, 1]).norm(dim=1) / (tr.theta[:, 2] - prob.theta0).norm(dim=1)
        if float(move.max()) > 1e-6:
            ev.checks.append(Check(lab, None, f"not converged by T = {T:g} (relative move {float(move.max()):.2g})",
                                   refutes=False))
            continue
        u = (tr.theta[:, 2] - prob.theta0).norm(dim=1)[:, None]
        r = (outputs(prob, tr.theta) - prob.y[:, None]).norm(dim=2)
        tau = u[:, 0].clamp_min(1e-9)
        L_low, L_up, _, _ = lip_constants(prob, tau, gen, tr.theta)
        def bound(L, R):   # the stated 2 Lip(f) R / lambda
            return stated_tensor(claim, Lip_f=L[:, None], R=R, **{"lambda": lam})
        ev.checks.append(judge_bound(f"limsup ||theta_t - theta_0|| <= 2 Lip(f) ||f_theta_t(x*) - y*||/lambda (residual at "
                                     f"the end state, as stated): {lab}", u, bound(L_low, r[:, 2:]), bound(L_up, r[:, 2:]),
                                     1e-7, f"T = {T:g}", {"model": kind, "lam": lam}))
        ev.checks.append(judge_bound(f"limsup ... <= 2 Lip(f) ||f_theta_0(x*) - y*||/lambda (proof): {lab}", u,
                                     bound(L_low, r[:, :1]), bound(L_up, r[:, :1]), 1e-7,
                                     f"T = {T:g}", {"model": kind, "lam": lam}))
    return ev


#: random linear problems searched for a counterexample to the printed step: about 60 % of draws violate it, so with
#: the 4 of before no draw did at 1 of 12 standard seeds (issue 13: the erratum came out confirmed at seed 3011);
#: with 32 the chance of none is 0.4^32 ~ 2e-13
PROOF_STEPS_DRAWS = 32


def _proof_steps(claim, ctx):
    """The printed '||f_theta_t(x*)|| <= Lip(f)' (the function value, where the Jacobian is meant) and the correct
    step -u^T grad f^T (y - y*) <= ||grad f|| ||y - y*|| <= Lip(f) ||y - y*||."""
    ev = Evidence()
    gen, seed = ctx.generator(claim.id, "linear")
    ev.seeds.append(seed)
    prob = problem("linear", PROOF_STEPS_DRAWS, gen, ctx)
    fn = prob.f(prob.theta0).norm(dim=1)
    L = torch.linalg.matrix_norm(prob.data["X"], ord=2)        # Lip(f) of a linear model, exact on every ball
    b = int(torch.argmax(fn / L))
    ok = bool((fn <= L).all())
    Jn = torch.linalg.matrix_norm(prob.jac(prob.theta0), ord=2)
    ev.checks.append(Check("corrected step: ||grad f_theta(x*)||_op <= Lip(f) (linear model: equality)",
                           bool((Jn <= L * (1 + 1e-12)).all()), f"max ||J||_op / Lip(f) = {float((Jn / L).max()):.6f}",
                           refutes=False))
    ev.checks.append(Check("printed step '||f_theta_t(x*)|| <= Lip(f)' (linear model, theta = theta0)", ok,
                           f"||f_theta0(x*)|| = {float(fn[b]):.4g} vs Lip(f) = ||X||_op = {float(L[b]):.4g}: the step "
                           "needs ||grad f_theta(x*)||_op <= Lip(f), which holds; the printed function value does not",
                           counterexample=None if ok else {"f_norm": float(fn[b]), "Lip_f": float(L[b])}))
    return ev


def _t_beyond(r0, rr, consts):
    """(B,) a time beyond which the linear-in-t bound of Theorem 4 cannot fail, so the flow need not be run further.

    Along a constant-lambda gradient flow of R~(theta) + lambda/2 ||theta - theta0||^2 (a Lyapunov function that
    starts at R~(theta0)), ||f_theta_t(x*) - y*|| <= ||r_0||, and likewise for the linearized model's flow; so
    Delta(t) = ||f_theta_t - fbar_thetabar_t|| <= 2||r_0|| for all t.  The bound 2 Lip(f) R (2 r Lip(grad f) +
    Lip(f)) t, with R = ||r_0||^2 (stated) or ||r_0|| (proof), exceeds 2||r_0|| once t >= ||r_0|| / (Lip(f) R
    (2 r Lip(grad f) + Lip(f))); with the lower estimates of the constants (<= the true ones) and the smaller of
    the two R, that time is an upper bound for both forms.  Whether the residuals did stay below ||r_0|| is
    checked on each run."""
    L_low, _, Lg_low, _ = consts
    R = torch.minimum(r0, r0 ** 2)
    return 1.05 * r0 / (L_low * R * (2 * rr * Lg_low + L_low)).clamp_min(1e-300)


def _ball_fn(variant):
    """Theorem 4: r-ball membership (for lambda >= lambda_0 all t; for lambda < lambda_0 up to t*), and the
    simplified linear-in-t bound on ||f_theta_t(x*) - fbar_thetabar_t(x*)|| for lambda >= lambda_0."""
    def fn(claim, ctx, points):
        ev = Evidence()
        for p in points:
            kind, mult, resid, r = kind_of(p), float(p["lam_over_lam0"]), float(p["residual"]), float(p["r"])
            lab = label_of({"model": kind, "lambda/lambda_0": mult, "residual": resid, "r": r})
            # thm4 and thm4.proof judge the same runs: seeded from the parent id, cached for the run
            parent = "linearization2025.thm4" + (".ball" if variant == "ball" else "")
            gen, seed = ctx.generator(parent, lab)
            ev.seeds.append(seed)
            # the ball variant reads lambda_o from the claim's stated form: a run is cached per stated form (verify
            # mutants re-runs the check with perturbed forms in one process)
            key = ("thm4", seed, ctx.profile.name, lab, variant == "ball", str(claim.stated) if variant == "ball" else None)
            if key not in _RUNS:
                prob = problem(kind, pick(ctx.profile, B_SCALAR if kind == "quadratic1d" else B), gen, ctx, residual=resid)
                if kind == "quadratic1d":   # r in units of |b/a|: the ball where the Jacobian can double
                    rr = r * (prob.data["b"][:, 0, 0] / prob.data["A"][:, 0, 0, 0]).abs()
                else:
                    rr = torch.full((prob.B,), r, dtype=prob.theta0.dtype, device=prob.theta0.device)
                consts = lip_constants(prob, rr, gen)
                L_up = consts[1]
                r0 = (prob.f(prob.theta0) - prob.y).norm(dim=1)
                if variant == "ball":                  # the claim's stated lambda_o, with the upper constant
                    lam0 = stated_tensor(claim, R0=r0, Lip_f=L_up, r=rr)
                else:
                    lam0 = 2 * r0 * L_up / rr         # >= the true lambda_0: lambda >= it satisfies the hypothesis
                lam = mult * lam0                      # one lambda per problem
                horizon = math.log(1 / (1 - mult)) / lam if mult < 1 else torch.full_like(lam, math.inf)
                T = float(horizon.max()) if mult < 1 else max(pick(ctx.profile, T_END), float((20 / lam).max()))
                if variant != "ball" and mult >= 1:
                    T = min(T, float(_t_beyond(r0, rr, consts).max()))
                lam_run = lam if kind != "relu" else float(lam.max())
                try:
                    tr = resolved_flow(prob, lam_run, np.concatenate([[0.0], np.geomspace(1e-4 * T, T, 40)]),
                                       linear_too=(variant != "ball"))
                except NotConverged as e:
                    tr = e
                _RUNS[key] = (prob, consts, r0, rr, lam, horizon, T, tr)
            prob, (L_low, L_up, Lg_low, Lg_up), r0, rr, lam, horizon, T, tr = _RUNS[key]
            if isinstance(tr, NotConverged):
                ev.checks.append(Check(lab, None, str(tr), refutes=False))
                continue
            u = (tr.theta - prob.theta0[:, None]).norm(dim=2)
            t = torch.as_tensor(tr.t, dtype=u.dtype, device=u.device)[None]
            inside = t <= horizon[:, None] * (1 + 1e-9)
            if variant == "ball":
                # lambda_0 computed with the upper constant: membership must hold with it (rigorous hypothesis)
                ok = bool(((u <= rr[:, None] * (1 + 1e-7)) | ~inside).all())
                ev.checks.append(Check(f"theta_t stays in the r-ball ({'all t' if mult >= 1 else 't <= ln(1/(1 - lambda/lambda_0))/lambda'}): {lab}",
                                       ok, f"max ||theta_t - theta_0||/r = {float((u / rr[:, None]).max()):.4g}, lambda in "
                                       f"[{float(lam.min()):.3g}, {float(lam.max()):.3g}], T = {T:.4g}"
                                       + ("" if mult >= 1 else "; within each problem's horizon: "
                                          f"{float(torch.where(inside, u / rr[:, None], 0.0).max()):.4g}"),
                                       counterexample=None if ok else {"model": kind, "max_dist_over_r": float((u / rr[:, None]).max())}))
                continue
            if not bool((u <= rr[:, None] * (1 + 1e-7)).all()):
                ev.checks.append(Check(lab, None, "trajectory left the r-ball: constants over the r-ball do not apply", refutes=False))
                continue
            # the horizon cap (_t_beyond) needs ||f_theta_t - y*|| and ||fbar_thetabar_t - y*|| <= ||r_0||
            nl_pred = outputs(prob, tr.theta)
            lin_pred = torch.stack([prob.f(prob.theta0) + torch.einsum(
                "bnp,bp->bn", prob.jac(prob.theta0), tr.theta_bar[:, k] - prob.theta0) for k in range(len(tr.t))], 1)
            worst_res = max(float(((pred - prob.y[:, None]).norm(dim=2) / r0[:, None]).max()) for pred in (nl_pred, lin_pred))
            if worst_res > 1 + 1e-7:
                ev.checks.append(Check(lab, None, f"a residual rose above ||r_0|| along the run (x{worst_res:.4g}): "
                                       "the horizon argument does not apply", refutes=False))
                continue
            r = rr[:, None]
            lin_out = (nl_pred - lin_pred).norm(dim=2)
            # the claim's stated bound (R~(theta_0) = ||r_0||^2 as stated; ||r_0|| in the proof's form)
            R0 = {"R_tilde_0": (r0 ** 2)[:, None]} if variant == "stated" else {"R0": r0[:, None]}
            rl = stated_tensor(claim, Lip_f=L_low[:, None], Lip_grad_f=Lg_low[:, None], r=r, t=t, **R0)
            ru = stated_tensor(claim, Lip_f=L_up[:, None], Lip_grad_f=Lg_up[:, None], r=r, t=t, **R0)
            what = "R~(theta_0) = ||r_0||^2 (stated)" if variant == "stated" else "||r_0|| (proof)"
            if variant == "stated":   # the corrected form on the same run
                c = judge_bound(f"corrected (||r_0|| for R~(theta_0)): {lab}", lin_out,
                                2 * L_low[:, None] * r0[:, None] * (2 * r * Lg_low[:, None] + L_low[:, None]) * t,
                                2 * L_up[:, None] * r0[:, None] * (2 * r * Lg_up[:, None] + L_up[:, None]) * t, 1e-7)
                c.refutes = False
                ev.checks.append(c)
            ev.checks.append(judge_bound(f"||f_theta_t - fbar_thetabar_t|| <= 2 Lip(f) {what} (2 r Lip(grad f) + Lip(f)) t: {lab}",
                                         lin_out, rl, ru, 1e-7, f"lambda/lambda_0 = {mult:g}; ||r_0|| ~ {float(r0.mean()):.3g}; "
                                         f"max_t Delta = {float(lin_out.max()):.3g}, T = {T:.4g}",
                                         {"model": kind, "lam_over_lam0": mult, "r": float(p["r"]), "residual": resid}))
        return ev
    return fn


def _scaled_proof(factor):
    """Theorem 4's proof line multiplied by ``factor``, judged by its own check on the same runs (a power witness)."""
    import dataclasses

    def fn(claim, ctx, points):
        return _ball_fn("proof")(dataclasses.replace(claim, stated=claim.stated * factor), ctx, points)
    return fn


@functools.lru_cache(maxsize=1)
def _thm3_bound():
    """Theorem 3's stated bound (linearity.THM3_STATED) as an mpmath function of (Lip_f, Lip_grad_f, R0, lambda, t),
    imported when first used: linearity imports this module (THM2_STATED), so a module-level import here would be
    circular whenever linearity is imported first."""
    from .linearity import THM3_STATED

    return sp.lambdify(sp.symbols("Lip_f Lip_grad_f R0 lambda t"), THM3_STATED.subs(
        {q: sp.Symbol(q.name) for q in THM3_STATED.free_symbols}), modules="mpmath")


def _thm3_follows(factor=1):
    """The proof step of Theorem 4 judged as a deduction: for lambda = k lambda_o >= lambda_o, Theorem 3's bound (the
    slides' own, thm3) is at most the printed line (the claim's stated form, times ``factor`` for a power witness),
    in 50 digits over Lip(f), Lip(grad f), ||r_0||, r, k >= 1 and t.  Tight as t -> oo at k = 1 (the ratio tends to
    1), so a line smaller by any constant factor does not follow; the simulated runs cannot see that (the bound is
    loose by > 25 on every model we can simulate)."""
    import mpmath
    from hypothesis import strategies as st

    def thm3(*args):
        return _thm3_bound()(*args)

    def holds(stated, p):
        with mpmath.workdps(50):
            lam = p["k"] * 2 * mpmath.mpf(p["R0"]) * p["Lip_f"] / p["r"]
            q = {n: mpmath.mpf(p[n]) for n in ("Lip_f", "Lip_grad_f", "R0", "r", "t")}
            return thm3(q["Lip_f"], q["Lip_grad_f"], q["R0"], lam, q["t"]) <= factor * stated(q) * (1 + mpmath.mpf(10) ** -40)

    def strategy():
        f = lambda lo, hi: st.floats(lo, hi, allow_nan=False, allow_infinity=False)
        return st.fixed_dictionaries({"Lip_f": f(0.01, 10), "Lip_grad_f": f(0.0, 10), "R0": f(1e-3, 10),
                                      "r": f(0.01, 10), "k": st.one_of(st.just(1.0), f(1.0, 10)),
                                      "t": st.one_of(st.just(1e3), f(0.0, 1e3))})
    return StatedSearch("the printed line follows from Theorem 3's bound for lambda >= lambda_o (50 digits)",
                        holds=holds, strategy=strategy, sweep=0)


_dom4 = Domain((MODEL, Param("lam_over_lam0", 0, math.inf, lower_open=True), Param("residual", 0, math.inf, lower_open=True),
                Param("r", 0, math.inf, lower_open=True)))
#: model 5 (linear, one sample) with r << ||r_0||/Lip(f): Theorem 2's bound, from which the ball statement follows, is
#: then nearly tight (||theta_t - theta_0|| = 2 Lip(f)|r_0| (1 - e^{-(2 Lip(f)^2 + lambda) t})/(2 Lip(f)^2 + lambda),
#: with 2 Lip(f)^2 << lambda_0): the trajectory reaches ~r at the stated horizon (lambda < lambda_0) or as t -> oo
#: (lambda = lambda_0), so a smaller lambda_0 (e.g. x 0.9) lets it leave the ball (verify mutants)
PTS4_BALL_TIGHT = [{"model": 5, "lam_over_lam0": k, "residual": 1.0, "r": 0.01} for k in (0.5, 1.0)]
PTS4_BALL = per_profile([{"model": m, "lam_over_lam0": k, "residual": 1.0, "r": 0.5} for m in (0, 2) for k in (0.5, 1.0)]
                        + PTS4_BALL_TIGHT,
                        [{"model": m, "lam_over_lam0": k, "residual": 1.0, "r": r} for m in (0, 1, 2, 4) for k in (0.5, 1.0, 3.0)
                         for r in (0.3, 1.0)] + PTS4_BALL_TIGHT)
PTS4_LIN = per_profile([{"model": m, "lam_over_lam0": k, "residual": res, "r": 0.5} for m in (1, 2) for k in (1.0,)
                        for res in (0.05, 1.0)] + [{"model": 4, "lam_over_lam0": 1.0, "residual": 0.001, "r": 0.3}],
                       [{"model": m, "lam_over_lam0": k, "residual": res, "r": 0.5} for m in (1, 2) for k in (1.0, 3.0)
                        for res in (0.02, 1.0)]
                       + [{"model": 4, "lam_over_lam0": k, "residual": res, "r": r} for k in (1.0, 3.0)
                          for res in (0.001, 0.01, 0.1) for r in (0.3, 1.0)])
T4_STATEMENT = (r"\lambda_o=\frac{2\|f_{\theta_0}(x^*)-y^*\|Lip(f)}{r};\ \lambda\ge\lambda_o\Rightarrow\|f_{\theta_t}(x^*)-"
                r"\bar f_{\bar\theta_t}(x^*)\|\le2Lip(f)\tilde R(\theta_0)(2rLip(\nabla f)+Lip(f))t")

CLAIMS = [
    Claim(id="linearization2025.thm2", kind=Kind.BOUND, source=SRC2, role="statement", root_cause=ROOT_RESIDUAL_T,
          statement=(r"\|\theta_t-\theta_0\|\le2\,Lip(f)\|f_{\theta_t}(x^*)-y^*\|\int_0^te^{-(\Lambda_t-\Lambda_s)}ds;\ "
                     r"\lambda_t=\lambda:\ \frac{1-e^{-\lambda t}}{\lambda};\ \lambda_t=0:\ t"),
          assumptions=SQUARED + "; " + SELECTIVE + "; f Lip(f)-Lipschitz on the tau-ball holding the trajectory",
          domain=_dom,
          notes=("As the statement slides write it: the residual ||f_theta_t(x*) - y*|| at time t (also in the Case 1 / "
                 "Case 2 conclusions). The cases read as lambda_t = lambda for all t (constant-lambda flow) and "
                 "lambda_t = 0 (plain gradient flow); the general form is checked on the selective split update. Fails "
                 "already for a linear model (Lip(f) = ||X||_op exact): with lambda = 0 and p >= n the residual "
                 "decays to 0 while ||theta_t - theta_0|| does not; with constant lambda the bound fails at small t "
                 "(scalar example: |u_t| = 2|r_0|(1 - e^{-(2+lambda)t})/(2+lambda) exceeds 2|r_t|(1 - e^{-lambda t})/"
                 "lambda to second order in t). 4 problems per point at both profiles (until 2026-11: 2 at quick, "
                 "where seed 3 drew linear problems whose residual had not decayed by T = 10 and the verdict was "
                 "inconclusive; with 4, quick seeds 0-3 all refute through the linear model). Reading (issue 22): the statement "
                 "is read as printed on all four statement slides, '||theta - theta_0|| <= 2 Lip(f) ||f_theta_t(x*) - "
                 "y*|| int_0^t e^{-(Lambda_t - Lambda_s)} ds', and in the Case 1 / Case 2 conclusions; the proof "
                 "derives 'w(t) <= e^{-Lambda_t} w(0) + 2 Lip(f) ||y(0) - y*||_2 int_0^t ...' (the residual at time 0, "
                 "thm2.proof, confirmed), and Theorem 4 uses it with ||y(0) - y*|| ('Theorem 2 : ||theta_t - "
                 "theta_0|| <= 2||y(0) - y*|| Lip(f)/lambda (1 - e^{-lambda t})'). The failing states are inside the "
                 "hypotheses (a linear model: Lip(f) exact, the selective scheme, the loss non-increasing along the "
                 "run), so this is not an over-reading; the corrected form differs by one symbol (theta_t for theta_0, "
                 "R for R0 in our forms) and is verified on the same runs: a typo-class erratum."),
          corrected=r"\|\theta_t-\theta_0\|\le2\,Lip(f)\|f_{\theta_0}(x^*)-y^*\|\int_0^te^{-(\Lambda_t-\Lambda_s)}ds",
          stated=THM2_STATED, stated_bound="upper", derived=THM2_PROOF_STATED,
          check=Custom(_thm2_fn("stated"), points=POINTS)),
    Claim(id="linearization2025.thm2.proof", role="proof step", kind=Kind.BOUND, source=SRC2,
          statement=(r"w(t)\le e^{-\Lambda_t}w(0)+2Lip(f)\|y(0)-y^*\|\int_0^te^{-(\Lambda_t-\Lambda_s)}ds"),
          assumptions=SQUARED + "; " + SELECTIVE, domain=_dom,
          notes=("The proof's last line (w(0) = 0), with the residual at time 0. The proof needs a non-increasing loss "
                 "(Theorem 1): guaranteed for the selective flow, and for linear models also for constant lambda (our "
                 "derivation, eigenbasis of J^T J); for nonlinear models with constant lambda the loss may rise, and "
                 "each check reports whether it did along the run. Constants: see the module docstring."),
          stated=THM2_PROOF_STATED, stated_bound="upper",
          check=Custom(_thm2_fn("proof"), points=POINTS)),
    Claim(id="linearization2025.thm2.limsup", role="proof step", kind=Kind.LIMIT, source=SRC2,
          statement=r"\limsup_{t\to\infty}\|\theta_t-\theta_0\|_2\le2Lip(f)\|f_{\theta_t}(x^*)-y^*\|_2(1/\lambda)",
          assumptions=SQUARED + "; constant lambda > 0", domain=Domain((MODEL, Param("lam", 0, math.inf, lower_open=True))),
          notes=("The residual inside the limsup read at the same (late) time: at a converged end state, where "
                 "lambda u = -2 J^T r gives ||u|| = 2||J^T r||/lambda <= 2 Lip(f)||r||/lambda exactly (our derivation), "
                 "and the proof's version with ||r_0||. Long constant-lambda flows (T = max(60/lambda, 20)); an end state "
                 "that still moves is undecided. Model 5 (linear, one sample) attains the stated bound exactly at the end "
                 "state (J^T r = r x): a bound smaller by any factor fails there."),
          stated=THM2_LIMSUP_STATED, stated_bound="upper",
          # model 5 (tight) at a second lambda, so that the grid sees the bound's 1/lambda
          check=Custom(_limsup, points=per_profile([{"model": m, "lam": 1.0} for m in (0, 2, 5)] + [{"model": 5, "lam": 0.5}],
                                                   [{"model": m, "lam": lam} for m in (0, 1, 2, 5) for lam in (0.5, 3.0)]))),
    Claim(id="linearization2025.thm2.proof_steps", kind=Kind.BOUND, source=SRC2, role="proof step",
          holds_by=("linearization2025.thm2.proof",), root_cause=ROOT_THM2_STEP, repair="absorbed",
          statement=r"-\hat u_t^\top\nabla f_{\theta_t}(x^*)^\top(y(t)-y^*)\le\|f_{\theta_t}(x^*)\|\|y(t)-y^*\|\le Lip(f)\|y(t)-y^*\|\ (\|f_{\theta_t}(x^*)\|\le Lip(f))",
          assumptions=SQUARED, domain=Domain(()),
          notes=("The proof writes ||f_theta_t(x*)|| <= Lip(f) (the function value) where the operator norm of the "
                 "Jacobian grad f_theta_t(x*) is meant; the printed inequality is false in general (a linear model at a "
                 "random theta0 is a counterexample); the intended step is right and the theorem's proof survives it. Role "
                 "(issue 22): a proof step ('(because ||f_theta_t(x*)|| <= Lip(f)) -> Lemma 1'); the bound the proof "
                 "derives holds (thm2.proof), so this is a proof-step erratum. Repaired proof (repair 'absorbed'): "
                 "-u^T grad f^T (y - y*) <= ||grad f_theta_t(x*)||_op ||y - y*|| <= Lip(f) ||y - y*|| (Cauchy-Schwarz "
                 "with ||u^|| = 1, and the Jacobian's operator norm at most the Lipschitz constant: checked, "
                 "refutes=False) is the very line the proof continues from, so its bound (thm2.proof, confirmed) "
                 "follows unchanged."),
          corrected=r"\|\nabla f_{\theta_t}(x^*)\|_{op}\le Lip(f)",
          check=Custom(_proof_steps)),
    Claim(id="linearization2025.thm4.ball", kind=Kind.BOUND, source=SRC4,
          statement=(r"\lambda\ge\lambda_o\Rightarrow\|\theta_t-\theta_0\|\le r\ \forall t;\ \lambda<\lambda_o\Rightarrow"
                     r"\|\theta_t-\theta_0\|\le r\ \text{for}\ t\le\frac1\lambda\ln\frac{1}{1-\lambda/\lambda_o}"),
          assumptions=SQUARED + "; constant lambda; " + LIP_BALL, domain=_dom4,
          notes=("lambda_0 = 2||f_theta0(x*) - y*|| Lip(f)/r computed with the rigorous upper bound of Lip(f) over the "
                 "r-ball (so lambda >= it satisfies the hypothesis); lambda = multiple x lambda_0; for lambda < lambda_0 "
                 "the run ends at the stated horizon. Follows from Theorem 2's proof form. lambda_0 is read from the "
                 "stated form (stated_bound 'upper': a larger lambda_0 weakens both parts)."),
          stated=THM4_LAMBDA0_STATED, stated_bound="upper",
          check=Custom(_ball_fn("ball"), points=PTS4_BALL)),
    Claim(id="linearization2025.thm4", kind=Kind.BOUND, source=SRC4, statement=T4_STATEMENT, role="statement",
          root_cause=ROOT_RTILDE,
          assumptions=SQUARED + "; constant lambda >= lambda_0; " + LIP_BALL + "; R~(theta_0) = ||f_theta0(x*) - y*||^2",
          domain=_dom4,
          notes=("As stated, with R~(theta_0), which the slides define as ||f_theta(x*) - y*||^2 (squared); the proof's "
                 "last line has ||y(0) - y*|| instead (thm4.proof). They differ when ||r_0|| != 1: the stated form is "
                 "smaller for ||r_0|| < 1, so residuals 0.001-1 are simulated. Quadratic models (rigorous constants), "
                 "tanh MLPs, and scalar quadratics f = b theta + a theta^2/2 (n = p = 1) whose constants over the "
                 "r-ball are exact (Lip(f) = |b| + |a| r, Lip(grad f) = |a|), with r a multiple of |b/a|; one lambda "
                 "per problem, lambda = multiple x lambda_0; the linearized model trained by the same flow. The "
                 "stated bound is ||r_0|| times the proof's, so small residuals break it first. The scalar flows run to a "
                 "horizon beyond which the bound cannot fail (Delta(t) <= 2||r_0|| along both descent flows, checked per "
                 "run), with LSODA (stiff long horizons); 24 scalar problems per point at quick, 48 at standard. At "
                 "quick, seeds 0-4 all refute it at residual 0.001 (exact constants; worst lhs/rhs 15-380 at 38-88 "
                 "recorded states); with 3 or 6 problems per point, seed 1 had found no violation. Reading (issue 22): both "
                 "Theorem 4 slides print '||f_theta_t(x*) - fbar_theta_t(x*)|| <= 2Lip(f) R~(theta_0)(2rLip(grad f) + "
                 "Lip(f))t', and the slides define 'R~(theta) = sum_i L(f_theta(x_i), y_i) = ||f_theta(x*) - y*||^2'; "
                 "the proof's line is 'Delta(t) <= 2Lip(f) ||y(0) - y*|| (2rLip(grad f) + Lip(f))t' (thm4.proof, "
                 "confirmed). The failures are inside the hypotheses (lambda >= lambda_o, exact constants on the "
                 "r-ball, the trajectory in the ball), so this is not an over-reading; the corrected form differs by "
                 "one factor ||r_0|| (R~(theta_0) = ||r_0||^2 for ||r_0||) and is verified on the same runs: a "
                 "typo-class erratum (our derived form THM4_DERIVED writes ||r_0|| as sqrt(R~(theta_0)), in the stated form's symbol)."),
          corrected=r"2Lip(f)\|f_{\theta_0}(x^*)-y^*\|(2rLip(\nabla f)+Lip(f))t",
          stated=THM4_STATED, stated_bound="upper", derived=THM4_DERIVED,
          check=Custom(_ball_fn("stated"), points=PTS4_LIN)),
    Claim(id="linearization2025.thm4.proof", role="proof step", kind=Kind.BOUND, source=SRC4,
          statement=r"\Delta(t)\le2Lip(f)\|y(0)-y^*\|(2rLip(\nabla f)+Lip(f))t\quad(\lambda\ge\lambda_o)",
          assumptions=SQUARED + "; constant lambda >= lambda_0; " + LIP_BALL, domain=_dom4,
          notes=("The proof's last line (residual norm, not R~). Same runs as thm4. It follows from Theorem 3's bound "
                 "(thm3) with t - (1 - e^{-lambda t})/lambda <= t and 4 Lip(grad f)||r_0||/lambda <= 2 r Lip(grad f)/Lip(f) "
                 "for lambda >= lambda_o. Untested power (issue 24): the check cannot tell the bound from one ten times "
                 "smaller (power witness 'bound ten times smaller': not rejected), because on every model we can "
                 "simulate the bound is loose by more than that: the largest Delta(t)/bound over the runs is 0.034 "
                 "(quick, seed 0: scalar quadratics at residual 0.001), and over a grid of scalar quadratics f = b theta "
                 "+ a theta^2/2 with exact constants (a r/b from 0.001 to 90, ||r_0||/r from 3e-4 to 1e7, lambda/lambda_o "
                 "= 1, and 1.5, 3 on part of the grid; solve_ivp (LSODA, rtol 1e-11) to t = 40/(lambda + 2b^2), past "
                 "convergence) its supremum was 0.040 (at a r/b = 0.3, lambda = lambda_o): there a bound ten times "
                 "smaller holds too, so it is not a wrong statement on these models. Caveat: the runs stop where the "
                 "stated bound can no longer fail (_t_beyond), so a smaller bound is judged on that horizon only. What would give "
                 "power against it: a model family on which Delta(t) comes within a factor 10 of 2Lip(f)||r_0||(2r "
                 "Lip(grad f) + Lip(f)) t under lambda >= lambda_o, if one exists. The check does reject a bound 50 "
                 "times smaller (power witness), below the measured 0.034, so it is not vacuous. Power (issue 36, "
                 "2026-12): the step is also judged as what it is, a deduction ('Based on Theorem 3, we get ... When "
                 "lambda >= lambda_o, Delta(t) grows linearly, with coefficient given by ...'): a 50-digit search "
                 "that Theorem 3's printed bound (thm3) is at most the printed line for every lambda >= lambda_o, "
                 "Lip(f), Lip(grad f), ||r_0||, r and t. The ratio tends to 1 at lambda = lambda_o as t grows, so any "
                 "smaller constant (the 'ten times smaller' witness) is rejected by that search."),
          stated=THM4_PROOF_STATED, stated_bound="upper",
          check=AllOf([Custom(_ball_fn("proof"), points=PTS4_LIN), _thm3_follows()]),
          power=(Alternative("bound ten times smaller",
                             AllOf([Custom(_scaled_proof(sp.Rational(1, 10)), points=PTS4_LIN),
                                    _thm3_follows(sp.Rational(1, 10))]),
                             "a constant off by 10: not seen by the simulated runs (the bound is loose by > 25 there), "
                             "rejected by the deduction from Theorem 3"),
                 Alternative("bound fifty times smaller", Custom(_scaled_proof(sp.Rational(1, 50)), points=PTS4_LIN),
                             "a bound tightened until it is false on the simulated models (below the largest "
                             "Delta/bound measured, 0.034)"))),
]


#: claims reading the same cached runs (_thm2_run, _ball_fn): a --jobs run gives each pair to one worker
RUN_TOGETHER = (("linearization2025.thm2", "linearization2025.thm2.proof"),
                ("linearization2025.thm4", "linearization2025.thm4.proof"))
