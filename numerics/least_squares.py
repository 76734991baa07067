"""Least-squares solvers, batched over trials: minimum norm, ridge, gradient descent.

``min_norm_solve`` is the estimator of Theorem 3.5 / B.5 of 001_759117b8232d72ac.txt,
beta_hat = X^+ y, computed through the smaller Gram matrix (well conditioned away from n = d for Gaussian
designs).  The Gram systems are solved by LU (``torch.linalg.solve``): on the CPU builds
measured here the batched LU solve is several times faster than torch's batched Cholesky.
"""
from __future__ import annotations

from contextlib import contextmanager

import torch


@contextmanager
def _single_thread(active: bool):
    """Run a batched LAPACK call on one intra-op thread.

    torch parallelises batched solves over the batch while MKL threads inside each
    factorisation; on 2 cores with any other load this oversubscription was measured at
    15-30x slower than one thread for batches of small (<= 256) matrices.  Worse, in the
    torch 2.13.0 CPU build, once the thread count has been changed, a two-thread batched LU
    of 250 x 250 matrices failed (MKL "Parameter 6 was incorrect on entry to DLASWP", invalid
    pivots), so every batched CPU solve goes through this guard.
    """
    if not active:
        yield
        return
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def batched_solve(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.linalg.solve for a batch of (small) systems, without thread oversubscription."""
    with _single_thread(A.device.type == "cpu" and A.dim() == 3 and A.shape[0] > 1):
        return torch.linalg.solve(A, B)


def min_norm_solve(X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """X^+ y for a batch: X (B, n, d), y (B, n) -> (B, d), or y (B, n, k) -> (B, d, k).

    n < d:  X^T (X X^T)^{-1} y  (the interpolator of minimum norm);
    n >= d: (X^T X)^{-1} X^T y  (the unique least-squares solution).
    """
    B, n, d = X.shape
    vec = y.dim() == 2
    Y = y.unsqueeze(-1) if vec else y
    if n < d:
        out = X.mT @ batched_solve(X @ X.mT, Y)
    else:
        out = batched_solve(X.mT @ X, X.mT @ Y)
    return out.squeeze(-1) if vec else out


def ridge_solve(X: torch.Tensor, y: torch.Tensor, lam: float) -> torch.Tensor:
    """argmin 1/(2n)||y - X w||^2 + lam/2 ||w||^2 = (X^T X + n lam I)^{-1} X^T y, batched."""
    B, n, d = X.shape
    if n < d:  # push-through identity: X^T (X X^T + n lam I)^{-1} y
        G = X @ X.mT + n * lam * torch.eye(n, dtype=X.dtype, device=X.device)
        a = batched_solve(G, y.unsqueeze(-1))
        return (X.mT @ a).squeeze(-1)
    G = X.mT @ X + n * lam * torch.eye(d, dtype=X.dtype, device=X.device)
    return batched_solve(G, X.mT @ y.unsqueeze(-1)).squeeze(-1)


def gd_least_squares(X: torch.Tensor, y: torch.Tensor, steps: int, lr: float | None = None,
                     w0: torch.Tensor | None = None) -> torch.Tensor:
    """Full-batch gradient descent on 1/(2n)||y - X w||^2 from w0 (default 0), batched.

    From w0 = 0 the iterates stay in row(X) and converge to X^+ y (the implicit bias of
    Theorem 3.5 for depth one).  ``lr`` defaults to 1/lambda_max(X^T X / n).
    """
    B, n, d = X.shape
    w = torch.zeros(B, d, dtype=X.dtype, device=X.device) if w0 is None else w0.clone()
    if lr is None:
        lmax = torch.linalg.matrix_norm(X, ord=2) ** 2 / n
        lr = (1.0 / lmax).unsqueeze(-1)
    for _ in range(steps):
        r = torch.einsum("bnd,bd->bn", X, w) - y
        w = w - lr * torch.einsum("bnd,bn->bd", X, r) / n
    return w
