"""Fine-tuning linear regression from the source weights (§4 of 000_efaf07e323d59f0e.txt), batched.

Inputs x ~ N(0, Sigma) with Sigma = diag(lambda) (the eigenbasis V can be taken to be the identity:
a Gaussian design is rotation invariant, so every statement of §4 is invariant under x -> V x,
theta -> V theta).  Labels y = X theta_T (the paper's noiseless linear teacher).

* :func:`gd_finetune`: the literal procedure of Thm 4.1, full-batch gradient descent on
  L(w) = 1/n ||X w - y||^2 from w(0) = theta_S, until the training loss has dropped by ``rtol``.
* :func:`end_state_eq1`, :func:`risk_eq2`: the closed forms (1), (2) evaluated on a draw (fast path of
  the figure; tested draw by draw against :func:`gd_finetune` in tests/test_shachaf_linear.py and in
  the claim shachaf2021.thm4.1).
* :func:`bound3`, :func:`c_star`, :func:`covariance_deviation`: the pieces of Thm 4.2.
"""
from __future__ import annotations

import torch

from numerics import NotConverged
from .least_squares import min_norm_solve
from .sampling import standard_normal


def two_level_spectrum(d: int, m: int, top: float, bottom: float, *, dtype=torch.float64, device=None) -> torch.Tensor:
    """Eigenvalues of Figure 1: the first m equal to ``top``, the other d - m to ``bottom`` (d,)."""
    lam = torch.full((d,), float(bottom), dtype=dtype, device=device)
    lam[:m] = float(top)
    return lam


def power_spectrum(d: int, p: float, *, dtype=torch.float64, device=None) -> torch.Tensor:
    """lambda_i = i^{-p}, i = 1..d (a decaying anisotropic spectrum)."""
    return torch.arange(1, d + 1, dtype=dtype, device=device) ** (-float(p))


def design(B: int, n: int, lam: torch.Tensor, gen: torch.Generator, *, dtype=torch.float64) -> torch.Tensor:
    """B designs with rows i.i.d. N(0, diag(lam)): (B, n, d)."""
    Z = standard_normal((B, n, lam.shape[0]), gen, device=lam.device, dtype=dtype)
    return Z * lam.sqrt()


def gd_finetune(X: torch.Tensor, y: torch.Tensor, theta_S: torch.Tensor, *, rtol: float = 1e-20,
                max_steps: int = 100_000, raise_on_fail: bool = True) -> tuple[torch.Tensor, dict]:
    """Gradient descent on L(w) = 1/n ||X w - y||^2 from w(0) = theta_S (Thm 4.1's fine-tuning).

    X (B, n, d), y (B, n), theta_S (B, d) -> w (B, d) after convergence, and a dict with the final
    relative loss, steps and a convergence flag per trial.  Step size per trial
    eta = 2/(mu_max + mu_min), mu the extreme nonzero eigenvalues of the Hessian 2 X^T X / n (the
    optimal constant step of GD; the loss contracts by ((k-1)/(k+1))^2 per step, k = mu_max/mu_min).
    A trial stops when L(w) <= rtol * L(theta_S).  Trials that stopped are dropped from the batch
    (every trial is independent, so this changes no number, only the cost).  Raises
    :class:`NotConverged` if some trial did not stop within ``max_steps`` (unless ``raise_on_fail=False``).
    """
    from numerics import step_budget

    max_steps = step_budget(max_steps, max_steps)  # lowered inside numerics.capped_steps (forced non-convergence)
    B, n, d = X.shape
    G = X @ X.mT if n <= d else X.mT @ X
    ev = torch.linalg.eigvalsh(G) * (2.0 / n)
    eta = (2.0 / (ev[..., -1] + ev[..., 0])).unsqueeze(-1)
    w = theta_S.clone()
    loss0 = (X @ w.unsqueeze(-1)).squeeze(-1).sub(y).square().sum(-1) / n
    loss_out = loss0.clone()
    steps = torch.zeros(B, dtype=torch.int64, device=X.device)
    idx = torch.arange(B, device=X.device)          # trials still running
    Xa, ya, wa, ea, l0 = X, y, w.clone(), eta, loss0
    for k in range(max_steps + 1):
        r = (Xa @ wa.unsqueeze(-1)).squeeze(-1) - ya
        loss = r.square().sum(-1) / n
        done = loss <= rtol * l0
        if bool(done.any()) or k == max_steps:
            w[idx[done]] = wa[done]
            loss_out[idx[done]] = loss[done]
            keep = ~done
            if k == max_steps or not bool(keep.any()):
                w[idx[keep]] = wa[keep]
                loss_out[idx[keep]] = loss[keep]
                break
            idx, Xa, ya, wa, ea, l0, r = idx[keep], Xa[keep], ya[keep], wa[keep], ea[keep], l0[keep], r[keep]
        wa = wa - ea * (2.0 / n) * (r.unsqueeze(-2) @ Xa).squeeze(-2)
        steps[idx] += 1
    rel = loss_out / loss0.clamp_min(1e-300)
    conv = rel <= rtol
    info = {"rel_loss": rel, "steps": steps, "converged": conv}
    if raise_on_fail and not bool(conv.all()):
        raise NotConverged(f"{int((~conv).sum())} of {B} GD runs above rel. loss {rtol:g} after {max_steps} steps "
                           f"(max rel. loss {float(rel.max()):.3g})")
    return w, info


