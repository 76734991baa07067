"""The loss-increase criterion of linearization2025's selective-scheme claims: a converged run's loss jitters at the
float64 rounding level (numerics.proximal.loss_rounding), and plain gradient descent's jitter is not counted as an
increase, while the raw relative test (> 1e-10) that the claims used until 2026-12 does count it."""
from __future__ import annotations

import torch

from numerics.proximal import split_gd
from verify.claims.linearization2025.common import problem
from verify.claims.linearization2025.monotone import _increases
from verify.run.environment import make_context


def test_plain_gradient_descent_jitter_at_convergence_is_rounding_not_an_increase():
    ctx = make_context("quick", 0, progress=False)
    gen, _ = ctx.generator("tests.linearization.selective", "quadratic")
    prob = problem("quadratic", 8, gen, ctx)
    Ls = float((2 * torch.linalg.matrix_norm(prob.jac(prob.theta0), ord=2) ** 2).max())
    eta = 0.1 / Ls
    L = split_gd(prob, 0.0, eta, 20.0, record=[0.0], losses=True).losses
    raw = ((L[:, 1:] - L[:, :-1]) / L[:, :-1].clamp_min(1e-300) > 1e-10).sum()
    assert int(raw) > 0, "the run must reach the rounding level for this test to mean anything"
    assert _increases(prob, 0.0, eta, 20.0, False)[0] == 0
