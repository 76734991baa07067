"""Closed-form end states of fine-tuning (001 Thm 3.9 and 000 §5, eqs. (5), (6), (142)) to compare the procedures
with."""
from __future__ import annotations

import torch

from ..least_squares import min_norm_solve

from .network import _mv


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
