"""Tests of numerics/deep_linear.py: the literal deep-linear-network simulations of
001_759117b8232d72ac.txt §3 (eq. (9)), and the fine-tuning end state of derivations/deep_linear.py.

Small sizes (d <= 20); several alphas / noise levels are put side by side in one batch, which the
per-trial adaptive step size makes free.
"""
from __future__ import annotations

import math

import pytest
import sympy as sp
import torch

from derivations import deep_linear as dl
from numerics.deep_linear import (end_to_end, features, feature_alignment, finetune, finetune_end_state_balanced,
                                  finetune_end_state_stated, init_weights, invariants, linear_transfer,
                                  linear_transfer_exact, linear_transfer_rank_one, loss_and_grads,
                                  min_invariant_eigenvalue, pretrain, rank_one_distance, ridge_transfer,
                                  row_space_split, scratch, train)
from numerics.least_squares import min_norm_solve
from numerics.sampling import gaussian_design, noisy_labels, teacher_pair, unit_vectors
from _deep_linear_fixtures import gen, one_thread  # noqa: F401  (autouse fixture)

F64 = torch.float64


def stacked_init(B: int, d: int, L: int, alphas, g, kind="balanced_margin"):
    """B trials for each alpha, concatenated along the batch (alpha-major)."""
    parts = [init_weights(B, d, L, a, g, kind) for a in alphas]
    return [torch.cat([p[l] for p in parts]) for l in range(L)]


# ------------------------------------------------------------------ construction and gradients

@pytest.mark.parametrize("L", [2, 3, 4])
def test_balanced_margin_init_satisfies_assumption_22(L):
    alpha, margin = 1e-3, 0.7
    Ws = init_weights(5, 9, L, alpha, gen(0), margin=margin)
    assert [tuple(W.shape) for W in Ws] == [(5, 9, 9)] * (L - 1) + [(5, 9, 1)]
    assert all(W.dtype == F64 for W in Ws)
    lam = min_invariant_eigenvalue([W / alpha for W in Ws])  # eq. (22) is about Wbar
    assert lam.shape == (5, L - 1)
    assert torch.allclose(lam, torch.full_like(lam, margin), atol=1e-10)


def test_gaussian_init_normalisation():
    Ws = init_weights(400, 30, 2, 0.5, gen(1), kind="gaussian")
    assert abs(float(Ws[0].square().mean()) - 0.25 / 30) < 0.02 * 0.25 / 30


def test_end_to_end_is_the_product():
    Ws = init_weights(3, 6, 4, 1.0, gen(2), kind="gaussian")
    beta = Ws[0] @ Ws[1] @ Ws[2] @ Ws[3]
    assert torch.allclose(end_to_end(Ws), beta.squeeze(-1), atol=1e-14)
    assert torch.allclose(features(Ws), Ws[0] @ Ws[1] @ Ws[2], atol=1e-14)


@pytest.mark.parametrize("loss", ["population", "empirical"])
def test_analytic_gradients_match_autograd(loss):
    g = gen(3)
    Ws = init_weights(2, 7, 3, 1.0, g, kind="gaussian")
    bs = unit_vectors(2, 7, g)
    X = gaussian_design(2, 5, 7, g)
    y = noisy_labels(X, bs, 0.3, g)
    val, grads = loss_and_grads(Ws, loss, beta_s=bs, X=X, y=y)
    Wr = [W.clone().requires_grad_(True) for W in Ws]
    beta = end_to_end(Wr)
    ref = 0.5 * (beta - bs).square().sum(-1) if loss == "population" else \
        ((X @ beta.unsqueeze(-1)).squeeze(-1) - y).square().sum(-1) / (2 * X.shape[1])
    auto = torch.autograd.grad(ref.sum(), Wr)
    assert torch.allclose(val, ref.detach(), atol=1e-14)
    for ga, gb in zip(grads, auto):
        assert torch.allclose(ga, gb, atol=1e-13)


