"""Refute only what replicates: a rejection must be reproduced on fresh draws (verify.api)."""
from __future__ import annotations

import torch

from verify.api import ClaimResult, make_context, replicate_rejections
from verify.claim import Claim, Domain, Kind, Param, Source, Verdict
from verify.evidence import decide, finalize
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
    replicate_rejections(results, ctx, 0.05)
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
