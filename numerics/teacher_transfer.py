"""Teachers at an angle and transfer from pretrained deep linear features: coupling costs between teacher laws,
scratch versus rank-one and exact transfer, the statistics of pretrained layers, out-of-span fractions.

Procedures for the running-text, caption and rate claims of 001_759117b8232d72ac.txt.

Everything is batched over a leading trial dimension B, seeded by a torch.Generator and runs on
the generator's device in the given dtype (float64 by default).  The deep linear pieces reuse
:mod:`numerics.deep_linear` (gradient descent on the actual network), the transfer pieces
:mod:`numerics.least_squares` and :mod:`numerics.transfer`, the ReLU pieces
:mod:`numerics.relu` and :mod:`derivations.kernels`.
"""
from __future__ import annotations

import math
from typing import Sequence

import torch

from derivations import kernels as kn

from . import deep_linear as DL
from .least_squares import min_norm_solve
from .sampling import gaussian_design, unit_vectors


# ----------------------------------------------------------------------------- teachers, tasks

def target_around(beta_s: torch.Tensor, theta: float, gen: torch.Generator) -> torch.Tensor:
    """A unit target beta_t = cos(theta) beta_s + sin(theta) nu with nu uniform on the unit sphere of
    beta_s^perp (Assumption 3.2 for a *given* unit beta_s): (B, d) -> (B, d)."""
    B, d = beta_s.shape
    g = torch.randn(B, d, generator=gen, device=beta_s.device, dtype=beta_s.dtype)
    g = g - (g * beta_s).sum(-1, keepdim=True) * beta_s
    nu = g / g.norm(dim=-1, keepdim=True)
    return math.cos(theta) * beta_s + math.sin(theta) * nu


def coupling_cost_trials(B: int, d: int, theta: float, gen: torch.Generator, *, dtype=torch.float64) -> torch.Tensor:
    """Per trial |x^T (beta_s - beta_t)| for one x ~ N(0, I_d) and unit teachers at angle theta -> (B,).

    This is the transport cost of the coupling of p_s(x, y) and p_t(x, y) that shares x and the label
    noise, so its mean sqrt(2/pi) ||beta_s - beta_t|| = 2 sqrt(2/pi) sin(theta/2)
    (:func:`derivations.linear_teachers.w1_upper`) bounds W1(p_s, p_t) from above."""
    bs = unit_vectors(B, d, gen, dtype=dtype)
    bt = target_around(bs, theta, gen)
    x = torch.randn(B, d, generator=gen, device=gen.device, dtype=dtype)
    return (x * (bs - bt)).sum(-1).abs()


