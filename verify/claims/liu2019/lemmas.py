"""The lemmas and intermediate bounds of 002 App. C on the shared literal simulation (common.simulation):
Lemma 1 (eq. (7)), Lemma 3 (eq. (8)), eq. (6), Theorem 3 (eq. (32)) and Lemma 4 (eq. (33)).

Probability statements ("with probability at least 1 - delta") are tested as such: violation indicators per network,
exact binomial test against delta = 0.1 (stated), the networks of every width of the sweep pooled (per-width counts
in the evidence).  Order statements O(m^p kappa^q) are
tested along the schedule kappa_m ~ m^(-1/4) as log-log slopes in m (a bound: slope <= the stated exponent + 0.1).
"""
from __future__ import annotations

import math

import numpy as np
import torch

from verify.kit import Claim, Custom, Kind, label_of, slope_upper_test

from .common import (DOMAIN, KAPPA_EXPONENT, POINTS, SCHEDULE, SETTING, SYNTHETIC, binomial_bound_test, each_point,
                     loglog_figure, mean_abs_ci, src)

DELTA = 0.1
NOTES = f"{SETTING} {SYNTHETIC} {SCHEDULE}"
PROB_NOTE = (f"Read with delta = {DELTA}: the violation frequency over the networks at each width is tested against "
             f"delta (exact binomial).  The conditions on m (Omega(poly)) and eta (O(lambda/n^2)) have unstated constants; "
             "we use every width of the sweep and eta = 1/lambda_max(H^inf), and say so: a violation at small m would "
             "not contradict a statement that needs m large.")


def _stack(runs, f):
    return np.stack([f(r).cpu().numpy() for r in runs], 1)


# ------------------------------------------------------------------ Lemma 1
def _pooled(ev, p, runs, seed, label, viol_ratio):
    """One binomial test per task point over the networks of every width (pooled: the statement is for every
    m above its threshold), with the per-width violation counts and largest ratios in ``extra``."""
    viol, per = [], {}
    for r in runs:
        v, ratio = viol_ratio(r)
        viol.append(v)
        per[int(r["m"])] = {"violations": int(v.sum()), "networks": int(v.size), "largest ratio": float(ratio.max())}
    t = binomial_bound_test(f"{label} ({label_of(p)}; widths {min(per)}..{max(per)} pooled)", p,
                            np.concatenate(viol), DELTA, seed)
    t.extra["per width"] = per
    ev.tests.append(t)


def _lemma1(claim, ctx, points):
    def body(ev, p, inst, runs, seed):
        nP = int(p["n_P"])

        def vr(r):
            bound = 4 * math.sqrt(nP) * r["resP0"] / (math.sqrt(r["m"]) * inst["lamP"])
            return (r["move_P"] > bound * (1 + 1e-12)).double().cpu().numpy(), (r["move_P"] / bound).cpu().numpy()
        _pooled(ev, p, runs, seed, "Lemma 1: max_r,k ||w_r(k) - w_r(0)|| <= 4 sqrt(n_P)||y_P - u_P(0)||/(sqrt(m) lambda_P)", vr)
    return each_point(claim, ctx, points, body)


# ------------------------------------------------------------------ Lemma 4
def _lemma4(claim, ctx, points):
    def body(ev, p, inst, runs, seed):
        nP, nQ = int(p["n_P"]), int(p["n_Q"])

        def vr(r):
            m = r["m"]
            bound = (4 * math.sqrt(nP) * r["resP0"] / (math.sqrt(m) * inst["lamP"])
                     + 4 * math.sqrt(nQ) * r["resQP"] / (math.sqrt(m) * inst["lamQ"]))
            return (r["move_Q0"] > bound * (1 + 1e-12)).double().cpu().numpy(), (r["move_Q0"] / bound).cpu().numpy()
        _pooled(ev, p, runs, seed, "Lemma 4: max_r,k ||w_Q,r(k) - w_r(0)|| <= eq. (33)", vr)
    return each_point(claim, ctx, points, body)


# ------------------------------------------------------------------ Theorem 3
def _thm3(claim, ctx, points):
    def body(ev, p, inst, runs, seed):
        eta = 1.0 / inst["lmaxQ"]
        rate = 1 - eta * inst["lamQ"] / 2
        def vr(r):
            hist = r["histQ"].cpu().numpy()            # (K+1, B): L_k = (1/2)||u_Q(k) - y_Q||^2
            steps = r["steps_Q"].cpu().numpy()
            viol, worst = [], []
            for b in range(hist.shape[1]):
                K = int(steps[b])
                k = np.arange(K + 1)
                lhs = hist[: K + 1, b]
                rhs = rate ** k * hist[0, b]
                viol.append(float(np.any(lhs > rhs * (1 + 1e-9) + 1e-15)))
                worst.append(float(np.max(lhs / np.maximum(rhs, 1e-300))))
            return np.array(viol), np.array(worst)
        _pooled(ev, p, runs, seed, "Thm 3: ||u_Q(k) - y_Q||^2 <= (1 - eta lambda_Q/2)^k ||u_Q(P) - y_Q||^2 for every k", vr)
    return each_point(claim, ctx, points, body)


