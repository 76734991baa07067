"""Samplers shared by every simulation (one place for each distribution).

Conventions: a leading trial dimension ``B``; inputs x ~ N(0, I_d) (Assumption 3.1 of
001_759117b8232d72ac.txt); labels y = X beta + eps with eps ~ N(0, sigma^2).
"""
from __future__ import annotations

import math

import torch


def gaussian_design(B: int, n: int, d: int, gen: torch.Generator, *, device=None, dtype=torch.float64) -> torch.Tensor:
    """B independent n x d design matrices with i.i.d. N(0, 1) entries: shape (B, n, d)."""
    return torch.randn(B, n, d, generator=gen, device=device or gen.device, dtype=dtype)


def unit_vectors(B: int, d: int, gen: torch.Generator, *, device=None, dtype=torch.float64) -> torch.Tensor:
    """B vectors uniform on the unit sphere S^{d-1}: shape (B, d)."""
    v = torch.randn(B, d, generator=gen, device=device or gen.device, dtype=dtype)
    return v / v.norm(dim=-1, keepdim=True)


def teacher_pair(B: int, d: int, theta: float, gen: torch.Generator, *, device=None, dtype=torch.float64):
    """Unit source and target teachers with beta_s . beta_t = cos(theta) (Assumption 3.2).

    Returns ``(beta_s, beta_t, nu)`` of shape (B, d) each, with beta_t = cos(theta) beta_s
    + sin(theta) nu and nu a unit vector orthogonal to beta_s, all uniformly rotated.
    """
    if d < 2 and math.sin(theta) != 0:
        raise ValueError("an angle theta != 0 between teachers needs d >= 2")
    bs = unit_vectors(B, d, gen, device=device, dtype=dtype)
    g = torch.randn(B, d, generator=gen, device=device or gen.device, dtype=dtype)
    g = g - (g * bs).sum(-1, keepdim=True) * bs
    nu = g / g.norm(dim=-1, keepdim=True)
    bt = math.cos(theta) * bs + math.sin(theta) * nu
    return bs, bt, nu


def noisy_labels(X: torch.Tensor, beta: torch.Tensor, sigma: float, gen: torch.Generator) -> torch.Tensor:
    """y = X beta + eps, eps ~ N(0, sigma^2 I): X (B, n, d), beta (B, d) -> y (B, n)."""
    y = torch.einsum("bnd,bd->bn", X, beta)
    if sigma != 0:
        y = y + sigma * torch.randn(y.shape, generator=gen, device=y.device, dtype=y.dtype)
    return y
