"""Monte Carlo of the label-shift model of Theorem 2.2 of 001_759117b8232d72ac.txt
(Tahir, Ganguli, Rotskoff, Sec. 2.1 and App. B.1): the estimators behind the closed forms
of :mod:`derivations.divergences`.

Model (Assumption 2.1): x ~ N(0, I_d), y = f(x) + eps, eps ~ N(0, sigma^2), with linear
features f(x) = a^T x, g(x) = b^T x, |a| = s_f, |b| = s_g, so p_f(x, y) = p(x) N(y; a^T x, sigma^2).
Each trial draws its own (a, b) (uniformly rotated; every estimated quantity depends on a, b
only through s_f, s_g and a.b) and averages ``inner`` draws (x, y).

===============================  ===================================================
estimator (returns (B,))         closed form it estimates (derivations.divergences)
===============================  ===================================================
:func:`kl_log_ratio_trials`      ``KL_LINEAR``: D_KL(p_f || p_g) of (31)-(34)
:func:`cos_witness_trials`       ``COS_WITNESS_SIGNED``: E_{p_f} h - E_{p_cf} h, h = cos(y)/2 (26)-(27)
:func:`abs_y_witness_trials`     ``W1_LOWER_ABS_Y``: E_{p_g}|y| - E_{p_f}|y| (footnote 4)
:func:`l1_distance_trials`       ``L1_MULTIPLE`` (= ``L1_LINEAR`` at r = |1-c| s_f): ||p_f - p_cf||_1
===============================  ===================================================

Conventions (as in :mod:`numerics.relu`): the trial count ``B`` first, then the model
parameters (plain numbers), then the generator, then keyword-only ``device`` / ``dtype``.
"""
from __future__ import annotations

import math

import torch

from .sampling import gaussian_design, noisy_labels, teacher_pair, unit_vectors


