"""Monte Carlo estimators of Hermite coefficients, dual activations and infinite-width kernels (torch),
the third view of the objects of :mod:`derivations.hermite` and :mod:`derivations.kernels`.

Every estimator is batched over B independent trials, takes a ``torch.Generator`` and returns one value per
trial (shape (B,)); its docstring names the closed form it estimates.
"""
from __future__ import annotations

import math

import torch

from .sampling import standard_normal, teacher_pair

SQRT2 = math.sqrt(2.0)

#: the activations of derivations.hermite.ACTIVATIONS as torch functions (gelu exact: x Phi(x))
ACTIVATIONS = {
    "relu": torch.relu,
    "abs": torch.abs,
    "step": lambda t: (t > 0).to(t.dtype),
    "erf": torch.erf,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "gelu": lambda t: t * (1 + torch.erf(t / SQRT2)) / 2,
    "softplus": torch.nn.functional.softplus,
}


def act(name: str):
    if name not in ACTIVATIONS:
        raise ValueError(f"unknown activation {name!r}; known: {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[name]


def hermite_normalized(k: int, t: torch.Tensor) -> torch.Tensor:
    """h_k(t) = He_k(t)/sqrt(k!) elementwise, by h_{j+1} = (t h_j - sqrt(j) h_{j-1}) / sqrt(j+1)."""
    h0, h1 = torch.ones_like(t), t
    if k == 0:
        return h0
    for j in range(1, k):
        h0, h1 = h1, (t * h1 - math.sqrt(j) * h0) / math.sqrt(j + 1)
    return h1


def coefficient_trials(B: int, name: str, k: int, inner: int, gen: torch.Generator, *, scale: float = 1.0,
                       dtype=torch.float64) -> torch.Tensor:
    """Per trial the mean of act(scale g) h_k(g) over ``inner`` draws g ~ N(0, 1) -> (B,).
    Its expectation is c_k = E[act(scale g) h_k(g)] (derivations.hermite.coefficient)."""
    g = standard_normal((B, inner), gen, dtype=dtype)
    return (act(name)(scale * g) * hermite_normalized(k, g)).mean(-1)


def second_moment_trials(B: int, name: str, inner: int, gen: torch.Generator, *, scale: float = 1.0,
                         dtype=torch.float64) -> torch.Tensor:
    """Per trial the mean of act(scale g)^2 over ``inner`` draws: estimates E[act(scale g)^2] (Parseval)."""
    g = standard_normal((B, inner), gen, dtype=dtype)
    return (act(name)(scale * g) ** 2).mean(-1)


def dual_trials(B: int, name_a: str, name_b: str, rho: float, d: int, inner: int, gen: torch.Generator, *,
                dtype=torch.float64) -> torch.Tensor:
    """Per trial: a fresh pair of unit vectors u, v in R^d with <u, v> = rho (uniformly rotated), and the
    mean of act_a(<u, x>) act_b(<v, x>) over ``inner`` draws x ~ N(0, I_d) -> (B,).  Its expectation is the
    dual activation sum_k c_k(act_a) c_k(act_b) rho^k (derivations.hermite.dual_series)."""
    u, v, _ = teacher_pair(B, d, math.acos(max(-1.0, min(1.0, rho))), gen, dtype=dtype)
    X = standard_normal((B, inner, d), gen, dtype=dtype)
    za = torch.einsum("bnd,bd->bn", X, u)
    zb = torch.einsum("bnd,bd->bn", X, v)
    return (act(name_a)(za) * act(name_b)(zb)).mean(-1)


def arccos_kernel_trials(B: int, degree: int, cos: float, d: int, m: int, gen: torch.Generator, *,
                         dtype=torch.float64) -> torch.Tensor:
    """Per trial: unit inputs x, y in R^d at cosine ``cos`` and m random weights w ~ N(0, I_d); the mean over
    the weights of sigma_n(w.x) sigma_n(w.y), sigma_n(t) = t^n 1{t > 0} -> (B,).  Its expectation is the
    arc-cosine kernel k_n(cos) of derivations.kernels.arccos_kernel (the width-m random-features kernel)."""
    x, y, _ = teacher_pair(B, d, math.acos(max(-1.0, min(1.0, cos))), gen, dtype=dtype)
    W = standard_normal((B, m, d), gen, dtype=dtype)
    zx = torch.einsum("bmd,bd->bm", W, x)
    zy = torch.einsum("bmd,bd->bm", W, y)
    sx = (zx > 0).to(dtype) * (zx ** degree if degree else 1.0)
    sy = (zy > 0).to(dtype) * (zy ** degree if degree else 1.0)
    return (sx * sy).mean(-1)


def ntk_entry_trials(B: int, cos: float, d: int, m: int, gen: torch.Generator, *, dtype=torch.float64) -> torch.Tensor:
    """Per trial the finite-width NTK entry (1/m) sum_r x.y 1{w_r.x >= 0, w_r.y >= 0} of a two-layer ReLU net
    (w_r ~ N(0, I_d)) at unit inputs with x.y = ``cos`` -> (B,); expectation H^inf(cos) = cos (pi - arccos cos)/(2 pi)
    (derivations.kernels.NTK_RELU_STATED)."""
    x, y, _ = teacher_pair(B, d, math.acos(max(-1.0, min(1.0, cos))), gen, dtype=dtype)
    W = standard_normal((B, m, d), gen, dtype=dtype)
    zx = torch.einsum("bmd,bd->bm", W, x)
    zy = torch.einsum("bmd,bd->bm", W, y)
    return cos * ((zx >= 0) & (zy >= 0)).to(dtype).mean(-1)
