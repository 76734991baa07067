"""numerics/two_layer.py: gradient against autograd, the NTK Gram against H^inf (derivations.kernels),
gradient descent reaching zero loss, NotConverged on a budget that is too small."""
from __future__ import annotations

import math

import pytest
import torch

from derivations import kernels as kn
from numerics import NotConverged
from numerics import two_layer as tl


def _unit(n, d, g):
    X = torch.randn(n, d, generator=g, dtype=torch.float64)
    return X / X.norm(dim=-1, keepdim=True)


def test_gradient_matches_autograd():
    g = torch.Generator().manual_seed(1)
    W, a = tl.init(3, 50, 4, g, kappa=0.7)
    X, y = _unit(6, 4, g), torch.randn(6, generator=g, dtype=torch.float64)
    Wr = W.clone().requires_grad_(True)
    tl.loss(Wr, a, X, y).sum().backward()
    G, res = tl.gradient(W, a, X, y)
    assert torch.allclose(G, Wr.grad, atol=1e-12)
    assert torch.allclose(res, tl.forward(W, a, X) - y)


def test_forward_scaling():
    g = torch.Generator().manual_seed(2)
    W, a = tl.init(2, 7, 3, g)
    X = _unit(4, 3, g)
    manual = torch.stack([torch.stack([sum(a[b, r] * torch.relu(W[b, r] @ X[i]) for r in range(7)) / math.sqrt(7)
                                       for i in range(4)]) for b in range(2)])
    assert torch.allclose(tl.forward(W, a, X), manual)


def test_activation_gradient_is_residual_norm():
    g = torch.Generator().manual_seed(3)
    W, a = tl.init(2, 30, 3, g)
    X, y = _unit(5, 3, g), torch.randn(5, generator=g, dtype=torch.float64)
    H1 = torch.relu(tl.preactivations(W, X)).detach().requires_grad_(True)     # X^1 (B, n, m)
    f = torch.einsum("bnm,bm->bn", H1, a) / math.sqrt(30)
    (0.5 * ((f - y) ** 2).sum()).backward()
    assert torch.allclose((H1.grad ** 2).sum((-1, -2)), tl.activation_gradient_norm2(W, a, X, y))


def test_ntk_gram_mc_estimates_hinf():
    g = torch.Generator().manual_seed(4)
    X, Y = _unit(5, 3, g), _unit(4, 3, g)
    H = tl.ntk_gram_mc(400, 500, X, g, Y=Y, kappa=0.3)
    mean, se = H.mean(0), H.std(0) / math.sqrt(400)
    assert ((mean - kn.ntk_relu_gram(X, Y)).abs() < 5 * se + 1e-12).all()


def test_gram_equals_z_transpose_z():
    g = torch.Generator().manual_seed(5)
    W, a = tl.init(1, 20, 3, g)
    X = _unit(4, 3, g)
    Z = torch.stack([torch.cat([(W[0, r] @ X[i] >= 0) * a[0, r] * X[i] for r in range(20)]) for i in range(4)], 1) / math.sqrt(20)
    assert torch.allclose(Z.T @ Z, tl.gram_at(W, X)[0])


def test_gd_converges_and_flags():
    g = torch.Generator().manual_seed(6)
    X = _unit(6, 5, g)
    y = torch.rand(6, generator=g, dtype=torch.float64) * 2 - 1
    W, a = tl.init(4, 500, 5, g, kappa=0.5)
    lam_max = torch.linalg.eigvalsh(kn.ntk_relu_gram(X)).max().item()
    r = tl.train_gd(W, a, X, y, lr=1.0 / lam_max, steps=20000, tol=1e-8, record_every=10)
    assert r.converged.all() and (r.loss <= 1e-8).all(), r.steps
    assert (r.history[1:] <= r.history[:-1] * (1 + 1e-9)).all()     # monotone at this step size
    with pytest.raises(NotConverged):
        tl.train_gd(W, a, X, y, lr=1.0 / lam_max, steps=3, tol=1e-10)
    out = tl.train_gd(W, a, X, y, lr=1.0 / lam_max, steps=3, tol=1e-10, raise_on_fail=False)
    assert not out.converged.any()


def _Z(W, a, X):
    """Z of 002 App. C eq. (3) for one network, built entry by entry: (m d) x n."""
    m = W.shape[0]
    return torch.stack([torch.cat([(W[r] @ X[i] >= 0) * a[r] * X[i] for r in range(m)]) for i in range(X.shape[0])], 1) / math.sqrt(m)


def test_track_gram_is_max_over_steps_of_z_and_h_distance():
    """max_zdiff / max_hdiff (002 Lemma 6) against Z and H rebuilt from scratch at every recorded iterate."""
    g = torch.Generator().manual_seed(7)
    W0, a = tl.init(2, 12, 3, g, kappa=0.2)
    X = _unit(3, 3, g)
    y = torch.tensor([0.5, -0.3, 0.8], dtype=torch.float64)
    r = tl.train_gd(W0, a, X, y, lr=0.5, steps=40, tol=0.0, raise_on_fail=False, track_gram=True)
    for b in range(2):
        W, zmax, hmax = W0[b].clone(), 0.0, 0.0
        Z0 = _Z(W0[b], a[b], X)
        for _ in range(41):
            Z = _Z(W, a[b], X)
            zmax = max(zmax, float((Z - Z0).norm()))
            hmax = max(hmax, float((Z.T @ Z - Z0.T @ Z0).norm()))
            G, _ = tl.gradient(W.unsqueeze(0), a[b:b + 1], X, y)
            W = W - 0.5 * G[0]
        assert math.isclose(float(r.max_zdiff[b]), zmax, rel_tol=1e-12, abs_tol=1e-14)
        assert math.isclose(float(r.max_hdiff[b]), hmax, rel_tol=1e-12, abs_tol=1e-14)
    assert float(r.max_zdiff.max()) > 0          # the test moved some activation pattern


def test_band_count_counts_pairs_near_the_boundary():
    g = torch.Generator().manual_seed(8)
    W, _ = tl.init(3, 50, 4, g)
    X = _unit(5, 4, g)
    R = torch.tensor([0.1, 0.5, 2.0], dtype=torch.float64)
    got = tl.band_count(W, X, R)
    for b in range(3):
        want = sum(int(abs(float(W[b, r] @ X[i])) <= float(R[b])) for r in range(50) for i in range(5))
        assert float(got[b]) == want