def linear(X: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
    """Feature values a^T x per trial: X (B, n, d), a (B, d) -> (B, n)."""
    return torch.einsum("bnd,bd->bn", X, a)


def linear_pair(B: int, d: int, s_f: float, s_g: float, cos_theta: float, gen: torch.Generator, *,
                device=None, dtype=torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """Weights (a, b) of f = a^T x, g = b^T x, each (B, d): |a| = s_f, |b| = s_g,
    a.b = s_f s_g cos_theta, uniformly rotated.  In d = 1 only cos_theta = +-1 exists."""
    ct = max(-1.0, min(1.0, float(cos_theta)))
    if d == 1:  # teacher_pair's orthogonal direction would be 0/0 here
        if abs(ct) != 1.0:
            raise ValueError(f"cos_theta={cos_theta}: an angle with |cos_theta| < 1 between a and b needs d >= 2")
        a1 = unit_vectors(B, 1, gen, device=device, dtype=dtype)
        return s_f * a1, s_g * ct * a1
    a1, b1, _ = teacher_pair(B, d, math.acos(ct), gen, device=device, dtype=dtype)
    return s_f * a1, s_g * b1


def kl_log_ratio_trials(B: int, d: int, s_f: float, s_g: float, cos_theta: float, sigma: float, inner: int,
                        gen: torch.Generator, *, device=None, dtype=torch.float64) -> torch.Tensor:
    """Per trial: the mean over ``inner`` draws (x, y) ~ p_f of log p_f(x, y) - log p_g(x, y)
    (p(x) cancels) -> (B,): the literal Monte Carlo of D_KL(p_f || p_g) = E_{p_f}[log p_f - log p_g],
    whose expectation is ``KL_LINEAR`` = (s_f^2 + s_g^2 - 2 s_f s_g cos_theta)/(2 sigma^2), eq. (34).
    Needs sigma > 0 (the densities)."""
    a, b = linear_pair(B, d, s_f, s_g, cos_theta, gen, device=device, dtype=dtype)
    X = gaussian_design(B, inner, d, gen, device=device, dtype=dtype)
    y = noisy_labels(X, a, sigma, gen)
    s2 = sigma ** 2
    log_pf = -(y - linear(X, a)) ** 2 / (2 * s2)
    log_pg = -(y - linear(X, b)) ** 2 / (2 * s2)
    return (log_pf - log_pg).mean(-1)


def coupled_labels(B: int, d: int, s_f: float, sigma: float, inner: int, gen: torch.Generator, *,
                   c: float | None = None, s_g: float | None = None, device=None,
                   dtype=torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """Synchronous coupling of p_f and p_g: the same (x, eps) for both, y_f = a^T x + eps and
    y_g = b^T x + eps, |a| = s_f, and b = c a (``c`` given) or |b| = s_g in an independent uniform
    direction (``s_g`` given).  Returns (y_f, y_g), each (B, inner); each marginal is exactly p_f
    resp. p_g, so E[h(y_f) - h(y_g)] = E_{p_f} h - E_{p_g} h for any h of y."""
    if (c is None) == (s_g is None):
        raise ValueError("coupled_labels needs exactly one of c= (g = c f) and s_g= (|b| = s_g)")
    a = s_f * unit_vectors(B, d, gen, device=device, dtype=dtype)
    b = c * a if c is not None else s_g * unit_vectors(B, d, gen, device=device, dtype=dtype)
    X = gaussian_design(B, inner, d, gen, device=device, dtype=dtype)
    eps = noisy_labels(X, torch.zeros_like(a), sigma, gen)
    return linear(X, a) + eps, linear(X, b) + eps


def cos_witness_trials(B: int, d: int, s_f: float, c: float, sigma: float, inner: int, gen: torch.Generator, *,
                       device=None, dtype=torch.float64) -> torch.Tensor:
    """Per trial: E_{p_f} h - E_{p_g} h for the witness h(x, y) = cos(y)/2 of (26), g = c f, averaged
    over ``inner`` coupled draws -> (B,).  Its expectation is ``COS_WITNESS_SIGNED`` =
    e^{-sigma^2/2}/2 (e^{-s_f^2/2} - e^{-c^2 s_f^2/2}), i.e. (27) without the absolute value."""
    yf, yg = coupled_labels(B, d, s_f, sigma, inner, gen, c=c, device=device, dtype=dtype)
    return ((torch.cos(yf) - torch.cos(yg)) / 2).mean(-1)


def abs_y_witness_trials(B: int, d: int, s_f: float, s_g: float, sigma: float, inner: int, gen: torch.Generator, *,
                         device=None, dtype=torch.float64) -> torch.Tensor:
    """Per trial: E_{p_g}|y| - E_{p_f}|y| (h(x, y) = |y| is 1-Lipschitz, so a lower bound on W1),
    averaged over ``inner`` coupled draws -> (B,).  Its expectation is ``W1_LOWER_ABS_Y`` =
    sqrt(2/pi)(sqrt(s_g^2 + sigma^2) - sqrt(s_f^2 + sigma^2))."""
    yf, yg = coupled_labels(B, d, s_f, sigma, inner, gen, s_g=s_g, device=device, dtype=dtype)
    return (yg.abs() - yf.abs()).mean(-1)


def l1_distance_trials(B: int, d: int, s_f: float, c: float, sigma: float, inner: int, gen: torch.Generator, *,
                       device=None, dtype=torch.float64) -> torch.Tensor:
    """Per trial: ||p_f - p_g||_1 = E_{p_f} w + E_{p_g} w with w = |p_f - p_g| / (p_f + p_g) in [0, 1]
    (p(x) cancels), g = c f, from ``inner`` draws of each joint distribution -> (B,): the literal
    Monte Carlo of the L1 (twice total-variation) distance that bounds gamma_beta from above.
    Its expectation is ``L1_MULTIPLE`` = (4/pi) arctan(|1 - c| s_f / (2 sigma)).  Needs sigma > 0."""
    s2 = sigma ** 2
    a = s_f * unit_vectors(B, d, gen, device=device, dtype=dtype)
    b = c * a
    total = 0
    for mean_vec in (a, b):
        X = gaussian_design(B, inner, d, gen, device=device, dtype=dtype)
        y = noisy_labels(X, mean_vec, sigma, gen)
        lf = -(y - linear(X, a)) ** 2 / (2 * s2)
        lg = -(y - linear(X, b)) ** 2 / (2 * s2)
        total = total + torch.tanh((lf - lg).abs() / 2).mean(-1)  # |e^lf - e^lg| / (e^lf + e^lg)
    return total
