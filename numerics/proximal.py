"""Proximal (regularized) fine-tuning: the split update, its gradient flow, the linearized model,
the empirical NTK, and Lipschitz constants over an r-ball.

Source: 004_04c86723a9734555.txt (slides on "Linearization Explains Fine-Tuning in Large Language
Models"), Problem Formulation ("split optimization equation"), Lemma 3 (gradient-flow limit),
Theorem 1 (selective regularization), Theorems 2-4 (distance and linearization-gap bounds).

A *problem* is a batch of ``B`` independent fine-tuning problems: ``theta0`` (B, p) the pretrained
parameters, ``y`` (B, n) the targets y*, and a model with ``f(theta) -> (B, n)`` (the outputs
f_theta(x*) on the n training inputs) and ``jac(theta) -> (B, n, p)`` (grad_theta f_theta(x*)).
The loss is the slides' R~(theta) = ||f_theta(x*) - y*||^2 (a *sum* over the n samples), so
grad R~(theta)^T = 2 J^T (f - y*).

Models (hand-written Jacobians, each checked against ``torch.func.jacrev`` in
tests/test_linearization.py):

- ``linear``     f_theta(x) = theta^T x                    (Lip(f) = ||X||_op exactly, Lip(grad f) = 0)
- ``quadratic``  f_i(theta) = b_i^T theta + theta^T A_i theta / 2  (data-free; Lip(grad f) <= ||[A_1;..;A_n]||_op
                 exactly computable, used where a refutation must rest on rigorous constants)
- ``tanh``       f_theta(x) = a^T tanh(W x)/sqrt(m)          (smooth two-layer MLP)
- ``relu``       f_theta(x) = a^T relu(W x)/sqrt(m)          (two-layer ReLU; grad f is not Lipschitz)

Procedures:

- :func:`split_gd`  the literal split update of the slides (a GD step on R~, then a GD step on
  (lambda/2)||theta - theta0||^2, optionally only where grad R~ (theta - theta0) >= 0), recorded;
- :func:`flow`      the ODE d theta/dt = -grad R~^T - lambda (theta - theta0) of Lemma 3 by
  ``scipy.integrate.solve_ivp`` (DOP853, rtol 1e-10, atol 1e-12 by default), all trials in one
  state vector (batched), optionally together with the linearized model's flow.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import torch
from torch import Tensor

from . import NotConverged


class one_thread:
    """Run a block with one intra-op torch thread (restored after).  These problems are tiny (p <= ~100):
    with the machine's 2 threads shared by other jobs, a 2-thread step was measured ~50x slower than a
    1-thread one (100 s vs 2.1 s for 2000 split-update steps of 8 tanh problems)."""

    def __enter__(self):
        self.n = torch.get_num_threads()
        torch.set_num_threads(1)

    def __exit__(self, *exc):
        torch.set_num_threads(self.n)


# ------------------------------------------------------------------ models
@dataclass
class Problem:
    """A batch of fine-tuning problems (see the module docstring)."""

    name: str
    theta0: Tensor            # (B, p)
    y: Tensor                 # (B, n)
    f: Callable[[Tensor], Tensor]        # (B, p) -> (B, n)
    jac: Callable[[Tensor], Tensor]      # (B, p) -> (B, n, p)
    f_single: Callable[[Tensor, int], Tensor]  # (p,), trial index -> (n,)  (for torch.func)
    data: dict
    #: (B, p) -> (f, jac), the same bits as (f(theta), jac(theta)), faster: their shared terms computed once (the
    #: networks' pre-activations) and torch.bmm for the einsums (einsum calls bmm itself, at ~2x the cost on these
    #: sizes; a contraction over one index is einsum's plain product, other bits than bmm's 0 + x y for a -0.0, so
    #: make_problem sets it only when every contraction has two or more terms); None: the two calls
    f_jac: Callable[[Tensor], tuple[Tensor, Tensor]] | None = None

    def f_and_jac(self, theta: Tensor) -> tuple[Tensor, Tensor]:
        return self.f_jac(theta) if self.f_jac is not None else (self.f(theta), self.jac(theta))

    @property
    def B(self) -> int:
        return self.theta0.shape[0]

    @property
    def n(self) -> int:
        return self.y.shape[1]

    @property
    def p(self) -> int:
        return self.theta0.shape[1]


def _randn(gen, *shape, dtype, device):
    return torch.randn(*shape, generator=gen, dtype=dtype, device=device)


def make_problem(B: int, kind: str, n: int, d: int, m: int, gen: torch.Generator, *, residual: float = 1.0,
                 device=None, dtype=torch.float64) -> Problem:
    """B random fine-tuning problems of a model ``kind`` with n training points in d dimensions (m hidden
    units for tanh/relu; p parameters for 'quadratic' is d).  The 'pretrained' point theta0 is a random draw
    (for the networks: W ~ N(0, I/d), a ~ N(0, I)), the targets are y* = f_theta0(x*) + residual * z,
    z ~ N(0, I_n)/sqrt(n), so that ||f_theta0(x*) - y*|| is about ``residual``."""
    device = device if device is not None else gen.device
    kw = dict(dtype=dtype, device=device)
    if kind == "linear":
        X = _randn(gen, B, n, d, **kw) / math.sqrt(d)
        theta0 = _randn(gen, B, d, **kw)
        f = lambda th: torch.einsum("bnd,bd->bn", X, th)  # noqa: E731
        jac = lambda th: X.expand(th.shape[0], n, d)  # noqa: E731
        f1 = lambda th, b: X[b] @ th  # noqa: E731
        fj = (lambda th: (torch.bmm(X, th[:, :, None])[..., 0], jac(th))) if d > 1 else None  # noqa: E731
        data = {"X": X}
    elif kind == "quadratic":
        p = d
        Araw = _randn(gen, B, n, p, p, **kw)
        A = (Araw + Araw.transpose(-1, -2)) / (2 * p)
        bvec = _randn(gen, B, n, p, **kw) / math.sqrt(p)
        theta0 = torch.zeros(B, p, **kw)
        f = lambda th: torch.einsum("bnp,bp->bn", bvec, th) + 0.5 * torch.einsum("bp,bnpq,bq->bn", th, A, th)  # noqa: E731
        jac = lambda th: bvec + torch.einsum("bnpq,bq->bnp", A, th)  # noqa: E731
        f1 = lambda th, b: bvec[b] @ th + 0.5 * torch.einsum("p,npq,q->n", th, A[b], th)  # noqa: E731
        Ap, Aq = A.permute(0, 2, 1, 3).reshape(B, p, n * p), A.reshape(B, n * p, p)   # for fj's bmm's

        def fj(th):   # f and jac by bmm's, in einsum's order (th^T A first, then . th)
            tc = th[:, :, None]
            quad = torch.bmm(torch.bmm(th[:, None, :], Ap).reshape(-1, n, p), tc)[..., 0]
            return torch.bmm(bvec, tc)[..., 0] + 0.5 * quad, bvec + torch.bmm(Aq, tc).reshape(-1, n, p)

        fj = fj if p > 1 else None
        data = {"A": A, "b": bvec}
    elif kind in ("tanh", "relu"):
        X = _randn(gen, B, n, d, **kw)
        W0 = _randn(gen, B, m, d, **kw) / math.sqrt(d)
        a0 = _randn(gen, B, m, **kw)
        theta0 = torch.cat([W0.reshape(B, m * d), a0], dim=1)
        act, dact = ((torch.tanh, lambda z: 1 - torch.tanh(z) ** 2) if kind == "tanh"
                     else (torch.relu, lambda z: (z > 0).to(z.dtype)))

        def split(th):
            return th[:, : m * d].reshape(-1, m, d), th[:, m * d:]

        def f(th):
            W, a = split(th)
            return torch.einsum("bnm,bm->bn", act(torch.einsum("bnd,bmd->bnm", X, W)), a) / math.sqrt(m)

        def jac(th):
            W, a = split(th)
            z = torch.einsum("bnd,bmd->bnm", X, W)
            jW = (dact(z) * a[:, None, :])[..., None] * X[:, :, None, :] / math.sqrt(m)   # (B, n, m, d)
            ja = act(z) / math.sqrt(m)
            return torch.cat([jW.reshape(th.shape[0], n, m * d), ja], dim=2)

        def fj(th):   # f and jac above, op for op, with z and act(z) computed once and bmm's for the einsums
            W, a = split(th)
            z = torch.bmm(X, W.transpose(1, 2))
            h = act(z)
            dz = 1 - h ** 2 if kind == "tanh" else dact(z)
            jW = (dz * a[:, None, :])[..., None] * X[:, :, None, :] / math.sqrt(m)   # (B, n, m, d)
            J = torch.cat([jW.reshape(th.shape[0], n, m * d), h / math.sqrt(m)], dim=2)
            return torch.bmm(h, a[:, :, None])[..., 0] / math.sqrt(m), J

        fj = fj if d > 1 and m > 1 else None

        def f1(th, b):
            W, a = th[: m * d].reshape(m, d), th[m * d:]
            return act(X[b] @ W.T) @ a / math.sqrt(m)

        data = {"X": X, "m": m, "d": d}
    else:
        raise ValueError(f"model kind={kind!r} is not one of linear, quadratic, tanh, relu")
    f0 = f(theta0)
    y = f0 + residual * _randn(gen, B, n, **kw) / math.sqrt(n)
    return Problem(kind, theta0, y, f, jac, f1, data, fj)


def empirical_ntk(prob: Problem, theta: Tensor) -> Tensor:
    """k_theta(x*, x*) = grad f_theta(x*) grad f_theta(x*)^T, (B, n, n), the Jacobian by torch.func.jacrev
    (per trial; checked against the hand-written ``prob.jac``)."""
    from torch.func import jacrev

    out = []
    for b in range(prob.B):
        J = jacrev(lambda th: prob.f_single(th, b))(theta[b])
        out.append(J @ J.T)
    return torch.stack(out)


def linearized(prob: Problem) -> Problem:
    """The linearized model fbar_theta = f_theta0 + <grad f_theta0, theta - theta0> (same theta0, y*)."""
    t0 = prob.theta0
    f0, J0 = prob.f(t0), prob.jac(t0)
    f = lambda th: f0 + torch.einsum("bnp,bp->bn", J0, th - t0)  # noqa: E731
    jac = lambda th: J0.expand(th.shape[0], *J0.shape[1:])  # noqa: E731
    f1 = lambda th, b: f0[b] + J0[b] @ (th - t0[b])  # noqa: E731
    return Problem(prob.name + "-linearized", t0, prob.y, f, jac, f1, dict(prob.data))


def magnitudes(prob: Problem, theta: Tensor, *, jac: bool = True) -> tuple[Tensor, Tensor | None, Tensor]:
    """Sizes of the terms summed when f_theta(x*) and its Jacobian are evaluated in floating point, for forward
    error bounds: (rho (B, n), Jabs (B, n, p), kink (B,)).

    ``rho_i`` bounds the sum of the absolute values of the terms of f_theta(x_i) (so the computed f_i is within
    gamma_k rho_i of the exact one, gamma_k = k u/(1 - k u), u = eps/2, k the roundings along the chain of sums),
    and ``Jabs_ij >= |J_ij|`` likewise bounds the terms of J_ij and of the Jacobian-vector product's i-th
    output per unit of v_j (forward mode evaluates the same products):

    - linear:    rho = |X| |theta|, Jabs = |X|;
    - quadratic: rho = |b| |theta| + |theta|^T |A| |theta| / 2, Jabs = |b| + |A| |theta|;
    - tanh/relu: with zabs = |X| |W|^T (the terms of the pre-activations z = W x, whose computed values are
      within gamma_d zabs), rho_i = sum_j |a_j| (|act(z_ij)| + zabs_ij)/sqrt(m) (|act'| <= 1, so the error of z
      moves act(z) by at most gamma_d zabs); the W-block of Jabs is |a_j| (1 + zabs_ij) |x_il| / sqrt(m) for tanh
      (|tanh'| <= 1 and |tanh''| <= 1 move tanh'(z) by at most gamma_d zabs) and |a_j| |x_il| / sqrt(m) for relu;
      the a-block is (|act(z_ij)| + zabs_ij)/sqrt(m).

    ``kink`` marks the ReLU trials where some pre-activation is within 2 gamma_{d+1} zabs of 0, i.e. its sign, hence relu'(z) in {0, 1}, is not determined by the float64 evaluation: two evaluations of the same
    derivative may then differ by O(1), not O(eps), and no rounding bound applies (always False otherwise).
    ``jac=False``: Jabs is not formed (None; rho and kink are the same)."""
    kind = prob.name
    B = prob.B
    eps = torch.finfo(theta.dtype).eps
    no_kink = torch.zeros(B, dtype=torch.bool, device=theta.device)
    if kind == "linear":
        X = prob.data["X"].abs()
        return torch.einsum("bnd,bd->bn", X, theta.abs()), X.expand(B, *X.shape[1:]) if jac else None, no_kink
    if kind == "quadratic":
        A, bv = prob.data["A"].abs(), prob.data["b"].abs()
        ta = theta.abs()
        rho = torch.einsum("bnp,bp->bn", bv, ta) + 0.5 * torch.einsum("bp,bnpq,bq->bn", ta, A, ta)
        return rho, bv + torch.einsum("bnpq,bq->bnp", A, ta) if jac else None, no_kink
    if kind in ("tanh", "relu"):
        X, m, d = prob.data["X"], prob.data["m"], prob.data["d"]
        W, a = theta[:, : m * d].reshape(-1, m, d), theta[:, m * d:]
        z = torch.einsum("bnd,bmd->bnm", X, W)
        zabs = torch.einsum("bnd,bmd->bnm", X.abs(), W.abs())
        act = torch.tanh(z) if kind == "tanh" else torch.relu(z)
        aabs = (act.abs() + zabs) / math.sqrt(m)                                        # (B, n, m)
        rho = torch.einsum("bnm,bm->bn", aabs, a.abs())
        Jabs = None
        if jac:
            dabs = 1 + zabs if kind == "tanh" else torch.ones_like(zabs)
            jW = (dabs * a.abs()[:, None, :])[..., None] * X.abs()[:, :, None, :] / math.sqrt(m)   # (B, n, m, d)
            Jabs = torch.cat([jW.reshape(B, prob.n, m * d), aabs], dim=2)
        gamma_d = (d + 1) * eps / 2 / (1 - (d + 1) * eps / 2)
        kink = (z.abs() <= 2 * gamma_d * zabs).flatten(1).any(1) if kind == "relu" else no_kink
        return rho, Jabs, kink
    raise ValueError(f"model kind={kind!r} is not one of linear, quadratic, tanh, relu")


# ------------------------------------------------------------------ the procedures
def grad_R(prob: Problem, theta: Tensor) -> Tensor:
    """grad R~(theta)^T = 2 J^T (f_theta(x*) - y*), (B, p)."""
    return 2 * torch.einsum("bnp,bn->bp", prob.jac(theta), prob.f(theta) - prob.y)


def selector(prob: Problem, theta: Tensor) -> Tensor:
    """grad R~(theta) (theta - theta0), (B,): the quantity Theorem 1's switch looks at."""
    return (grad_R(prob, theta) * (theta - prob.theta0)).sum(1)