# ------------------------------------------------------------------ invariants (35)

def test_one_gd_step_moves_invariants_by_exactly_lr2():
    """D_l(W - h G) - D_l(W) = h^2 (G_l^T G_l - G_{l+1} G_{l+1}^T): the O(h) term cancels (flow conserves (35))."""
    g = gen(4)
    Ws = init_weights(3, 6, 3, 0.8, g, kind="gaussian")
    bs = unit_vectors(3, 6, g)
    _, G = loss_and_grads(Ws, "population", beta_s=bs)
    D0 = invariants(Ws)
    changes = []
    for h in (1e-2, 5e-3):
        r = train(Ws, "population", beta_s=bs, lr=h, max_steps=1, tol=None)
        assert int(r.steps.max()) == 1
        D1 = invariants(r.Ws)
        for l in range(2):
            pred = h**2 * (G[l].mT @ G[l] - G[l + 1] @ G[l + 1].mT)
            assert torch.allclose(D1[l] - D0[l], pred, atol=1e-15)
        changes.append(max(float((a - b).abs().max()) for a, b in zip(D1, D0)))
    assert 3.9 < changes[0] / changes[1] < 4.1


def test_invariant_drift_over_a_trajectory_is_first_order_in_lr():
    """Over a fixed flow time T the drift of D_l is O(lr): halving lr halves it."""
    g = gen(5)
    Ws = init_weights(2, 6, 2, 0.3, g)
    bs = unit_vectors(2, 6, g)
    T, drift = 4.0, []
    for h in (0.02, 0.01):
        r = train(Ws, "population", beta_s=bs, lr=h, max_steps=round(T / h), tol=None)
        drift.append(float((invariants(r.Ws)[0] - invariants(Ws)[0]).abs().max()))
    assert drift[0] < 0.05
    assert 1.7 < drift[0] / drift[1] < 2.3


# ------------------------------------------------------------------ batching, reproducibility

def _pipeline(seed: int, B: int = 3, d: int = 10, n: int = 5, **pre_kw):
    g = gen(seed)
    bs, bt, _ = teacher_pair(B, d, math.pi / 3, g)
    X = gaussian_design(B, n, d, g)
    y = noisy_labels(X, bt, 0.5, g)
    pre = pretrain(B, d, 2, 1e-3, bs, g, tol=1e-16, **pre_kw)
    return pre, X, y, bs


def test_batched_equals_per_trial_and_is_reproducible():
    pre, X, y, bs = _pipeline(6, max_move=None)
    kw = dict(tol=1e-2, max_steps=500)
    ft = finetune(pre, X, y, **kw)
    assert ft.converged.any() and not ft.converged.all()  # the stopping mask must not couple trials
    for b in range(3):
        sl = slice(b, b + 1)
        one = train([W[sl] for W in pre.Ws], "empirical", X=X[sl], y=y[sl], **kw)
        assert torch.equal(one.steps, ft.steps[sl]) and torch.equal(one.converged, ft.converged[sl])
        for Wa, Wb in zip(one.Ws, ft.Ws):
            assert torch.allclose(Wa, Wb[sl], rtol=1e-12, atol=1e-15)
    chunked = finetune(pre, X, y, chunk=2, **kw)
    assert torch.equal(chunked.steps, ft.steps) and torch.allclose(chunked.beta, ft.beta, atol=1e-15)
    pre2, X2, y2, _ = _pipeline(6, max_move=None)
    ft2 = finetune(pre2, X2, y2, **kw)
    assert torch.equal(ft.beta, ft2.beta) and torch.equal(ft.steps, ft2.steps)
    assert ft.beta.dtype == F64 and ft.upstream_converged.all() and ft.alpha == 1e-3


# ------------------------------------------------------------------ depth 1 and Theorem 3.5

