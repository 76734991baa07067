"""Monte Carlo for two-layer ReLU features (App. C and Sec. 4 of 001_759117b8232d72ac.txt).

Inputs x ~ N(0, I_d) come from :func:`numerics.sampling.gaussian_design`, weights on the
sphere from :func:`numerics.sampling.unit_vectors` / :func:`numerics.sampling.teacher_pair`,
and least squares from :func:`numerics.least_squares.min_norm_solve`.  Every function is
batched over a leading trial dimension B and returns one float per trial.
"""
from __future__ import annotations

import math

import torch

from .least_squares import min_norm_solve
from .sampling import gaussian_design, teacher_pair, unit_vectors


def relu_features(X: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """relu(X W^T): X (..., N, d), W (..., m, d) or (m, d) -> (..., N, m)."""
    return torch.relu(X @ W.mT)


# ----------------------------------------------------------------------------- (152)-(153)
def overlap_trials(B: int, d: int, u: float, inner: int, gen: torch.Generator, *, r_i: float = 1.0,
                   r_j: float = 1.0, dtype=torch.float64) -> torch.Tensor:
    """Per trial: a fresh random pair (w_i, w_j) with w_i.w_j / (|w_i||w_j|) = u and norms r_i, r_j,
    and the mean of relu(w_i^T x) relu(w_j^T x) over ``inner`` draws x ~ N(0, I_d) -> (B,).
    Its expectation is <relu(w_i^T x), relu(w_j^T x)>_{L2(p)} of (152)."""
    wi, wj, _ = teacher_pair(B, d, math.acos(max(-1.0, min(1.0, u))), gen, dtype=dtype)
    X = gaussian_design(B, inner, d, gen, dtype=dtype)
    a = torch.relu(torch.einsum("bnd,bd->bn", X, r_i * wi))
    b = torch.relu(torch.einsum("bnd,bd->bn", X, r_j * wj))
    return (a * b).mean(-1)


# ----------------------------------------------------------------------------- networks of Sec. 4
def teacher_network(d: int, m_star: int, gen: torch.Generator, *, dtype=torch.float64):
    """Teacher (146)/(20): m* hidden weights on S^{d-1} and output weights c* ~ N(0, 1)."""
    Ws = unit_vectors(m_star, d, gen, dtype=dtype)
    cs = torch.randn(m_star, generator=gen, device=gen.device, dtype=dtype)
    return Ws, cs


def ablated_features(Ws: torch.Tensor, mu: float, gen: torch.Generator) -> torch.Tensor:
    """Source features of the ablated setting (19): remove a uniformly random subset A of
    mu m* teacher neurons; returns W*_{A^c} ((1 - mu) m* rows)."""
    m_star = Ws.shape[0]
    k = round(mu * m_star)
    if abs(k - mu * m_star) > 1e-9:
        raise ValueError(f"mu m* = {mu * m_star} must be an integer")
    perm = torch.randperm(m_star, generator=gen, device=gen.device)
    keep = torch.sort(perm[k:]).values
    return Ws[keep]


def teacher_values(X: torch.Tensor, Ws: torch.Tensor, cs: torch.Tensor) -> torch.Tensor:
    """f_*(x) = (1/m*) sum_j c*_j relu(w*_j^T x) of (146): X (..., N, d) -> (..., N)."""
    return relu_features(X, Ws) @ cs / Ws.shape[0]


# ----------------------------------------------------------------------------- L2(p) projection
def regression_projection_trials(B: int, N: int, W: torch.Tensor, Ws: torch.Tensor, cs: torch.Tensor,
                                 gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Least-squares regression of f_* on the m features relu(w_i^T x) over N sampled x, per trial.

    Returns ((1/N)|fitted|^2, (1/N)|residual|^2), each (B,): the empirical L2(p_N) projection
    onto span{relu(w_i^T x)} and its complement.  As N -> oo they tend to ||P f_*||^2 and
    ||P_perp f_*||^2 (the population projection); at finite N they carry O(1/N) biases."""
    X = gaussian_design(B, N, W.shape[-1], gen, dtype=W.dtype)
    Phi = relu_features(X, W)
    fx = teacher_values(X, Ws, cs)
    coef = min_norm_solve(Phi, fx)
    fitted = torch.einsum("bnm,bm->bn", Phi, coef)
    return (fitted ** 2).mean(-1), ((fx - fitted) ** 2).mean(-1)


# ----------------------------------------------------------------------------- Mercer (157)
def eigenfunction_values(X: torch.Tensor, W: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
    """psi_l(x) = sum_i A[l, i] relu(w_i^T x) for every l: X (..., N, d) -> (..., N, m)."""
    return relu_features(X, W) @ A.mT


def eigenfunction_norm_trials(B: int, inner: int, W: torch.Tensor, a_l: torch.Tensor,
                              gen: torch.Generator) -> torch.Tensor:
    """Per trial the mean of psi(x)^2 over ``inner`` draws x ~ N(0, I): estimates ||psi||^2_{L2(p)};
    psi(x) = a_l . relu(W x)."""
    X = gaussian_design(B, inner, W.shape[-1], gen, dtype=W.dtype)
    return ((relu_features(X, W) @ a_l) ** 2).mean(-1)


def kernel_operator_trials(B: int, inner: int, W: torch.Tensor, a_l: torch.Tensor, x0: torch.Tensor,
                           gen: torch.Generator) -> torch.Tensor:
    """Per trial the mean over ``inner`` draws x' ~ N(0, I) of k(x0, x') psi(x'), with the model
    kernel k(x, x') = (1/m) sum_i relu(w_i^T x) relu(w_i^T x') of Sec. 4: estimates (T_k psi)(x0)
    of (149)."""
    m = W.shape[-2]
    X = gaussian_design(B, inner, W.shape[-1], gen, dtype=W.dtype)
    F = relu_features(X, W)                      # (B, inner, m)
    k = F @ torch.relu(W @ x0) / m               # (B, inner)
    return (k * (F @ a_l)).mean(-1)


# ----------------------------------------------------------------------------- random instances of App. C
def projection_instance(d: int, m: int, m_star: int, ablated: bool, mu: float, gen: torch.Generator, *,
                        device=None, dtype=torch.float64):
    """Weights of one projection instance (App. C, (146), (154)-(159); Sec. 4, (19)-(20)):
    the teacher (W* (m*, d) on S^{d-1}, c* (m*,) ~ N(0, 1)) of :func:`teacher_network`, and the model
    features W: independent on the sphere ((m, d), ``ablated`` false) or the teacher's outside a
    uniformly random subset A of size mu m* ((1 - mu) m* rows, :func:`ablated_features`).
    Drawn on the generator's device in that order, then moved to ``device`` (default: stay).
    Returns (W, W*, c*)."""
    Ws, cs = teacher_network(d, m_star, gen, dtype=dtype)
    W = ablated_features(Ws, mu, gen) if ablated else unit_vectors(m, d, gen, dtype=dtype)
    return tuple(t if device is None else t.to(device) for t in (W, Ws, cs))


def target_norm_trials(B: int, inner: int, Ws: torch.Tensor, cs: torch.Tensor, gen: torch.Generator, *,
                       device=None, dtype=None) -> torch.Tensor:
    """Per trial the mean of f_*(x)^2 over ``inner`` draws x ~ N(0, I_d) -> (B,): estimates
    ||f_*||^2_{L2(p)} = (1/m*) c*^T K* c*, the first term of (159)
    (:func:`derivations.kernels.projection_norms_stated`); f_* of (146) with W* (m*, d), c* (m*,).
    ``device`` defaults to the generator's, ``dtype`` to W*'s."""
    X = gaussian_design(B, inner, Ws.shape[-1], gen, device=device, dtype=dtype or Ws.dtype)
    return (teacher_values(X, Ws, cs) ** 2).mean(-1)


def mercer_instance(d: int, m: int, gen: torch.Generator, *, device=None, dtype=torch.float64):
    """One instance of the Mercer check of (157): model features W (m, d) uniform on S^{d-1} and an
    evaluation point x0 (d,) ~ N(0, I_d), drawn in that order on ``device`` (default: the generator's)."""
    device = device or gen.device
    W = unit_vectors(m, d, gen, device=device, dtype=dtype)
    x0 = torch.randn(d, generator=gen, device=device, dtype=dtype)
    return W, x0