@dataclass
class Trajectory:
    t: np.ndarray          # (K,) recorded times
    theta: Tensor          # (B, K, p)
    lam_t: Tensor | None = None   # (B, K) the regularization in force at each recorded step (selective)
    theta_bar: Tensor | None = None  # (B, K, p) linearized model's parameters (flow with linear=True)
    #: (B, steps + 1) ||f_theta_k(x*) - y*||^2 at every step of a split update (``losses=True``)
    losses: Tensor | None = None
    #: (B, K) Lambda_t = int_0^t lambda_s ds and I_t = int_0^t exp(-(Lambda_t - Lambda_s)) ds (Theorem 2),
    #: exact for the piecewise-constant lambda of the split update
    Lam: Tensor | None = None
    I: Tensor | None = None
    #: (B, steps + 1) a bound on the float64 rounding of the loss (``losses=True``; :func:`loss_rounding`) at the two
    #: ends of every step where some trial's loss rose, NaN elsewhere
    loss_err: Tensor | None = None


def loss_rounding(prob: Problem, theta: Tensor) -> tuple[Tensor, Tensor]:
    """(loss (B,), bound (B,)): the computed ||f_theta(x*) - y*||^2 and a bound on its float64 rounding error.

    The computed r_i = f_i - y_i is within g rho_i of the exact one (rho_i = the sizes of the terms of f_i, from
    :func:`magnitudes`, plus |y_i|; g = gamma_k = k u/(1 - k u), u = eps/2, k = 3p + 2n + 20 the roundings along the
    longest chain, as in the Theorem 1 checks), so |r_i^2 - rhat_i^2| <= 2 |rhat_i| g rho_i + 2 g^2 rho_i^2, and the
    sum of n squares adds gamma_n times the loss.  The second-order term matters: near a zero of the residual
    (|r| ~ 1e-15, loss ~ 1e-30) it is the whole bound, and a step that "raises" the loss by less than the bounds of
    its two ends is not a measured increase (a converged run's loss jitters at that level under any update rule)."""
    r = prob.f(theta) - prob.y
    loss = (r ** 2).sum(1)
    return loss, _loss_bound(prob, theta, r, loss)


