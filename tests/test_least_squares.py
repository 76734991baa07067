"""The batched solvers of numerics.least_squares: split over the cores, Cholesky with LU fallback."""
from __future__ import annotations

import torch

from numerics.least_squares import batched_solve, map_batch, min_norm_solve, ridge_solve, spd_solve

F64 = torch.float64


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_map_batch_equals_one_call_and_restores_threads():
    g = _gen(0)
    A = torch.randn(7, 20, 20, generator=g, dtype=F64)
    A = A @ A.mT + torch.eye(20, dtype=F64)
    B = torch.randn(7, 20, 3, generator=g, dtype=F64)
    before = torch.get_num_threads()
    split = map_batch(torch.linalg.solve, A, B)
    assert torch.get_num_threads() == before
    direct = torch.stack([torch.linalg.solve(A[i], B[i]) for i in range(7)])
    assert torch.allclose(split, direct, rtol=0, atol=1e-12)
    seen = map_batch(lambda X: torch.full((X.shape[0],), torch.get_num_threads()), A)
    assert seen.tolist() == [1] * 7  # every slice on one intra-op thread


def test_spd_solve_matches_lu_and_falls_back_on_indefinite_matrices():
    g = _gen(1)
    M = torch.randn(6, 15, 15, generator=g, dtype=F64)
    A = M @ M.mT + 0.1 * torch.eye(15, dtype=F64)
    A[2] = A[2] - 50 * torch.eye(15, dtype=F64)  # symmetric indefinite: Cholesky fails, LU does not
    B = torch.randn(6, 15, 2, generator=g, dtype=F64)
    x = spd_solve(A, B)
    assert torch.allclose(A @ x, B, atol=1e-9)
    assert torch.allclose(x, batched_solve(A, B), atol=1e-9)


def test_min_norm_and_ridge_solutions():
    g = _gen(2)
    for n, d in [(5, 12), (12, 5)]:
        X = torch.randn(9, n, d, generator=g, dtype=F64)
        y = torch.randn(9, n, generator=g, dtype=F64)
        w = min_norm_solve(X, y)
        assert torch.allclose(w, (torch.linalg.pinv(X) @ y.unsqueeze(-1)).squeeze(-1), atol=1e-10)
        lam = 0.3
        wr = ridge_solve(X, y, lam)
        ref = torch.linalg.solve(X.mT @ X + n * lam * torch.eye(d, dtype=F64), X.mT @ y.unsqueeze(-1)).squeeze(-1)
        assert torch.allclose(wr, ref, atol=1e-10)
