"""The exact per-draw variances that size tahir2024.thm3.9.eq143's trials (issue 13) against Monte Carlo of the
claim's own sampler: a wrong variance would size the quick grid wrongly (undecided or wasteful), never bias it."""
from __future__ import annotations

import pytest
import torch

from verify import api
from verify.claims.tahir2024.finetune import _eq143_sampler, _eq143_variance


@pytest.mark.parametrize("n,d", [(5, 20), (10, 12), (3, 6)])
def test_eq143_variance_matches_the_sampler(n, d):
    ctx = api.make_context("quick", 0, progress=False)
    g = torch.Generator().manual_seed(11)
    x = _eq143_sampler({"n": n, "d": d, "what": [0, 1]}, 60000, g, ctx)
    for what in (0, 1):
        v = float(x[:, what].var())
        assert v == pytest.approx(_eq143_variance(n, d, what), rel=0.05), (what, v)
