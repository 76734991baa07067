"""The overlap chain's CPU fast path (numerics.spherical_sgd: the chunk's steps iterated in numpy) equals the eager
torch loop to float64 rounding, with identical hitting times, over the activations and options dayi2024's claims use."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from numerics import spherical_sgd as S

DT = torch.float64
ACTS = [("relu", 1.0), ("tanh", 1.0), ("erf", 1.0), ("h3", 1.0), ("h3", 1.4), ("h2+h3", 1.0), ("h2+h3", 1.3),
        ("h4", 1.2), ("sigmoid", 1.0)]


@pytest.mark.parametrize("name,inner", ACTS)
def test_numpy_step_equals_torch_step(name, inner):
    """One step of the shared formula, torch tensors against numpy arrays on the same inputs: equal to rounding."""
    g = torch.Generator().manual_seed(1)
    R, k = 64, 5
    act = S.Activation(name, inner)
    s = torch.randn(R, k, generator=g, dtype=DT)
    a, b = torch.randn(R, generator=g, dtype=DT), torch.randn(R, generator=g, dtype=DT)
    n2 = a * a + b * b + 40.0
    fs, ch = torch.randn(R, generator=g, dtype=DT), S.rademacher_c(R, k, g)
    m = torch.rand(R, generator=g, dtype=DT) * 2 - 1
    xch, ec0 = 1.3 * ch, torch.full((R,), 0.02, dtype=DT)
    ref = S._chain_step(m, s, a, b, n2, fs, xch, ch, ec0, act)
    new = S._chain_step(m.numpy(), s.numpy(), a.numpy(), b.numpy(), n2.numpy(), fs.numpy(), xch.numpy(), ch.numpy(),
                        ec0.numpy(), act, S.NUMPY_OPS)
    assert isinstance(new, np.ndarray) and new.dtype == np.float64
    np.testing.assert_allclose(new, ref.numpy(), rtol=0, atol=1e-13)


def _config(seed, name, inner, *, k, rank_w, per_run, half, neg, sep, R=24):
    g = torch.Generator().manual_seed(seed)
    c, ch = S.rademacher_c(R, k, g), S.rademacher_c(R, k, g)
    if rank_w == 0:                                          # the GLM limit W = 0
        gram = torch.zeros(k, k, dtype=DT)
    else:                                                    # orthonormal, or separated rows (cosine 0.3)
        gram = 0.7 * torch.eye(k, dtype=DT) + 0.3 * torch.ones(k, k, dtype=DT) if sep else torch.eye(k, dtype=DT)
    if per_run:
        gram = gram.expand(R, k, k).clone()
        xi = 0.5 + 1.5 * torch.rand(R, generator=g, dtype=DT)
        d = torch.randint(k + 8, 4 * k + 40, (R,), generator=g).to(DT)
        eta = (0.3 + torch.rand(R, generator=g, dtype=DT)) / d
    else:
        xi, d, eta = math.sqrt(k), 3 * k + 20, 0.5 / (3 * k + 20)
    m0 = S.initial_overlaps(R, d, k if rank_w is None else rank_w, g)
    direction = torch.where(torch.rand(R, generator=g) < 0.5, -1.0, 1.0).to(DT) if neg else None
    act = S.Activation(name, inner)
    kw = dict(thresholds=(0.3, 0.5, 0.75), direction=direction, half=half, rank_w=rank_w, n_record=40, chunk=128)
    return (m0, gram, c, ch, xi, act, eta, d, 500), kw


_OPTIONS = [dict(k=5, rank_w=None, per_run=False, half=False, neg=False, sep=False),
            dict(k=3, rank_w=None, per_run=True, half=True, neg=True, sep=True),
            dict(k=4, rank_w=0, per_run=True, half=False, neg=True, sep=False),
            dict(k=6, rank_w=5, per_run=False, half=True, neg=False, sep=True)]


_CHAIN_CASES = [(name, inner, opt) for i, (name, inner) in enumerate(ACTS[:-1]) for opt in (i % 4, (i + 2) % 4)]


@pytest.mark.parametrize("name,inner,opt", _CHAIN_CASES)
def test_numpy_chain_equals_torch_chain(name, inner, opt):
    """overlap_chain with backend="numpy" and "torch" from one seed: the same hits and stopping step, m to rounding
    (the noise is torch's in both; only the k-neuron sums' order and torch's fused addcmul differ)."""
    args, kw = _config(10 * opt + len(name), name, inner, **_OPTIONS[opt])
    res = {be: S.overlap_chain(*args, torch.Generator().manual_seed(7), **kw, backend=be) for be in ("torch", "numpy")}
    t, n = res["torch"], res["numpy"]
    assert torch.equal(t.hits, n.hits) and t.steps == n.steps and torch.equal(t.record_steps, n.record_steps)
    assert (t.hits >= 0).any()                               # the comparison covers hitting times that occur
    torch.testing.assert_close(n.m_path, t.m_path, rtol=0, atol=1e-9)
    torch.testing.assert_close(n.m_final, t.m_final, rtol=0, atol=1e-9)
    assert n.m_final.dtype == DT and n.hits.dtype == torch.int64


def test_default_backend_is_numpy_on_cpu_and_rejects_unknown():
    args, kw = _config(3, "relu", 1.0, **_OPTIONS[0])
    a = S.overlap_chain(*args, torch.Generator().manual_seed(7), **kw)
    b = S.overlap_chain(*args, torch.Generator().manual_seed(7), **kw, backend="numpy")
    assert torch.equal(a.m_path, b.m_path) and torch.equal(a.hits, b.hits)
    with pytest.raises(ValueError, match="backend"):
        S.overlap_chain(*args, torch.Generator().manual_seed(7), **kw, backend="jax")


@pytest.mark.parametrize("name,inner", ACTS)
def test_chain_sums_equal_f_df(name, inner):
    """Activation.chain_sums (the chain's use of sigma) = (sum f, sum f' c^) of f_df, for torch and numpy."""
    g = torch.Generator().manual_seed(2)
    act = S.Activation(name, inner)
    z, ch = 2 * torch.randn(50, 4, generator=g, dtype=DT), S.rademacher_c(50, 4, g)
    f, df = act.f_df(z)
    ref_f, ref_d = f.sum(-1), (df * ch).sum(-1)
    tf, td = act.chain_sums(z, ch, S.TORCH_OPS)
    nf, nd = act.chain_sums(z.numpy(), ch.numpy(), S.NUMPY_OPS)
    for got in (tf, td, torch.from_numpy(nf), torch.from_numpy(nd)):
        assert got.shape == (50,)
    torch.testing.assert_close(tf, ref_f, rtol=1e-13, atol=1e-13)
    torch.testing.assert_close(td, ref_d, rtol=1e-13, atol=1e-13)
    torch.testing.assert_close(torch.from_numpy(nf), ref_f, rtol=1e-13, atol=1e-13)
    torch.testing.assert_close(torch.from_numpy(nd), ref_d, rtol=1e-13, atol=1e-13)


def test_hits_first_equals_the_full_search():
    """_hits_first (search only the pairs the chunk's maximum says are new) = the search over every step, run and
    threshold it replaced, over consecutive chunks."""
    g = torch.Generator().manual_seed(4)
    R, thr = 30, torch.tensor([0.3, 0.5, 0.9], dtype=DT)
    hits, ref = (torch.full((R, 3), -1, dtype=torch.int64) for _ in range(2))
    last = torch.zeros(R, dtype=DT)
    for t0 in range(0, 400, 100):                            # a random walk per run, four chunks of 100 steps
        dm = last + (0.03 * torch.randn(100, R, generator=g, dtype=DT)).cumsum(0)
        last = dm[-1]
        S._hits_first(hits, dm, thr, t0)
        reached = dm[:, :, None] >= thr[None, None, :]
        first = torch.argmax(reached.to(torch.int8), dim=0) + t0 + 1
        new = reached.any(0) & (ref < 0)
        ref[new] = first[new]
    assert torch.equal(hits, ref) and (ref >= 0).any() and (ref < 0).any()