def _loss_bound(prob: Problem, theta: Tensor, r: Tensor, loss: Tensor) -> Tensor:
    """:func:`loss_rounding`'s bound from the residual r = f_theta(x*) - y* and the loss already computed."""
    rho = magnitudes(prob, theta, jac=False)[0] + prob.y.abs()
    unit = torch.finfo(theta.dtype).eps / 2
    k = 3 * prob.p + 2 * prob.n + 20
    g = k * unit / (1 - k * unit)
    gn = prob.n * unit / (1 - prob.n * unit)
    return (2 * g * r.abs() * rho + 2 * g * g * rho * rho).sum(1) + gn * loss


def split_gd(prob: Problem, lam: float, eta: float, T: float, *, selective: bool = False,
             record: Sequence[float] | None = None, lam_schedule: Callable[[float], float] | None = None,
             linear_too: bool = False, losses: bool = False) -> Trajectory:
    """The slides' split update, literally, for ceil(T/eta) steps (time t = k eta):

        theta~_k = theta_{k-1} - eta grad R~(theta_{k-1})^T
        theta_k  = theta~_k - lambda_k eta (theta~_k - theta0)

    with lambda_k = lam, or ``lam_schedule(t)`` (a prescribed switching schedule), or, when
    ``selective``, lambda_k = lam if grad R~(theta_{k-1}) (theta_{k-1} - theta0) >= 0 else 0 (the slides
    write the switch at theta_t on both sides; we read it at the previous iterate, which is what can be
    computed before the step).  ``record`` lists the times to keep (nearest step); default: every step.
    With ``linear_too`` the linearized model is trained alongside with the same lambda_k.
    """
    with one_thread():
        return _split_gd(prob, lam, eta, T, selective, record, lam_schedule, linear_too, losses)