@pytest.mark.parametrize("n,d", [(5, 12), (20, 8)])
def test_depth_one_gd_reproduces_min_norm_solve(n, d):
    g = gen(7)
    X = gaussian_design(4, n, d, g)
    y = noisy_labels(X, unit_vectors(4, d, g), 0.5, g)
    r = scratch(X, y, 1, 0.0, g, tol=1e-26, max_move=None)
    assert r.converged.all()
    assert torch.allclose(r.beta, min_norm_solve(X, y), atol=1e-10)


@pytest.mark.parametrize("L", [2, 3])
@pytest.mark.parametrize("n,d", [(6, 14), (24, 12)])
def test_thm35_scratch_reaches_min_norm_solution_as_alpha_to_0(L, n, d):
    """Thm 3.5: lim_{alpha->0} lim_{t->oo} beta(t) = X^+ y, on both sides of n = d."""
    g = gen(8 + L)
    B, alphas = 2, [1e-1, 1e-2, 1e-3]
    X = gaussian_design(B, n, d, g)
    y = noisy_labels(X, unit_vectors(B, d, g), 0.5, g)
    Xs, ys = X.repeat(len(alphas), 1, 1), y.repeat(len(alphas), 1)
    r = train(stacked_init(B, d, L, alphas, g), "empirical", X=Xs, y=ys, tol=1e-13, max_steps=50_000)
    assert r.converged.all()
    dist = (r.beta - min_norm_solve(Xs, ys)).norm(dim=-1).view(len(alphas), B)
    if n < d:  # the frozen (I - P)W_1(0) leaves an O(alpha) component outside row(X)
        assert (dist[1:] < dist[:-1]).all()
        assert float(dist[-1].max()) < 1e-2
    else:      # unique minimizer: reached at every alpha
        assert float(dist.max()) < 1e-5


# ------------------------------------------------------------------ Lemma 3.3 and Theorem 3.4

@pytest.mark.parametrize("L", [2, 3])
def test_lemma33_thm34_pretraining_recovers_beta_s_with_rank_one_features(L):
    g = gen(20 + L)
    B, d, alphas = 3, 10, [1e-1, 1e-2, 1e-3, 1e-4]
    bs = unit_vectors(B, d, g).repeat(len(alphas), 1)
    r = train(stacked_init(B, d, L, alphas, g), "population", beta_s=bs, tol=1e-20)
    assert r.converged.all()
    assert float((r.beta - bs).norm(dim=-1).max()) < 1e-9  # Lemma 3.3
    dist = rank_one_distance(features(r.Ws)).view(len(alphas), B)
    align = feature_alignment(r.Ws, bs).view(len(alphas), B)
    assert (dist[1:] < dist[:-1]).all()  # Thm 3.4: Phi -> beta_s v^T as alpha -> 0
    assert float(dist[-1].max()) < 1e-6
    assert float((1 - align[-1]).max()) < 1e-8


# ------------------------------------------------------------------ step-size control

def test_adaptive_lr_end_state_agrees_with_small_fixed_lr():
    """Pretrain, then fine-tune with a small fixed step (the paper's protocol) and with the adaptive one."""
    pre, X, y, _ = _pipeline(30, B=4, d=12, n=4)
    small = finetune(pre, X, y, lr=4e-3, tol=1e-8, max_steps=100_000)
    fast = finetune(pre, X, y, tol=1e-8)
    assert small.ok.all() and fast.ok.all()
    assert float((fast.beta - small.beta).norm(dim=-1).max()) < 2e-3
    # from a small-init saddle too: scratch training, where the escape is the slow part
    g = gen(31)
    Xs = gaussian_design(2, 3, 8, g)
    ys = noisy_labels(Xs, unit_vectors(2, 8, g), 0.3, g)
    Ws = init_weights(2, 8, 2, 1e-2, g)
    a = train(Ws, "empirical", X=Xs, y=ys, tol=1e-8)
    b = train(Ws, "empirical", X=Xs, y=ys, lr=5e-3, tol=1e-8, max_steps=100_000)
    assert a.converged.all() and b.converged.all()
    assert float((a.beta - b.beta).norm(dim=-1).max()) < 2e-3


