"""numerics.scratch.min_norm_risk's fused path (issue 23) against the batched path it replaced.

The fused path draws each stream's designs a group at a time and solves them at once; it must
consume exactly the draws of the batched path (same seed -> same designs, labels and teachers)
and give the same risks within float64 rounding (the Gram products of large designs are formed
by syrk instead of GEMM, and groups are solved in other batch sizes).
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

import numerics.scratch as S
from numerics.sampling import gaussian_design, normal_streams, standard_normal


def _batched(trials, n, d, sigma, seed):
    g = torch.Generator().manual_seed(seed)
    sig = torch.as_tensor(sigma if isinstance(sigma, list) else [sigma], dtype=torch.float64)
    beta = S.unit_vectors(trials, d, g)
    r = S._batched_risk(trials, n, d, sig, beta, g, torch.float64)
    return r if isinstance(sigma, list) else r[:, 0]


@pytest.mark.parametrize("trials,n,d", [
    (2000, 5, 20),     # small designs: torch, many per group
    (501, 25, 60),     # odd count: one trial drawn by both streams
    (33, 90, 100),     # n < d just below SYRK_MIN (m^2 M = 810,000): torch
    (7, 250, 500),     # the benchmark's size, syrk path, odd count
    (5, 300, 100),     # n > d, syrk path
    (1, 120, 600),     # one trial: both streams fill parts of it
])
@pytest.mark.parametrize("sigma", [1.0, [0.0, 0.5, 2.0]])
def test_fused_equals_batched_within_rounding(trials, n, d, sigma):
    fused = S.min_norm_risk(trials, n, d, sigma, torch.Generator().manual_seed(11))
    old = _batched(trials, n, d, sigma, 11)
    assert fused.shape == old.shape
    # relative to the trial's risk at sigma = 1 scale (the sigma = 0 risk of n > d is ~1e-30, pure rounding)
    scale = old.abs().amax(dim=-1, keepdim=True) if old.dim() == 2 else old.abs()
    assert float(((fused - old).abs() / scale.clamp_min(1e-300)).max()) < 1e-12
    again = S.min_norm_risk(trials, n, d, sigma, torch.Generator().manual_seed(11))
    assert torch.equal(fused, again)  # same seed, same numbers, bit for bit


def test_fused_is_bitwise_the_batched_path_for_small_designs():
    """Below SYRK_MIN with an even trial count the algebra and the batched kernels are the old ones."""
    for trials, n, d in [(2000, 5, 20), (4000, 26, 20), (600, 70, 60)]:
        assert torch.equal(S.min_norm_risk(trials, n, d, [0.0, 1.0], torch.Generator().manual_seed(3)),
                           _batched(trials, n, d, [0.0, 1.0], 3))


def test_piecewise_stream_fill_equals_standard_normal_and_generator_state_after():
    """The streams filled in pieces, in order, give gaussian_design's numbers, and the torch generator
    is left where the batched path leaves it (the next draw is the same)."""
    n_el = 3 * 250 * 100 + 7  # >= 2^16: the numpy streams
    g1, g2 = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    ref = standard_normal((n_el,), g1).numpy()
    streams, cuts = normal_streams(n_el, g2)
    got = np.empty(n_el)
    for r, a, b in zip(streams, cuts[:-1], cuts[1:]):
        for lo in range(a, b, 10007):
            r.standard_normal(out=got[lo:min(b, lo + 10007)])
    assert np.array_equal(got, ref)
    assert torch.equal(torch.randn(3, generator=g1), torch.randn(3, generator=g2))
    g3, g4 = torch.Generator().manual_seed(8), torch.Generator().manual_seed(8)
    S.min_norm_risk(9, 40, 50, 1.0, g3)
    S.unit_vectors(9, 50, g4), gaussian_design(9, 40, 50, g4), torch.randn(9, 40, generator=g4, dtype=torch.float64)
    assert torch.equal(torch.randn(3, generator=g3), torch.randn(3, generator=g4))


def test_fused_path_restores_thread_counts():
    from threadpoolctl import threadpool_info

    before_torch = torch.get_num_threads()
    before_blas = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
    S.min_norm_risk(4, 250, 500, 1.0, torch.Generator().manual_seed(0))
    assert torch.get_num_threads() == before_torch
    assert [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"] == before_blas


def test_fused_numbers_do_not_depend_on_the_thread_count():
    """One torch thread: the streams run one after the other on the calling thread; two: in parallel."""
    from numerics.least_squares import intra_op_threads

    runs = []
    for k in (1, 2):
        with intra_op_threads(k):
            runs.append(S.min_norm_risk(5, 250, 500, [0.0, 1.0], torch.Generator().manual_seed(4)))
            runs.append(S.min_norm_risk(301, 25, 60, 1.0, torch.Generator().manual_seed(4)))
    assert torch.equal(runs[0], runs[2]) and torch.equal(runs[1], runs[3])