def _split_gd(prob, lam, eta, T, selective, record, lam_schedule, linear_too, want_losses=False):
    # The loop is dispatch-bound (p <= ~32, a few dozen small torch calls a step), so it does each step's work once:
    # f and the Jacobian from one call (the networks' pre-activations shared), the loss from the residual the
    # gradient reads anyway, the step's lambda-terms (lambda eta, exp(-lambda eta), the I_t increment) computed once
    # per value of lambda_k instead of once a step (selective: a where between the lambda and the 0 versions, each
    # computed on a (B,) tensor as before, so every element goes through the same kernel), and the rounding bound of
    # a step's start reused when the step before it had already computed it.  Every number is the one the plain
    # loop computed (tests/test_proximal.py keeps that loop as a reference and compares bits).
    steps = int(round(T / eta))
    rec = set(range(steps + 1)) if record is None else {min(steps, int(round(t / eta))) for t in record}
    th0, y, n_ = prob.theta0, prob.y, prob.n
    th = th0.clone()
    lin = linearized(prob) if linear_too else None
    thb = th0.clone() if linear_too else None
    ts, keep, lams, keepb, Ls, Is = [], [], [], [], [], []
    kw = dict(dtype=th.dtype, device=th.device)

    def terms(lam_vec):   # (lambda_k, lambda_k eta, exp(-lambda_k eta), the I_t increment), each (B,)
        le = lam_vec * eta
        inc = torch.where(lam_vec > 0, -torch.expm1(-lam_vec * eta) / lam_vec.clamp_min(1e-300),
                          torch.full_like(lam_vec, eta))
        return lam_vec, le, torch.exp(-lam_vec * eta), inc

    on = terms(torch.full((prob.B,), float(lam), **kw))
    off = terms(torch.zeros(prob.B, **kw)) if selective else None
    cur, cur_val = on, float(lam)      # the terms in force, and (schedule) the lambda they were computed for
    Lam = torch.zeros(prob.B, **kw)
    Iint = torch.zeros_like(Lam)
    nan = torch.full((prob.B,), math.nan, **kw)
    loss_list, err_list, prev, prev_r, prev_err = [], [], None, None, False
    for k in range(steps + 1):
        last = k == steps
        if last and not want_losses:
            fth, J = None, None
        elif last:
            fth, J = prob.f(th), None
        else:
            fth, J = prob.f_and_jac(th)
        r = fth - y if fth is not None else None
        if want_losses:   # the rounding bound only at the two ends of a step where some loss rose
            loss = (r ** 2).sum(1)
            err = nan
            if loss_list and bool((loss > loss_list[-1]).any()):
                if not prev_err:
                    err_list[-1] = _loss_bound(prob, prev, prev_r, loss_list[-1])
                err = _loss_bound(prob, th, r, loss)
            prev_err = err is not nan
            loss_list.append(loss)
            err_list.append(err)
            prev, prev_r = th, r
        if k in rec:
            ts.append(k * eta)
            keep.append(th.clone())
            lams.append(torch.where(sel, on[0], off[0]) if selective and k else cur[0].clone())
            Ls.append(Lam.clone())
            Is.append(Iint.clone())
            if linear_too:
                keepb.append(thb.clone())
        if last:
            break
        # grad_R (bmm: einsum's bits, see Problem.f_jac); once a step: the switch and the update read it
        g = 2 * (torch.bmm(r[:, None, :], J)[:, 0] if n_ > 1 else torch.einsum("bnp,bn->bp", J, r))
        if selective:
            sel = (g * (th - th0)).sum(1) >= 0    # lambda_k itself is formed only where it is recorded
            cur = (None,) + tuple(torch.where(sel, a, b) for a, b in zip(on[1:], off[1:]))
        elif lam_schedule is not None:
            v = float(lam_schedule(k * eta))
            if v != cur_val or math.copysign(1.0, v) != math.copysign(1.0, cur_val):   # (-0.0: other bits)
                cur, cur_val = terms(torch.full((prob.B,), v, **kw)), v
        _, le, decay, inc = cur
        tt = th - eta * g
        th = tt - le[:, None] * (tt - th0)
        Iint = Iint * decay + inc
        Lam = Lam + le
        if linear_too:
            tb = thb - eta * grad_R(lin, thb)
            thb = tb - le[:, None] * (tb - th0)
    if not torch.isfinite(th).all():
        raise NotConverged(f"split update diverged (eta={eta:g}, lambda={lam:g})")
    return Trajectory(np.array(ts), torch.stack(keep, 1), torch.stack(lams, 1),
                      torch.stack(keepb, 1) if linear_too else None, torch.stack(loss_list, 1) if want_losses else None,
                      torch.stack(Ls, 1), torch.stack(Is, 1), torch.stack(err_list, 1) if want_losses else None)


