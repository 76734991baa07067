"""The finite-width NTK Gram matrix of a two-layer ReLU network under weight perturbations of bounded radius
(002 App. C, Lemma 2, quoted from Du et al. 2019, Lemma 3.2).

For first-layer weights W = (w_1, ..., w_m) and unit inputs x_1..x_n,

    H(W)_ij = (1/m) x_i . x_j sum_r 1{w_r . x_i >= 0, w_r . x_j >= 0}          (numerics.two_layer.gram_at)

Lemma 2 is a statement about *every* W with max_r ||w_r - w_r(0)|| <= R.  The supremum over that set is not
computed; per draw of W(0) we compute two admissible-set bounds, so that a draw is *certified* to satisfy or to
violate the lemma, or left undetermined:

* a lower bound: the lemma's W = W(0) itself (radius 0) and one adversarial W in the ball (every neuron with an
  active input x_i at pre-activation 0 <= w_r(0) . x_i <= R is moved by R along -x_i for the smallest such
  pre-activation, switching that activation off; the move has norm R, so W is admissible);
* an upper bound: only a neuron with |w_r(0) . x_i| <= R can change its indicator at x_i inside the ball, so
  |H(W)_ij - H(0)_ij| <= M_ij = (1/m)|x_i . x_j| #{r : |w_r(0) . x_i| <= R or |w_r(0) . x_j| <= R} for every
  admissible W, and ||H(W) - H(0)||_2 <= || |H(W) - H(0)| ||_2 <= ||M||_2 (Perron: the spectral norm is monotone
  on entrywise non-negative matrices); with Weyl, lambda_min(H(W)) >= lambda_min(H(0)) - ||M||_2.
"""
from __future__ import annotations

import math

import torch
from torch import Tensor

from . import two_layer as TL


def perturbed_gram_trials(B: int, m: int, X: Tensor, R: float, gen: torch.Generator, *, kappa: float = 1.0,
                          chunk_elems: int = 1 << 21, dtype=torch.float64) -> dict:
    """B independent draws of W(0) (m neurons, w_r(0) ~ N(0, kappa^2 I_d)) on the fixed unit inputs X (n, d), each
    with the bounds of the module docstring at radius R.  Returns (B,) tensors:

      lam_min_0    lambda_min(H(W(0)))
      lam_min_adv  lambda_min(H(W_adv)) of the adversarial admissible W
      dist_adv     ||H(W_adv) - H(W(0))||_2
      upper        ||M||_2 >= sup over the ball of ||H(W) - H(W(0))||_2
      band         fraction of pairs (r, i) with |w_r(0) . x_i| <= R
    """
    X = X.to(dtype)
    n, d = X.shape
    G = X @ X.T
    per = max(1, chunk_elems // max(1, m * max(n, d)))
    out = {k: [] for k in ("lam_min_0", "lam_min_adv", "dist_adv", "upper", "band")}
    done = 0
    with TL.one_thread():
        while done < B:
            done += _chunk(min(per, B - done), m, X, G, R, gen, kappa, dtype, out)
    return {k: torch.cat(v) for k, v in out.items()}


def _chunk(b: int, m: int, X: Tensor, G: Tensor, R: float, gen: torch.Generator, kappa: float, dtype, out: dict) -> int:
    """One chunk of b draws of :func:`perturbed_gram_trials`, appended to ``out``; returns b."""
    d = X.shape[-1]
    W0, _ = TL.init(b, m, d, gen, kappa=kappa, dtype=dtype)
    S = TL.preactivations(W0, X)                                  # (b, n, m): w_r(0) . x_i
    H0 = TL.gram_at(W0, X)
    # adversarial admissible W: switch off the smallest non-negative pre-activation within R, per neuron
    Spos = torch.where(S >= 0, S, torch.full_like(S, math.inf))
    smin, imin = Spos.min(dim=1)                                  # (b, m)
    move = (smin <= R).to(dtype)                                  # neurons that can switch one input off
    Wadv = W0 - (R * move).unsqueeze(-1) * X[imin]                # (b, m, d): w_r - R x_{i*}
    Hadv = TL.gram_at(Wadv, X)
    # entrywise bound on |H(W) - H(0)| over the ball
    A = (S.abs() <= R).to(dtype)                                  # (b, n, m)
    either = A.sum(-1).unsqueeze(-1) + A.sum(-1).unsqueeze(-2) - A @ A.mT   # #{r : A_ir or A_jr}
    M = G.abs() * either / m
    out["lam_min_0"].append(torch.linalg.eigvalsh(H0)[:, 0])
    out["lam_min_adv"].append(torch.linalg.eigvalsh(Hadv)[:, 0])
    out["dist_adv"].append(torch.linalg.matrix_norm(Hadv - H0, ord=2))
    out["upper"].append(torch.linalg.matrix_norm(M, ord=2))
    out["band"].append(A.mean((-1, -2)))
    return b
