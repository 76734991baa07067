"""Shared fixtures: one quick-profile run of every registered claim per test session.

Every claim is judged inside one run, exactly as `python -m verify run --profile quick
--seed 0 --jobs 2` would, so Holm's correction spans the same family of tests.  Two worker
processes (on a machine with two or more cores): the verdicts do not depend on the number of
workers, and the run takes about half the time.
"""
from __future__ import annotations

import os

import pytest

QUICK_SEED = 0


@pytest.fixture(scope="session")
def quick_run():
    from verify import api

    return api.run(None, profile="quick", seed=QUICK_SEED, progress=False, jobs=min(2, os.cpu_count() or 1))