def first_rise(prob: Problem, lam: float, eta: float, T: float, *, selective: bool = False):
    """:func:`split_gd` on one quadratic problem (B = 1, make_problem's law f = b theta + theta^T A theta/2 from
    ``prob.data``), a fast path in numpy float64 (split_gd's batched torch loop costs ~0.6 ms a step on one problem),
    run until the first step whose loss rises by more than the float64 rounding bound of its two ends
    (:func:`loss_rounding`), or to T.  The same update: theta~ = theta - eta grad R~(theta)^T, theta' = theta~ -
    lambda_k eta (theta~ - theta0), lambda_k = lam, or with ``selective`` lam where grad R~(theta)(theta - theta0)
    >= 0 at the current iterate, else 0 (tests/test_linearization_selective.py checks the iterates agree).
    Returns None, or (step k, theta_k, loss_k, loss_{k+1}, rounding bound of the two ends, largest ||theta||)."""
    if prob.B != 1 or prob.name != "quadratic":
        raise ValueError("first_rise runs one quadratic problem (B = 1); use split_gd otherwise")
    b, A = prob.data["b"][0].cpu().numpy(), prob.data["A"][0].cpu().numpy()
    y, th0 = prob.y[0].cpu().numpy(), prob.theta0[0].cpu().numpy()
    steps = int(round(T / eta))
    th, L_prev, th_prev, rad = th0.copy(), None, None, 0.0
    for k in range(steps + 1):
        r = b @ th + 0.5 * (A @ th) @ th - y
        L = float(r @ r)
        if L_prev is not None and L > L_prev:      # a float rise: is it above the rounding of its two ends?
            e0, e1 = (float(loss_rounding(prob, torch.as_tensor(t_, dtype=prob.theta0.dtype,
                                                                device=prob.theta0.device)[None])[1][0])
                      for t_ in (th_prev, th))
            if L - L_prev > e0 + e1:
                return k - 1, th_prev, L_prev, L, e0 + e1, rad
        if k == steps:
            return None
        g = 2 * (b + A @ th).T @ r
        lk = (lam if float(g @ (th - th0)) >= 0 else 0.0) if selective else lam
        th_prev, L_prev = th, L
        tt = th - eta * g
        th = tt - (lk * eta) * (tt - th0)
        rad = max(rad, float(np.linalg.norm(th)))
    return None