# ------------------------------------------------------------------ linear transfer

def test_linear_transfer_gd_is_the_rank_one_limit_not_the_exact_solve():
    g = gen(40)
    B, d, n, L, alphas = 3, 12, 6, 2, [1e-3, 1e-4, 1e-5]
    bs, bt, _ = teacher_pair(B, d, math.pi / 4, g)
    X = gaussian_design(B, n, d, g)
    y = noisy_labels(X, bt, 0.3, g)
    k = len(alphas)
    bs_k, X_k, y_k = bs.repeat(k, 1), X.repeat(k, 1, 1), y.repeat(k, 1)
    pre = train(stacked_init(B, d, L, alphas, g), "population", beta_s=bs_k, tol=1e-20)
    gd = linear_transfer(pre, X_k, y_k)
    one = linear_transfer_rank_one(pre, X_k, y_k)
    exact = linear_transfer_exact(pre, X_k, y_k)
    assert gd.ok.all()
    d_gd = (gd.beta - one.beta).norm(dim=-1).view(k, B)
    d_exact = (exact.beta - one.beta).norm(dim=-1).view(k, B)
    assert (d_gd[1:] < d_gd[:-1]).all() and float(d_gd[-1].max()) < 1e-4
    assert float(d_exact.min()) > 0.1  # the exact finite-alpha solve interpolates instead
    assert float(exact.loss.max()) < 1e-10 < float(one.loss.min())
    # the alpha -> 0 solution is eqs. (105)-(108): b beta_s with b = (X beta_s)^T y / ||X beta_s||^2
    z = (X_k @ bs_k.unsqueeze(-1)).squeeze(-1)
    bcoef = (z * y_k).sum(-1) / z.square().sum(-1)
    assert torch.allclose(one.beta[-B:], (bcoef.unsqueeze(-1) * bs_k)[-B:], atol=1e-5)


def test_ridge_transfer_solves_eq_121_and_tends_to_eq_126():
    g = gen(41)
    B, d, n, L, lam = 3, 10, 6, 3, 0.3
    bs, bt, _ = teacher_pair(B, d, math.pi / 3, g)
    X = gaussian_design(B, n, d, g)
    y = noisy_labels(X, bt, 0.2, g)
    pre = pretrain(B, d, L, 1e-4, bs, g, max_move=None)
    r = ridge_transfer(pre, X, y, lam)
    F = X @ features(pre.Ws)
    WL = torch.linalg.solve(F.mT @ F + n * lam * torch.eye(d, dtype=F64), F.mT @ y.unsqueeze(-1))
    assert torch.allclose(r.Ws[-1], WL, atol=1e-10)
    z = (X @ bs.unsqueeze(-1)).squeeze(-1)
    eq126 = ((z * y).sum(-1) / (z.square().sum(-1) + n * lam)).unsqueeze(-1) * bs
    assert torch.allclose(r.beta, eq126, atol=1e-6)


# ------------------------------------------------------------------ diagnostics

def test_rank_one_distance_and_alignment():
    u = unit_vectors(2, 5, gen(42))
    M = u.unsqueeze(-1) * torch.linspace(1, 2, 5, dtype=F64)
    assert float(rank_one_distance(M).abs().max()) < 1e-15
    assert torch.allclose(rank_one_distance(torch.eye(5, dtype=F64).expand(2, 5, 5)),
                          torch.full((2,), 0.8, dtype=F64))
    Ws = [M, torch.ones(2, 5, 1, dtype=F64)]
    assert torch.allclose(feature_alignment(Ws, u), torch.ones(2, dtype=F64))


# ------------------------------------------------------------------ fine-tuning end state (App. B.8)

