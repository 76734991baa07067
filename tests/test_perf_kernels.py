"""Kernels rewritten for speed in issue 23 give the numbers of the forms they replace."""
from __future__ import annotations

import torch

from numerics.deep_linear import _mtv, _mv


def test_batched_matvec_equals_matmul():
    """_mv is (v^T W^T)^T: bit for bit W @ v at B = 1, within float64 rounding for B >= 2."""
    g = torch.Generator().manual_seed(0)
    for B, p, q in [(1, 50, 40), (4, 50, 40), (3, 7, 1), (2, 1, 9)]:
        W = torch.randn(B, p, q, generator=g, dtype=torch.float64)
        v = torch.randn(B, q, generator=g, dtype=torch.float64)
        ref = (W @ v.unsqueeze(-1)).squeeze(-1)
        got = _mv(W, v)
        assert got.shape == (B, p)
        if B == 1:
            assert torch.equal(got, ref)
        assert torch.allclose(got, ref, rtol=1e-13, atol=1e-13)
        u = torch.randn(B, p, generator=g, dtype=torch.float64)
        assert torch.allclose(_mtv(W, u), (W.mT @ u.unsqueeze(-1)).squeeze(-1), rtol=1e-13, atol=1e-13)