def flow(prob: Problem, lam: float, times: Sequence[float], *, linear_too: bool = False,
         lam_schedule: Callable[[float], float] | None = None, rtol: float = 1e-10, atol: float = 1e-12,
         method: str = "DOP853", max_step: float = np.inf) -> Trajectory:
    """Lemma 3's flow d theta/dt = -grad R~(theta)^T - lambda_t (theta - theta0) by solve_ivp (all B trials in
    one state vector), recorded at ``times`` (starting at 0).  lambda_t = lam (a number, or a (B,) tensor: one
    constant lambda per trial), or ``lam_schedule(t)`` (piecewise
    constant: integrate piece by piece between its switch times, given as ``lam_schedule.switches``).  With
    ``linear_too`` the linearized model's flow (same lambda_t) is integrated alongside.
    Raises NotConverged if the integrator fails."""
    with one_thread():
        return _flow(prob, lam, times, linear_too, lam_schedule, rtol, atol, method, max_step)


def _flow(prob, lam, times, linear_too, lam_schedule, rtol, atol, method, max_step):
    from scipy.integrate import solve_ivp

    B, p = prob.B, prob.p
    lin = linearized(prob) if linear_too else None
    t0v = prob.theta0
    dt, dev = t0v.dtype, t0v.device

    lam_vec = torch.as_tensor(lam, dtype=dt, device=dev).reshape(-1, 1) if lam_schedule is None else None  # (1|B, 1)

    def rhs(t, z):
        lt = lam_vec if lam_schedule is None else float(lam_schedule(t))
        Z = torch.as_tensor(z, dtype=dt, device=dev).reshape(-1, B, p)
        out = [-grad_R(prob, Z[0]) - lt * (Z[0] - t0v)]
        if linear_too:
            out.append(-grad_R(lin, Z[1]) - lt * (Z[1] - t0v))
        return torch.stack(out).reshape(-1).cpu().numpy()

    z0 = torch.stack([t0v] * (2 if linear_too else 1)).reshape(-1).cpu().numpy()
    times = np.asarray(times, dtype=float)
    cuts = [0.0] + [s for s in getattr(lam_schedule, "switches", ()) if 0 < s < times[-1]] + [float(times[-1])]
    ys = []
    z = z0
    for a, b in zip(cuts[:-1], cuts[1:]):
        last = b == cuts[-1]
        sel = times[(times >= a) & ((times < b) | last)]
        ext = np.unique(np.concatenate([sel, [b]]))
        sol = solve_ivp(rhs, (a, b), z, method=method, t_eval=ext, rtol=rtol, atol=atol, max_step=max_step)
        if not sol.success or not np.all(np.isfinite(sol.y)):
            raise NotConverged(f"solve_ivp failed on [{a:g}, {b:g}]: {sol.message}")
        idx = np.searchsorted(ext, sel)
        ys.append(sol.y[:, idx].T)
        z = sol.y[:, -1]
    Y = torch.as_tensor(np.concatenate(ys), dtype=dt, device=dev).reshape(len(times), -1, B, p)
    th = Y[:, 0].permute(1, 0, 2)
    thb = Y[:, 1].permute(1, 0, 2) if linear_too else None
    tt = torch.as_tensor(times, dtype=dt, device=dev).expand(B, -1)
    lam_t = Lam = Iint = None
    if lam_schedule is None:
        lv = lam_vec.expand(B, 1)
        lam_t = lv.expand(B, len(times)).clone()
        Lam = lv * tt
        Iint = torch.where(lv > 0, -torch.expm1(-lv * tt) / lv.clamp_min(1e-300), tt)
    return Trajectory(times, th, lam_t, thb, None, Lam, Iint)


