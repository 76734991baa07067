"""Least-squares solvers, batched over trials: minimum norm, ridge, gradient descent.

``min_norm_solve`` is the estimator of Theorem 3.5 / B.5 of 001_759117b8232d72ac.txt,
beta_hat = X^+ y, computed through the smaller Gram matrix and a Cholesky factorisation
(well conditioned away from n = d for Gaussian designs).
"""
from __future__ import annotations

import torch


def min_norm_solve(X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """X^+ y for a batch: X (B, n, d), y (B, n) -> (B, d).

    n < d:  X^T (X X^T)^{-1} y  (the interpolator of minimum norm);
    n >= d: (X^T X)^{-1} X^T y  (the unique least-squares solution).
    """
    B, n, d = X.shape
    if n < d:
        G = X @ X.mT
        L = torch.linalg.cholesky(G)
        a = torch.cholesky_solve(y.unsqueeze(-1), L)
        return (X.mT @ a).squeeze(-1)
    G = X.mT @ X
    L = torch.linalg.cholesky(G)
    return torch.cholesky_solve(X.mT @ y.unsqueeze(-1), L).squeeze(-1)


def ridge_solve(X: torch.Tensor, y: torch.Tensor, lam: float) -> torch.Tensor:
    """argmin 1/(2n)||y - X w||^2 + lam/2 ||w||^2 = (X^T X + n lam I)^{-1} X^T y, batched."""
    B, n, d = X.shape
    if n < d:  # push-through identity: X^T (X X^T + n lam I)^{-1} y
        G = X @ X.mT + n * lam * torch.eye(n, dtype=X.dtype, device=X.device)
        a = torch.cholesky_solve(y.unsqueeze(-1), torch.linalg.cholesky(G))
        return (X.mT @ a).squeeze(-1)
    G = X.mT @ X + n * lam * torch.eye(d, dtype=X.dtype, device=X.device)
    return torch.cholesky_solve(X.mT @ y.unsqueeze(-1), torch.linalg.cholesky(G)).squeeze(-1)


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
