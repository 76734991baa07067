"""numerics.proximal.split_gd's fast loop against the plain loop it replaced (kept below as the reference, op for op
the code before 2026-12-07): every returned tensor bit for bit, on every model kind, for the constant, scheduled and
selective lambda, with the linearized model alongside, with the per-step losses and their rounding bounds, and on
the batch sizes and steps of linearization2025's thm1.selective claims.  Also: Problem.f_and_jac is (f, jac) bit for bit."""
from __future__ import annotations

import math

import pytest
import torch

from numerics.proximal import grad_R, linearized, loss_rounding, make_problem, split_gd, Trajectory
from numerics import NotConverged


def _reference_split_gd(prob, lam, eta, T, selective, record, lam_schedule, linear_too, want_losses=False):
    """The split update as written before the fast loop (one step's work done as separate calls)."""
    import numpy as np

    steps = int(round(T / eta))
    rec = set(range(steps + 1)) if record is None else {min(steps, int(round(t / eta))) for t in record}
    th = prob.theta0.clone()
    lin = linearized(prob) if linear_too else None
    thb = prob.theta0.clone() if linear_too else None
    ts, keep, lams, keepb, Ls, Is = [], [], [], [], [], []
    lam_now = torch.full((prob.B,), float(lam), dtype=th.dtype, device=th.device)
    Lam = torch.zeros(prob.B, dtype=th.dtype, device=th.device)
    Iint = torch.zeros_like(Lam)
    loss_list, err_list, prev = [], [], None
    for k in range(steps + 1):
        if want_losses:
            loss = ((prob.f(th) - prob.y) ** 2).sum(1)
            err = torch.full_like(loss, math.nan)
            if loss_list and bool((loss > loss_list[-1]).any()):
                err_list[-1] = loss_rounding(prob, prev)[1]
                err = loss_rounding(prob, th)[1]
            loss_list.append(loss)
            err_list.append(err)
            prev = th
        if k in rec:
            ts.append(k * eta)
            keep.append(th.clone())
            lams.append(lam_now.clone())
            Ls.append(Lam.clone())
            Is.append(Iint.clone())
            if linear_too:
                keepb.append(thb.clone())
        if k == steps:
            break
        g = grad_R(prob, th)
        if selective:
            lam_now = torch.where((g * (th - prob.theta0)).sum(1) >= 0,
                                  torch.as_tensor(float(lam), dtype=th.dtype, device=th.device),
                                  torch.zeros((), dtype=th.dtype, device=th.device))
        elif lam_schedule is not None:
            lam_now = torch.full((prob.B,), float(lam_schedule(k * eta)), dtype=th.dtype, device=th.device)
        tt = th - eta * g
        th = tt - (lam_now * eta)[:, None] * (tt - prob.theta0)
        decay = torch.exp(-lam_now * eta)
        Iint = Iint * decay + torch.where(lam_now > 0, -torch.expm1(-lam_now * eta) / lam_now.clamp_min(1e-300),
                                          torch.full_like(lam_now, eta))
        Lam = Lam + lam_now * eta
        if linear_too:
            tb = thb - eta * grad_R(lin, thb)
            thb = tb - (lam_now * eta)[:, None] * (tb - prob.theta0)
    if not torch.isfinite(th).all():
        raise NotConverged(f"split update diverged (eta={eta:g}, lambda={lam:g})")
    return Trajectory(np.array(ts), torch.stack(keep, 1), torch.stack(lams, 1),
                      torch.stack(keepb, 1) if linear_too else None, torch.stack(loss_list, 1) if want_losses else None,
                      torch.stack(Ls, 1), torch.stack(Is, 1), torch.stack(err_list, 1) if want_losses else None)


def _same_bits(a, b, what):
    if a is None or b is None:
        assert a is None and b is None, what
        return
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    assert a.shape == b.shape and a.dtype == b.dtype, what
    # bit patterns, so NaN == NaN and -0.0 != 0.0
    assert torch.equal(a.contiguous().view(torch.int64), b.contiguous().view(torch.int64)), what


