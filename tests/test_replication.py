"""Refute only what replicates: a rejection must be reproduced on fresh draws (verify.run.runner)."""
from __future__ import annotations

import math

import torch

from verify.run.runner import ClaimResult, make_context, replicate_rejections
from verify.model.claim import Claim, Domain, Kind, Param, Source, Verdict
from verify.model.evidence import decide, finalize
from verify.judge import Expectation

DOM = Domain((Param("mu", -10, 10),))


def _claim(cid, sampler, predicted=0.0):
    return Claim(id=f"tahir2024.{cid}", kind=Kind.EXACT, source=Source("tahir2024", "synthetic"), statement="E x = 0",
                 assumptions="synthetic", domain=DOM,
                 check=Expectation(points=[{"mu": 0.0}, {"mu": 1.0}], predicted=lambda p: predicted,
                                   sampler=sampler, trials=4000))


def _judge(claims, seed=0):
    ctx = make_context("quick", seed, progress=False)
    results = [ClaimResult(c, c.check.run(c, ctx)) for c in claims]
    finalize([r.evidence for r in results], 0.05)
    secs = replicate_rejections(results, ctx, 0.05)
    # the run's timing block lists the seconds of each replication, and of no claim without a rejection
    assert set(secs) == {r.claim.id for r in results if any("replication" in t.extra for t in r.evidence.tests)}
    assert all(isinstance(s, float) and s >= 0 for s in secs.values())
    return {r.claim.id: (decide(r.evidence)[0], r.evidence) for r in results}


def test_a_real_erratum_replicates_and_a_fluke_does_not():
    run_seed = 0
    # true mean p["mu"]: the stated value 0 is false at mu = 1, by ~60 standard errors
    wrong = _claim("rep_wrong", lambda p, B, g, ctx: p["mu"] + torch.randn(B, generator=g, dtype=torch.float64))
    # a fluke: a shift only on the first run's draws (the replication has another seed)
    fluke = _claim("rep_fluke", lambda p, B, g, ctx: (0.5 if ctx.seed == run_seed else 0.0)
                   + torch.randn(B, generator=g, dtype=torch.float64))
    out = _judge([wrong, fluke], seed=run_seed)
    v, ev = out["tahir2024.rep_wrong"]
    assert v == Verdict.REFUTED
    rej = [t for t in ev.tests if t.status == "rejected"]
    assert rej and all(t.extra["replication"]["rejected"] for t in rej)
    assert all(t.extra["replication"]["seed"] != t.seed for t in rej)
    v, ev = out["tahir2024.rep_fluke"]
    assert v == Verdict.INCONCLUSIVE
    assert {t.status for t in ev.tests} == {"not replicated"}


def test_decided_at_withholds_a_confirmation_below_its_profile_only():
    """A claim with decided_at='standard' is inconclusive at quick when its tests agree, confirmed at standard;
    a refutation is reported at every profile (verify.run.runner.verdict_of)."""
    import dataclasses

    from verify.run.runner import verdict_of

    ok = dataclasses.replace(_claim("dec_ok", lambda p, B, g, ctx: p["mu"] * 0 + 1e-3 * torch.randn(B, generator=g,
                                                                                                 dtype=torch.float64)),
                             decided_at="standard")
    wrong = dataclasses.replace(_claim("dec_wrong", lambda p, B, g, ctx: p["mu"] + torch.randn(B, generator=g,
                                                                                             dtype=torch.float64)),
                                decided_at="standard")
    out = _judge([ok, wrong])
    assert decide(out["tahir2024.dec_ok"][1])[0] == Verdict.CONFIRMED
    v, why = verdict_of(ok, out["tahir2024.dec_ok"][1], "quick")
    assert v == Verdict.INCONCLUSIVE and "not decided at quick" in why and "--profile standard" in why
    assert verdict_of(ok, out["tahir2024.dec_ok"][1], "standard")[0] == Verdict.CONFIRMED
    assert verdict_of(wrong, out["tahir2024.dec_wrong"][1], "quick")[0] == Verdict.REFUTED


def test_decided_at_must_name_a_profile():
    import dataclasses

    import pytest

    with pytest.raises(ValueError, match="decided_at"):
        dataclasses.replace(_claim("dec_bad", lambda p, B, g, ctx: torch.zeros(B)), decided_at="slow")


def test_a_failed_check_given_as_a_numpy_bool_refutes():
    """numpy.False_ is not False: a check built from a numpy comparison must count as failed (found by the
    mutants of dayi2024.claim2, whose failing checks were read as passed)."""
    import numpy as np

    from verify.model.evidence import Check, Evidence, decide

    c = Check("numpy comparison", np.float64(1.0) > 2.0)
    assert c.passed is False
    assert decide(Evidence(checks=[c]))[0].value == "refuted"
    assert Check("undecided", None).passed is None and Check("ok", np.True_).passed is True


_WRONG = '''
import torch
from verify.kit import Claim, Domain, Expectation, Kind, Paper, Param, Source
PAPER = Paper("{key}", "arXiv:0000.00000", "A test paper")
DOM = Domain((Param("mu", -10, 10),))

def _sampler(p, B, g, ctx):
    return p["mu"] + torch.randn(B, generator=g, dtype=torch.float64)

CLAIMS = [Claim(id=f"{key}.wrong{{i}}", kind=Kind.EXACT, source=Source("{key}", "synthetic"), statement="E x = 0",
                assumptions="synthetic", domain=DOM,
                check=Expectation(points=[{{"mu": 0.0}}, {{"mu": 1.0 + i}}], predicted=lambda p: 0.0,
                                  sampler=_sampler, trials=400))
          for i in range(3)]
'''


def test_replications_in_workers_are_the_serial_ones(tmp_path):
    """--jobs 2 runs the replications in worker processes: the same replication draws, estimates and adjusted
    p-values as the serial run's."""
    from verify import api
    from verify.run import registry

    key = "repjobs0"
    f = tmp_path / f"{key}.py"
    f.write_text(_WRONG.format(key=key))
    registry.use([str(f)])
    runs = [api.run([f"{key}.*"], profile="quick", seed=0, progress=False, jobs=j) for j in (1, 2)]
    reps = [{(r.claim.id, t.label): t.extra.get("replication") for r in res.claims for t in r.evidence.tests}
            for res in runs]
    assert reps[0] == reps[1]
    assert sum(1 for v in reps[0].values() if v and v["done"] and v["rejected"]) == 3   # mu = 1, 2, 3
    assert [r.verdict for r in runs[1].claims] == [Verdict.REFUTED] * 3


def test_a_group_check_under_user_points_runs_each_point_once():
    """tahir2024.thm3.9 (PerGroup over theta, an Asymptotic built on each group's points): under user points (--at,
    and the replication, which runs the rejected points) each group's inner check runs its own points, not every
    user point once per group (which gave every test once per group: 840 tests of 70 labels, 13x the time)."""
    from verify.run.registry import all_claims
    from verify.run.runner import make_context

    claim = next(c for c in all_claims() if c.id == "tahir2024.thm3.9")
    at = [{"gamma": 0.5, "sigma": s, "theta": t, "L": 2} for s in (0.0, 1.0) for t in (0.0, math.pi / 2)]
    ev = claim.check.run(claim, make_context("quick", 0, at=at, progress=False))
    labels = [t.label for t in ev.tests]
    assert len(labels) == len(set(labels)) and len(labels) == 2 * len(at)     # stated and derived, per point
