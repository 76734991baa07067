"""The procedures of §3 built on :func:`.training.train` and the closed-form solves: pretraining, scratch training,
fine-tuning, linear transfer (GD, the alpha -> 0 limit, the exact min-norm solve) and ridge transfer."""
from __future__ import annotations

from typing import Sequence

import torch

from ..least_squares import min_norm_solve, ridge_solve

from .network import empirical_loss, end_to_end, features, init_weights
from .training import TrainResult, train


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


# ----------------------------------------------------------------------------- 000 §5 (Shachaf et al.)
# Pretraining from given weights and fine-tuning with frozen first layers (Thm 5.5).
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
