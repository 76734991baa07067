"""Pretraining then fine-tuning a wide two-layer ReLU network by full-batch gradient descent (000 §6).

Source: 000_efaf07e323d59f0e.txt §6 (Shachaf, Brutzkus, Globerson): f(x; W, a) = m^{-1/2} sum_r a_r relu(w_r^T x),
a_r uniform in {-1, +1} and fixed, rows of W drawn from N(0, kappa^2 I_d) before pretraining, ||x|| = 1,
L = (1/n) ||f(X) - y||^2 (§3), GD W <- W - eta dL/dW.  Pretraining on n_S source points labelled by the
linear teacher theta_S, then fine-tuning from the pretrained weights on n target points labelled by
theta_T; inputs uniform on the sphere S^{d-1}.

:func:`finetune_trials` runs the literal procedure for B independent networks at once (independent
inputs, teachers, initialisations) and evaluates, on the same draws,

* the population risk of the fine-tuned network under the ramp loss min(1, |f(x) - theta_T^T x|)
  (the largest loss that is 1-Lipschitz, [0, 1]-valued and zero on the diagonal, so a bound shown for it
  holds for every loss Theorem 6.1 allows), by Monte Carlo over ``n_test`` fresh sphere points;
* y~^T (H^inf)^{-1} y~ with y~ = y - f(X, Theta(0)) the residual after (literal) pretraining, and with
  y~ = X (theta_T - theta_S) (Assumption 3.2, perfect pretraining);
* the reduced path (m -> inf, kappa -> 0): two successive kernel interpolations with the NTK H^inf
  (pretraining interpolant of theta_S on X_S, then interpolation of the residual on X), the end
  state of GD in the NTK regime, for a draw-by-draw comparison with the literal networks;
* ||H(t) - H^inf||_op on the fine-tuning inputs at initialisation and after fine-tuning
  (H(t)_ij = x_i^T x_j (1/m) sum_r 1{w_r^T x_i >= 0} 1{w_r^T x_j >= 0}, numerics.two_layer.gram_at), and the
  weight movement max_k max_r ||w_r(k) - w_r(init)|| over fine-tuning.

The network, its initialisation, GD and the finite-width Gram are those of :mod:`numerics.two_layer` (shared
with 002 §6); H^inf is :func:`derivations.kernels.ntk_relu_gram`.

Learning rates are set per trial from H^inf (eta = 0.8 n / lambda_max(H^inf), the stable rate of the
linearised dynamics u <- u - (2 eta/n) H (u - y)); GD stops when every trial's training loss is below
``tol`` times the mean squared label; a run that does not reach it raises :class:`numerics.NotConverged`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

from derivations.kernels import ntk_relu_gram as ntk_gram_inf
from numerics import NotConverged
from numerics import two_layer as TL
from numerics.least_squares import intra_op_threads


def sphere(B: int, n: int, d: int, gen: torch.Generator, *, device=None, dtype=torch.float64) -> Tensor:
    """B x n points uniform on S^{d-1} -> (B, n, d)."""
    x = torch.randn(B, n, d, generator=gen, device=device, dtype=dtype)
    return x / x.norm(dim=-1, keepdim=True)


def gd(W: Tensor, a: Tensor, X: Tensor, y: Tensor, lr: Tensor, *, steps: int, tol: float, ref: Tensor | None = None,
       what: str = "GD") -> tuple[Tensor, Tensor, int, Tensor]:
    """Full-batch GD on the paper's loss L = (1/n)||f(X) - y||^2 with rate ``lr`` (B,), run by
    :func:`numerics.two_layer.train_gd` (loss (1/2)||f - y||^2): the same iterates with rate 2 lr / n.

    Stops each network once (1/n)||f - y||^2 <= tol x min_b mean(y_b^2); raises NotConverged after ``steps``.
    Returns (W, final loss (1/n)||f - y||^2 (B,), largest number of steps taken, max_k max_r ||w_r(k) - ref_r||)."""
    n = X.shape[-2]
    thr = 0.5 * n * tol * float((y ** 2).mean(-1).min().clamp_min(1e-30))
    try:
        r = TL.train_gd(W, a, X, y, lr=2.0 * lr / n, steps=steps, tol=thr, track_move=True, ref=ref)
    except NotConverged as e:
        raise NotConverged(f"{what}: {e}") from None
    return r.W, 2.0 * r.loss / n, int(r.steps.max()), r.max_move


def kernel_interpolant(Xtr: Tensor, r: Tensor, Xev: Tensor) -> Tensor:
    """H^inf(Xev, Xtr) H^inf(Xtr, Xtr)^{-1} r: the end state of GD in the NTK regime from a zero function."""
    L = torch.linalg.cholesky(ntk_gram_inf(Xtr))
    c = torch.cholesky_solve(r.unsqueeze(-1), L)
    return (ntk_gram_inf(Xev, Xtr) @ c).squeeze(-1)


def quad_form(X: Tensor, r: Tensor) -> Tensor:
    """r^T H^inf(X)^{-1} r per trial: (B, n, d), (B, n) -> (B,)."""
    L = torch.linalg.cholesky(ntk_gram_inf(X))
    z = torch.linalg.solve_triangular(L, r.unsqueeze(-1), upper=False)
    return (z ** 2).sum((-1, -2))


@dataclass
class FinetuneRun:
    """Per-trial outputs of :func:`finetune_trials`; tensors with a leading trial dimension B.

    Fine-tuning quantities carry two more dimensions (len(ns), len(dists)), indexed [B, i_n, i_s]."""

    ns: tuple
    dists: tuple
    risk: Tensor          # ramp-loss population risk of the fine-tuned network (Monte Carlo over n_test points)
    risk_sq: Tensor       # squared-loss population risk
    risk_kernel: Tensor   # ramp-loss risk of the reduced (kernel) path on the same draws
    q: Tensor             # y~^T (H^inf)^{-1} y~, y~ = y - f(X, Theta(0)) from the pretrained network
    q_lin: Tensor         # the same with y~ = X (theta_T - theta_S) (Assumption 3.2)
    delta: Tensor         # ||theta_T - theta_S||
    gram_init: Tensor     # ||H(init) - H^inf||_op on the fine-tuning inputs (largest n), (B,)
    gram_end: Tensor      # ||H(end of fine-tuning) - H^inf||_op, (B, len(ns), len(dists))
    move: Tensor          # max over fine-tuning steps k of max_r ||w_r(k) - w_r(init)||, (B, len(ns), len(dists))
    pre_risk: Tensor      # ramp risk of the pretrained network against theta_S, (B,)
    pre_loss: Tensor      # final pretraining loss, (B,)
    ft_loss: Tensor       # final fine-tuning losses, (B, len(ns), len(dists))
    steps: dict           # steps taken: {"pretrain": int, (n, "finetune"): int}


def _finetune_trials(B: int, m: int, d: int, n_S: int, ns, dists, gen: torch.Generator, *, kappa: float,
                    theta_S_norm: float = 0.5, n_test: int = 2000, tol: float = 1e-6, max_steps: int = 20000,
                    lr_factor: float = 0.8, device=None, dtype=torch.float64) -> FinetuneRun:
    """B independent literal runs of §6: pretraining on theta_S, then fine-tuning on theta_T for every
    n in ``ns`` (the first n of one draw of max(ns) target inputs) and every ||theta_T - theta_S|| in
    ``dists`` (theta_T = theta_S + dist * u, u a uniform unit vector per trial; ||theta_S|| = theta_S_norm).

    Labels satisfy |y| <= ||theta|| <= theta_S_norm + max(dists) (the theorem asks |y_i| <= 1).
    """
    ns, dists = tuple(int(v) for v in ns), tuple(float(v) for v in dists)
    kw = dict(device=device, dtype=dtype)
    nmax = max(ns)
    v = sphere(B, 1, d, gen, **kw)[:, 0]
    u = sphere(B, 1, d, gen, **kw)[:, 0]
    theta_S = theta_S_norm * v
    XS = sphere(B, n_S, d, gen, **kw)
    X = sphere(B, nmax, d, gen, **kw)
    Xt = sphere(B, n_test, d, gen, **kw)
    W0, a = TL.init(B, m, d, gen, kappa=kappa, **kw)

    yS = (XS @ theta_S.unsqueeze(-1)).squeeze(-1)
    lrS = lr_factor * n_S / torch.linalg.eigvalsh(ntk_gram_inf(XS))[:, -1]
    WS, pre_loss, st_pre, _ = gd(W0, a, XS, yS, lrS, steps=max_steps, tol=tol, what="pretraining")
    steps = {"pretrain": st_pre}
    ft_S = TL.forward(WS, a, Xt)
    yt_S = (Xt @ theta_S.unsqueeze(-1)).squeeze(-1)
    pre_risk = (ft_S - yt_S).abs().clamp(max=1).mean(-1)
    f0X = TL.forward(WS, a, X)                                   # outputs of the pretrained net on X
    kS_X = kernel_interpolant(XS, yS, X)                       # reduced path: pretrained function on X
    kS_t = kernel_interpolant(XS, yS, Xt)
    Hinf = ntk_gram_inf(X)
    gram_init = torch.linalg.matrix_norm(TL.gram_at(W0, X) - Hinf, ord=2)

    shape = (B, len(ns), len(dists))
    out = {k: torch.empty(shape, **kw) for k in ("risk", "risk_sq", "risk_kernel", "q", "q_lin", "gram_end",
                                                  "move", "ft_loss")}
    S = len(dists)
    for i, n in enumerate(ns):
        Xn = X[:, :n]
        lr = lr_factor * n / torch.linalg.eigvalsh(ntk_gram_inf(Xn))[:, -1]
        thT = theta_S.unsqueeze(1) + torch.tensor(dists, **kw).view(1, S, 1) * u.unsqueeze(1)   # (B, S, d)
        y = (Xn.unsqueeze(1) @ thT.unsqueeze(-1)).squeeze(-1)                                  # (B, S, n)
        # fine-tune every distance at once: batch (B*S)
        rep = lambda t: t.unsqueeze(1).expand(B, S, *t.shape[1:]).reshape(B * S, *t.shape[1:])  # noqa: E731
        W, loss, st, move = gd(rep(WS), rep(a), rep(Xn), y.reshape(B * S, n), rep(lr), steps=max_steps, tol=tol,
                               ref=rep(W0), what=f"fine-tuning (n={n})")
        steps[(n, "finetune")] = st
        ft = TL.forward(W, rep(a), rep(Xt)).view(B, S, n_test)
        yt = thT @ Xt.transpose(-1, -2)                                                          # (B, S, n_test)
        err = ft - yt
        out["risk"][:, i] = err.abs().clamp(max=1).mean(-1)
        out["risk_sq"][:, i] = (err ** 2).mean(-1)
        out["ft_loss"][:, i] = loss.view(B, S)
        ytil = y - f0X[:, :n].unsqueeze(1)
        out["q"][:, i] = quad_form(rep(Xn), ytil.reshape(B * S, n)).view(B, S)
        out["q_lin"][:, i] = quad_form(rep(Xn), (y - (Xn @ theta_S.unsqueeze(-1)).squeeze(-1).unsqueeze(1))
                                       .reshape(B * S, n)).view(B, S)
        # reduced path: kernel interpolation of the kernel-pretrained function's residual
        res_k = y - kS_X[:, :n].unsqueeze(1)
        fk = kS_t.unsqueeze(1) + kernel_interpolant(rep(Xn), res_k.reshape(B * S, n), rep(Xt)).view(B, S, n_test)
        out["risk_kernel"][:, i] = (fk - yt).abs().clamp(max=1).mean(-1)
        out["gram_end"][:, i] = torch.linalg.matrix_norm(TL.gram_at(W, rep(X)) - rep(Hinf), ord=2).view(B, S)
        out["move"][:, i] = move.view(B, S)
    delta = torch.tensor(dists, **kw).expand(B, len(ns), S).clone()
    return FinetuneRun(ns=ns, dists=dists, delta=delta, gram_init=gram_init, pre_risk=pre_risk, pre_loss=pre_loss,
                       steps=steps, **out)


def _kernel_finetune_trials(B: int, d: int, n_S: int, ns, dists, gen: torch.Generator, *, theta_S_norm: float = 0.5,
                           n_test: int = 2000, exact_pretraining: bool = False, device=None,
                           dtype=torch.float64) -> dict:
    """The reduced path of :func:`finetune_trials` alone (m -> inf, kappa -> 0), with the same draws in the
    same order, so that it is cheap enough for many trials.

    Pretraining: the NTK interpolant of theta_S on X_S (``exact_pretraining=True``: the linear function
    x^T theta_S itself, Assumption 3.2).  Fine-tuning: that function plus the NTK interpolant of its residual
    on the first n target inputs.  Returns {"risk", "q", "q_lin", "delta"}: (B, len(ns), len(dists)) tensors,
    risk under the ramp loss over ``n_test`` fresh points, q = y~^T (H^inf)^{-1} y~ with y~ the residual after
    this pretraining, q_lin with y~ = X (theta_T - theta_S)."""
    ns, dists = tuple(int(v) for v in ns), tuple(float(v) for v in dists)
    kw = dict(device=device, dtype=dtype)
    v = sphere(B, 1, d, gen, **kw)[:, 0]
    u = sphere(B, 1, d, gen, **kw)[:, 0]
    theta_S = theta_S_norm * v
    XS = sphere(B, n_S, d, gen, **kw)
    X = sphere(B, max(ns), d, gen, **kw)
    Xt = sphere(B, n_test, d, gen, **kw)
    yS = (XS @ theta_S.unsqueeze(-1)).squeeze(-1)
    if exact_pretraining:
        fX, ft = (X @ theta_S.unsqueeze(-1)).squeeze(-1), (Xt @ theta_S.unsqueeze(-1)).squeeze(-1)
    else:
        fX, ft = kernel_interpolant(XS, yS, X), kernel_interpolant(XS, yS, Xt)
    S = len(dists)
    shape = (B, len(ns), S)
    out = {k: torch.empty(shape, **kw) for k in ("risk", "q", "q_lin")}
    dv = torch.tensor(dists, **kw).view(1, S, 1)
    thT = theta_S.unsqueeze(1) + dv * u.unsqueeze(1)                       # (B, S, d)
    yt = thT @ Xt.transpose(-1, -2)                                        # (B, S, n_test)
    rep = lambda t: t.unsqueeze(1).expand(B, S, *t.shape[1:]).reshape(B * S, *t.shape[1:])  # noqa: E731
    for i, n in enumerate(ns):
        Xn = X[:, :n]
        y = (thT @ Xn.transpose(-1, -2))                                   # (B, S, n)
        res = y - fX[:, :n].unsqueeze(1)
        fk = ft.unsqueeze(1) + kernel_interpolant(rep(Xn), res.reshape(B * S, n), rep(Xt)).view(B, S, n_test)
        out["risk"][:, i] = (fk - yt).abs().clamp(max=1).mean(-1)
        out["q"][:, i] = quad_form(rep(Xn), res.reshape(B * S, n)).view(B, S)
        lin = y - (Xn @ theta_S.unsqueeze(-1)).squeeze(-1).unsqueeze(1)
        out["q_lin"][:, i] = quad_form(rep(Xn), lin.reshape(B * S, n)).view(B, S)
    out["delta"] = torch.tensor(dists, **kw).expand(B, len(ns), S).clone()
    return out


_ONE_THREAD_WHY = """  Runs on one intra-op torch thread (numerics.least_squares.intra_op_threads): these are many
    small ops on (B, n, m) tensors with n <= 40; on the 2 shared cores a two-thread run was measured 9x slower in
    CPU time (4.65 s vs 0.53 s for 3 networks of width 1280, under a load average of 14)."""


def finetune_trials(*args, **kwargs) -> FinetuneRun:
    with intra_op_threads(1):
        return _finetune_trials(*args, **kwargs)


def kernel_finetune_trials(*args, **kwargs) -> dict:
    with intra_op_threads(1):
        return _kernel_finetune_trials(*args, **kwargs)


finetune_trials.__doc__ = _finetune_trials.__doc__ + _ONE_THREAD_WHY
kernel_finetune_trials.__doc__ = _kernel_finetune_trials.__doc__ + _ONE_THREAD_WHY