def scratch_transfer_common(B: int, n: int, d: int, thetas: Sequence[float], sigmas: Sequence[float],
                            gen: torch.Generator, *, dtype=torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """(R_sc, R_lt) per trial on common random numbers for every (theta, sigma): shapes (B, k, m).

    One draw per trial of beta_s, nu (unit, nu perp beta_s), X (n x d), a unit-variance noise e; for
    each theta, sigma: beta_t = cos beta_s + sin nu, y = X beta_t + sigma e.  Scratch: X^+ y (Thm 3.5);
    linear transfer: the rank-one features Phi = (X beta_s) v^T of Thm 3.4, whose minimum-norm last
    layer gives beta_hat = (z^T y/||z||^2) beta_s, z = X beta_s (eqs. (104)-(108); the direction v
    cancels).  Their means are eq. (95) (finite form of (10)) and eq. (12)."""
    bs = unit_vectors(B, d, gen, dtype=dtype)
    g = torch.randn(B, d, generator=gen, device=gen.device, dtype=dtype)
    g = g - (g * bs).sum(-1, keepdim=True) * bs
    nu = g / g.norm(dim=-1, keepdim=True)
    X = gaussian_design(B, n, d, gen, dtype=dtype)
    e = torch.randn(B, n, generator=gen, device=gen.device, dtype=dtype)
    th = torch.tensor(list(thetas), dtype=dtype, device=X.device)
    sg = torch.tensor(list(sigmas), dtype=dtype, device=X.device)
    bt = torch.cos(th)[None, :, None] * bs[:, None, :] + torch.sin(th)[None, :, None] * nu[:, None, :]  # (B,k,d)
    Xbt = torch.einsum("bnd,bkd->bkn", X, bt)
    Y = Xbt[:, :, None, :] + sg[None, None, :, None] * e[:, None, None, :]                            # (B,k,m,n)
    k, m = len(thetas), len(sigmas)
    Yf = Y.reshape(B, k * m, n).mT                                                                     # (B,n,km)
    beta_sc = min_norm_solve(X, Yf).mT.reshape(B, k, m, d)
    r_sc = (beta_sc - bt[:, :, None, :]).square().sum(-1)
    z = torch.einsum("bnd,bd->bn", X, bs)
    b = torch.einsum("bn,bkmn->bkm", z, Y) / z.square().sum(-1)[:, None, None]
    r_lt = (b[..., None] * bs[:, None, None, :] - bt[:, :, None, :]).square().sum(-1)
    return r_sc, r_lt


def rank_one_transfer_risk(B: int, n: int, d: int, theta: float, sigma: float, gen: torch.Generator, *,
                           dtype=torch.float64) -> torch.Tensor:
    """Per trial the risk of linear transfer on the rank-one pretrained features (Thm 3.4), (B,).

    Unit beta_s, beta_t at angle theta, X (n x d) Gaussian, y = X beta_t + sigma eps; the minimum-norm
    last layer on Phi = (X beta_s) v^T gives beta_hat = (z^T y/||z||^2) beta_s, z = X beta_s (eqs.
    (104)-(108); the exact rank-one pseudo-inverse, pinned to a generic pseudo-inverse in
    tests/test_tahir_text.py).  Its mean is eq. (12)."""
    bs = unit_vectors(B, d, gen, dtype=dtype)
    bt = target_around(bs, theta, gen)
    X = gaussian_design(B, n, d, gen, dtype=dtype)
    y = torch.einsum("bnd,bd->bn", X, bt)
    if sigma:
        y = y + sigma * torch.randn(B, n, generator=gen, device=X.device, dtype=dtype)
    z = torch.einsum("bnd,bd->bn", X, bs)
    b = (z * y).sum(-1) / z.square().sum(-1)
    return (b.unsqueeze(-1) * bs - bt).square().sum(-1)


# ----------------------------------------------------------------------------- pretrained layers

def layer_statistics(Ws: Sequence[torch.Tensor]) -> dict[str, torch.Tensor]:
    """Per trial and layer l = 1..L-1 (shape (B, L-1)) of pretrained weights:

    * ``rem_sq``   ||W_l||_F^2 - ||W_l||_op^2 (the squared norm of W_l - s_l u_l v_l^T, eq. (60));
    * ``rem``      its square root, ||W_l - s_l u_l v_l^T||_F (the remainder of eq. (50));
    * ``s_top``    the top singular value s_l;
    * ``misalign`` 1 - (v_l^T u_{l+1})^2, with v_l the top right singular vector of W_l and u_{l+1}
      the top left singular vector of W_{l+1} (W_L / ||W_L|| for l = L-1), cf. eqs. (51), (69);
    * ``bound60``  the right side of (60) divided by alpha^2 is computed by the caller from Wbar.
    """
    L = len(Ws)
    rem_sq, s_top, mis = [], [], []
    for l in range(L - 1):
        U, S, Vh = torch.linalg.svd(Ws[l])
        rem_sq.append((S[:, 1:] ** 2).sum(-1))
        s_top.append(S[:, 0])
        v = Vh[:, 0, :]
        if l + 1 < L - 1:
            u_next = torch.linalg.svd(Ws[l + 1])[0][:, :, 0]
        else:
            w = Ws[l + 1].squeeze(-1)
            u_next = w / w.norm(dim=-1, keepdim=True)
        c = (v * u_next).sum(-1)
        mis.append((1 - c * c).clamp_min(0))
    rs = torch.stack(rem_sq, -1)
    return {"rem_sq": rs, "rem": rs.clamp_min(0).sqrt(), "s_top": torch.stack(s_top, -1),
            "misalign": torch.stack(mis, -1)}


def eq60_constant(Wbar: Sequence[torch.Tensor]) -> torch.Tensor:
    """The constant of eq. (60) per trial and layer l < L, (B, L-1):
    ||Wbar_l||_F^2 - ||Wbar_L||_F^2 + ||Wbar_l||_op^2 - ||Wbar_L||_op^2 (so that (60) reads
    ||W_l||_F^2 - ||W_l||_op^2 <= alpha^2 * constant)."""
    wL = Wbar[-1].squeeze(-1).square().sum(-1)  # ||Wbar_L||_F^2 = ||Wbar_L||_op^2 for a vector
    out = []
    for W in Wbar[:-1]:
        S = torch.linalg.svdvals(W)
        out.append(S.square().sum(-1) - wL + S[:, 0].square() - wL)
    return torch.stack(out, -1)


def pretrain_with_init(B: int, d: int, L: int, alpha: float, gen: torch.Generator, *, dtype=torch.float64,
                       **train_kw) -> tuple[torch.Tensor, list, "DL.TrainResult"]:
    """(beta_s, Wbar, pretraining result): beta_s uniform on the sphere, W(0) = alpha Wbar with the
    balanced-margin Wbar of :func:`numerics.deep_linear.init_weights` (assumption (22), lambda = 1),
    then gradient descent on the population loss (4) (:func:`numerics.deep_linear.train`).

    The draws do not depend on alpha: with the same generator state, every alpha gets the same
    beta_s and Wbar (common random numbers for log-log slopes in alpha)."""
    bs = unit_vectors(B, d, gen, dtype=dtype)
    Wbar = DL.init_weights(B, d, L, 1.0, gen, dtype=dtype, device=bs.device)
    res = DL.train([alpha * W for W in Wbar], "population", beta_s=bs, tol=1e-20, alpha=alpha, **train_kw)
    return bs, Wbar, res


def exact_solve_transfer(pre: "DL.TrainResult", beta_s: torch.Tensor, n: int, theta: float, sigma: float,
                         gen: torch.Generator, lam: float = 0.0) -> dict[str, torch.Tensor]:
    """The last layer solved *exactly* on the features pretrained at finite alpha, per trial (B,).

    A target task around the given beta_s (angle theta, n Gaussian inputs, noise sigma); then
    lam = 0: W_L = F^+ y, the minimum-norm solution of (11) on F = X W_1...W_{L-1}
    (:func:`numerics.deep_linear.linear_transfer_exact`); lam > 0: the ridge solve (121)
    (:func:`numerics.deep_linear.ridge_transfer`).  Returned: ``risk`` ||beta_hat - beta_t||^2,
    ``train_loss`` eq. (5) at the solution, ``dist_sc`` ||beta_hat - X^+ y||^2, ``risk_rank_one``
    the risk of the alpha -> 0 end state b beta_s, b = z^T y/(||z||^2 + n lam) (eqs. (108), (126)),
    and ``dist_rank_one`` ||beta_hat - b beta_s||^2."""
    B, d = beta_s.shape
    bt = target_around(beta_s, theta, gen)
    X = gaussian_design(B, n, d, gen, dtype=beta_s.dtype)
    y = torch.einsum("bnd,bd->bn", X, bt)
    if sigma:
        y = y + sigma * torch.randn(B, n, generator=gen, device=X.device, dtype=X.dtype)
    res = DL.linear_transfer_exact(pre, X, y) if lam == 0 else DL.ridge_transfer(pre, X, y, lam)
    beta = res.beta
    z = torch.einsum("bnd,bd->bn", X, beta_s)
    b = (z * y).sum(-1) / (z.square().sum(-1) + n * lam)
    one = b.unsqueeze(-1) * beta_s
    return {"risk": DL.risk(beta, bt), "train_loss": DL.empirical_loss(beta, X, y),
            "dist_sc": (beta - min_norm_solve(X, y)).square().sum(-1), "risk_rank_one": DL.risk(one, bt),
            "dist_rank_one": (beta - one).square().sum(-1)}


# ----------------------------------------------------------------------------- ReLU, Sec. 4

def out_of_span_fraction_trials(B: int, d: int, m_star: int, mu: float, gen: torch.Generator, *,
                                c_law: str = "normal", dtype=torch.float64) -> torch.Tensor:
    """Per trial ||P_perp f_t*||^2 / ||f_t*||^2 of Sec. 4 / Fig. 4(d) -> (B,).

    Each trial draws a teacher (20) (m* weights on S^{d-1}, c* ~ N(0, 1), as
    :func:`numerics.relu.teacher_network`), ablates a uniformly random subset A of mu m* neurons (19),
    and projects f_t* onto span{relu(w*_i^T x): i not in A}, the feature space of the source f_s*
    (``c_law="ones"``: c* = 1 instead, positive output weights; the source does not say how c* is drawn)
    (the pretrained kernel equals the source kernel, Fig. 4(a)-(b)).  The norms are (158)-(159),
    batched here (:func:`derivations.kernels.kernel_matrices`); ``tests/test_tahir_text.py`` pins this
    to :func:`derivations.kernels.projection_norms_stated` instance by instance."""
    k = round(mu * m_star)
    if abs(k - mu * m_star) > 1e-9 or k >= m_star:
        raise ValueError(f"mu m* = {mu * m_star} must be an integer below m* = {m_star}")
    dev = gen.device
    Ws = torch.randn(B, m_star, d, generator=gen, device=dev, dtype=dtype)
    Ws = Ws / Ws.norm(dim=-1, keepdim=True)
    cs = torch.randn(B, m_star, generator=gen, device=dev, dtype=dtype)
    if c_law == "ones":
        cs = torch.ones_like(cs)
    elif c_law != "normal":
        raise ValueError(f"c_law must be 'normal' or 'ones', not {c_law!r}")
    keep = torch.sort(torch.argsort(torch.rand(B, m_star, generator=gen, device=dev), dim=-1)[:, k:], dim=-1).values
    W = torch.gather(Ws, 1, keep.unsqueeze(-1).expand(B, m_star - k, d))
    return out_of_span_fraction(W, Ws, cs)


def out_of_span_fraction(W: torch.Tensor, Ws: torch.Tensor, cs: torch.Tensor) -> torch.Tensor:
    """||P_perp f_*||^2/||f_*||^2 by (158)-(159) for batched W (B, m, d), Ws (B, m*, d), cs (B, m*)."""
    K, Ks, Kt = kn.kernel_matrices(W, Ws)
    ms = Ws.shape[-2]
    f2 = torch.einsum("bi,bij,bj->b", cs, Ks, cs) / ms
    v = torch.einsum("bij,bj->bi", Kt, cs)
    p2 = (v * torch.linalg.solve(K, v.unsqueeze(-1)).squeeze(-1)).sum(-1) / ms
    return (f2 - p2) / f2
