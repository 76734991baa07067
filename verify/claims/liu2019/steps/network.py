"""The drawn network the steps are checked on (see the package docstring), the bookkeeping of a check, and the
decompositions (5), (39) and the split (18) that steps of several proofs use."""
from __future__ import annotations

import math

import torch

from numerics import two_layer as TL
from verify.kit import Check, Evidence

from ..common import _P1, instance


M, D, KAPPA = 1024, 8, 1.0
K_P, K_Q = 60, 60
_CACHE: dict = {}


def _Z(W, a, X):
    """Z of eq. (3): md x n, block r = I{w_r . x_j >= 0} a_r x_j / sqrt(m) (W: m x d, rows w_r; vec W stacks them)."""
    m = W.shape[0]
    ind = (X @ W.T >= 0).to(W.dtype)                                   # (n, m)
    return (ind.T[:, None, :] * a[:, None, None] * X.T[None]).reshape(m * W.shape[1], X.shape[0]) / math.sqrt(m)


def _u(W, a, X):
    return TL.forward(W[None], a[None], X)[0]


def _gd(W0, a, X, y, lr, steps):
    """Full-batch GD on L = (1/2)||u - y||^2 (eq. (4)): the iterates W(0..steps) and outputs u(0..steps)."""
    Ws, W = [W0], W0
    for _ in range(steps):
        G, _ = TL.gradient(W[None], a[None], X, y)
        W = W - lr * G[0]
        Ws.append(W)
    return Ws, [_u(w, a, X) for w in Ws]


def run(ctx, draw: int = 0):
    """The drawn network, its two training phases and the instance (cached per seed).  ``draw`` > 0: further
    independent networks of the same setup, each from its own seed stream (liu2019.eq34_36 uses several)."""
    gen, seed = ctx.generator("liu2019.steps", "network" if draw == 0 else f"network{draw}")
    if seed in _CACHE:
        return _CACHE[seed]
    inst = instance(_P1, gen, torch.float64)
    W0, a = TL.init(1, M, D, gen, kappa=KAPPA, dtype=torch.float64)
    W0, a = W0[0], a[0]
    etaP, etaQ = 1.0 / inst["lmaxP"], 1.0 / inst["lmaxQ"]
    WP_path, uP = _gd(W0, a, inst["XP"], inst["yP"], etaP, K_P)
    WQ_path, uQ = _gd(WP_path[-1], a, inst["XQ"], inst["yQ"], etaQ, K_Q)
    out = dict(inst=inst, W0=W0, a=a, etaP=etaP, etaQ=etaQ, WP_path=WP_path, uP=uP, WQ_path=WQ_path, uQ=uQ, seed=seed)
    _CACHE[seed] = out
    return out


def _rel(x, y):
    return float((x - y).norm() / max(float(y.norm()), 1e-300))


TOL = 1e-9


def _gap_check(name, gap, detail, refutes=True):
    ok = gap < TOL
    return Check(name, ok, f"{detail}: relative gap {gap:.3g}", refutes=refutes,
                 counterexample=None if ok or not refutes else {"relative gap": gap})


SETUP = (f"one drawn network: m = {M}, d = {D}, n_P = n_Q = 4, kappa = {KAPPA:g}, synthetic tasks of common.py at "
         f"phi = pi/3, c = 1; {K_P} pretraining and {K_Q} fine-tuning steps of full-batch GD, eta = 1/lambda_max(H^inf)")


