"""Deep linear networks of 001_759117b8232d72ac.txt §3, simulated literally, batched over trials.

The network is eq. (9), f(x) = x^T W_1 W_2 ... W_L with W_l in R^{d x d} for l < L and
W_L in R^{d x 1}; its end-to-end vector is beta = W_1 ... W_L (§3.1).  Every weight carries
a leading trial dimension B (W_l: (B, d, d), W_L: (B, d, 1)); every function works on any
device and keeps the dtype it is given (float64 by default).

Losses (both are quadratic in beta, so all layer gradients are rank one):

* population (4) with x ~ N(0, I_d):  1/2 ||beta - beta_s||^2 (+ sigma^2/2, a constant that
  does not change the gradients; we report the *excess* loss, without it);
* empirical (5):  1/(2n) ||X W_1 ... W_L - y||^2.

With g = dLoss/dbeta (g = beta - beta_s, resp. X^T (X beta - y)/n), the gradient for layer l is
the outer product (W_{l-1}^T ... W_1^T g)(W_{l+1} ... W_L)^T; it is computed analytically in
O(L d^2) per step, without forming the gradients (autograd gives the same numbers to 1e-16, see
``tests/test_deep_linear.py``, and measured 2.4-3.8x slower per step for B in {1, 20},
d in {100, 500}, L in {2, 3}).

Pipelines: :func:`pretrain` (population GD on the source, Lemma 3.3 / Thm 3.4),
:func:`scratch` (empirical GD from a fresh small init, Thm 3.5), :func:`finetune` (all layers,
Thm 3.9), :func:`linear_transfer` (GD on W_L only, eq. (11)), :func:`linear_transfer_rank_one`
(the alpha -> 0 limit of (11)), :func:`linear_transfer_exact` (min-norm solve of (11) on the
finite-alpha features), :func:`ridge_transfer` (eq. (14)/(121)).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import torch

from . import step_budget
from .least_squares import min_norm_solve, ridge_solve
from .sampling import unit_vectors

Weights = list  # list[torch.Tensor]: L tensors, (B, d, d) ... (B, d, d), (B, d, 1)


# ----------------------------------------------------------------------------- initialisation

def _haar_orthogonal(B: int, d: int, gen: torch.Generator, dtype, device) -> torch.Tensor:
    """B Haar-distributed d x d orthogonal matrices (QR of a Gaussian matrix, signs fixed)."""
    G = torch.randn(B, d, d, generator=gen, dtype=dtype, device=device)
    Q, R = torch.linalg.qr(G)
    sgn = torch.sign(torch.diagonal(R, dim1=-2, dim2=-1))
    sgn = torch.where(sgn == 0, torch.ones_like(sgn), sgn)
    return Q * sgn.unsqueeze(-2)


def balanced_margin_scales(L: int, margin: float = 1.0) -> list[float]:
    """Layer scales c_l = sqrt(1 + (L - l) margin), l = 1..L, of the ``balanced_margin`` init.

    With Wbar_l = c_l Q_l (Q_l orthogonal, l < L) and Wbar_L = c_L q (q a unit vector), the
    differences of App. A, eq. (22), are Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T = margin I
    (l < L-1) and (1 + margin) I - q q^T (l = L-1): all >= margin * I, i.e. (22) holds with
    lambda = margin.
    """
    return [(1.0 + (L - l) * margin) ** 0.5 for l in range(1, L + 1)]


def init_weights(B: int, d: int, L: int, alpha: float, gen: torch.Generator, kind: str = "balanced_margin",
                 *, margin: float = 1.0, dtype=torch.float64, device=None) -> Weights:
    """The initial weights W_l(0) = alpha * Wbar_l of §3 (below eq. (9)), for B trials.

    kind="balanced_margin": Wbar_l = c_l Q_l with Q_l Haar orthogonal and scales from
        :func:`balanced_margin_scales`; satisfies the initialization assumption (22) with
        lambda = margin (check with :func:`min_invariant_eigenvalue`).  As alpha -> 0 the
        network is balanced: D_l = alpha^2 (Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T) -> 0.
    kind="gaussian": the random-normal init of App. D.1, entries of Wbar_l i.i.d. N(0, 1/d)
        (our normalisation: ||Wbar_l||_op ~ 2 for l < L, ||Wbar_L|| ~ 1).  It does NOT satisfy
        (22) in general (W^T W - W' W'^T of two square Gaussian matrices is indefinite).
    Returns a list of L tensors, (B, d, d) for l < L and (B, d, 1) for l = L.
    """
    if L < 1:
        raise ValueError("depth L must be >= 1")
    device = device or gen.device
    if kind == "balanced_margin":
        c = balanced_margin_scales(L, margin)
        Ws = [alpha * c[l] * _haar_orthogonal(B, d, gen, dtype, device) for l in range(L - 1)]
        Ws.append(alpha * c[-1] * unit_vectors(B, d, gen, device=device, dtype=dtype).unsqueeze(-1))
        return Ws
    if kind == "gaussian":
        s = alpha / d**0.5
        Ws = [s * torch.randn(B, d, d, generator=gen, dtype=dtype, device=device) for _ in range(L - 1)]
        Ws.append(s * torch.randn(B, d, 1, generator=gen, dtype=dtype, device=device))
        return Ws
    raise ValueError(f"unknown init kind {kind!r} (use 'balanced_margin' or 'gaussian')")


# ----------------------------------------------------------------------------- forward pieces

def _mv(W: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Batched matrix-vector product W v: (B, p, q), (B, q) -> (B, p).

    Written as (v^T W^T)^T: torch 2.13's CPU ``W @ v[..., None]`` with B >= 2 took 0.30 ms per
    500 x 500 matrix against 0.05 ms for this form (B = 4, one thread; benchmarks/README.md §2);
    at B = 1 both give the same bits.
    """
    return (v.unsqueeze(-2) @ W.mT).squeeze(-2)


