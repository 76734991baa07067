"""Shared fixtures: one quick-profile run of every built-in claim per test session.

Every claim is judged inside one run, exactly as `python -m verify run --profile quick
--seed 0 --jobs 2` would, so Holm's correction spans the same family of tests.  Two worker
processes (on a machine with two or more cores): the verdicts do not depend on the number of
workers, and the run takes about half the time.

The run is the pytest plugin's (verify/plugin.py, loaded by `-p verify.plugin` in pyproject.toml):
`SUITE` is the built-in claims pinned in tests/expected_verdicts.json, the same set whose verdicts
tests/test_claims.py asserts, so the verdict items and this fixture share one run.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from verify.run import registry
from verify.plugin import ClaimSet

# The tests' own property tests draw the same examples on every run (CI's result does not depend on luck);
# HYPOTHESIS_PROFILE=explore draws new ones.  The claims' PropertySearch checks are seeded by the run, whatever
# profile is loaded here.
settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

QUICK_SEED = 0
SUITE = ClaimSet("verify.claims", expected=Path(__file__).parent / "expected_verdicts.json", profile="quick",
                 seed=QUICK_SEED, jobs=min(2, os.cpu_count() or 1))


# the run of every pinned built-in claim (tests that read evidence); ClaimItems selected with -k alone simulate
# only their claims (verify.plugin)
quick_run = SUITE.run_fixture("quick_run")


@pytest.fixture(autouse=True)
def _restore_registry():
    """A test that adds ``--claims`` sources (``registry.use``, also through ``cli.main``) leaves the registry as it
    found it, so later tests see the built-in claims only (the claims are reloaded only when the sources changed)."""
    before = list(registry._EXTRA)
    yield
    if registry._EXTRA != before:
        registry._EXTRA[:] = before
        registry.all_claims.cache_clear()
