"""Same command, seed and profile: byte-identical results.json apart from the separate timing block."""
from __future__ import annotations

import json

import pytest

from verify.run import runner as api

# one claim of each strategy that is cheap at quick: Identity + Custom (symbolic), PropertySearch,
# Expectation (at a user point), Asymptotic (at a user point)
RUNS = [
    (["tahir2024.thm3.6.stieltjes", "tahir2024.thm3.8.monotone"], None),
    (["tahir2024.thm3.6.finite"], [{"n": 5, "d": 20, "sigma": 1.0}]),
    (["tahir2024.thm3.6.asymptotic"], [{"gamma": 0.5, "sigma": 0.5}]),
]


def _doc(patterns, at, seed):
    doc = api.run(patterns, profile="quick", seed=seed, at=at, progress=False).to_json()
    assert set(doc) == {"meta", "claims", "timing"} and "seconds" in doc["timing"]
    doc.pop("timing")
    return json.dumps(doc, sort_keys=True)


@pytest.mark.parametrize("patterns,at", RUNS, ids=lambda x: str(x)[:40])
def test_same_seed_same_bytes(patterns, at):
    a, b = _doc(patterns, at, 3), _doc(patterns, at, 3)
    assert a == b
    if at is not None:  # and another seed gives other numbers
        assert _doc(patterns, at, 4) != a


def test_worker_processes_give_the_same_bytes():
    """``--jobs 2`` runs claims in spawned worker processes with one torch thread each: the document is
    the same as the serial run's, byte for byte (every draw is seeded from the run seed and the claim id,
    never from the order in which claims run), and in the selection's order."""
    pats = ["tahir2024.thm3.6.stieltjes", "tahir2024.thm3.8.monotone", "hermite.parseval.relu",
            "liu2019.sec6_3.scratch", "tahir2024.rate.lemmaB1.eq50", "shachaf2021.fig1.large_n"]
    serial = api.run(pats, profile="quick", seed=2, progress=False).to_json()
    parallel = api.run(pats, profile="quick", seed=2, progress=False, jobs=2).to_json()
    serial.pop("timing"), parallel.pop("timing")
    assert json.dumps(parallel, sort_keys=True) == json.dumps(serial, sort_keys=True)


def test_jobs_must_be_positive():
    with pytest.raises(api.DomainError, match="--jobs"):
        api.run(["tahir2024.thm3.6.stieltjes"], profile="quick", progress=False, jobs=0)