def _mtv(W: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Batched W^T v: (B, p, q), (B, p) -> (B, q)."""
    return (v.unsqueeze(-2) @ W).squeeze(-2)


def _suffixes(Ws: Sequence[torch.Tensor]) -> tuple[list, torch.Tensor]:
    """s_l = W_{l+1} ... W_L for l = 1..L-1 (each (B, d)) and beta = W_1 s_1 (B, d)."""
    L = len(Ws)
    s = [None] * L  # s[l-1] = s_l ; s_L = 1 is implicit
    v = Ws[-1].squeeze(-1)
    for l in range(L - 1, 0, -1):  # l = L-1 .. 1 (1-based)
        s[l - 1] = v
        v = _mv(Ws[l - 1], v)
    return s, v


def end_to_end(Ws: Sequence[torch.Tensor]) -> torch.Tensor:
    """beta = W_1 W_2 ... W_L (§3.1, f(x) = beta^T x): list of L weights -> (B, d)."""
    return _suffixes(Ws)[1]


def features(Ws: Sequence[torch.Tensor]) -> torch.Tensor:
    """Phi = W_1 ... W_{L-1} (B, d, d), the hidden features of Theorem 3.4 (needs L >= 2)."""
    if len(Ws) < 2:
        raise ValueError("the hidden features W_1...W_{L-1} need depth L >= 2")
    P = Ws[0]
    for W in Ws[1:-1]:
        P = P @ W
    return P


def risk(beta: torch.Tensor, beta_star: torch.Tensor) -> torch.Tensor:
    """Generalization error (8) for x ~ N(0, I_d): ||beta - beta_star||^2 per trial, (B,)."""
    return (beta - beta_star).square().sum(-1)


def empirical_loss(beta: torch.Tensor, X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Eq. (5) in vector form, 1/(2n) ||X beta - y||^2, per trial (B,)."""
    r = _mv(X, beta) - y
    return r.square().sum(-1) / (2 * X.shape[-2])


def least_squares_floor(X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """min_beta 1/(2n)||X beta - y||^2 per trial: 0 when n < d (interpolation), else the OLS residual."""
    B, n, d = X.shape
    if n < d:
        return torch.zeros(B, dtype=X.dtype, device=X.device)
    return empirical_loss(min_norm_solve(X, y), X, y)


# ----------------------------------------------------------------------------- diagnostics

def invariants(Ws: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """D_l = W_l^T W_l - W_{l+1} W_{l+1}^T, l = 1..L-1 (eq. (35)): conserved by gradient flow."""
    return [Ws[l].mT @ Ws[l] - Ws[l + 1] @ Ws[l + 1].mT for l in range(len(Ws) - 1)]


def min_invariant_eigenvalue(Ws: Sequence[torch.Tensor]) -> torch.Tensor:
    """lambda_min(D_l) for l = 1..L-1, shape (B, L-1).

    Applied to Wbar (= W(0)/alpha), assumption (22) holds iff every entry is >= lambda > 0.
    """
    D = invariants(Ws)
    if not D:
        return torch.zeros(Ws[0].shape[0], 0, dtype=Ws[0].dtype, device=Ws[0].device)
    return torch.stack([torch.linalg.eigvalsh(Dl)[..., 0] for Dl in D], dim=-1)


def rank_one_distance(M: torch.Tensor) -> torch.Tensor:
    """(||M||_F^2 - ||M||_op^2)/||M||_F^2 per trial: 0 iff M is rank one (cf. eq. (60))."""
    sv = torch.linalg.svdvals(M)
    f2 = sv.square().sum(-1)
    return (f2 - sv[..., 0].square()) / f2


def feature_alignment(Ws: Sequence[torch.Tensor], beta_s: torch.Tensor) -> torch.Tensor:
    """|u_1^T beta_s|/||beta_s|| with u_1 the top left singular vector of Phi = W_1...W_{L-1} (Thm 3.4)."""
    U, _, _ = torch.linalg.svd(features(Ws))
    u1 = U[..., :, 0]
    return (u1 * beta_s).sum(-1).abs() / beta_s.norm(dim=-1)


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


# ----------------------------------------------------------------------------- pipelines

def _unpack(pre, alpha):
    """(weights, alpha, upstream convergence) from a TrainResult or a plain list of weights."""
    if isinstance(pre, TrainResult):
        return pre.Ws, (pre.alpha if alpha is None else alpha), pre.ok
    return list(pre), alpha, None


def _with_upstream(res: TrainResult, up) -> TrainResult:
    if up is not None:
        res.upstream_converged = up.clone()
    return res


def pretrain(B: int, d: int, L: int, alpha: float, beta_s: torch.Tensor, gen: torch.Generator, *,
             kind: str = "balanced_margin", margin: float = 1.0, tol: float = 1e-20, **train_kw) -> TrainResult:
    """Source pretraining: GD on the population loss (4) from W(0) = alpha * Wbar (Lemma 3.3, Thm 3.4).

    beta_s (B, d).  ``tol`` bounds the final excess loss 1/2||beta - beta_s||^2 (tight by default,
    since pretraining sets the initialization of transfer).  From a small init the gradients stay
    aligned with beta_s and the invariants (35) stay O(alpha^2) even with large steps, so
    ``max_move=None`` (about 70 instead of 1450 steps) gives the same beta, features and balance;
    for L >= 3 it does change the hidden singular directions (by ~1e-2), which the default cap
    keeps on the gradient-flow path.
    """
    Ws = init_weights(B, d, L, alpha, gen, kind, margin=margin, dtype=beta_s.dtype, device=beta_s.device)
    return train(Ws, "population", beta_s=beta_s, tol=tol, alpha=alpha, **train_kw)


def scratch(X: torch.Tensor, y: torch.Tensor, L: int, alpha: float, gen: torch.Generator, *,
            kind: str = "balanced_margin", margin: float = 1.0, **train_kw) -> TrainResult:
    """Scratch training on the target data: GD on the empirical loss (5) from a fresh alpha * Wbar (Thm 3.5)."""
    B, n, d = X.shape
    Ws = init_weights(B, d, L, alpha, gen, kind, margin=margin, dtype=X.dtype, device=X.device)
    return train(Ws, "empirical", X=X, y=y, alpha=alpha, **train_kw)


def finetune(pre, X: torch.Tensor, y: torch.Tensor, *, alpha: float | None = None, **train_kw) -> TrainResult:
    """Fine-tuning (§3.4, Thm 3.9): GD on (5) over all layers from the pretrained weights.

    ``pre`` is a pretraining :class:`TrainResult` (its alpha and convergence are carried over into
    ``alpha`` and ``upstream_converged``) or a list of weights.
    """
    Ws, a, up = _unpack(pre, alpha)
    return _with_upstream(train(Ws, "empirical", X=X, y=y, alpha=a, **train_kw), up)


def linear_transfer(pre, X: torch.Tensor, y: torch.Tensor, *, alpha: float | None = None, gtol: float = 1e-20,
                    tol: float | None = None, max_move: float | None = None, **train_kw) -> TrainResult:
    """Linear transfer (§3.3, eq. (11)) as a procedure: GD on (5) over W_L only, from its pretrained value.

    The features F = X W_1...W_{L-1} are frozen.  At finite alpha F has one O(1) singular value and
    n-1 of size O(alpha^{L-1}) (features not aligned with beta_s); GD converges along the top one at
    rate O(1) and is frozen along the others on any practical time scale, so its end state is the
    alpha -> 0 solution of (11) (cf. :func:`linear_transfer_rank_one`), not the finite-alpha
    interpolator of :func:`linear_transfer_exact`.  Stops by the relative stationarity test
    ``gtol`` on the fast subspace (see :func:`train`); the problem is convex in W_L, so no
    displacement cap is needed (max_move=None).
    """
    Ws, a, up = _unpack(pre, alpha)
    res = train(Ws, "empirical", X=X, y=y, trainable="last", alpha=a, gtol=gtol, tol=tol, max_move=max_move,
                **train_kw)
    return _with_upstream(res, up)


def _closed_form_result(Ws: list, WL: torch.Tensor, X, y, alpha, up) -> TrainResult:
    Ws = list(Ws[:-1]) + [WL.unsqueeze(-1)]
    B = WL.shape[0]
    res = TrainResult(Ws=Ws, loss=empirical_loss(end_to_end(Ws), X, y), floor=torch.zeros_like(WL[:, 0]),
                      steps=torch.zeros(B, dtype=torch.int64, device=WL.device),
                      converged=torch.ones(B, dtype=torch.bool, device=WL.device),
                      lr=torch.full_like(WL[:, 0], float("nan")), alpha=alpha, info={"lr_mode": "closed form"})
    return _with_upstream(res, up)


def linear_transfer_rank_one(pre, X: torch.Tensor, y: torch.Tensor, *, alpha: float | None = None) -> TrainResult:
    """The alpha -> 0 limit of eq. (11): min-norm least squares on the rank-one truncation of F.

    F = X W_1...W_{L-1} = sum_i sigma_i u_i v_i^T (n x d); W_L = F_1^+ y = v_1 (u_1^T y)/sigma_1.
    With the pretrained Phi -> beta_s v^T (Thm 3.4) this is eqs. (104)-(108) of App. B.6.
    """
    Ws, a, up = _unpack(pre, alpha)
    F = X @ features(Ws)
    U, S, Vh = torch.linalg.svd(F, full_matrices=False)
    WL = Vh[:, 0, :] * ((U[:, :, 0] * y).sum(-1) / S[:, 0]).unsqueeze(-1)
    return _closed_form_result(Ws, WL, X, y, a, up)


def linear_transfer_exact(pre, X: torch.Tensor, y: torch.Tensor, *, alpha: float | None = None) -> TrainResult:
    """Eq. (11) solved exactly on the finite-alpha features: W_L = F^+ y (min-norm least squares).

    For n < d, F has n nonzero singular values (n-1 of them O(alpha^{L-1})), so this interpolates
    the target data: it is NOT the alpha -> 0 limit the theorem uses.  Ill-conditioned as alpha -> 0
    (Cholesky of F F^T); meant for moderate alpha, to exhibit that difference.
    """
    Ws, a, up = _unpack(pre, alpha)
    WL = min_norm_solve(X @ features(Ws), y)
    return _closed_form_result(Ws, WL, X, y, a, up)


def ridge_transfer(pre, X: torch.Tensor, y: torch.Tensor, lam: float, *, alpha: float | None = None) -> TrainResult:
    """Ridge linear transfer, eq. (14), solved as in eq. (121): W_L = (F^T F + n lam I)^{-1} F^T y.

    F = X W_1...W_{L-1}; well defined for lam > 0 at any alpha.
    """
    if lam <= 0:
        raise ValueError("ridge transfer needs lam > 0 (use linear_transfer_rank_one for lam = 0)")
    Ws, a, up = _unpack(pre, alpha)
    WL = ridge_solve(X @ features(Ws), y, lam)
    return _closed_form_result(Ws, WL, X, y, a, up)


# ----------------------------------------------------------------------------- closed-form end states

def row_space_split(X: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(P_row(X) v, (I - P_row(X)) v) for X (B, n, d), v (B, d); P_row(X) v = X^+ X v."""
    p = min_norm_solve(X, _mv(X, v)) if X.shape[-2] < X.shape[-1] else v
    return p, v - p


def finetune_end_state_stated(X: torch.Tensor, y: torch.Tensor, beta_s: torch.Tensor) -> torch.Tensor:
    """Eq. (142) of App. B.8, as stated: beta_ft = X^+ y + (I - P_row(X)) beta_s."""
    return min_norm_solve(X, y) + row_space_split(X, beta_s)[1]


def finetune_end_state_balanced(X: torch.Tensor, y: torch.Tensor, beta_s: torch.Tensor, L: int) -> torch.Tensor:
    """Our derived alpha -> 0 end state of fine-tuning all layers (to compare with eq. (142)).

    After balanced pretraining from alpha -> 0 every layer is rank one with singular value
    s0 = ||beta_s||^{1/L} and W_1 = s0 (beta_s/||beta_s||) u_2^T.  During fine-tuning
    (I - P_row(X)) W_1 is frozen (the gradient of W_1 has columns in row(X), eq. (82)) and the
    network stays balanced and rank one (invariants (35) are O(alpha^2)), with common singular
    value s.  Hence beta_ft = X^+ y + (s/s0)^{L-1} (I - P) beta_s where s solves
    s^{2L} - c^2 s^{2L-2} = ||X^+ y||^2, c = ||(I - P) beta_s|| / s0^{L-1}
    (:func:`derivations.deep_linear.finetune_scale`).  For ||beta_s|| = 1 (Assumption 3.2):
    beta_ft = X^+ y + s^{L-1} (I - P) beta_s, and eq. (142) is the special case s = 1.
    """
    from derivations.deep_linear import finetune_scale

    b = min_norm_solve(X, y)
    perp = row_space_split(X, beta_s)[1]
    s0 = beta_s.norm(dim=-1) ** (1.0 / L)
    c = perp.norm(dim=-1) / s0 ** (L - 1)
    sc = finetune_scale(b.square().sum(-1), c.square(), L)
    return b + ((sc / s0) ** (L - 1)).unsqueeze(-1) * perp


# ----------------------------------------------------------------------------- 000 §5 (Shachaf et al.)
# Additions for 000_efaf07e323d59f0e.txt §5: an exactly 0-balanced initialization, the balancedness
# error of Definition 5.1, fine-tuning with frozen first layers (Thm 5.5), and the end states (5), (6).
# The paper's loss is 1/n ||X beta - y||^2, ours 1/(2n) ||.||^2: a constant rescaling of time, so the
# gradient-flow end states are the same.

def init_balanced_rank_one(B: int, d: int, L: int, scale: float, gen: torch.Generator, *,
                           dtype=torch.float64, device=None) -> Weights:
    """Exactly 0-balanced weights (Definition 5.1, eq. (4)): W_l = scale u_l u_{l+1}^T (l < L),
    W_L = scale u_L, u_l independent uniform unit vectors; then W_l^T W_l = scale^2 u_{l+1} u_{l+1}^T =
    W_{l+1} W_{l+1}^T exactly.  (With d_L = 1 every 0-balanced network is of this rank-one form.)"""
    device = device or gen.device
    us = [unit_vectors(B, d, gen, device=device, dtype=dtype) for _ in range(L)]
    Ws = [scale * us[l].unsqueeze(-1) * us[l + 1].unsqueeze(-2) for l in range(L - 1)]
    Ws.append(scale * us[-1].unsqueeze(-1))
    return Ws


def balancedness_error(Ws: Sequence[torch.Tensor]) -> torch.Tensor:
    """max_l ||W_l^T W_l - W_{l+1} W_{l+1}^T||_F per trial (B,): 0 iff 0-balanced (eq. (4));
    the delta of delta-approximate balancedness (Arora et al. [32]) up to the norm used."""
    D = invariants(Ws)
    if not D:
        return torch.zeros(Ws[0].shape[0], dtype=Ws[0].dtype, device=Ws[0].device)
    return torch.stack([Dl.flatten(1).norm(dim=-1) for Dl in D], -1).amax(-1)


def pretrain_from(Ws: Sequence[torch.Tensor], beta_s: torch.Tensor, *, tol: float = 1e-20, **train_kw) -> TrainResult:
    """Perfect pretraining (Assumption 3.2 of 000) from given weights: GD on the population loss
    1/2||beta - beta_s||^2 (x ~ N(0, I)) until the excess is <= tol."""
    return train(Ws, "population", beta_s=beta_s, tol=tol, **train_kw)


def finetune_frozen(pre, X: torch.Tensor, y: torch.Tensor, k: int, *, alpha: float | None = None,
                    gtol: float = 1e-20, tol: float | None = None, **train_kw) -> TrainResult:
    """Fine-tuning with the first k layers frozen (Thm 5.5 of 000): GD on (5) over W_{k+1}..W_L.

    The model cannot interpolate in general (it is c <x, theta_S> for exactly balanced pretrained
    weights), so the stopping rule is the relative stationarity test ``gtol`` on the fast subspace of
    F = X W_1...W_k (see :func:`train`, ``freeze``)."""
    Ws, a, up = _unpack(pre, alpha)
    res = train(Ws, "empirical", X=X, y=y, alpha=a, gtol=gtol, tol=tol, freeze=k, **train_kw)
    return _with_upstream(res, up)


def end_state_eq5(X: torch.Tensor, y: torch.Tensor, theta_S: torch.Tensor, L: int) -> torch.Tensor:
    """Eq. (5) of 000, solved: beta = X^+ y + k P_perp theta_S, k = (||beta||/||theta_S||)^{(L-1)/L}.

    X^+ y = P_par theta_T for noiseless labels y = X theta_T (the paper's setting); with noisy labels
    X^+ y is the natural reading (extension).  k = x^{(L-1)/2} with x the unique positive root of
    ||theta_S||^2 x^L - ||P_perp theta_S||^2 x^{L-1} - ||X^+ y||^2
    (derivations.deep_linear.shachaf_eq5_scalar_polynomial).  For n >= d (P_perp = 0) it is X^+ y."""
    from derivations.deep_linear import shachaf_eq5_k

    b = min_norm_solve(X, y)
    perp = row_space_split(X, theta_S)[1]
    k = shachaf_eq5_k(perp.square().sum(-1), b.square().sum(-1), theta_S.square().sum(-1), L)
    return b + k.unsqueeze(-1) * perp


def end_state_eq6(X: torch.Tensor, y: torch.Tensor, theta_S: torch.Tensor) -> torch.Tensor:
    """Eq. (6) of 000: beta = X^+ y + (||X^+ y|| / ||P_par theta_S||) P_perp theta_S (X^+ y = P_par theta_T)."""
    b = min_norm_solve(X, y)
    par, perp = row_space_split(X, theta_S)
    k = b.norm(dim=-1) / par.norm(dim=-1)
    return b + k.unsqueeze(-1) * perp


def end_state_eq142(X: torch.Tensor, y: torch.Tensor, theta_S: torch.Tensor) -> torch.Tensor:
    """001's eq. (142) (same as :func:`finetune_end_state_stated`), named for side-by-side use."""
    return finetune_end_state_stated(X, y, theta_S)