def test_finetune_scale_solver():
    b2 = torch.tensor([0.0, 0.5, 2.0, 0.3, 1e-8], dtype=F64)
    c2 = torch.tensor([0.4, 0.0, 0.3, 1.0, 0.9], dtype=F64)
    for L in (1, 2, 3, 5):
        s = dl.finetune_scale(b2, c2, L)
        res = s ** (2 * L) - c2 * s ** (2 * L - 2) - b2
        assert float(res.abs().max()) < 1e-14
        for i in range(len(b2)):
            assert abs(float(s[i]) - float(dl.finetune_scale_mp(float(b2[i]), float(c2[i]), L, 25))) < 1e-13
    s2 = dl.finetune_scale(b2, c2, 2)
    closed = sp.lambdify((dl.b, dl.c), dl.finetune_scale_depth2())
    assert all(abs(float(s2[i]) - closed(float(b2[i]) ** 0.5, float(c2[i]) ** 0.5)) < 1e-13 for i in range(5))
    poly = dl.finetune_scale_polynomial().subs(dl.L, 2)
    assert sp.simplify(poly.subs(dl.s, dl.finetune_scale_depth2())) == 0


@pytest.mark.parametrize("L", [2, 3])
def test_finetune_end_state_gd_vs_balanced_formula_vs_eq142(L, record_property):
    """Literal GD fine-tuning after balanced alpha -> 0 pretraining, n < d, sigma in {0, 0.5, 1}.

    Compared with our end state beta = X^+ y + s^{L-1} (I - P) beta_s (s from the polynomial) and
    with eq. (142), beta = X^+ y + (I - P) beta_s.
    """
    g = gen(50 + L)
    per, d, n, alpha, sigmas = 2, 20, 10, 1e-5, (0.0, 0.5, 1.0)
    B = per * len(sigmas)
    bs, bt, _ = teacher_pair(B, d, math.pi / 3, g)
    X = gaussian_design(B, n, d, g)
    y = torch.cat([noisy_labels(X[i * per:(i + 1) * per], bt[i * per:(i + 1) * per], sig, g)
                   for i, sig in enumerate(sigmas)])
    pre = pretrain(B, d, L, alpha, bs, g, max_move=None)  # balanced, aligned: the cap is not needed here
    ft = finetune(pre, X, y, tol=1e-13, max_move=3e-3)
    assert ft.ok.all()
    ours = finetune_end_state_balanced(X, y, bs, L)
    stated = finetune_end_state_stated(X, y, bs)
    d_ours = (ft.beta - ours).norm(dim=-1)
    d_142 = (ft.beta - stated).norm(dim=-1)
    perp = row_space_split(X, bs)[1]
    s = dl.finetune_scale(min_norm_solve(X, y).square().sum(-1), perp.square().sum(-1), L)
    record_property("max |beta_gd - beta_ours|", float(d_ours.max()))
    record_property("min |beta_gd - beta_eq142|", float(d_142.min()))
    assert float(d_ours.max()) < 3e-3
    far = (s - 1).abs() > 0.05
    assert far.any() and (d_142[far] > 10 * d_ours[far]).all()


def test_limit_forms_reduce_to_eq16_exactly_when_noiseless():
    """s = 1 solves the high-dimensional limit of (*) iff sigma = 0; then our E R_ft is eq. (16)."""
    poly = dl.finetune_scale_limit_polynomial()
    assert sp.simplify(poly.subs({dl.s: 1, dl.sigma: 0})) == 0
    assert sp.simplify(poly.subs({dl.s: 1})) != 0
    diff = dl.finetune_risk_limit_derived() - dl.finetune_risk_stated()
    assert sp.simplify(diff.subs(dl.s, 1)) == 0
    for L in (2, 3):  # sigma > 0: s > 1 and the risks differ
        s_val = dl.finetune_scale_mp(0.5 * 1.5 / 0.5, 0.5, L, 30)
        assert s_val > 1
        val = diff.subs({dl.L: L, dl.gamma: sp.Rational(1, 2), dl.sigma: 1, dl.theta: sp.pi / 3, dl.s: s_val})
        assert float(val) > 0.05
