"""Linear transfer of a pretrained deep linear network: sample a target task, retrain the
last layer on the frozen pretrained features, return per-trial population risks.

Source: 001_759117b8232d72ac.txt, §3.3 (eq. (11)), §3.3.1 (eq. (14)), App. B.6-B.7.

Reduced path.  The features are taken at the end state of pretraining in the alpha -> 0
limit given by Theorem 3.4: W_1 ... W_{L-1} = beta_s v^T, so Phi = X W_1 ... W_{L-1} =
(X beta_s) v^T (eqs. (104), (122)), with v a (uniformly random) unit vector; the scale of v
cancels from the end-to-end predictor.  The last layer is then solved literally:
minimum-norm least squares on Phi (eq. (11) with the minimum-norm choice) through a generic
pseudo-inverse, or ridge (eq. (14)/(121)) through :func:`numerics.least_squares.ridge_solve`.
That this end state is what gradient descent on the deep network reaches is a separate
claim (Theorem 3.4), simulated with :mod:`numerics.deep_linear`; results here must be
read together with that cross-check.

Trials are batched along a leading dimension B; everything runs on the generator's device.
"""
from __future__ import annotations

import math

import torch

from .deep_linear import risk  # one population risk ||beta - beta_t||^2 for the whole package
from .least_squares import ridge_solve
from .sampling import gaussian_design, noisy_labels, teacher_pair, unit_vectors
from .scratch import min_norm_solve_syrk


def target_task(B: int, n: int, d: int, theta: float, sigma: float, gen: torch.Generator,
                dtype=torch.float64) -> dict:
    """Source/target teachers at angle theta (Assumption 3.2) and a target data set of n noisy samples
    (Assumption 3.1): keys beta_s, beta_t (B, d), X (B, n, d), y (B, n)."""
    beta_s, beta_t, _ = teacher_pair(B, d, theta, gen, dtype=dtype)
    X = gaussian_design(B, n, d, gen, dtype=dtype)
    return {"beta_s": beta_s, "beta_t": beta_t, "X": X, "y": noisy_labels(X, beta_t, sigma, gen)}


def pretrained_direction(B: int, d: int, gen: torch.Generator, dtype=torch.float64) -> torch.Tensor:
    """The right factor v of the pretrained hidden map W_1 ... W_{L-1} = beta_s v^T (Theorem 3.4): (B, d)."""
    return unit_vectors(B, d, gen, dtype=dtype)


