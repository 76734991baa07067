"""Lemma 3 ('Gradient Flow') of 004_04c86723a9734555.txt: the gradient-flow limit of the split update, and the
steps of its proof.

The literal split update (numerics.proximal.split_gd) is run at step sizes eta = T/(N 2^k) and compared with an
accurate solution of the stated ODE (numerics.proximal.flow: scipy solve_ivp, DOP853, rtol 1e-10, atol 1e-12,
all trials in one state), on linear, tanh-MLP and ReLU models, for constant lambda and for a prescribed
switching lambda_t (lambda, 0, lambda on thirds of [0, T]: 'lambda switches at most countably often').
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch

from numerics import NotConverged
from numerics.proximal import flow, split_gd
from verify.kit import (AllOf, Check, Claim, Custom, Domain, Evidence, Identity, Kind, Param, StatTest, label_of,
                        per_profile, pick)

from .common import MODEL, ROOT_LEMMA3_ALGEBRA, SPLIT, kind_of, problem, src

SRC = src("Lemma 3 ('Gradient Flow') and its proof slide; Problem Formulation ('Split optimization equation')")
STATEMENT = r"\frac{d}{dt}\theta_t=-\nabla_\theta\tilde R(\theta_t)^\top-\lambda_t(\theta_t-\theta_0)"
T_END = 3.0
# step sizes eta_k = 0.1/(L_s 2^k), L_s = max over the problems of 2||J(theta0)||^2 + lambda (the stiffness), rounded
# so that the step count is a multiple of 30 (the 31 record times and the switches at T/3, 2T/3 fall on steps)
LEVELS = per_profile((1, 2, 4), (1, 2, 4))
B = per_profile(2, 3)
POINTS = per_profile([{"model": m, "lam": 1.0, "switching": s} for m in (0, 2) for s in (0, 1)],
                     [{"model": m, "lam": lam, "switching": s} for m in (0, 1, 2) for s in (0, 1) for lam in (1.0,)])


REF_RTOL = 1e-12          # the ODE reference (atol = rtol/100); its error is checked against a 100x looser solve
ORDER_TOL = 0.05          # band of the order test: holds the finite-range bias, excludes the orders 1/2 and 2


def _order_band_test(label, params, orders, exponent, tol, seed):
    """The derived order ``exponent`` against per-problem fitted orders, as a band test (as verify.judge.orders' slope
    tests): H0 'the mean order lies in exponent +- tol', so only a mean significantly outside the band rejects
    and agreement needs the 95% t-interval inside it.  An order is a limit: the fit over a finite eta range keeps an
    O(eta^2) bias (|p - 1| <= 7e-4 at standard seed 0, falling 4x per halving of eta), deterministic per problem,
    which a point null 'mean = 1' with a standard error over problems of ~5e-5 rejects; the band does not."""
    from scipy import stats as sps

    x = np.asarray(orders, dtype=np.float64)
    n = x.size
    m, se = float(x.mean()), max(float(x.std(ddof=1) / math.sqrt(n)), 1e-12)
    q = float(sps.t.ppf(0.975, n - 1))
    p = float(sps.t.sf((abs(m - exponent) - tol) / se, n - 1))
    return StatTest(label=label, params=dict(params), predicted=float(exponent), estimate=m, stderr=se, trials=n,
                    tol=tol, pvalue=p, target="derived", seed=seed, df=n - 1, ci=(m - q * se, m + q * se),
                    alternatives={f"order {exponent / 2:g}": exponent / 2, f"order {exponent + 1:g}": exponent + 1.0},
                    extra={"test": f"H0: |order - {exponent}| <= {tol}", "std": float(x.std(ddof=1))})


class _Switch:
    """lambda_t = lam on [0, T/3), 0 on [T/3, 2T/3), lam after: a prescribed schedule with two switches."""

    def __init__(self, lam):
        self.lam = lam
        self.switches = (T_END / 3, 2 * T_END / 3)

    def __call__(self, t):
        return 0.0 if self.switches[0] - 1e-12 <= t < self.switches[1] - 1e-12 else self.lam


def _lemma3(claim, ctx, points):
    ev = Evidence()
    rows = {}
    pooled = []
    for p in points:
        kind, lam = kind_of(p), float(p["lam"])
        lab = label_of({"model": kind, "lam": lam, "switching": int(p["switching"])})
        gen, seed = ctx.generator(claim.id, lab)
        ev.seeds.append(seed)
        prob = problem(kind, pick(ctx.profile, B), gen, ctx)
        sched = _Switch(lam) if int(p["switching"]) else None
        times = np.linspace(0, T_END, 31)
        Ls = float((2 * torch.linalg.matrix_norm(prob.jac(prob.theta0), ord=2) ** 2).max()) + lam
        n0 = 30 * math.ceil(T_END * Ls / (30 * 0.1))   # record times (multiples of T/30) and switches on steps
        levels = [n0 * k for k in pick(ctx.profile, LEVELS)]
        try:
            if kind == "relu":   # solve_ivp stalls on ReLU's discontinuous field: a much finer split update instead
                ref = split_gd(prob, lam, T_END / (8 * levels[-1]), T_END, record=times, lam_schedule=sched)
                ref_check = None
            else:
                ref = flow(prob, lam, times, lam_schedule=sched, rtol=REF_RTOL, atol=REF_RTOL * 1e-2)
                ref_check = flow(prob, lam, times, lam_schedule=sched, rtol=REF_RTOL * 100, atol=REF_RTOL)
        except NotConverged as e:
            ev.checks.append(Check(lab, None, f"ODE solver: {e}", refutes=False))
            continue
        scale = (ref.theta - prob.theta0[:, None]).norm(dim=2).max(1).values.clamp_min(1e-12)   # (B,)
        errs = []
        for N in levels:
            tr = split_gd(prob, lam, T_END / N, T_END, record=times, lam_schedule=sched)
            errs.append(((tr.theta - ref.theta).norm(dim=2).max(1).values / scale).cpu().numpy())
        errs = np.array(errs)                          # (levels, B)
        if ref_check is not None:
            # the reference's own error, over-estimated by its distance to a 100x looser solve, must be far below
            # the smallest split-update error, or the fit would measure the solver (a flattening at small eta)
            ref_err = ((ref_check.theta - ref.theta).norm(dim=2).max(1).values / scale).cpu().numpy()
            worst = float((ref_err / errs.min(0)).max())
            ev.checks.append(Check(f"ODE reference resolved: solver error <= 1e-3 x the smallest split-update error: "
                                   f"{lab}", True if worst <= 1e-3 else None,
                                   f"max_t ||theta(rtol {REF_RTOL * 100:g}) - theta(rtol {REF_RTOL:g})|| / scale = "
                                   f"{float(ref_err.max()):.2g}, {worst:.2g} of the smallest error", refutes=False))
        etas = T_END / np.array(levels)
        slopes = np.array([np.polyfit(np.log(etas), np.log(errs[:, b]), 1)[0] for b in range(errs.shape[1])])
        # the order p from log e = a + p log eta + b eta (the eta term absorbs the O(eta^2) part of e = C eta + D eta^2,
        # which biases a plain log-log slope by O(eta))
        Amat = np.stack([np.ones_like(etas), np.log(etas), etas], 1)
        last = np.array([np.linalg.lstsq(Amat, np.log(errs[:, b]), rcond=None)[0][1] for b in range(errs.shape[1])])
        rows[lab] = (etas, errs.mean(1))
        # the limit: over an 2^(L-1)-fold decrease of eta the error must fall at least 2^(L-2)-fold, to below 2e-2
        dec = bool(np.all(errs[-1] <= errs[0] / 2 ** (len(levels) - 2)))
        ev.checks.append(Check(f"split-update error -> 0 as eta -> 0: {lab}", dec and float(errs[-1].max()) < 2e-2,
                               "max_t ||theta_GD(t) - theta_ODE(t)|| / max_t ||theta_ODE(t) - theta_0|| = "
                               + ", ".join(f"{x:.3g}" for x in errs.max(1)) + " at eta = " + ", ".join(f"{e:.3g}" for e in etas)
                               + f"; log-log slopes per problem {np.round(slopes, 3).tolist()}",
                               counterexample=None if dec else {"model": kind, "lam": lam, "errors": errs.max(1).tolist()}))
        pooled.append(last)
        ev.details.setdefault("lemma3 slopes", []).append({"point": lab, "order_fit": last.tolist(),
                                                          "slopes_full_range": slopes.tolist(), "etas": etas.tolist()})
    if pooled:
        gen, seed = ctx.generator(claim.id, "pooled")
        ev.tests.append(_order_band_test("order p of the split update's error in eta (fit log e = a + p log eta + b eta "
                                         "per problem, pooled over problems and points)",
                                         {"problems": int(sum(len(x) for x in pooled))}, np.concatenate(pooled), 1.0,
                                         ORDER_TOL, seed))
    order = [t for t in ev.tests if t.label.startswith("order p of the split update")]
    ev.figures.append({"x": "eta", "xlabel": r"step size $\eta$", "ylabel": "relative max error vs ODE", "title":
                       "Lemma 3: split update vs gradient flow", "logy": True, "logx": True,
                       "values": {"switching": {"0": r"constant $\lambda$",
                                                "1": r"$\lambda$ switching ($\lambda$, 0, $\lambda$)"}},
                       "series": [{"kind": "points", "label": k, "group": k, "x": list(map(float, v[0])),
                                   "y": list(map(float, v[1])), "yerr": [0.0] * len(v[0])} for k, v in rows.items()],
                       **({"rate": True, "slopes": [{"label": "order p in eta, pooled over problems",
                                                     "fitted": float(order[0].estimate),
                                                     "ci": [float(order[0].ci[0]), float(order[0].ci[1])],
                                                     "stated": float(order[0].predicted),
                                                     "stated_text": f"{order[0].predicted:g} +- {order[0].tol:g} "
                                                                    "(first order, derived)"}]} if order else {})})
    return ev


# ------------------------------------------------------------------ the proof's algebra (componentwise, sympy)
th, g, th0, lam, eta = sp.symbols("theta_t g theta_0 lambda eta", real=True)
_tt1 = th - eta * g                      # theta~_{t+1}
_th1 = _tt1 - lam * eta * (_tt1 - th0)   # theta_{t+1}
PROOF_STEPS = [
    ("theta~ - lambda eta (theta~ - theta_0) = theta_0 + (1 - lambda eta)(theta~ - theta_0) (modified regularization step)",
     _tt1 - lam * eta * (_tt1 - th0), th0 + (1 - lam * eta) * (_tt1 - th0)),
    ("theta~_{t+1} - theta_0 = lambda eta/(1 - lambda eta) (theta_{t+1} - theta_0) (as printed)",
     _tt1 - th0, lam * eta / (1 - lam * eta) * (_th1 - th0)),
    ("theta_{t+1} = theta_t - eta g - lambda eta/(1 - lambda eta) (theta_{t+1} - theta_0)",
     _th1, th - eta * g - lam * eta / (1 - lam * eta) * (_th1 - th0)),
    ("theta_{t+1} = (1 - lambda eta) theta_t - eta (1 - lambda eta) g + lambda eta theta_0",
     _th1, (1 - lam * eta) * th - eta * (1 - lam * eta) * g + lam * eta * th0),
    ("(theta_{t+1} - theta_t)/eta = -lambda theta_t - (1 - lambda eta) g + lambda eta theta_0 (as printed)",
     (_th1 - th) / eta, -lam * th - (1 - lam * eta) * g + lam * eta * th0),
    ("lim_{eta -> 0} (theta_{t+1} - theta_t)/eta = -g - lambda (theta_t - theta_0) (the lemma's limit)",
     sp.limit((_th1 - th) / eta, eta, 0), -g - lam * (th - th0)),
]
_vars = {th: (-3, 3), g: (-3, 3), th0: (-3, 3), lam: (0.01, 2), eta: (0.001, 0.4)}
#: Lemma 3's stated vector field, componentwise: d/dt theta_t = -grad R~(theta_t)^T - lambda_t (theta_t - theta_0)
LEMMA3_STATED = -g - lam * (th - th0)

CLAIMS = [
    Claim(id="linearization2025.lemma3", kind=Kind.LIMIT, source=SRC, statement=STATEMENT, assumptions=SPLIT,
          domain=Domain((MODEL, Param("lam", 0, math.inf), Param("switching", 0, 1, integer=True,
                                                                    doc="0 constant lambda, 1 lambda/0/lambda on thirds"))),
          notes=("Orders (issue 36): the limit names one parameter, the step eta, and the order is tested in eta "
                 "alone; lambda, the switching schedule and the model are not rates of the statement but the grid's "
                 "settings (the fit is repeated at each of them). "
                 "Checked as a limit: the literal split update at eta = T/N (N doubling) against the stated ODE solved "
                 "by solve_ivp (DOP853, rtol 1e-12, atol 1e-14), T = 3, on linear, quadratic, tanh-MLP and ReLU "
                 "problems from a random pretrained theta0; eta_k = 0.1/(L_s 2^k), L_s = 2||J(theta_0)||^2 + lambda, k = 0..2 "
                 "; over that decrease the relative max error over [0, T] must fall at least "
                 "2-fold and end below 2e-2 (step counts are multiples of 30, so that the record times and "
                 "the switches fall on steps; an earlier version compared the iterate at the nearest step with the ODE "
                 "at the exact time, an O(eta) error with an irregular constant that made the error curves non-monotone "
                 "at seed 2). Our derivation: the split update is a first-order "
                 "splitting, error C eta + O(eta^2): the order p from a fit log e = a + p log eta + b eta per problem "
                 "(the b eta term absorbs the O(eta^2) part, which biases a plain log-log slope upwards by O(eta): "
                 "plain slopes of 1.01-1.08 were seen) is tested against 1, pooled over problems, as a band test: "
                 "H0 'the mean order lies in 1 +- 0.05' (target derived; the plain slopes are recorded). The band "
                 "holds the fit's remaining finite-range bias and excludes the neighbouring orders 1/2 and 2. Until "
                 "2026-11 this was a point-null t-test of 'mean order = 1' with the 5% only as the agreement band: at "
                 "standard seed 0 it rejected 0.99990 +- 0.00005 (inconclusive). Investigated: not the solver (the "
                 "references at rtol 1e-10 and 1e-13 differ by <= 6e-9 of the scale against errors >= 1e-3, and the "
                 "fitted orders agree to 3e-7), but the O(eta^2) bias of the 3-level fit: p - 1 from -7e-4 to +4e-5 "
                 "per problem, falling 4x per halving of eta (levels 1-4-16x finer: -1.6e-4, -4e-5), deterministic per "
                 "problem, so the standard error over problems (5e-5) measured only their spread. The ODE "
                 "reference is now solved at rtol 1e-12 and a check per point requires its distance to a 100x looser "
                 "solve to stay below 1e-3 of the smallest split-update error (else undecided). The switching case uses a "
                 "prescribed schedule (the lemma's 'switches at most countably often'); the state-dependent "
                 "selective switch can chatter (a sliding mode), which that assumption excludes, so it is not used "
                 "here. ReLU networks are not used for this lemma: solve_ivp stalls on their discontinuous field (the "
                 "only reference would be a finer split update, i.e. the procedure against itself), and the code path "
                 "for them (reference = split update at eta/8 of the finest level) is kept but not on any grid. The "
                 "stated field is also checked symbolically: the eta -> 0 limit of the split update's difference "
                 "quotient (theta_{t+1} - theta_t)/eta, componentwise with g = grad R~(theta_t)^T (sympy, then 50 "
                 "digits), equals it."),
          stated=LEMMA3_STATED,
          check=AllOf([Custom(_lemma3, points=POINTS),
                       Identity("lim_{eta -> 0} (theta_{t+1} - theta_t)/eta of the split update = the stated field "
                                "-g - lambda (theta_t - theta_0)", lhs=PROOF_STEPS[-1][1], rhs=LEMMA3_STATED,
                                variables=_vars)])),
    Claim(id="linearization2025.lemma3.proof", kind=Kind.SYMBOLIC, source=SRC, role="proof step",
          holds_by=("linearization2025.lemma3",), root_cause=ROOT_LEMMA3_ALGEBRA, repair="absorbed",
          statement=(r"\tilde\theta_{t+1}-\theta_0=\frac{\lambda\eta}{1-\lambda\eta}(\theta_{t+1}-\theta_0);\ "
                     r"\frac{\theta_{t+1}-\theta_t}{\eta}=-\lambda\theta_t-(1-\lambda\eta)\nabla\tilde R^\top+\lambda\eta\theta_0"),
          assumptions=SPLIT, domain=Domain(()),
          notes=("Each displayed step of the proof, componentwise with theta_{t+1} given by the split update (sympy, "
                 "then 50-digit mpmath). Two printed steps are wrong, although the lemma's limit is right: "
                 "theta~_{t+1} - theta_0 = (theta_{t+1} - theta_0)/(1 - lambda eta) (not lambda eta/(1 - lambda eta)), "
                 "and dividing lambda eta theta_0 by eta leaves lambda theta_0 (not lambda eta theta_0; as printed "
                 "the limit would be -g - lambda theta_t). Role (issue 22): two printed steps of the proof slide, read as "
                 "printed ('(because theta~_{t+1} - theta_0 = lambda_{t+1} eta/(1 - lambda_{t+1} eta)(theta_{t+1} - "
                 "theta_0))' and '(theta_{t+1} - theta_t)/eta = -lambda_{t+1} theta_t - (1 - lambda_{t+1} eta) grad "
                 "R~(theta_t)^T + lambda_{t+1} eta theta_0'); the lemma itself holds (lemma3: the split update "
                 "converges to the stated flow at order 1 in eta, and the difference quotient's limit is the stated "
                 "field): a proof-step erratum. Repaired proof (repair 'absorbed'): with theta~_{t+1} - theta_0 = "
                 "(theta_{t+1} - theta_0)/(1 - lambda eta) the difference quotient is -lambda (theta_t - theta_0) - (1 - "
                 "lambda eta) g (both checked, refutes=False), whose eta -> 0 limit is Lemma 3's field exactly, so the "
                 "repaired steps give the lemma as stated (lemma3, confirmed)."),
          corrected=(r"\tilde\theta_{t+1}-\theta_0=\frac{1}{1-\lambda\eta}(\theta_{t+1}-\theta_0);\ "
                     r"\frac{\theta_{t+1}-\theta_t}{\eta}=-\lambda(\theta_t-\theta_0)-(1-\lambda\eta)\nabla\tilde R^\top"),
          check=AllOf([Identity(name, lhs=l, rhs=r, variables=_vars) for name, l, r in PROOF_STEPS]
                      + [Identity("corrected: theta~_{t+1} - theta_0 = (theta_{t+1} - theta_0)/(1 - lambda eta)",
                                  lhs=_tt1 - th0, rhs=(_th1 - th0) / (1 - lam * eta), variables=_vars, refutes=False),
                         Identity("corrected: (theta_{t+1} - theta_t)/eta = -lambda (theta_t - theta_0) - (1 - lambda eta) g",
                                  lhs=(_th1 - th) / eta, rhs=-lam * (th - th0) - (1 - lam * eta) * g, variables=_vars,
                                  refutes=False)])),
]
