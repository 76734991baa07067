"""numerics/meanfield.py: the exact population risk and kernel distance against Monte Carlo, the population gradient
against finite differences along the sphere, the empirical gradient against autograd, the least-squares readout
against the literal gradient descent on the readout, and training reducing the loss."""
from __future__ import annotations

import math

import torch

from derivations import kernels as kn
from numerics import meanfield as mf
from numerics.sampling import gaussian_design


def _gen(s):
    return torch.Generator().manual_seed(s)


def test_overlap_matches_derivations():
    U = torch.linspace(-1, 1, 101, dtype=torch.float64)
    k, dk = mf._overlap_and_slope(U)
    assert torch.allclose(k, kn.arccos_overlap(U), atol=1e-15)
    h = 1e-6
    Ui = U[1:-1]
    fd = (kn.arccos_overlap(Ui + h) - kn.arccos_overlap(Ui - h)) / (2 * h)
    assert torch.allclose(dk[1:-1], fd, atol=1e-6)


def test_ablated_teachers_keep_their_output_weights():
    g = _gen(0)
    Wt, ct, Ws, cs = mf.ablated_teachers(3, 5, 10, 0.3, g)
    assert Ws.shape == (3, 7, 5) and cs.shape == (3, 7)
    for b in range(3):
        for i in range(7):
            j = int(((Wt[b] - Ws[b, i]).norm(dim=-1)).argmin())
            assert float((Wt[b, j] - Ws[b, i]).norm()) == 0.0 and float(ct[b, j]) == float(cs[b, i])


def test_population_risk_and_kernel_distance_against_monte_carlo():
    g = _gen(1)
    Wt, ct, _, _ = mf.ablated_teachers(1, 4, 3, 0.0, g)
    W, _ = mf.init_student(1, 5, 4, g)
    c = torch.randn(1, 5, generator=g, dtype=torch.float64)
    X = gaussian_design(1, 400_000, 4, g)
    f = torch.relu(X @ W.mT) @ c[0] / 5
    fs = torch.relu(X @ Wt.mT) @ ct[0] / 3
    mc = ((f - fs) ** 2)
    assert abs(float(mc.mean()) - float(mf.population_risk(W, c, Wt, ct)[0])) < 5 * float(mc.std()) / math.sqrt(4e5)
    # ||k_W - k_W*||^2: independent pairs (x, x')
    X1, X2 = X[:, :200_000], X[:, 200_000:]
    k = lambda V: (torch.relu(X1 @ V.mT) * torch.relu(X2 @ V.mT)).sum(-1) / V.shape[-2]
    diff2 = (k(W) - k(Wt)) ** 2
    assert abs(float(diff2.mean()) - float(mf.kernel_distance2(W, Wt)[0])) < 5 * float(diff2.std()) / math.sqrt(2e5)


def test_population_gradient_is_the_derivative_along_the_sphere():
    g = _gen(2)
    _, _, Ws, cs = mf.ablated_teachers(2, 5, 4, 0.25, g)
    W, _ = mf.init_student(2, 6, 5, g)
    c = torch.randn(2, 6, generator=g, dtype=torch.float64)
    gW, gc = mf.population_gradient(W, c, Ws, cs)
    L = lambda W_, c_: 0.5 * mf.population_risk(W_, c_, Ws, cs)
    h = 1e-6
    V = torch.randn(W.shape, generator=g, dtype=torch.float64)
    V = V - (V * W).sum(-1, keepdim=True) * W           # a tangent direction
    retract = lambda t: (W + t * V) / (W + t * V).norm(dim=-1, keepdim=True)
    fd = (L(retract(h), c) - L(retract(-h), c)) / (2 * h)
    assert torch.allclose(fd, (gW * V).sum((-1, -2)), rtol=1e-5, atol=1e-10)
    e = torch.randn(c.shape, generator=g, dtype=torch.float64)
    fd_c = (L(W, c + h * e) - L(W, c - h * e)) / (2 * h)
    assert torch.allclose(fd_c, (gc * e).sum(-1), rtol=1e-6, atol=1e-12)


def test_empirical_gradient_matches_autograd():
    g = _gen(3)
    W, _ = mf.init_student(2, 7, 4, g)
    c = torch.randn(2, 7, generator=g, dtype=torch.float64)
    X = gaussian_design(2, 9, 4, g)
    y = torch.randn(2, 9, generator=g, dtype=torch.float64)
    weight = mf.padded_design(X, [9, 5])
    Wr, cr = W.clone().requires_grad_(True), c.clone().requires_grad_(True)
    r = (torch.relu(X @ Wr.mT) @ cr.unsqueeze(-1)).squeeze(-1) / 7 - y
    (0.5 * (weight * r ** 2).sum()).backward()
    gW, gc, loss = mf.empirical_gradient(W, c, X, y, weight)
    tang = Wr.grad - (Wr.grad * W).sum(-1, keepdim=True) * W
    assert torch.allclose(gW, tang, atol=1e-12) and torch.allclose(gc, cr.grad, atol=1e-12)
    assert float(weight[1, 5:].abs().sum()) == 0.0 and torch.allclose(weight.sum(-1), torch.ones(2, dtype=X.dtype))


def test_readout_fit_is_the_limit_of_gradient_descent_on_the_readout():
    """The reduced path (least squares) against the literal one (GD on c from 0), n > m and n < m."""
    g = _gen(4)
    W, _ = mf.init_student(2, 6, 5, g)
    for n in (20, 4):
        X = gaussian_design(2, n, 5, g)
        y = torch.randn(2, n, generator=g, dtype=torch.float64)
        c_ls = mf.readout_fit(W, X, y)
        F = torch.relu(X @ W.mT)
        ev = torch.linalg.eigvalsh(F.mT @ F / (36 * n))           # the Hessian of (5) in c
        ev = ev[ev > 1e-10 * ev[:, -1:]]
        lr, rate = 1 / float(ev.max()), float(ev.min() / ev.max())
        steps = int(30 / rate)
        c_gd = mf.readout_gd(W, X, y, torch.zeros(2, 6, dtype=X.dtype), steps=steps, lr=lr)
        assert torch.allclose(c_ls, c_gd, rtol=1e-6, atol=1e-8), (n, steps, c_ls, c_gd)


def test_training_reduces_the_loss_and_keeps_the_sphere():
    g = _gen(5)
    Wt, ct, Ws, cs = mf.ablated_teachers(2, 5, 5, 0.4, g)
    W0, c0 = mf.init_student(2, 20, 5, g)
    L0 = 0.5 * mf.population_risk(W0, c0, Ws, cs)
    run = mf.pretrain(W0, c0, Ws, cs, steps=300)
    assert bool((run.loss < 0.8 * L0).all()) and run.steps == 300 and not bool(run.converged.any())
    assert torch.allclose(run.W.norm(dim=-1), torch.ones(2, 20, dtype=W0.dtype))
    X = gaussian_design(2, 10, 5, g)
    y = (torch.relu(X @ Wt.mT) @ ct.unsqueeze(-1)).squeeze(-1) / 5
    w = mf.padded_design(X, [10, 10])
    _, _, l0 = mf.empirical_gradient(W0, c0, X, y, w)
    run2 = mf.train_empirical(W0, c0, X, y, w, steps=300)
    assert bool((run2.loss < 0.8 * l0).all())