# ------------------------------------------------------------------ Lemma 3 and eq. (6): orders along the schedule
def _order(key, exponent, what, target="stated"):
    def fn(claim, ctx, points):
        def body(ev, p, inst, runs, seed):
            ms = [r["m"] for r in runs]
            if key == "HPQ":
                Y = _stack(runs, lambda r: (r["HPQ_P"] - inst["HPQ"]).flatten(1).norm(dim=-1))
            else:
                Y = _stack(runs, lambda r: r[key])
            t = slope_upper_test(f"{what}: log-log slope in m along kappa ~ m^(-1/4) <= {exponent:g} ({label_of(p)})",
                                 p, ms, Y, exponent, seed, tol=0.1, target=target)
            ev.tests.append(t)
            m_, e_ = mean_abs_ci(Y)
            ev.figures.append(loglog_figure(f"{claim.id}: {what} vs m ({label_of(p)})", what, [(what, m_, e_, t)], ms))
        return each_point(claim, ctx, points, body)
    return fn


CLAIMS = [
    Claim(
        id="liu2019.lemma1",
        kind=Kind.PROB_BOUND,
        source=src("Lemma 1, eq. (7) (App. C, from Du et al. 2019)"),
        statement=r"\|w_{P,r}(k)-w_r(0)\|_2\le\frac{4\sqrt{n_P}\|y_P-u_P(0)\|_2}{\sqrt m\lambda_P}\ \forall r,k",
        assumptions="lambda_P > 0, m = Omega(n_P^6/(lambda_P^4 kappa^2 delta^3)), eta = O(lambda_P/n_P^2); prob >= 1 - delta",
        domain=DOMAIN, notes=NOTES + "  " + PROB_NOTE, check=Custom(_lemma1, points=POINTS)),
    Claim(
        id="liu2019.lemma4",
        kind=Kind.PROB_BOUND,
        source=src("Lemma 4, eq. (33) (App. C.2.1)"),
        statement=r"\|w_{Q,r}(k)-w_r(0)\|_2\le\frac{4\sqrt{n_P}\|y_P-u_P(0)\|_2}{\sqrt m\lambda_P}+\frac{4\sqrt{n_Q}\|y_Q-u_Q(P)\|_2}{\sqrt m\lambda_Q}",
        assumptions="the conditions of Theorem 3; prob >= 1 - delta",
        domain=DOMAIN, notes=NOTES + "  " + PROB_NOTE + "  The right-hand side's O(n_P^3 n_Q^(3/2)/(sqrt m ...)) form is not tested.",
        check=Custom(_lemma4, points=POINTS)),
    Claim(
        id="liu2019.thm3",
        kind=Kind.PROB_BOUND,
        source=src("Theorem 3 (convergence of transfer learning), eq. (32) (App. C.2.1)"),
        statement=r"\|u_Q(k)-y_Q\|_2^2\le\Big(1-\frac{\eta\lambda_Q}{2}\Big)^k\|u_Q(P)-y_Q\|_2^2,\ k=0,1,2,\dots",
        assumptions="m = Omega(n_P^8 n_Q^6/(lambda_P^16 lambda_Q^4 kappa^2 delta^10)), kappa = O(lambda_P^2 delta/(n_P^2 n_Q^(1/2))), "
                    "eta = O(lambda_Q/n_Q); prob >= 1 - delta",
        domain=DOMAIN, notes=NOTES + "  " + PROB_NOTE + "  Checked at every step k up to each network's stopping step (loss <= 1e-10).",
        check=Custom(_thm3, points=POINTS)),
    Claim(
        id="liu2019.lemma3",
        kind=Kind.ASYMPTOTIC,
        source=src("Lemma 3, eq. (8) (App. C.1); also eq. (11)"),
        statement=r"\|H_{PQ}(P)-H^\infty_{PQ}\|_F\le O\Big(\frac{n_P^2n_Q}{\sqrt m\,\lambda_P\kappa\,\delta^{3/2}}\Big)",
        assumptions="the conditions of Lemma 1; H_PQ(P) = Z_P(0)^T Z_Q(P); prob >= 1 - delta",
        domain=DOMAIN,
        notes=NOTES + "  'lambda_{P kappa}' in the extracted text read as lambda_P kappa (eq. (9)'s R has kappa in the "
              "denominator).  Along kappa ~ m^(-1/4) the stated order is m^(-1/2) kappa^(-1) ~ m^(-1/4): tested as slope <= -1/4 "
              "(+0.1).",
        check=Custom(_order("HPQ", -0.5 - KAPPA_EXPONENT, "||H_PQ(P) - H_PQ^inf||_F"), points=POINTS)),
    Claim(
        id="liu2019.eq6",
        kind=Kind.ASYMPTOTIC,
        source=src("eq. (6) (App. C): the remainder of the pretrained weights"),
        statement=r"\|\epsilon\|_2=\|\mathrm{vec}(W(P)-W(0))-Z_P(0)H_P^{\infty\,-1}y_P\|_2=O\Big(\frac{n_P\kappa}{\lambda_P\delta}\Big)+O\Big(\frac{n_P^2}{m^{1/4}\lambda_P^{3/2}\kappa^{1/2}\delta}\Big)",
        assumptions="the conditions of Lemma 1, K -> oo pretraining steps (the sum of eq. (5) taken to its limit H^-1 y)",
        domain=DOMAIN,
        notes=NOTES + "  epsilon computed as vec(W(P) - W(0)) - Z_P(0) H_P^-1 y_P (eq. (5) summed to K = oo).  Along "
              "kappa ~ m^(-1/4) the stated orders are m^(-1/4) and m^(-1/4) m^(1/8) = m^(-1/8): tested as slope <= -1/8 (+0.1).",
        check=Custom(_order("eps", -0.25 - KAPPA_EXPONENT / 2, "||epsilon||_2 of eq. (6)"), points=POINTS)),
]
