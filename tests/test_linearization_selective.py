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


def test_mechanism_run_is_the_split_update_and_its_first_rise_is_exact():
    """numerics.proximal.first_rise (thm1.selective.long's fast path) is split_gd's selective update on the constructed
    problem: the same iterates (to rounding) and the same first step with a loss rise above rounding; and that step,
    re-done in exact arithmetic (mech_exact_step), starts from the same loss and rises."""
    import numpy as np

    from numerics.proximal import first_rise
    from verify.claims.linearization2025.monotone import MECH_B, mech_exact_step, mech_problem

    lam = 5.0
    eta = 0.1 / (2 * float(np.linalg.norm(np.array(MECH_B), 2)) ** 2 + lam)
    prob = mech_problem()
    k, th, L0, L1, E, _ = first_rise(prob, lam, eta, 20.0, selective=True)
    tr = split_gd(prob, lam, eta, (k + 1) * eta, selective=True, record=[k * eta], losses=True)
    assert float((tr.theta[0, 0] - torch.tensor(th)).abs().max()) < 1e-10
    L, Err = tr.losses[0], tr.loss_err[0]
    real = (L[1:] - L[:-1]) > Err[1:] + Err[:-1]
    assert int(torch.nonzero(real)[0]) == k and bool(real[k])
    prod, e0, e1, _, _ = mech_exact_step(th, lam, eta)
    assert prod >= 0 and e1 > e0 and abs(float(e0) - L0) <= 1e-12 * L0
    assert first_rise(prob, 0.0, eta, (k + 1) * eta) is None        # plain gradient descent: no rise over the same steps
