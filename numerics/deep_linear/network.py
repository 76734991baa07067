"""The deep linear network (9) itself, batched over trials: initialisations, the forward pieces (end-to-end vector,
features, losses) and diagnostics of the weights (invariants (35), rank-one distance, alignment)."""
from __future__ import annotations

from typing import Sequence

import torch

from ..least_squares import min_norm_solve
from ..sampling import unit_vectors


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


# ----------------------------------------------------------------------------- 000 §5 (Shachaf et al.)
# An exactly 0-balanced initialization and the balancedness error of Definition 5.1.
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
