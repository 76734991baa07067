"""Scratch training on the target task: sample a Gaussian design and noisy labels of a
unit teacher, fit by minimum-norm least squares (the end state of gradient flow from
small initialization, Theorem 3.5 of 001_759117b8232d72ac.txt), return the population
risk ||beta_hat - beta_t||^2 of every trial (eq. (8) with x ~ N(0, I_d)).
"""
from __future__ import annotations

import torch

from .least_squares import gd_least_squares, min_norm_solve
from .sampling import gaussian_design, noisy_labels, unit_vectors


def scratch_data(trials: int, n: int, d: int, sigma: float, gen: torch.Generator, dtype=torch.float64):
    """(X, y, beta_t) for ``trials`` independent target data sets."""
    beta = unit_vectors(trials, d, gen, dtype=dtype)
    X = gaussian_design(trials, n, d, gen, dtype=dtype)
    return X, noisy_labels(X, beta, sigma, gen), beta


def min_norm_risk(trials: int, n: int, d: int, sigma, gen: torch.Generator, dtype=torch.float64) -> torch.Tensor:
    """Per-trial risk ||X^+ y - beta_t||^2 of the minimum-norm least-squares fit.

    ``sigma`` may be one value (returns shape (trials,)) or a sequence (returns
    (trials, len(sigma))): the labels y_k = X beta + sigma_k eps then share X, beta and
    eps, and since X^+ is linear, X^+ y_k = X^+ X beta + sigma_k X^+ eps is the exact
    min-norm fit of each y_k from one solve with two right-hand sides.
    """
    sigmas = torch.as_tensor(sigma if isinstance(sigma, (list, tuple)) else [sigma], dtype=dtype, device=gen.device)
    beta = unit_vectors(trials, d, gen, dtype=dtype)
    X = gaussian_design(trials, n, d, gen, dtype=dtype)
    eps = torch.randn(trials, n, generator=gen, dtype=dtype, device=X.device)
    rhs = torch.stack([torch.einsum("bnd,bd->bn", X, beta), eps], dim=-1)  # (B, n, 2)
    sol = min_norm_solve(X, rhs)  # (B, d, 2)
    w = sol[..., :1] + sol[..., 1:] * sigmas.to(X.device)  # (B, d, k)
    r = (w - beta.unsqueeze(-1)).square().sum(-2)
    return r if isinstance(sigma, (list, tuple)) else r[:, 0]


def gd_vs_min_norm(trials: int, n: int, d: int, sigma: float, gen: torch.Generator, steps: int = 20000):
    """Max distance between gradient descent from zero and X^+ y, and the two risks.

    The literal procedure (full-batch gradient descent on the empirical loss from zero
    initialization) and the closed-form end state are compared on the same draws.
    """
    X, y, beta = scratch_data(trials, n, d, sigma, gen)
    w_mn = min_norm_solve(X, y)
    w_gd = gd_least_squares(X, y, steps)
    return {"max_distance": float((w_gd - w_mn).norm(dim=-1).max()),
            "risk_gd": (w_gd - beta).square().sum(-1), "risk_min_norm": (w_mn - beta).square().sum(-1)}