def rank_one_features(X: torch.Tensor, beta_s: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Phi = X W_1 ... W_{L-1} = (X beta_s) v^T, eqs. (104)/(122): (B, n, d)."""
    z = torch.einsum("bnd,bd->bn", X, beta_s)
    return z.unsqueeze(-1) * v.unsqueeze(-2)


def min_norm_last_layer(Phi: torch.Tensor, y: torch.Tensor, rtol: float = 1e-10) -> torch.Tensor:
    """W_L = Phi^+ y, the minimum-norm solution of eq. (11), for features of any rank.

    Computed through the pseudo-inverse of the smaller Gram matrix (symmetric eigendecomposition):
    Phi^+ = Phi^T (Phi Phi^T)^+ (n < d) or (Phi^T Phi)^+ Phi^T (n >= d); Gram eigenvalues below
    ``rtol`` times the largest are treated as zero (round-off of a rank-deficient Phi is ~1e-16).
    ``numerics.least_squares.min_norm_solve`` factorises the Gram matrix and needs full rank, which
    the rank-one Phi of linear transfer does not have; a plain SVD pseudo-inverse of Phi gives the
    same numbers (tests/test_transfer_forms.py) but is 2-100x slower on batched rank-one inputs.
    """
    B, n, d = Phi.shape
    Y = y.unsqueeze(-1)
    if n < d:
        out = Phi.mT @ (torch.linalg.pinv(Phi @ Phi.mT, rtol=rtol, hermitian=True) @ Y)
    else:
        out = torch.linalg.pinv(Phi.mT @ Phi, rtol=rtol, hermitian=True) @ (Phi.mT @ Y)
    return out.squeeze(-1)


def min_norm_last_layer_rank_one(z: torch.Tensor, v: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Phi^+ y for Phi = z v^T, by the exact pseudo-inverse of a rank-one matrix,
    Phi^+ = v z^T / (||z||^2 ||v||^2) (cf. eq. (104)); cross-checked against
    :func:`min_norm_last_layer` in tests/test_transfer_forms.py.  O(n d) instead of an SVD.
    y (B, n) -> (B, d);  y (B, n, k) -> (B, d, k)."""
    scale = (z * z).sum(-1) * (v * v).sum(-1)
    if y.dim() == 3:
        coef = torch.einsum("bn,bnk->bk", z, y) / scale.unsqueeze(-1)
        return v.unsqueeze(-1) * coef.unsqueeze(1)
    return ((z * y).sum(-1) / scale).unsqueeze(-1) * v


def ridge_last_layer(Phi: torch.Tensor, y: torch.Tensor, lam: float) -> torch.Tensor:
    """W_L = (Phi^T Phi + n lambda I)^{-1} Phi^T y, eq. (121); lambda = 0 is the minimum-norm solution."""
    if lam == 0:
        return min_norm_last_layer(Phi, y)
    return ridge_solve(Phi, y, lam)


def transferred_predictor(beta_s: torch.Tensor, v: torch.Tensor, W_L: torch.Tensor) -> torch.Tensor:
    """beta_hat = W_1 ... W_{L-1} W_L = beta_s (v^T W_L), eqs. (105)/(124): (B, d)."""
    return beta_s * (v * W_L).sum(-1, keepdim=True)


def linear_transfer_risk(B: int, n: int, d: int, theta: float, sigma: float, gen: torch.Generator,
                         lam=0.0, dtype=torch.float64) -> torch.Tensor:
    """Per-trial risk of (ridge) linear transfer on rank-one pretrained features: sample the
    target task, build Phi, solve the last layer (pseudo-inverse for lam = 0, ridge otherwise).

    ``lam`` may be a float (result (B,)) or a list of k values solved on the same draws (result (B, k)).
    """
    task = target_task(B, n, d, theta, sigma, gen, dtype)
    v = pretrained_direction(B, d, gen, dtype)
    Phi = rank_one_features(task["X"], task["beta_s"], v)
    lams = list(lam) if isinstance(lam, (list, tuple)) else [lam]
    risks = [risk(transferred_predictor(task["beta_s"], v, ridge_last_layer(Phi, task["y"], float(L))),
                             task["beta_t"]) for L in lams]
    return torch.stack(risks, -1) if isinstance(lam, (list, tuple)) else risks[0]


def scratch_and_transfer_risks(B: int, n: int, d: int, theta, sigma: float, gen: torch.Generator,
                               dtype=torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """(R_sc, R_lt) per trial on the SAME target data: scratch = X^+ y (Theorem 3.5),
    transfer = minimum-norm last layer on the rank-one features (exact rank-one pseudo-inverse).

    ``theta`` may be a float (results of shape (B,)) or a list of k angles simulated on common
    draws of (beta_s, nu, X, eps) (results of shape (B, k)); the Gram system of the scratch fit
    is solved once for all k right-hand sides (a large design by syrk and LAPACK one at a time,
    :func:`numerics.scratch.min_norm_solve_syrk`).
    """
    many = isinstance(theta, (list, tuple))
    thetas = list(theta) if many else [theta]
    beta_s, _, nu = teacher_pair(B, d, 0.0, gen, dtype=dtype)
    X = gaussian_design(B, n, d, gen, dtype=dtype)
    eps = sigma * torch.randn(B, n, generator=gen, device=X.device, dtype=dtype) if sigma != 0 else None
    cos = torch.tensor([math.cos(t) for t in thetas], dtype=dtype, device=X.device)
    sin = torch.tensor([math.sin(t) for t in thetas], dtype=dtype, device=X.device)
    beta_t = cos[None, :, None] * beta_s[:, None, :] + sin[None, :, None] * nu[:, None, :]   # (B, k, d)
    Y = torch.einsum("bnd,bkd->bnk", X, beta_t)
    if eps is not None:
        Y = Y + eps.unsqueeze(-1)
    r_sc = (min_norm_solve_syrk(X, Y).mT - beta_t).square().sum(-1)                           # (B, k)
    v = pretrained_direction(B, d, gen, dtype)
    W_L = min_norm_last_layer_rank_one(torch.einsum("bnd,bd->bn", X, beta_s), v, Y)                 # (B, d, k)
    beta_lt = (v.unsqueeze(-1) * W_L).sum(1).unsqueeze(-1) * beta_s.unsqueeze(1)                      # beta_s (v^T W_L)
    r_lt = (beta_lt - beta_t).square().sum(-1)
    return (r_sc, r_lt) if many else (r_sc[:, 0], r_lt[:, 0])


# ----------------------------------------------------------------------------- estimators used by the claims
# (numerics signature convention: trial count B, model parameters, generator, keyword-only device/dtype)

def transferability_trials(B: int, n: int, d: int, theta, sigma: float, gen: torch.Generator, *,
                           dtype=torch.float64) -> torch.Tensor:
    """Per trial R_sc - R_lt on the SAME target data (:func:`scratch_and_transfer_risks`): (B,), or (B, k)
    for a list of k angles on common draws.  Its mean is the exact finite-size transferability
    ``derivations.transfer.transferability_finite`` (E R_sc(n, d) - E R_lt(n)), whose n = gamma d -> inf
    limit is eq. (13)."""
    r_sc, r_lt = scratch_and_transfer_risks(B, n, d, theta, sigma, gen, dtype)
    return r_sc - r_lt


def literal_transfer_distance(B: int, n: int, d: int, L: int, alpha: float, theta: float, sigma: float,
                              lam: float, gen: torch.Generator, *, dtype=torch.float64) -> tuple[torch.Tensor,
                                                                                                   torch.Tensor]:
    """The reduced path of this module against literal training of the deep network, draw by draw.

    Literal: sample the target task (:func:`target_task`), pretrain W_1..W_L by gradient descent on the
    population loss from alpha * Wbar (:func:`numerics.deep_linear.pretrain`), then train the last layer on
    the target data: by gradient descent on (5) over W_L (lam = 0, eq. (11),
    :func:`numerics.deep_linear.linear_transfer`) or by the ridge solve (121) on the finite-alpha features
    (lam > 0, :func:`numerics.deep_linear.ridge_transfer`).  Reduced: beta_hat = b beta_s with
    b = z.y/(||z||^2 + n lam), z = X beta_s, the rank-one end state (Theorem 3.4) that
    :func:`linear_transfer_risk` simulates.

    Returns ``(||beta_literal - beta_reduced||^2, steps)``, each (B,): the distance is O(alpha^2) (0 in the
    alpha -> 0 limit the theorem takes); ``steps`` are the gradient steps of the last-layer stage.
    Raises :class:`numerics.NotConverged` if a literal run did not reach its stopping criterion.
    """
    from . import NotConverged
    from . import deep_linear as DL

    task = target_task(B, n, d, theta, sigma, gen, dtype)
    pre = DL.pretrain(B, d, L, alpha, task["beta_s"], gen)
    X, y, bs = task["X"], task["y"], task["beta_s"]
    res = DL.linear_transfer(pre, X, y) if lam == 0 else DL.ridge_transfer(pre, X, y, lam)
    if not bool(res.ok.all()):
        raise NotConverged(f"{int((~res.ok).sum())} of {B} literal runs (pretraining, then the last layer) did "
                           f"not converge; final loss up to {float(res.loss.max()):.3g}")
    z = (X @ bs.unsqueeze(-1)).squeeze(-1)
    b = (z * y).sum(-1) / (z.square().sum(-1) + n * lam)
    return (res.beta - b.unsqueeze(-1) * bs).square().sum(-1), res.steps