def residual_norm(prob: Problem, theta_traj: Tensor) -> Tensor:
    """||f_theta(x*) - y*|| along a trajectory (B, K, p) -> (B, K)."""
    B, K, p = theta_traj.shape
    out = [(prob.f(theta_traj[:, k]) - prob.y).norm(dim=1) for k in range(K)]
    return torch.stack(out, 1)


def outputs(prob: Problem, theta_traj: Tensor) -> Tensor:
    """f_theta(x*) along a trajectory (B, K, p) -> (B, K, n)."""
    return torch.stack([prob.f(theta_traj[:, k]) for k in range(theta_traj.shape[1])], 1)


def linearization_gap(prob: Problem, theta_traj: Tensor, theta_bar_traj: Tensor) -> Tensor:
    """||f_theta_t(x*) - fbar_thetabar_t(x*)|| along trajectories (B, K, p) of the model and of its linearization
    fbar_theta = f_theta0 + <grad f_theta0, theta - theta0> -> (B, K).  All K times in one call (torch.vmap over
    the time axis), for the dense time grids on which a sup over t is taken."""
    f = torch.vmap(prob.f, in_dims=1, out_dims=1)(theta_traj)
    f0, J0 = prob.f(prob.theta0), prob.jac(prob.theta0)
    fbar = f0[:, None] + torch.einsum("bnp,bkp->bkn", J0, theta_bar_traj - prob.theta0[:, None])
    return (f - fbar).norm(dim=2)


# ------------------------------------------------------------------ Lipschitz constants over an r-ball
def jac_opnorm(prob: Problem, theta: Tensor) -> Tensor:
    """||grad f_theta(x*)||_op, (B,)."""
    return torch.linalg.matrix_norm(prob.jac(theta), ord=2)


def lip_f_lower(prob: Problem, r: Tensor, gen: torch.Generator, extra: Tensor | None = None, samples: int = 64) -> Tensor:
    """A *lower* estimate of Lip(f) = sup_{||theta - theta0|| <= r} ||grad f_theta(x*)||_op, (B,): the largest
    operator norm at theta0, at ``samples`` random points of the ball (half on its sphere) and at the points
    ``extra`` (B, K, p) (e.g. the trajectory).  Errs low: a bound computed with it is *smaller* than the true one."""
    best = jac_opnorm(prob, prob.theta0)
    B, p = prob.theta0.shape
    for s in range(samples):
        v = torch.randn(B, p, generator=gen, dtype=prob.theta0.dtype, device=prob.theta0.device)
        v = v / v.norm(dim=1, keepdim=True)
        rad = r if s % 2 == 0 else r * torch.rand(B, generator=gen, dtype=r.dtype, device=r.device) ** (1 / p)
        best = torch.maximum(best, jac_opnorm(prob, prob.theta0 + rad[:, None] * v))
    if extra is not None:
        for k in range(extra.shape[1]):
            best = torch.maximum(best, jac_opnorm(prob, extra[:, k]))
    return best


def lip_gradf_lower(prob: Problem, r: Tensor, gen: torch.Generator, extra: Tensor | None = None, pairs: int = 64) -> Tensor:
    """A *lower* estimate of Lip(grad f) over the r-ball (operator norm of Jacobian differences), (B,): the
    largest ||J(a) - J(b)||_op / ||a - b|| over random nearby pairs in the ball and consecutive trajectory points."""
    B, p = prob.theta0.shape
    best = torch.zeros(B, dtype=prob.theta0.dtype, device=prob.theta0.device)
    for s in range(pairs):
        v = torch.randn(B, p, generator=gen, dtype=prob.theta0.dtype, device=prob.theta0.device)
        v = v / v.norm(dim=1, keepdim=True)
        a = prob.theta0 + (r * torch.rand(B, generator=gen, dtype=r.dtype, device=r.device))[:, None] * v
        h = torch.randn(B, p, generator=gen, dtype=v.dtype, device=v.device)
        h = 1e-3 * (r[:, None] + 1e-12) * h / h.norm(dim=1, keepdim=True)
        num = torch.linalg.matrix_norm(prob.jac(a + h) - prob.jac(a), ord=2)
        best = torch.maximum(best, num / h.norm(dim=1))
    if extra is not None:
        for k in range(extra.shape[1] - 1):
            dth = (extra[:, k + 1] - extra[:, k]).norm(dim=1)
            ok = dth > 0
            num = torch.linalg.matrix_norm(prob.jac(extra[:, k + 1]) - prob.jac(extra[:, k]), ord=2)
            best = torch.where(ok, torch.maximum(best, num / dth.clamp_min(1e-300)), best)
    return best


