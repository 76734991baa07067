"""Gradient descent on the losses (4)/(5), with analytic rank-one layer gradients and a curvature-bounded step
(the package docstring); :class:`TrainResult` is the end state every procedure returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import torch

from .. import step_budget

from .network import _mtv, _mv, _suffixes, end_to_end, features, least_squares_floor


# ----------------------------------------------------------------------------- training

@dataclass
class TrainResult:
    """End state of a (batched) training run or closed-form transfer solve.

    Ws        final weights (list of L tensors).
    loss      final training loss per trial (B,): excess population loss 1/2||beta - beta_s||^2
              for ``loss="population"``, eq. (5) for ``"empirical"``.
    floor     the loss value the stopping rule measured against (0, or the least-squares
              residual when n >= d); ``excess = loss - floor``.
    steps     number of gradient steps applied, per trial (B,) int64 (0 for closed forms).
    converged (B,) bool: this stage reached its stopping criterion.
    lr        learning rate of the last step, per trial (B,) (nan for closed forms).
    alpha     initialization scale alpha of §3, carried through pipelines (None if unknown).
    upstream_converged  (B,) bool: convergence of the stage this one started from
              (pretraining for transfer); ``ok = converged & upstream_converged``.
    """

    Ws: list
    loss: torch.Tensor
    floor: torch.Tensor
    steps: torch.Tensor
    converged: torch.Tensor
    lr: torch.Tensor
    alpha: float | None = None
    upstream_converged: torch.Tensor | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.upstream_converged is None:
            self.upstream_converged = torch.ones_like(self.converged)

    @property
    def beta(self) -> torch.Tensor:
        return end_to_end(self.Ws)

    @property
    def excess(self) -> torch.Tensor:
        return self.loss - self.floor

    @property
    def ok(self) -> torch.Tensor:
        return self.converged & self.upstream_converged


def _loss_and_grad_beta(beta, loss, beta_s, X, y):
    """Loss per trial and g = dLoss/dbeta, for (4) (excess) or (5)."""
    if loss == "population":
        g = beta - beta_s
        return 0.5 * g.square().sum(-1), g
    r = _mv(X, beta) - y
    n = X.shape[-2]
    return r.square().sum(-1) / (2 * n), _mtv(X, r) / n


def _power_step(W: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """One warm-started power iteration on W^T W: returns (estimate of ||W||_op, new unit v)."""
    w = _mtv(W, _mv(W, v))
    nw = w.norm(dim=-1, keepdim=True)
    v_new = torch.where(nw > 0, w / nw.clamp_min(torch.finfo(W.dtype).tiny), v)
    return nw.squeeze(-1).sqrt(), v_new


def _curvature_masks(L: int, device) -> tuple[torch.Tensor, torch.Tensor]:
    """Index masks of :func:`_curvature_bound`: keep1[l, k] = (k != l), keep2[l, m, k] = (k != l, m)."""
    idx = torch.arange(L, device=device)
    keep1 = idx[:, None] != idx[None, :]
    keep2 = keep1[:, None, :] & keep1[None, :, :]
    return keep1, keep2


def _curvature_bound(norms: list, gnorm: torch.Tensor, lam_h: torch.Tensor, trainable: str,
                     masks: tuple | None = None) -> torch.Tensor:
    """Upper bound K on the loss Hessian's operator norm in parameter space, per trial.

    With a_k = ||W_k||_op and H = d^2 Loss/dbeta^2 (lambda_max(H) = lam_h: 1 for (4),
    lambda_max(X^T X/n) for (5)):  Gauss-Newton part <= lam_h sum_l prod_{k != l} a_k^2 (the
    squared norm bound of the Jacobian dbeta/dtheta), residual part <= ||g|| max_l
    sum_{m != l} prod_{k != l, m} a_k (block row sums of the second derivative of <g, beta>).
    For trainable="last" the loss is quadratic in W_L: K = lam_h prod_{k < L} a_k^2.
    """
    L = len(norms)
    if trainable == "last":
        return lam_h * torch.stack(norms[:-1], -1).square().prod(-1) if L >= 2 else lam_h.clone()
    if L == 1:
        return lam_h.clone()
    if L == 2:
        return lam_h * torch.hypot(norms[0], norms[1]).square() + gnorm
    a = torch.stack(norms, dim=-1)  # (B, L)
    keep1, keep2 = masks if masks is not None else _curvature_masks(L, a.device)
    excl1 = torch.where(keep1, a[:, None, :], 1.0).prod(-1)  # (B, L): prod_{k != l}
    excl2 = torch.where(keep2, a[:, None, None, :], 1.0).prod(-1) * keep1  # (B, L, L), m != l
    return lam_h * excl1.square().sum(-1) + gnorm * excl2.sum(-1).amax(-1)


def train(Ws: Sequence[torch.Tensor], loss: str = "population", *, beta_s: torch.Tensor | None = None,
          X: torch.Tensor | None = None, y: torch.Tensor | None = None, trainable: str = "all",
          lr: float | torch.Tensor | None = None, lr_scale: float = 1.0, max_move: float | None = 1e-3,
          max_steps: int = 100_000, tol: float | None = 1e-10, floor: str | float | torch.Tensor = "auto",
          gtol: float | None = None, fast_rtol: float = 1e-2, refresh: int = 10, power_iters: int = 20,
          chunk: int | None = None, alpha: float | None = None, freeze: int = 0) -> TrainResult:
    """Full-batch gradient descent (the discretisation of gradient flow (6)) on loss (4) or (5).

    Ws        initial weights (not modified).
    loss      "population": eq. (4) with x ~ N(0, I), excess 1/2||beta - beta_s||^2 (needs beta_s);
              "empirical": eq. (5), 1/(2n)||X beta - y||^2 (needs X (B, n, d), y (B, n)).
    trainable "all" (pretraining, scratch, fine-tuning) or "last" (linear transfer, eq. (11):
              W_1..W_{L-1} frozen).
    lr        a float or (B,) tensor: fixed step (the paper's protocol, App. D.1: eta = 1e-3).
              None: adaptive, per trial:  lr = min(lr_scale / K, max_move / ||grad_theta||_F),
              * K >= ||Hessian||_op is the bound of :func:`_curvature_bound`, from the spectral
                norms of the layers (a warm-started power iteration every ``refresh`` steps, the
                exact triangle-inequality bound ||W + dW|| <= ||W|| + ||dW|| in between), so
                lr * lambda_max(Hessian) <= lr_scale: stable for lr_scale < 2;
              * max_move caps the parameter displacement lr ||grad_theta|| per step.  GD leaves
                the gradient-flow path by O(lr) per unit time where gradients are large (e.g. the
                invariants (35) move by lr^2 (G_l^T G_l - G_{l+1} G_{l+1}^T) per step), and on a
                manifold of minima such deviations persist in the end state; the cap bounds them
                (measured: fine-tuning end states within ~1e-4 of fixed-eta=1e-3 GD for
                max_move=1e-3, the error scaling like max_move).  Where gradients are small (the
                slow final approach, most of the paper's 1e5 steps) the curvature bound governs.
              Everything is per trial, so a trial's trajectory does not depend on the others.
    Stopping, per trial (the trial is frozen from then on; the loop ends when all trials stopped
    or after ``max_steps``):
      * ``tol``:  loss - floor <= tol.  floor="auto" is 0 for (4) and for (5) with n < d, the
        least-squares residual for (5) with n >= d and trainable="all" (so noisy n > d runs can
        converge), 0 for trainable="last"; a number or (B,) tensor is used as given (floor=0
        with tol=1e-6 is the paper's "until the training loss reaches 1e-6").
      * ``gtol`` (optional): ||grad_fast||^2 <= gtol * loss, i.e. the loss decays slower than
        gtol per unit flow time.  For trainable="last" (a convex quadratic in W_L) the gradient
        is projected on the right singular vectors of the frozen features F = X W_1...W_{L-1}
        with singular value >= fast_rtol * sigma_1(F): directions whose gradient-flow rate is
        below fast_rtol^2 (1e-4 by default) times the top rate are declared frozen on the time
        scale of the run.  After pretraining the subleading singular values of F are
        O(alpha^{L-1} sqrt(d)) (features not aligned with beta_s), so for small alpha only the top
        direction counts; for alpha^{L-1} sqrt(d) >~ fast_rtol they count too, and GD must run
        until it has (slowly) fitted them as well.  For trainable="all" the full gradient is
        used, so do not use gtol from a small-init saddle (the gradient is O(alpha) there).
    chunk     process the trials in chunks of this size (same results; keeps the working set in
              cache for large d).
    freeze    (with trainable="all") keep the first ``freeze`` layers W_1..W_freeze fixed and train
              the others (fine-tuning with frozen first layers, Thm 5.5 of 000_efaf07e323d59f0e.txt);
              0 (default) trains every layer.  The step-size bound K of the full network is kept (a
              principal block of the Hessian has a smaller norm, so it is still stable); the floor of
              ``tol`` is 0, and ``gtol`` tests the gradient at the input of layer freeze+1,
              (W_1...W_freeze)^T g = F^T r/n with F = X W_1...W_freeze, projected on the right singular
              vectors of F with singular value >= fast_rtol * sigma_1(F) (as for "last").
    Returns a :class:`TrainResult`; ``lr`` holds the last step size of each trial.
    """
    if loss not in ("population", "empirical"):
        raise ValueError(f"loss must be 'population' or 'empirical', not {loss!r}")
    if trainable not in ("all", "last"):
        raise ValueError(f"trainable must be 'all' or 'last', not {trainable!r}")
    if freeze and (trainable != "all" or not 0 <= freeze < len(Ws)):
        raise ValueError(f"freeze={freeze} needs trainable='all' and 0 <= freeze < L={len(Ws)}")
    if loss == "population" and beta_s is None:
        raise ValueError("the population loss (4) needs beta_s")
    if loss == "empirical" and (X is None or y is None):
        raise ValueError("the empirical loss (5) needs X and y")
    kw = dict(loss=loss, trainable=trainable, lr_scale=lr_scale, max_move=max_move, max_steps=max_steps,
              tol=tol, gtol=gtol, fast_rtol=fast_rtol, refresh=refresh, power_iters=power_iters, alpha=alpha,
              freeze=freeze)
    B = Ws[0].shape[0]
    if chunk is not None and B > chunk:
        parts = []
        for i in range(0, B, chunk):
            sl = slice(i, i + chunk)
            pick = lambda t: t[sl] if isinstance(t, torch.Tensor) and t.dim() > 0 else t  # noqa: E731
            parts.append(_train(Ws=[W[sl] for W in Ws], beta_s=pick(beta_s), X=pick(X), y=pick(y),
                                lr=pick(lr), floor=pick(floor), **kw))
        return TrainResult(Ws=[torch.cat([p.Ws[l] for p in parts]) for l in range(len(Ws))],
                           **{k: torch.cat([getattr(p, k) for p in parts])
                              for k in ("loss", "floor", "steps", "converged", "lr")},
                           alpha=alpha, info=parts[0].info)
    return _train(Ws=Ws, beta_s=beta_s, X=X, y=y, lr=lr, floor=floor, **kw)


def _train(Ws, loss, beta_s, X, y, trainable, lr, lr_scale, max_move, max_steps, tol, floor, gtol,
           fast_rtol, refresh, power_iters, alpha, freeze=0) -> TrainResult:
    """The gradient-descent loop of :func:`train` (one chunk of trials)."""
    Ws = [W.clone() for W in Ws]
    L = len(Ws)
    B, d = Ws[0].shape[0], Ws[0].shape[1]
    dt, dev = Ws[0].dtype, Ws[0].device

    # lambda_max of the loss Hessian in beta: 1 for (4), lambda_max(X^T X / n) for (5)
    if loss == "population":
        lam_h = torch.ones(B, dtype=dt, device=dev)
    else:
        G = X @ X.mT if X.shape[-2] <= X.shape[-1] else X.mT @ X  # the smaller Gram matrix
        lam_h = torch.linalg.eigvalsh(G)[..., -1] / X.shape[-2]

    if isinstance(floor, str):
        if floor != "auto":
            raise ValueError("floor must be 'auto', a number or a tensor")
        if loss == "empirical" and trainable == "all" and not freeze:
            floor_t = least_squares_floor(X, y)
        else:
            floor_t = torch.zeros(B, dtype=dt, device=dev)
    else:
        floor_t = torch.as_tensor(floor, dtype=dt, device=dev).expand(B).clone()

    fast_proj = None  # fast subspace of the frozen features, for the stationarity test of "last"
    if gtol is not None and trainable == "last" and L >= 2:
        F = X @ features(Ws) if loss == "empirical" else features(Ws)
        _, S, Vh = torch.linalg.svd(F, full_matrices=False)
        keep = (S >= fast_rtol * S[..., :1]).to(dt)  # (B, k)
        fast_proj = Vh.mT * keep.unsqueeze(-2)      # (B, d, k): kept right singular vectors
    elif gtol is not None and freeze:
        P = Ws[0]
        for W in Ws[1:freeze]:
            P = P @ W
        F = X @ P if loss == "empirical" else P
        _, S, Vh = torch.linalg.svd(F, full_matrices=False)
        keep = (S >= fast_rtol * S[..., :1]).to(dt)
        fast_proj = Vh.mT * keep.unsqueeze(-2)

    fixed = lr is not None
    if fixed:
        lr_t = torch.as_tensor(lr, dtype=dt, device=dev).expand(B).clone()
    else:
        lr_t = torch.full((B,), float("nan"), dtype=dt, device=dev)
        vs, norms = [], [None] * L
        for W in Ws[:-1]:
            v = torch.linspace(1.0, 2.0, d, dtype=dt, device=dev).expand(B, d)
            v = v / v.norm(dim=-1, keepdim=True)
            for _ in range(power_iters):
                _, v = _power_step(W, v)
            vs.append(v)
    need_gn = gtol is not None or (not fixed)
    masks = _curvature_masks(L, dev)

    active = torch.ones(B, dtype=torch.bool, device=dev)
    converged = torch.zeros(B, dtype=torch.bool, device=dev)
    steps = torch.zeros(B, dtype=torch.int64, device=dev)
    max_steps = step_budget(max_steps, 100_000)  # lowered inside numerics.capped_steps (forced non-convergence)
    for k in range(max_steps + 1):
        s, beta = _suffixes(Ws)
        cur_loss, g = _loss_and_grad_beta(beta, loss, beta_s, X, y)
        a = [g]  # a_l = W_{l-1}^T ... W_1^T g ; grad_l = a_l s_l^T (s_L = 1)
        for l in range(L - 1):
            a.append(_mtv(Ws[l], a[-1]))
        if need_gn:  # ||grad_l||_F = ||a_l|| ||s_l||; ||grad_theta|| = hypot of those
            an = [v.norm(dim=-1) for v in a]
            sn = [v.norm(dim=-1) for v in s[:-1]]  # sn[L-2] = ||W_L||
            gn = [an[l] * sn[l] for l in range(L - 1)] + [an[-1]]
            gth = gn[-1]
            if trainable == "all":
                for l in range(freeze, L - 1):
                    gth = torch.hypot(gth, gn[l])
        done = (cur_loss - floor_t) <= tol if tol is not None else torch.zeros(B, dtype=torch.bool, device=dev)
        if gtol is not None:
            if fast_proj is not None:
                g2 = _mtv(fast_proj, a[freeze] if freeze else a[-1]).square().sum(-1)
            else:
                g2 = gth.square()
            done |= g2 <= gtol * cur_loss
        converged |= active & done
        active &= ~done
        n_active = int(active.sum())
        if k == max_steps or n_active == 0:
            break
        all_active = n_active == B
        if not fixed:
            if k % refresh == 0:
                for l in range(L - 1):
                    norms[l], vs[l] = _power_step(Ws[l], vs[l])
            norms[-1] = sn[-1] if L >= 2 else Ws[-1].squeeze(-1).norm(dim=-1)
            K = _curvature_bound(norms, an[0], lam_h, trainable, masks)
            new_lr = lr_scale / K.clamp_min(1e-30)
            if max_move is not None:
                new_lr = torch.minimum(new_lr, max_move / gth.clamp_min(1e-300))
            lr_t = new_lr if all_active else torch.where(active, new_lr, lr_t)
        step = lr_t if all_active else torch.where(active, lr_t, torch.zeros_like(lr_t))
        if trainable == "all":
            for l in range(freeze, L - 1):  # W_l <- W_l - lr a_l s_l^T (in place, on our clones)
                Ws[l].baddbmm_((-step).view(B, 1, 1) * a[l].unsqueeze(-1), s[l].unsqueeze(-2))
                if not fixed:
                    norms[l] = norms[l] + step * gn[l]
        Ws[-1].sub_(step.view(B, 1, 1) * a[-1].unsqueeze(-1))
        steps += active
    mode = "fixed" if fixed else f"adaptive(lr_scale={lr_scale}, max_move={max_move})"
    return TrainResult(Ws=Ws, loss=cur_loss, floor=floor_t, steps=steps, converged=converged, lr=lr_t,
                       alpha=alpha, info={"lr_mode": mode})


def loss_and_grads(Ws: Sequence[torch.Tensor], loss: str = "population", *, beta_s=None, X=None, y=None):
    """Loss per trial and the materialised gradients dLoss/dW_l (same shapes as Ws), analytic.

    grad_l = (W_{l-1}^T ... W_1^T g)(W_{l+1} ... W_L)^T with g = dLoss/dbeta.  Used by tests
    (against autograd) and diagnostics; :func:`train` never materialises them.
    """
    s, beta = _suffixes(Ws)
    val, g = _loss_and_grad_beta(beta, loss, beta_s, X, y)
    a = [g]
    for W in Ws[:-1]:
        a.append(_mtv(W, a[-1]))
    grads = [a[l].unsqueeze(-1) * s[l].unsqueeze(-2) for l in range(len(Ws) - 1)]
    return val, grads + [a[-1].unsqueeze(-1)]
