"""numerics/label_shift.py against the closed forms of derivations/divergences.py it estimates:
torch Monte Carlo of the literal densities (fixed seeds, 5-standard-error bounds), plus the shapes
and geometry of the sampled feature pairs.  The sympy <-> torch <-> test triangle of Theorem 2.2.
"""
from __future__ import annotations

import math

import pytest
import torch

from derivations import divergences as dv
from numerics import label_shift as LS

KL = dv.mp(dv.KL_LINEAR, dv.s_f, dv.s_g, dv.cos_theta, dv.sigma)
COS_SIGNED = dv.mp(dv.COS_WITNESS_SIGNED, dv.s_f, dv.c, dv.sigma)
W1_LOWER = dv.mp(dv.W1_LOWER_ABS_Y, dv.s_f, dv.s_g, dv.sigma)
L1_MULTIPLE = dv.mp(dv.L1_MULTIPLE, dv.s_f, dv.c, dv.sigma)
L1_LINEAR = dv.mp(dv.L1_LINEAR, dv.r, dv.sigma)


def gen(seed: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(seed)
    return g


def within(x: torch.Tensor, value: float, k: float = 5.0) -> bool:
    """|mean - value| within k standard errors (plus float rounding)."""
    se = float(x.std()) / math.sqrt(x.numel())
    return abs(float(x.mean()) - value) <= k * se + 1e-12


# ----------------------------------------------------------------------------- the pair (a, b)
@pytest.mark.parametrize("d,ct", [(1, 1.0), (1, -1.0), (2, 0.0), (5, -0.3), (5, 1.0)])
def test_linear_pair_geometry(d, ct):
    a, b = LS.linear_pair(64, d, 1.5, 0.5, ct, gen(1))
    assert a.shape == b.shape == (64, d)
    assert torch.allclose(a.norm(dim=-1), torch.full((64,), 1.5, dtype=a.dtype))
    assert torch.allclose(b.norm(dim=-1), torch.full((64,), 0.5, dtype=a.dtype))
    assert torch.allclose((a * b).sum(-1), torch.full((64,), 1.5 * 0.5 * ct, dtype=a.dtype), atol=1e-12)


def test_linear_pair_needs_two_dimensions_for_an_angle():
    with pytest.raises(ValueError, match="needs d >= 2"):
        LS.linear_pair(4, 1, 1.0, 1.0, 0.5, gen(0))


def test_coupled_labels_share_the_noise():
    yf, yg = LS.coupled_labels(16, 3, 1.0, 0.7, 32, gen(2), c=1.0)
    assert yf.shape == (16, 32) and torch.equal(yf, yg)  # g = f: identical labels under the coupling
    with pytest.raises(ValueError):
        LS.coupled_labels(16, 3, 1.0, 0.7, 32, gen(2))


# ----------------------------------------------------------------------------- estimators vs closed forms
@pytest.mark.parametrize("d,sigma,s_f,s_g,ct", [
    (3, 0.2, 1.0, 1.0, 0.0), (3, 1.0, 2.0, 0.5, 0.5), (3, 3.0, 3.0, 1.0, -0.3), (1, 1.0, 1.0, 2.0, -1.0),
    (4, 0.5, 0.0, 1.5, 1.0)])
def test_kl_log_ratio_estimates_kl_linear(d, sigma, s_f, s_g, ct):
    x = LS.kl_log_ratio_trials(2000, d, s_f, s_g, ct, sigma, 64, gen(10 + d))
    assert x.shape == (2000,)
    assert within(x, float(KL(s_f, s_g, ct, sigma)))


def test_kl_log_ratio_is_zero_at_equal_features():
    x = LS.kl_log_ratio_trials(100, 3, 1.0, 1.0, 1.0, 0.5, 16, gen(3))
    assert float(x.abs().max()) < 1e-12


@pytest.mark.parametrize("s_f,c,sigma", [(0.5, 2.0, 0.5), (1.0, 8.0, 0.5), (1.0, -1.0, 1.0), (2.0, 1.0, 0.1)])
def test_cos_witness_estimates_eq27(s_f, c, sigma):
    x = LS.cos_witness_trials(2000, 3, s_f, c, sigma, 64, gen(20))
    assert x.shape == (2000,)
    assert within(x, float(COS_SIGNED(s_f, c, sigma)))


@pytest.mark.parametrize("d,s_f,s_g,sigma", [(3, 1.0, 0.0, 1.0), (3, 1.0, 4.0, 0.5), (1, 1.0, 16.0, 1.0)])
def test_abs_y_witness_estimates_w1_lower_bound(d, s_f, s_g, sigma):
    x = LS.abs_y_witness_trials(2000, d, s_f, s_g, sigma, 64, gen(30 + d))
    assert x.shape == (2000,)
    assert within(x, float(W1_LOWER(s_f, s_g, sigma)))


@pytest.mark.parametrize("s_f,c,sigma", [(0.5, 2.0, 0.5), (1.0, 64.0, 0.5), (2.0, -1.0, 1.0), (1.0, 1.0, 1.0)])
def test_l1_distance_estimates_arctan_form(s_f, c, sigma):
    x = LS.l1_distance_trials(500, 3, s_f, c, sigma, 64, gen(40))
    assert x.shape == (500,)
    assert within(x, float(L1_MULTIPLE(s_f, c, sigma)))
    assert float(x.max()) <= 2.0


def test_l1_multiple_is_l1_linear_at_r():
    for s_f, c, sigma in [(0.5, 2.0, 0.5), (1.0, -3.0, 0.2), (2.0, 1.0, 1.0)]:
        assert abs(L1_MULTIPLE(s_f, c, sigma) - L1_LINEAR(abs(1 - c) * s_f, sigma)) < 1e-14
