"""Shared fixtures: one quick-profile run of every registered claim per test session.

Every claim is judged inside one run, exactly as `python -m verify run --profile quick
--seed 0` would, so Holm's correction spans the same family of tests.
"""
from __future__ import annotations

import pytest

QUICK_SEED = 0


@pytest.fixture(scope="session")
def quick_run():
    from verify import api

    return api.run(None, profile="quick", seed=QUICK_SEED, progress=False)