def end_state_eq1(X: torch.Tensor, theta_S: torch.Tensor, theta_T: torch.Tensor) -> torch.Tensor:
    """Eq. (1): P_perp theta_S + P_par theta_T = theta_S + X^+ X (theta_T - theta_S), (B, d)."""
    v = theta_T - theta_S
    return theta_S + min_norm_solve(X, torch.einsum("bnd,bd->bn", X, v))


def perp_part(X: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """P_perp v = v - X^+ X v for X (B, n, d), v (B, d)."""
    return v - min_norm_solve(X, torch.einsum("bnd,bd->bn", X, v))


def risk(w: torch.Tensor, theta_T: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    """Population risk R(w) = (w - theta_T)^T diag(lam) (w - theta_T), (B,)."""
    return ((w - theta_T).square() * lam).sum(-1)


def risk_eq2(X: torch.Tensor, theta_S: torch.Tensor, theta_T: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    """Eq. (2): ||Sigma^{1/2} P_perp (theta_T - theta_S)||^2 per draw, (B,)."""
    return (perp_part(X, theta_T - theta_S).square() * lam).sum(-1)


def covariance_deviation(X: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    """||Sigma_tilde - Sigma|| (spectral norm) with Sigma_tilde = X^T X / n, per draw (B,)."""
    n = X.shape[-2]
    D = X.mT @ X / n - torch.diag_embed(lam).expand(X.shape[0], -1, -1)
    ev = torch.linalg.eigvalsh(D)
    return torch.maximum(ev[..., -1], -ev[..., 0])


def split_norms(v: torch.Tensor, m: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(||P_<=m v||^2, ||P_>m v||^2) in the eigenbasis (the identity), (B,) each."""
    return v[..., :m].square().sum(-1), v[..., m:].square().sum(-1)


def g_function(c: float, lam: torch.Tensor, delta: float, n: int) -> float:
    """g(lambda, delta, n) of Thm 4.2 for the constant c."""
    l1, tr = float(lam[0]), float(lam.sum())
    return c * l1 * max((tr / (n * l1)) ** 0.5, tr / (n * l1), (delta / n) ** 0.5, delta / n)


def bound3(g: torch.Tensor | float, lam_m: float, top2: torch.Tensor, bot2: torch.Tensor) -> torch.Tensor:
    """Eq. (3) for a given g: 2 g^3 ||P_<=m v||^2 / lambda_m^2 + 2 g ||P_>m v||^2, (B,)."""
    return 2 * g**3 * top2 / lam_m**2 + 2 * g * bot2


def c_star(R: torch.Tensor, g1: float, lam: torch.Tensor, v: torch.Tensor, ms) -> torch.Tensor:
    """Smallest constant c for which (3) holds on each draw for every m in ``ms``, (B,).

    With g = c g1 (g1 = g at c = 1) the bound is A c^3 + C c with A = 2 g1^3 ||P_<=m v||^2/lambda_m^2,
    C = 2 g1 ||P_>m v||^2, increasing in c; its root at the risk R is Cardano's (one real root,
    p = C/A > 0): c = u - p/(3u), u = cbrt(q/2 + sqrt(q^2/4 + p^3/27)), q = R/A (c = R/C when A = 0).
    The bound must hold for every m, so c* = max over m of the roots.
    """
    out = torch.zeros_like(R)
    for m in ms:
        top2, bot2 = split_norms(v, m)
        A = 2 * g1**3 * top2 / float(lam[m - 1]) ** 2
        C = 2 * g1 * bot2
        Asafe = A.clamp_min(1e-300)
        p, q = C / Asafe, R / Asafe
        u = (q / 2 + (q.square() / 4 + p**3 / 27).sqrt()).pow(1.0 / 3)
        root = u - p / (3 * u)
        # where p^3 >> q^2 Cardano cancels: use the linear root refined by one Newton step
        lin = R / C.clamp_min(1e-300)
        lin = lin - (A * lin**3 + C * lin - R) / (3 * A * lin**2 + C).clamp_min(1e-300)
        root = torch.where((A <= 0) | (p**3 > 1e12 * q.square()), lin, root)
        out = torch.maximum(out, root)
    return out
