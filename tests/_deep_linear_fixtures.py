"""Shared helpers of the deep-linear / linear fine-tuning tests (test_deep_linear.py, test_shachaf_deep.py,
test_shachaf_linear.py): one torch intra-op thread per test and seeded generators.

Import both names into a test module (``from _deep_linear_fixtures import gen, one_thread``): an autouse fixture
applies to the modules that import it.
"""
from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny batched mat-vecs are much slower with 2 intra-op threads on a shared machine."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def gen(seed: int) -> torch.Generator:
    """A CPU torch generator seeded with ``seed``."""
    return torch.Generator().manual_seed(seed)