# ============================================================================ (5), (39): the decompositions
def _decomp(S, phase, sign=1):
    """Lines of (5) (phase 'P') or (39) (phase 'Q') on the run.  ``sign``: the sign of the e-term in the third line
    (a power witness passes -1)."""
    inst = S["inst"]
    a = S["a"]
    if phase == "P":
        X, y, H, eta, path, u = inst["XP"], inst["yP"], inst["HP"], S["etaP"], S["WP_path"], S["uP"]
        r0 = -y                                                     # (I - eta H)^k y_P enters with a plus sign
    else:
        X, y, H, eta, path, u = inst["XQ"], inst["yQ"], inst["HQ"], S["etaQ"], S["WQ_path"], S["uQ"]
        r0 = u[0] - y                                               # u_Q(P) - y_Q
    K = len(path) - 1
    n = H.shape[0]
    Mk = torch.eye(n, dtype=H.dtype, device=H.device) - eta * H
    Zs = [_Z(w, a, X) for w in path[:K]]
    pw = [torch.linalg.matrix_power(Mk, k) for k in range(K)]
    lhs = path[-1].reshape(-1) - path[0].reshape(-1)
    tele = sum(path[k + 1].reshape(-1) - path[k].reshape(-1) for k in range(K))
    grad = -eta * sum(Zs[k] @ (u[k] - y) for k in range(K))
    e = [u[k] - y - pw[k] @ r0 for k in range(K)]                  # e_P(k), e(k): u(k) - y = (I - eta H)^k r0 + e(k)
    lin = sum(-eta * Zs[k] @ (pw[k] @ r0) for k in range(K))       # eta Z(k)(I - eta H)^k y_P  [(y_Q - u_Q(P))]
    line3 = lin - sign * eta * sum(Zs[k] @ e[k] for k in range(K))
    line4 = (sum(-eta * Zs[0] @ (pw[k] @ r0) for k in range(K)) + sum(-eta * (Zs[k] - Zs[0]) @ (pw[k] @ r0)
                                                                      for k in range(K))
             - eta * sum(Zs[k] @ e[k] for k in range(K)))
    return [("telescoping: sum_k vec(W(k+1)) - vec(W(k))", _rel(tele, lhs)),
            ("the gradient step (4): -eta sum_k Z(k)(u(k) - y)", _rel(grad, lhs)),
            ("third line, with u(k) - y = -(I - eta H^inf)^k y_P + e_P(k)" if phase == "P" else
             "third line, with u_Q(k) - y_Q = (I - eta H_Q^inf)^k (u_Q(P) - y_Q) + e(k)", _rel(line3, lhs)),
            ("last line: Z(k) split as Z(0) + (Z(k) - Z(0))", _rel(line4, lhs))]


def _eq5(claim, ctx, phase="P", sign=1):
    S = run(ctx)
    rows = _decomp(S, phase, sign)
    what = "(5)" if phase == "P" else "(39)"
    return Evidence(checks=[_gap_check(f"{what}, {nm}", g, SETUP) for nm, g in rows], seeds=[S["seed"]])


# ============================================================================ (18), (19): the split of u_Q(P) - u_Q(0)
def _split(S):
    inst, a, W0 = S["inst"], S["a"], S["W0"]
    WP = S["WP_path"][-1]
    XQ, m = inst["XQ"], W0.shape[0]
    yP, u0P = inst["yP"], S["uP"][0]
    # R of (16), with the drawn network's ||y_P - u(0)|| and lambda_P; Lemma 1's radius is at most it (lambda_P <= 1/2)
    R16 = 4 * math.sqrt(len(yP)) * float((yP - u0P).norm()) / math.sqrt(m * inst["lamP"])
    move = float((WP - W0).norm(dim=-1).max())
    R = R16 if move < R16 else move
    p0, pP = XQ @ W0.T, XQ @ WP.T                                   # (n_Q, m): w_r(0).x_Q,i, w_r(P).x_Q,i
    I0 = (p0 >= 0).to(W0.dtype)
    Sbar = (p0.abs() <= R).to(W0.dtype)                             # r in bar S_i
    rm = 1 / math.sqrt(m)
    lhs = _u(WP, a, XQ) - _u(W0, a, XQ)
    first = rm * ((I0 * (pP - p0)) @ a)
    second = rm * ((Sbar * (torch.relu(pP) - torch.relu(p0))) @ a)
    third = -rm * ((Sbar * I0 * (pP - p0)) @ a)
    ZQ0 = _Z(W0, a, XQ)
    lin = ZQ0.T @ (WP - W0).reshape(-1)
    return dict(lhs=lhs, first=first, second=second, third=third, lin=lin, R=R, R16=R16, move=move,
                sbar=float(Sbar.sum(-1).max()), ZQ0=ZQ0)


HOLDS1, HOLDS2, HOLDS3 = ("liu2019.thm1",), ("liu2019.thm2",), ("liu2019.thm3",)
NOTE_RUN = ("Checked on one drawn network (" + SETUP + "), so the identities are tested with the quantities the text "
            "defines, to rounding (relative gap < 1e-9).")