def _compare(prob, lam, eta, T, **kw):
    ref_kw = dict(selective=False, record=None, lam_schedule=None, linear_too=False)
    ref_kw.update({k: v for k, v in kw.items() if k != "losses"})
    with torch.random.fork_rng():
        torch.set_num_threads(1)
        ref = _reference_split_gd(prob, lam, eta, T, ref_kw["selective"], ref_kw["record"], ref_kw["lam_schedule"],
                                  ref_kw["linear_too"], kw.get("losses", False))
    new = split_gd(prob, lam, eta, T, **kw)
    assert (ref.t == new.t).all()
    for name in ("theta", "lam_t", "theta_bar", "losses", "Lam", "I", "loss_err"):
        _same_bits(getattr(ref, name), getattr(new, name), name)
    return new


#: linearization2025's sizes (n, d, m), and contractions over one index (n = 1, p = 1, m = 1: the einsum paths)
SIZES = {"linear": ("linear", 4, 6, 0), "quadratic": ("quadratic", 3, 5, 0), "tanh": ("tanh", 4, 3, 6),
         "relu": ("relu", 4, 3, 6), "linear1": ("linear", 1, 6, 0), "quadratic1d": ("quadratic", 1, 1, 0),
         "relu_m1": ("relu", 3, 2, 1), "tanh_wide": ("tanh", 8, 5, 9)}


def _prob(kind, B=8, seed=0):
    base, n, d, m = SIZES[kind]
    return make_problem(B, base, n, d, max(m, 1), torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("kind", list(SIZES))
def test_f_and_jac_is_f_and_jac_bit_for_bit(kind):
    """At states of many scales, and (ReLU) with pre-activations exactly 0 and Jacobian entries -0.0."""
    prob = _prob(kind, B=16)
    gen = torch.Generator().manual_seed(1)
    for s in range(40):
        scale = 10.0 ** (s % 13 - 6)
        th = prob.theta0 + scale * torch.randn(prob.theta0.shape, generator=gen, dtype=torch.float64)
        if s % 4 == 3:
            th[:, : th.shape[1] // 2] = 0.0
        f, J = prob.f_and_jac(th)
        _same_bits(f, prob.f(th), f"f, scale {scale:g}")
        _same_bits(J, prob.jac(th), f"jac, scale {scale:g}")


@pytest.mark.parametrize("kind", list(SIZES))
@pytest.mark.parametrize("mode", ["constant", "selective", "schedule", "plain"])
def test_split_gd_matches_the_reference_loop_bit_for_bit(kind, mode):
    prob = _prob(kind)
    lam = 0.0 if mode == "plain" else 2.0
    kw = dict(selective=mode == "selective", losses=True)
    if mode == "schedule":
        kw["lam_schedule"] = lambda t: 2.0 if int(t / 0.05) % 2 == 0 else 0.0
    _compare(prob, lam, 0.01, 1.0, **kw)                                   # every step recorded
    _compare(prob, lam, 0.01, 1.0, record=[0.0, 0.33, 1.0], linear_too=True, **kw)


@pytest.mark.parametrize("kind,lam,frac,T", [("quadratic", 5.0, 0.1, 20.0),
                                             ("relu", 5.0, 0.1, 2.0), ("relu", 0.5, 0.1, 2.0)])
def test_split_gd_on_the_selective_claims_problems(kind, lam, frac, T):
    """thm1.selective(.relu)'s runs (64 problems, eta = frac/(2||J0||^2 + lambda)): losses and rounding bounds equal,
    and the loss rose at some steps, so the bound's reuse is exercised."""
    prob = _prob(kind, B=64, seed=3)
    eta = frac / (float((2 * torch.linalg.matrix_norm(prob.jac(prob.theta0), ord=2) ** 2).max()) + lam)
    rose = [bool(torch.isfinite(_compare(prob, l, eta, T, selective=selective, record=[0.0], losses=True).loss_err).any())
            for selective, l in ((True, lam), (False, 0.0))]
    assert any(rose)
