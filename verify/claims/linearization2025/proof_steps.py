"""Proof steps and remarks of 004_04c86723a9734555.txt that the first reading left uncovered (issue 27): the
steps of Theorem 3's proof between the substitution and the bound on d/dt Delta (L218-L241), the 'Proof: skip'
slide after Theorem 6 (L405-L410) and the eigenvalue steps of Theorem 7's proof (L432-L454).

Theorem 3's steps are checked along constant-lambda flows of a model and of its linearization (the runs of
``linearity._thm3_proof``: quadratic models and tanh MLPs, lambda = 1, 13 times on [0, 3]); the quantities of the
proof at each recorded state: e = y(t) - ybar(t), B = (k_0 - k_t) 2(y(t) - y*), C = grad f_theta_t(x*)(theta_t -
theta_0), Cbar = grad f_theta0(x*)(thetabar_t - theta_0), and the true d/dt Delta = <y' - ybar', e>/Delta with the
derivatives of both flows.

The spectral steps use the instances of ``spectral`` (K = U diag(d) U^T, S = K^{1/2} M K^{1/2}, ||M|| = eta) and
R the KRR risk as a sum, sigma^2 ||(K + sigma I)^{-1} y*||^2 (the form Theorem 5's stated bounds hold for:
thm5.sum; the 1/n of the slides' R is ROOT_N and cancels in every ratio).

Our derivation for the 'small eta' remark: with A = K + sigma I, A' = A + S (S PSD, S <= eta K <= eta A in the
Loewner order), sqrt(R'/R) = ||A'^{-1} A z||/||z|| for z = A^{-1} y*, and A'^{-1} A = I - A'^{-1} S with
||A'^{-1} S|| <= ||A'^{-1/2}|| ||A'^{-1/2} S^{1/2}|| ||S^{1/2}|| <= sigma^{-1/2} * 1 * (eta lambda_max(K))^{1/2}, so
|sqrt(R'/R) - 1| <= sqrt(eta lambda_max(K)/sigma) -> 0 as eta -> 0 (K, sigma fixed): the ratio tends to 1, but
not uniformly in lambda_max(K)/sigma.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
import torch

from numerics import NotConverged
from numerics.proximal import grad_R
from verify.kit import (AllOf, Alternative, Check, Claim, Custom, Domain, Evidence, Identity, Kind, Param,
                        PropertySearch, label_of, per_profile)

from .common import (DPS, KRR, MODEL, ROOT_THM3_CHAIN, ROOT_THM3_PSD, ROOT_THM6_INTERVAL, ROOT_THM7_L454, SQUARED,
                     as_list, eigvals_sym, kind_of, points, problem, resolved_flow, src)
from .spectral import (ETA_SEARCH, EX, T6_ASSUME, T7_ASSUME, _decide, _dom6, _dom7_le1, _eig, _instance, _ratio_range,
                       _risk_sum)

SRC3 = src("Theorem 3, proof slides (L218-L243: the substitution, the PSD step, the chain bounding d/dt Delta)")
SRC6 = src("Section 5, the slide 'Proof: skip' after Theorem 6 (L405-L410)")
SRC7 = src("Section 5, 'Proof of theorem 7' (L424-L470)")


# ============================================================================ Theorem 3: the proof's quantities
def _flow_states(claim, ctx, p, times):
    """(prob, lam, per-state tensors) along the constant-lambda flow of a problem and of its linearization."""
    kind, lam = kind_of(p), float(p["lam"])
    lab = label_of({"model": kind, "lam": lam})
    gen, seed = ctx.generator(claim.id, lab)
    prob = problem(kind, 2, gen, ctx)
    tr = resolved_flow(prob, lam, times, linear_too=True)
    J0 = prob.jac(prob.theta0)
    K0 = J0 @ J0.transpose(1, 2)
    rows = []
    for k in range(1, len(tr.t)):
        th, thb = tr.theta[:, k], tr.theta_bar[:, k]
        J = prob.jac(th)
        Kt = J @ J.transpose(1, 2)
        y = prob.f(th)
        yb = prob.f(prob.theta0) + torch.einsum("bnp,bp->bn", J0, thb - prob.theta0)
        e = y - yb
        yd = torch.einsum("bnp,bp->bn", J, -grad_R(prob, th) - lam * (th - prob.theta0))
        ybd = torch.einsum("bnp,bp->bn", J0, -2 * torch.einsum("bnp,bn->bp", J0, yb - prob.y) - lam * (thb - prob.theta0))
        rows.append(dict(t=float(tr.t[k]), y=y, yb=yb, e=e, ystar=prob.y, K0=K0, Kt=Kt, J=J, J0=J0,
                         u=th - prob.theta0, ub=thb - prob.theta0, yd=yd, ybd=ybd))
    return prob, lam, lab, seed, rows


def _mv(A, v):
    return torch.einsum("bij,bj->bi", A, v)


def _rel(a, b):
    return float(((a - b).norm(dim=1) / (a.norm(dim=1) + b.norm(dim=1)).clamp_min(1e-300)).max())


#: 13 recorded times of the flows on [0, 3] (the first, t = 0, is the start: Delta = 0 there)
TIMES = np.linspace(0.0, 3.0, 13)
PTS3 = per_profile([{"model": m, "lam": 1.0} for m in (1, 2)], [{"model": m, "lam": lam} for m in (1, 2) for lam in (0.3, 3.0)])


def _psd_step(claim, ctx, pts, transpose_extra=True):
    """L224-L226 along flows: the substitution identity, <k_0(2(ybar - y*) - 2(y - y*)), y - ybar> = -2 e^T k_0 e <= 0,
    and the printed reason 'grad f^T grad f^T is positive semidefinite' (``transpose_extra``) against k_0 = J_0 J_0^T."""
    ev = Evidence()
    for p in pts:
        try:
            prob, lam, lab, seed, rows = _flow_states(claim, ctx, p, TIMES)
        except NotConverged as e:
            ev.checks.append(Check(label_of(p), None, str(e), refutes=False))
            continue
        ev.seeds.append(seed)
        sub, quad, sign = 0.0, 0.0, -math.inf
        for r in rows:
            lhs = -2 * _mv(r["Kt"], r["y"] - r["ystar"]) + 2 * _mv(r["K0"], r["yb"] - r["ystar"])
            rhs = 2 * _mv(r["K0"] - r["Kt"], r["y"] - r["ystar"]) + _mv(r["K0"], 2 * (r["yb"] - r["ystar"]) - 2 * (r["y"] - r["ystar"]))
            sub = max(sub, _rel(lhs, rhs))
            ip = (_mv(r["K0"], 2 * (r["yb"] - r["ystar"]) - 2 * (r["y"] - r["ystar"])) * r["e"]).sum(1)
            q = -2 * (r["e"] * _mv(r["K0"], r["e"])).sum(1)
            quad = max(quad, float(((ip - q).abs() / (ip.abs() + q.abs()).clamp_min(1e-300)).max()))
            sign = max(sign, float(q.max()))
        ev.checks.append(Check(f"L224 substitution: -k_t 2(y - y*) + k_0 2(ybar - y*) = (k_0 - k_t) 2(y - y*) + k_0(2(ybar "
                               f"- y*) - 2(y - y*)) along the flow: {lab}", sub < 1e-12,
                               f"{len(rows)} states x {prob.B} problems; max relative difference {sub:.2g}"))
        ev.checks.append(Check(f"L225: <k_0(2(ybar - y*) - 2(y - y*)), y - ybar> = -2 (y - ybar)^T k_0 (y - ybar) <= 0: {lab}",
                               quad < 1e-12 and sign <= 0.0,
                               f"max relative difference {quad:.2g}; largest value of -2 e^T k_0 e: {sign:.3g}"))
        n, pdim = rows[0]["J0"].shape[1:]
        ev.checks.append(Check(f"L226 corrected: k_0 = grad f_theta0(x*) grad f_theta0(x*)^T ({n} x {n}) is PSD: {lab}",
                               bool((torch.linalg.eigvalsh(rows[0]["K0"]) >= -1e-12 * rows[0]["K0"].abs().amax()).all()),
                               "smallest eigenvalues " + str([float(v) for v in torch.linalg.eigvalsh(rows[0]["K0"])[:, 0]]),
                               refutes=False))
        if transpose_extra:
            ok = n == pdim
            ev.checks.append(Check(f"L226 as printed: grad f_theta0(x*)^T grad f_theta0(x*)^T is defined (and PSD): {lab}",
                                   ok, f"grad f_theta0(x*) is {n} x {pdim} (n samples x p parameters): the printed product "
                                   f"of two {pdim} x {n} matrices is {'defined' if ok else 'not defined'}",
                                   counterexample=None if ok else {"model": kind_of(p), "n": n, "p": pdim}))
    if transpose_extra:
        # square Jacobians (n = p), where the printed product is defined: (J^T)^2 = (J J)^T is not PSD in general
        gen, seed = ctx.generator(claim.id, "square")
        ev.seeds.append(seed)
        bad, tried, shown = 0, 0, None
        for n in range(2, 7):
            J = torch.randn(40, n, n, generator=gen, dtype=torch.float64, device=gen.device)
            P = J.transpose(1, 2) @ J.transpose(1, 2)
            Ps = (P + P.transpose(1, 2)) / 2
            lmin = torch.linalg.eigvalsh(Ps)[:, 0]
            fail = (lmin < -1e-9 * Ps.abs().amax((1, 2))) | ((P - P.transpose(1, 2)).abs().amax((1, 2)) > 1e-9 * P.abs().amax((1, 2)))
            bad += int(fail.sum())
            tried += 40
            if shown is None and bool(fail.any()):
                i = int(fail.nonzero()[0])
                shown = {"J": J[i].tolist(), "min_eig_sym_part": float(lmin[i])}
        ev.checks.append(Check("L226 as printed on square Jacobians (n = p): grad f^T grad f^T = (grad f grad f)^T is PSD",
                               bad == 0, f"{bad} of {tried} Gaussian J (n = p = 2..6) give a non-PSD (J^T)^2 (asymmetric or "
                               "with a negative eigenvalue of its symmetric part)", counterexample=shown))
        # the corrected reason on the same matrices
        ev.checks.append(Check("L226 corrected on the same square Jacobians: J J^T is PSD", True,
                               "J J^T = (J^T)^T J^T is a Gram matrix", refutes=False))
    return ev


# --------------------------------------------------------------------------- Theorem 3: the chain (L234, L240)
L_S, LK_S, R0_S, LAM_S, T_S = sp.symbols("Lip_f Lip_k R0 lambda t", positive=True)
#: L234's line after Theorem 2 is applied, and its last two lines (the same bound, rewritten)
L234_BEFORE = 4 * LK_S * L_S * R0_S**2 * (1 - sp.exp(-LAM_S * T_S)) / LAM_S + 2 * L_S**2 * R0_S * (1 - sp.exp(-LAM_S * T_S))
L234_LAST = (-2 * L_S * R0_S * (2 / LAM_S * LK_S * R0_S + L_S) * sp.exp(-LAM_S * T_S)
             + 2 * L_S * R0_S * (2 / LAM_S * LK_S * R0_S + L_S))
LG_S, B_S, S_S = sp.symbols("Lip_grad_f b s", positive=True)
#: L241 (the signs dropped) and its right side
L241_LEFT = 2 * L_S * R0_S * (4 / LAM_S * LG_S * L_S * R0_S + L_S) * (1 - sp.exp(-LAM_S * T_S))
L241_RIGHT = 2 * L_S**2 * R0_S * (4 / LAM_S * LG_S * R0_S + 1) * (1 - sp.exp(-LAM_S * T_S))
#: L242 -> L243: Delta(t) <= int_0^t (b - b e^{-lambda s}) ds = b(t + e^{-lambda t}/lambda - 1/lambda)  (Delta(0) = 0)
L243_INTEGRAL = sp.integrate(B_S * (1 - sp.exp(-LAM_S * S_S)), (S_S, 0, T_S))
L243_STATED = B_S * (T_S + sp.exp(-LAM_S * T_S) / LAM_S - 1 / LAM_S)

def _chain(claim, ctx, pts, sign=-1.0):
    """Along flows: L234's 'triangle inequality' ||B - lambda C|| <= ||B|| + sign lambda ||C|| (printed: sign = -1),
    L240's d/dt Delta <= (a bound <= 0), and the first line read as Cauchy-Schwarz, d/dt Delta <= ||B - lambda C +
    lambda Cbar|| (the derivative of the two flows; Cbar is the linearized model's own regularization term)."""
    ev = Evidence()
    for p in pts:
        try:
            prob, lam, lab, seed, rows = _flow_states(claim, ctx, p, TIMES)
        except NotConverged as e:
            ev.checks.append(Check(label_of(p), None, str(e), refutes=False))
            continue
        ev.seeds.append(seed)
        worst_tri, worst_cor, worst_cs, n_tri = -math.inf, -math.inf, -math.inf, 0
        rise, deltas = 0, [0.0]
        for r in rows:
            Bv = 2 * _mv(r["K0"] - r["Kt"], r["y"] - r["ystar"])
            C = torch.einsum("bnp,bp->bn", r["J"], r["u"])
            Cb = torch.einsum("bnp,bp->bn", r["J0"], r["ub"])
            lhs = (Bv - lam * C).norm(dim=1)
            scale = Bv.norm(dim=1) + lam * C.norm(dim=1)
            tri = (lhs - (Bv.norm(dim=1) + sign * lam * C.norm(dim=1))) / scale.clamp_min(1e-300)
            worst_tri = max(worst_tri, float(tri.max()))
            n_tri += int((tri > 1e-10).sum())
            cor = (lhs - scale) / scale.clamp_min(1e-300)
            worst_cor = max(worst_cor, float(cor.max()))
            delta = r["e"].norm(dim=1)
            ddelta = ((r["yd"] - r["ybd"]) * r["e"]).sum(1) / delta.clamp_min(1e-300)
            cs_rhs = (Bv - lam * C + lam * Cb).norm(dim=1)
            worst_cs = max(worst_cs, float(((ddelta - cs_rhs) / cs_rhs.clamp_min(1e-300)).max()))
            deltas.append(float(delta.max()))
        rise = sum(b > a for a, b in zip(deltas[:-1], deltas[1:]))
        what = "- lambda ||C|| (printed)" if sign < 0 else "+ lambda ||C||"
        ev.checks.append(Check(f"L234 'triangle inequality': ||B - lambda C|| <= ||B|| {what}, B = (k_0 - k_t)2(y - y*), C = "
                               f"grad f_theta_t(x*)(theta_t - theta_0): {lab}", n_tri == 0,
                               f"{len(rows)} states x {prob.B} problems; violated at {n_tri}; largest (lhs - rhs)/(||B|| + "
                               f"lambda||C||) = {worst_tri:.3g}",
                               counterexample=None if n_tri == 0 else {"model": kind_of(p), "lam": lam,
                                                                        "relative_excess": worst_tri}))
        if sign < 0:
            ev.checks.append(Check(f"L234 corrected: ||B - lambda C|| <= ||B|| + lambda ||C||: {lab}", worst_cor <= 1e-12,
                                   f"largest (lhs - rhs)/rhs = {worst_cor:.3g}", refutes=False))
            ev.checks.append(Check(f"L234 first line read as Cauchy-Schwarz: d/dt Delta <= ||B - lambda C + lambda Cbar|| "
                                   f"(after dropping -2 e^T k_0 e <= 0): {lab}", worst_cs <= 1e-9,
                                   f"largest (d/dt Delta - rhs)/rhs = {worst_cs:.3g}", refutes=False))
            ok = rise == 0
            ev.checks.append(Check(f"L240 as printed: d/dt Delta <= -2Lip(f)||y(0) - y*||(2/lambda Lip(k)||y(0) - y*|| + "
                                   f"Lip(f))(1 - e^(-lambda t)) <= 0, so Delta could not leave Delta(0) = 0: {lab}", ok,
                                   f"max over problems of Delta at t = {', '.join(f'{t:g}' for t in TIMES[:5])}, ...: "
                                   f"{', '.join(f'{d:.3g}' for d in deltas[:5])}, ...; Delta rises between {rise} "
                                   "consecutive recorded times (any rise contradicts a derivative <= 0 for every "
                                   "value of the constants)",
                                   counterexample=None if ok else {"model": kind_of(p), "lam": lam,
                                                                    "Delta": deltas[:5]}))
    return ev


# ============================================================================ 'Proof: skip' (Theorem 6 restated)
def _interval_pairs(p, exact):
    K, d, S, eta = _instance(p)
    e = eigvals_sym(K + S) if exact else [mpmath.mpf(x) for x in _eig(K + S)]
    return [pair for ei in e for pair in ((1 - eta, ei), (ei, 1 + eta))], 1.0 + float(e[-1])


def _interval_margin(p):
    """The largest distance of an eigenvalue of K + S outside [1 - eta, 1 + eta], in units of 1 + eta."""
    with mpmath.workdps(DPS):
        K, d, S, eta = _instance(p)
        e = _eig(K + S)
        return float(max(max(1 - float(eta) - x, x - 1 - float(eta)) for x in e) / (1 + float(eta)))


def _show_interval(p):
    with mpmath.workdps(DPS):
        K, d, S, eta = _instance(p)
        return {"K": as_list(K), "S": as_list(S), "eta": float(eta), "eig_K": [float(x) for x in d],
                "eig_K+S": [float(x) for x in _eig(K + S)]}


# ============================================================================ 'Proof: skip': small eta, risk unchanged
def _small_eta(p, uniform=False, scaled=True):
    """sqrt(R'/R) over every target y* (the extreme singular values of (K + S + sigma I)^{-1}(K + sigma I)) within
    1 +- sqrt(eta lambda_max(K)/sigma) (our derivation, module docstring) -- or, ``uniform``, within [1/(1 + eta), 1],
    the factor Theorem 6 gives the eigenvalues (exact when K and S commute).  Screened in float64; within 1e-6 of an
    end, decided again with mpmath's SVD in 50 digits (a singular value equal to 1, e.g. where S has a null
    direction in common with K, would otherwise be decided by rounding).  ``scaled=False``: the rate sqrt(eta) without
    lambda_max(K)/sigma (a power witness)."""
    with mpmath.workdps(DPS):
        K, d, S, eta = _instance(p)
        s = mpmath.mpf(p["sigma"])
        I = mpmath.eye(K.rows)
        if uniform:
            ends = (1 / (1 + eta), mpmath.mpf(1))
        else:
            delta = mpmath.sqrt(eta * d[-1] / s) if scaled else mpmath.sqrt(eta)
            ends = (1 - delta, 1 + delta)
        for exact in (False, True):
            lo, hi = _ratio_range(K + s * I, K + S + s * I, exact)
            tol = mpmath.mpf("1e-6") if not exact else mpmath.mpf("1e-35")
            ok = lo >= ends[0] - tol * abs(ends[0]) and hi <= ends[1] + tol * abs(ends[1])
            if not exact and (not ok or min(abs(lo - ends[0]), abs(hi - ends[1])) <= 1e-6 * (1 + abs(ends[1]))):
                continue   # failing or close to an end in float64: decide in 50 digits
            return bool(ok)
        return bool(ok)


def _small_eta_margin(p):
    with mpmath.workdps(DPS):
        K, d, S, eta = _instance(p)
        s = mpmath.mpf(p["sigma"])
        I = mpmath.eye(K.rows)
        lo, hi = _ratio_range(K + s * I, K + S + s * I, False)
        return max(float(hi) - 1, 1 / (1 + float(eta)) - float(lo))


def _show_small(p):
    with mpmath.workdps(DPS):
        K, d, S, eta = _instance(p)
        s = mpmath.mpf(p["sigma"])
        lo, hi = _ratio_range(K + s * mpmath.eye(K.rows), K + S + s * mpmath.eye(K.rows), False)
        return {"eta": float(eta), "sigma": float(s), "eig_K": [float(x) for x in d], "min_y sqrt(R'/R)": float(lo),
                "max_y sqrt(R'/R)": float(hi), "sqrt(eta lambda_max(K)/sigma)": math.sqrt(float(eta) * float(d[-1]) / float(s))}


def _illcond_small():
    """Points of thm7.small_eta's domain where sqrt(R'/R) moves far from 1 for small eta: K ill-conditioned (kappa(K)
    from 1e2 to 1e12, lambda_max(K) from 1e-2 to 1e4), sigma in [1e-6, 1e-4] (lambda_max(K)/sigma large), eta in
    [1e-4, 0.1], S of any rank with a random eigenbasis (not commuting with K)."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries({
        "n": st.integers(2, 6), "log10_kappa": st.floats(2, 12), "log10_scale": st.floats(-2, 4),
        "sigma": st.floats(1e-6, 1e-4), "log10_kappa_M": st.floats(0, 8), "eta": st.floats(1e-4, 0.1),
        "seed": st.integers(0, 10**6), "rank_S": st.integers(1, 6)}).filter(lambda q: q["rank_S"] <= q["n"])


_dom_small = Domain(tuple(q if q.name != "eta" else Param("eta", 0, 1, upper_open=True, doc="0 <= eta < 1")
                          for q in _dom7_le1.params if q.name != "log10_c_over_kappa"), _dom7_le1.constraints)
SMALL_BOUNDS = {"sigma": (1e-6, 1e4), "eta": (0.0, 0.1)}


# ============================================================================ Theorem 7: the eigenvalue steps
def _eigen_pairs(p, exact, f432=None):
    """L432, L436, L450 (lhs <= rhs pairs): lambda_max(K) + sigma <= lambda_max(K + S + sigma I)/(1 - eta);
    lambda_max(K + sigma I)/kappa >= lambda_max(K + S + sigma I)/(kappa (1 + eta)); lambda_min(K + S) + sigma >= (1 -
    eta) lambda_min(K + sigma I); lambda_max(K + S) + sigma <= (1 + eta) lambda_max(K + sigma I).  ``f432(eta)``: the
    factor of L432's right end (1/(1 - eta) as printed)."""
    K, d, S, eta = _instance(p)
    s = mpmath.mpf(p["sigma"])
    e = eigvals_sym(K + S) if exact else [mpmath.mpf(x) for x in _eig(K + S)]
    lmax, lmin = d[-1] + s, d[0] + s
    kappa = lmax / lmin
    lp = e[-1] + s
    f = 1 / (1 - eta) if f432 is None else f432(eta)
    return [(lmax, lp * f), (lp / (kappa * (1 + eta)), lmax / kappa), ((1 - eta) * lmin, e[0] + s),
            (e[-1] + s, (1 + eta) * lmax)], float(lp)


def _combine_pairs(p, exact):
    """L440 with R the sum: lambda' /(sigma||y|| kappa (1 + eta)) <= R^{-1/2} <= lambda'/(sigma ||y|| (1 - eta)), and
    L454's corrected upper end R'^{1/2} <= sigma||y|| kappa/((1 - eta) lambda_max(K + sigma I))."""
    K, d, S, eta = _instance(p)
    n = p["n"]
    s = mpmath.mpf(p["sigma"])
    y = mpmath.matrix([mpmath.mpf(float(v)) for v in np.random.default_rng([int(p["seed"]), 7]).standard_normal(n)])
    e = eigvals_sym(K + S) if exact else [mpmath.mpf(x) for x in _eig(K + S)]
    lmax, lmin = d[-1] + s, d[0] + s
    kappa = lmax / lmin
    lp = e[-1] + s
    ny = mpmath.norm(y)
    Rm = 1 / mpmath.sqrt(_risk_sum(K, y, s))
    Rp = mpmath.sqrt(_risk_sum(K + S, y, s))
    return [(lp / (s * ny * kappa * (1 + eta)), Rm), (Rm, lp / (s * ny * (1 - eta))),
            (Rp, s * ny * kappa / ((1 - eta) * lmax))], float(Rm + Rp)


SG, NY, KAP, ETA_S, LP, LMAX, LMIN = sp.symbols("sigma ny kappa eta lambda_p lambda_max lambda_min", positive=True)
#: L440's upper end of 1/R^{1/2} and L454's upper end of R'^{1/2} as printed (lambda_min) and corrected (lambda_max),
#: with lambda_min(K + sigma I) = lambda_max(K + sigma I)/kappa
L440_UP = LP / (SG * NY * (1 - ETA_S))
L454_UP_PRINTED = SG * NY * KAP / ((1 - ETA_S) * LMAX / KAP)
L454_UP_CORRECTED = SG * NY * KAP / ((1 - ETA_S) * LMAX)
L464_UP = LP * KAP / ((1 - ETA_S) ** 2 * LMAX)
L440_LO = LP / (SG * NY * KAP * (1 + ETA_S))
L454_LO = SG * NY / ((1 + ETA_S) * LMAX)
L460_LO = LP / (KAP * (1 + ETA_S) ** 2 * LMAX)
_VARS7 = {SG: (0.01, 10), NY: (0.1, 10), KAP: (1, 100), ETA_S: (0, 0.9), LP: (0.1, 10), LMAX: (0.1, 10)}

_dom3p = Domain((MODEL, Param("lam", 0, math.inf, lower_open=True)))
_none = Domain(())

CLAIMS = [
    Claim(id="linearization2025.thm3.proof.psd", kind=Kind.BOUND, source=SRC3, role="proof step",
          holds_by=("linearization2025.thm3",), root_cause=ROOT_THM3_PSD, repair="absorbed",
          statement=(r"\langle k_0(2(\bar y-y^*)-2(y-y^*)),y-\bar y\rangle=-2(y-\bar y)^\top k_0(y-\bar y)\le0\ "
                     r"(\because\nabla f_{\theta_0}(x^*)^\top\nabla f_{\theta_0}(x^*)^\top\succeq0)"),
          assumptions=SQUARED + "; constant lambda > 0; grad f_theta0(x*) the n x p Jacobian (n samples, p parameters)",
          domain=_dom3p,
          notes=("The slide 'Theorem 3 #2' (L218-L227): the substitution (L224) and its identity and sign (L225) hold at "
                 "every state of the flows; the reason printed for the sign (L226), 'grad f_theta0(x*)^T grad f_theta0(x*)^T "
                 "is positive semidefinite', has a transpose too many: for the n x p Jacobian of the slides it is a product "
                 "of two p x n matrices, not defined unless n = p (the simulated models have n = 3 or 4 samples and p = 5 "
                 "or 24 parameters), and for n = p it is (J J)^T, which is not PSD for a Gaussian J. The intended reason "
                 "k_0 = grad f grad f^T PSD (Lemma 1's k_theta) holds. A typographical slip in a proof step whose "
                 "result holds (thm3). Repaired proof (repair 'absorbed'): with the reason k_0 = grad f grad f^T "
                 "PSD (checked, refutes=False) L225's '<= 0' and the inequality after it stand as printed; nothing "
                 "downstream changes (what the rest of the proof gives is thm3.proof's and thm3.proof.chain's)."),
          corrected=r"k_0=\nabla f_{\theta_0}(x^*)\nabla f_{\theta_0}(x^*)^\top\succeq0",
          check=Custom(_psd_step, points=PTS3)),
    Claim(id="linearization2025.thm3.proof.chain", kind=Kind.BOUND, source=SRC3, role="proof step",
          holds_by=("linearization2025.thm3",), root_cause=ROOT_THM3_CHAIN, repair="absorbed",
          statement=(r"\frac{d}{dt}\Delta\le\|(k_0-k_t)2(y-y^*)\|-\lambda\|\nabla f_{\theta_t}(x^*)(\theta_t-\theta_0)\|"
                     r"\ (\text{triangle inequality});\ \frac{d}{dt}\Delta\le-2Lip(f)\|y(0)-y^*\|\big(\tfrac2\lambda Lip(k)"
                     r"\|y(0)-y^*\|+Lip(f)\big)(1-e^{-\lambda t})"),
          assumptions=SQUARED + "; constant lambda > 0; fbar trained by the same regularized flow", domain=_dom3p,
          notes=("The display at L234 and the next slide's first line (L240). (1) Its first line, '-d/dt Delta(t) = "
                 "||(k_0 - k_t)2(y(t) - y*) - lambda grad f_theta_t(x*)(theta_t - theta_0), y(t) - ybar(t)||', writes the "
                 "inner product of L227 as the norm of a pair (and a minus before d/dt): notational, nothing to compute "
                 "as printed; read as Cauchy-Schwarz, d/dt Delta <= ||B - lambda C + lambda Cbar|| (with the linearized "
                 "model's own term Cbar that thm3.proof finds missing) it holds at every state (a non-refuting check). "
                 "(2) The 'triangle inequality' line, '<= ||(k_0 - k_t)2(y(t) - y*)|| - lambda ||grad f_theta_t(x*)"
                 "(theta_t - theta_0), y(t) - ybar(t)||', subtracts the second term: ||B - lambda C|| <= ||B|| - lambda "
                 "||C|| fails at the flows' states (the triangle inequality adds it; the line after it, '<= Lip(k) ||theta_t "
                 "- theta_0|| ||2(y(t) - y*)|| + lambda Lip(f) ||theta_t - theta_0||', adds it again). (3) The display "
                 "ends with the bound written as '-2Lip(f)||(y(0) - y*)||(2/lambda Lip(k)||y(0) - y*|| + Lip(f))(e^(-lambda "
                 "t)) + 2Lip(f)||...||(...)', equal to the line before it (sympy), and the next slide (L240) carries the "
                 "leading minus into 'd/dt Delta(t) <= -2Lip(f)||(y(0) - y*)||(2/lambda Lip(k)||y(0) - y*|| + Lip(f))(1 - "
                 "e^(-lambda t))', a bound <= 0 for every value of the constants: with Delta(0) = 0 it would keep Delta "
                 "at 0, while Delta rises along every flow. L242 ('d/dt Delta(t) <= b - b e^(-lambda t)') has the sign "
                 "right again; L241 with its signs dropped and the integration L242 -> L243 ('Delta(t) <= b(t + e^(-lambda "
                 "t)/lambda - 1/lambda)') hold (sympy). Proof-step slips; Theorem 3's bound holds along whole flows "
                 "(thm3). Repaired proof (repair 'absorbed'): with the triangle inequality adding lambda ||C|| (as "
                 "the next line already does; checked, refutes=False) and L240's leading minus dropped (as L242 has "
                 "it), the chain reaches L242-L243 and Theorem 3's bound as printed: these slips change signs only. "
                 "The linearized model's term lambda Cbar, which this chain also leaves out, changes b's constant "
                 "(at most by a factor 2) and is reported by thm3.proof."),
          corrected=(r"\frac{d}{dt}\Delta\le\|(k_0-k_t)2(y-y^*)\|+\lambda\|\nabla f_{\theta_t}(x^*)(\theta_t-\theta_0)\|;\ "
                     r"\frac{d}{dt}\Delta\le2Lip(f)\|y(0)-y^*\|\big(\tfrac2\lambda Lip(k)\|y(0)-y^*\|+Lip(f)\big)"
                     r"(1-e^{-\lambda t})"),
          check=AllOf([Custom(_chain, points=PTS3),
                       Identity("L234: the last two lines equal the line before them (Theorem 2 applied)",
                                lhs=L234_LAST, rhs=L234_BEFORE,
                                variables={L_S: (0.1, 5), LK_S: (0.1, 5), R0_S: (0.1, 5), LAM_S: (0.01, 10), T_S: (0, 10)}),
                       Identity("L241 with its signs dropped: 2Lip(f)R0(4/lambda Lip(grad f)Lip(f)R0 + Lip(f))(1 - e^(-lambda "
                                "t)) = 2Lip(f)^2 R0(4/lambda Lip(grad f)R0 + 1)(1 - e^(-lambda t))",
                                lhs=L241_LEFT, rhs=L241_RIGHT,
                                variables={L_S: (0.1, 5), LG_S: (0.1, 5), R0_S: (0.1, 5), LAM_S: (0.01, 10), T_S: (0, 10)}),
                       Identity("L242 -> L243: int_0^t b(1 - e^(-lambda s)) ds = b(t + e^(-lambda t)/lambda - 1/lambda)",
                                lhs=L243_INTEGRAL, rhs=L243_STATED,
                                variables={B_S: (0.1, 5), LAM_S: (0.01, 10), T_S: (0, 10)})])),
    Claim(id="linearization2025.thm6.interval", kind=Kind.BOUND, source=SRC6, role="remark", root_cause=ROOT_THM6_INTERVAL,
          statement=r"\lambda_i(K+S)\in[1-\eta,1+\eta]\ \text{(each eigenvalue of }K+S\text{ 'bounded at most')}",
          assumptions=T6_ASSUME, domain=_dom6,
          notes=("The first bullet of the slide after Theorem 6 ('Proof: skip'): 'Each eigenvalue of K+S is bounded at "
                 "most [1 - eta, 1 + eta]'. Read as printed, an absolute interval; it fails as soon as lambda_i(K) is "
                 "away from 1 (any scale of K), e.g. S = 0 (eta = 0) and K with an eigenvalue 10. The theorem itself "
                 "(thm6, confirmed) bounds lambda_i(K + S) by (1 -+ eta) lambda_i(K): the bullet drops the factor "
                 "lambda_i(K). A remark (running text) with the corrected form verified on the same search."),
          corrected=r"(1-\eta)\lambda_i(K)\le\lambda_i(K+S)\le(1+\eta)\lambda_i(K)",
          check=AllOf([PropertySearch("each eigenvalue of K + S in [1 - eta, 1 + eta] (as printed)",
                                      holds=lambda p: _decide(_interval_pairs, p), show=_show_interval,
                                      margin=_interval_margin, examples=EX, bounds={"eta": ETA_SEARCH["eta"]}),
                       PropertySearch("corrected: (1 - eta) lambda_i(K) <= lambda_i(K + S) <= (1 + eta) lambda_i(K)",
                                      holds=lambda p: _decide(_thm6_pairs_stated, p),
                                      strategy=lambda: points(_dom6, ETA_SEARCH), examples=EX, refutes=False)])),
    Claim(id="linearization2025.thm7.small_eta", kind=Kind.BOUND, source=SRC6, role="remark",
          statement=(r"\eta\to0\Rightarrow\frac{\mathcal R(\theta\cup\hat\theta)}{\mathcal R(\theta)}\to1\ "
                     r"\text{('If }\eta\text{ is small ... it doesn't affect empirical risk much')}"),
          assumptions=KRR + "; R the KRR training risk sigma^2||(K + sigma I)^{-1} y*||^2 (with K + S for R'); K "
          "positive definite, S PSD; K, sigma fixed as eta -> 0",
          domain=_dom_small,
          notes=("The slide's bullet '=> If eta is small, we don't have to select that layer, since it doesn't affect "
                 "empirical risk much' read as a limit: for fixed K, sigma and every target y*, R(theta u theta^)/R(theta) "
                 "-> 1 as eta -> 0. Checked through our derivation's rate (module docstring): |sqrt(R'/R) - 1| <= "
                 "sqrt(eta lambda_max(K)/sigma) for the worst-case y* (the extreme singular values of (K + S + sigma "
                 "I)^{-1}(K + sigma I)), searched over eta in [0, 0.1], kappa(K) up to 1e12, sigma in [1e-6, 1e4], "
                 "and again on ill-conditioned K with sigma << lambda_max(K), where the ratio moves far from 1. The "
                 "limit is not uniform: how small eta must be depends on lambda_max(K)/sigma (thm7.small_eta.uniform). "
                 "Power: the searches reject the rate sqrt(eta) without lambda_max(K)/sigma (power witness; the "
                 "domain-wide search alone did not, in 40 examples)."),
          check=AllOf([PropertySearch("|sqrt(R'/R) - 1| <= sqrt(eta lambda_max(K)/sigma) for every y* (-> 0 as eta -> 0)",
                                      holds=_small_eta, show=_show_small, strategy=lambda: points(_dom_small, SMALL_BOUNDS),
                                      examples=EX, bounds=SMALL_BOUNDS),
                       PropertySearch("the same on ill-conditioned K with sigma << lambda_max(K) (the ratio far from 1)",
                                      holds=_small_eta, show=_show_small, strategy=_illcond_small, examples=EX,
                                      bounds=SMALL_BOUNDS)]),
          power=(Alternative("the rate sqrt(eta) without lambda_max(K)/sigma: |sqrt(R'/R) - 1| <= sqrt(eta)",
                             AllOf([PropertySearch("|sqrt(R'/R) - 1| <= sqrt(eta) for every y*",
                                                   holds=lambda p: _small_eta(p, scaled=False), show=_show_small,
                                                   strategy=lambda: points(_dom_small, SMALL_BOUNDS), examples=EX,
                                                   bounds=SMALL_BOUNDS),
                                    PropertySearch("|sqrt(R'/R) - 1| <= sqrt(eta) on ill-conditioned K",
                                                   holds=lambda p: _small_eta(p, scaled=False), show=_show_small,
                                                   strategy=_illcond_small, examples=EX, bounds=SMALL_BOUNDS)]),
                             "eta is dimensionless, so a rate in eta alone is the natural guess; it fails where "
                             "lambda_max(K) >> sigma"),)),
    Claim(id="linearization2025.thm7.small_eta.uniform", kind=Kind.BOUND, source=SRC6, role="remark",
          tags=("extension",),
          statement=(r"\frac1{1+\eta}\le\Big(\frac{\mathcal R(\theta\cup\hat\theta)}{\mathcal R(\theta)}\Big)^{1/2}\le1\ "
                     r"\text{for every }K,\sigma,y^*\ \text{(the factor Theorem 6 gives the eigenvalues)}"),
          assumptions=KRR + "; R the KRR training risk (sum); K positive definite, S PSD; eta <= 0.1",
          domain=_dom_small,
          notes=("Extension: 'If eta is small, ... it doesn't affect empirical risk much' read uniformly, with the size "
                 "of the effect Theorem 6 gives the eigenvalues (for commuting K and S, sqrt(R'/R) is then in [1/(1 + "
                 "eta), 1] exactly). It fails: for non-commuting K and S, ill-conditioned K and sigma << lambda_max(K), "
                 "eta <= 0.1 still moves sqrt(R'/R) far from 1 for the worst-case target y*, in both directions (adding "
                 "the candidate layer can raise the KRR training risk: (K + S + sigma I)^{-2} is not below (K + sigma "
                 "I)^{-2} in the Loewner order). In a draw of 300 points with eta in [1e-4, 0.1] we saw sqrt(R'/R) from "
                 "0.048/(1 + eta) up to 20.8. Theorem 7's own bounds carry kappa(K + sigma I) and so do not say "
                 "otherwise; the slides' reading is the limit (thm7.small_eta, confirmed), so this is a finding about a "
                 "stronger reading, not an erratum."),
          check=PropertySearch("(1 + eta)^{-1} <= sqrt(R'/R) <= 1 for every y*, eta <= 0.1",
                               holds=lambda p: _small_eta(p, uniform=True), show=_show_small,
                               margin=_small_eta_margin, examples=EX, bounds=SMALL_BOUNDS)),
    Claim(id="linearization2025.thm7.proof.eigen", kind=Kind.BOUND, source=SRC7, role="proof step",
          holds_by=("linearization2025.thm7.eta_le_1",),
          statement=(r"\lambda_{max}(K)+\sigma\le\frac{\lambda_{max}(K+S+\sigma I)}{1-\eta};\ \lambda_{min}(K)+\sigma="
                     r"\frac{\lambda_{max}(K+\sigma I)}{\kappa}\ge\frac{\lambda_{max}(K+S+\sigma I)}{\kappa(1+\eta)};\ "
                     r"\lambda_{min}(K+S)+\sigma\ge(1-\eta)\lambda_{min}(K+\sigma I),\ \lambda_{max}(K+S)+\sigma\le(1+\eta)"
                     r"\lambda_{max}(K+\sigma I)"),
          assumptions=T7_ASSUME + "; 0 <= eta < 1", domain=_dom7_le1,
          notes=("The displays L432, L436 and L450 of the proof of Theorem 7, each from Theorem 6 (and sigma <= sigma/(1 - "
                 "eta), (1 - eta) sigma <= sigma), searched over the domain of thm7.eta_le_1 in 50 digits where float64 "
                 "cannot decide (c plays no part). Power: L432 with the factor 1 - eta in place of 1/(1 - eta) "
                 "(a misplaced fraction) must fail."),
          check=PropertySearch("L432, L436, L450", holds=lambda p: _decide(_eigen_pairs, p),
                               strategy=lambda: points(_dom7_le1, {"sigma": (1e-6, 1e4)}), examples=EX),
          power=(Alternative("L432 with (1 - eta) for 1/(1 - eta): lambda_max(K) + sigma <= (1 - eta) lambda_max(K + S + "
                             "sigma I)",
                             PropertySearch("L432 with the factor (1 - eta)",
                                            holds=lambda p: _decide(_eigen_pairs, p, f432=lambda e: 1 - e),
                                            strategy=lambda: points(_dom7_le1, {"sigma": (1e-6, 1e4)}), examples=EX),
                             "a fraction inverted (the kind of slip between Theorem 6's two ends)"),)),
    Claim(id="linearization2025.thm7.proof.combine", kind=Kind.BOUND, source=SRC7, role="proof step",
          holds_by=("linearization2025.thm7.eta_le_1",), root_cause=ROOT_THM7_L454, repair="absorbed",
          statement=(r"\frac{\lambda'}{\sigma\|y^*\|\kappa(1+\eta)}\le\mathcal R(\theta)^{-1/2}\le\frac{\lambda'}"
                     r"{\sigma\|y^*\|(1-\eta)}\ (L440);\ \mathcal R(\theta\cup\hat\theta)^{1/2}\le\frac{\sigma\|y^*\|\kappa}"
                     r"{(1-\eta)\lambda_{min}(K+\sigma I)}\ (L454)\Rightarrow\Big(\frac{\mathcal R'}{\mathcal R}\Big)^{1/2}"
                     r"\le\frac{\lambda'\kappa}{(1-\eta)^2\lambda_{max}(K+\sigma I)}\ (L464)"),
          assumptions=T7_ASSUME + "; 0 <= eta < 1; R the KRR risk as a sum (Theorem 5's stated bounds; thm5.sum)",
          domain=_dom7_le1,
          notes=("L440 (the bounds on R(theta)^{-1/2} from Theorem 5 with L432, L436) holds on the search. L454's upper "
                 "end is printed with lambda_min(K + sigma I) in the denominator, where the line before it (L450) gives "
                 "(1 - eta) lambda_max(K + sigma I)/kappa, i.e. lambda_max: the printed line is true (weaker by the factor "
                 "kappa, thm7.proof) but the next slide's 'By combining two inequalities' does not follow from it: the "
                 "product of L440's and L454's upper ends as printed is lambda' kappa^2/((1 - eta)^2 lambda_max(K + sigma "
                 "I)), kappa times L464's (sympy); with lambda_max it is exactly L464. The lower ends combine to L460 "
                 "as printed. A typographical slip in a proof step; Theorem 7 holds for 0 <= eta < 1 (thm7.eta_le_1). "
                 "Repaired proof (repair 'absorbed'): with L450's lambda_max in L454's upper end (verified on the "
                 "search, refutes=False) the upper ends combine to L464 exactly (sympy), and L460, L464 with kappa <= c "
                 "and (1 - eta)^2 (1 + eta)^2 = (1 - eta^2)^2 <= 1 give Theorem 7's two ends with a = c/(1 - eta)^2 as "
                 "stated (thm7.eta_le_1, confirmed)."),
          corrected=(r"\mathcal R(\theta\cup\hat\theta)^{1/2}\le\frac{\sigma\|y^*\|\kappa(K+\sigma I)}{(1-\eta)"
                     r"\lambda_{max}(K+\sigma I)}"),
          check=AllOf([PropertySearch("L440 and L454 corrected (lambda_max), R the sum", holds=lambda p: _decide(_combine_pairs, p),
                                      strategy=lambda: points(_dom7_le1, {"sigma": (1e-6, 1e4)}), examples=EX,
                                      refutes=False),
                       Identity("L464's upper end = L440's upper end x L454's upper end as printed (lambda_min(K + "
                                "sigma I) = lambda_max(K + sigma I)/kappa)",
                                lhs=L440_UP * L454_UP_PRINTED, rhs=L464_UP, variables=_VARS7),
                       Identity("corrected: L464's upper end = L440's upper end x L454's with lambda_max",
                                lhs=L440_UP * L454_UP_CORRECTED, rhs=L464_UP, variables=_VARS7, refutes=False),
                       Identity("L460's lower end = L440's lower end x L454's lower end",
                                lhs=L440_LO * L454_LO, rhs=L460_LO, variables=_VARS7)])),
]


def _thm6_pairs_stated(p, exact):
    from .spectral import _thm6_pairs

    return _thm6_pairs(p, exact)