def lip_upper(prob: Problem, r: Tensor) -> tuple[Tensor, Tensor]:
    """Rigorous *upper* bounds (Lip(f), Lip(grad f)) over the r-ball, (B,) each, where we have them:

    - linear:    ||X||_op (exact), 0 (exact);
    - quadratic: ||J(theta0)||_op + r ||M||_op and ||M||_op, M = [A_1; ...; A_n] (n p x p):
                 ||J(a) - J(b)||_op <= ||J(a) - J(b)||_F = ||M (a - b)||;
    - tanh:      ||J||_F^2 <= sum_i (||a||^2 ||x_i||^2 + m)/m with ||a|| <= ||a0|| + r (|tanh|, tanh' <= 1);
                 the Hessian of f_i is block-diagonal over neurons j with blocks
                 [[a_j tanh''(.) x_i x_i^T, tanh'(.) x_i], [tanh'(.) x_i^T, 0]]/sqrt(m), |tanh''| <= 4/(3 sqrt 3),
                 so Lip(grad f) <= sqrt(sum_i max_j (c |a_j|max ||x_i||^2 + ||x_i||)^2 / m);
    - relu:      Lip(f) <= sqrt(sum_i ||x_i||^2) (||theta0|| + r)/sqrt(m)... (|relu(z)| <= |z|, relu' <= 1);
                 Lip(grad f) = inf (grad f jumps).
    Errs high: a bound computed with them is *larger* than the true one."""
    kind = prob.name
    t0 = prob.theta0
    if kind == "linear":
        L = torch.linalg.matrix_norm(prob.data["X"], ord=2)
        return L, torch.zeros_like(L)
    if kind == "quadratic":
        A = prob.data["A"]
        B, n, p, _ = A.shape
        M = A.reshape(B, n * p, p)
        Lg = torch.linalg.matrix_norm(M, ord=2)
        return jac_opnorm(prob, t0) + r * Lg, Lg
    if kind in ("tanh", "relu"):
        X, m, d = prob.data["X"], prob.data["m"], prob.data["d"]
        xn2 = (X ** 2).sum(2)                                  # (B, n)
        a0 = t0[:, m * d:]
        if kind == "tanh":
            amax = a0.norm(dim=1) + r
            Lf = torch.sqrt((xn2 * amax[:, None] ** 2 + m).sum(1) / m)
            cst = 4 / (3 * math.sqrt(3))
            amaxinf = a0.abs().max(1).values + r
            Lg = torch.sqrt(((cst * amaxinf[:, None] * xn2 + xn2.sqrt()) ** 2).sum(1) / m)
            return Lf, Lg
        Lf = torch.sqrt(xn2.sum(1)) * (t0.norm(dim=1) + r) / math.sqrt(m)
        return Lf, torch.full_like(Lf, math.inf)
    raise ValueError(kind)


def regularized_gd(prob: Problem, lam: float, *, normalization: str = "sum", tol: float = 1e-11,
                   max_steps: int = 200_000) -> tuple[Tensor, int]:
    """Gradient descent on the regularized objective c ||f_theta(x*) - y*||^2 + (lambda/2)||theta - theta0||^2,
    c = 1 ('sum', R~ of the Problem Formulation) or 1/n ('mean', the 'Original problem' of Section 4), for a
    problem whose model is linear in theta (``linear`` or a :func:`linearized` one), step 1/L with
    L = 2 c lambda_max(J J^T) + lambda, until every trial's gradient norm is below ``tol`` (relative to the
    initial one).  Returns (theta*, steps); raises NotConverged otherwise.

    (The slides' *split* update has a different fixed point at finite eta: theta = (1 - lambda eta)(theta -
    eta g) gives g = -lambda u/(1 - lambda eta), the minimizer with lambda/(1 - lambda eta) in place of lambda.)"""
    with one_thread():
        c = 1.0 if normalization == "sum" else 1.0 / prob.n
        J = prob.jac(prob.theta0)
        L = 2 * c * torch.linalg.matrix_norm(J, ord=2) ** 2 + lam
        eta = (1.0 / L)[:, None]
        th = prob.theta0.clone()
        g0 = None
        for k in range(max_steps):
            g = c * grad_R(prob, th) + lam * (th - prob.theta0)
            gn = g.norm(dim=1)
            if g0 is None:
                g0 = gn.clamp_min(1e-300)
            if bool((gn <= tol * g0).all()):
                return th, k
            th = th - eta * g
        raise NotConverged(f"regularized GD: gradient norm {float((gn / g0).max()):.3g} of the initial after {max_steps} steps")
