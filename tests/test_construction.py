"""A check of our own construction (``Claim.construction``): recorded per claim in results.json and, when confirmed,
counted apart from the confirmations of the source (``meta.counts["confirmed (own construction)"]``), while the
verdict itself stays "confirmed"; on small claims built here."""
from __future__ import annotations

import pytest

from verify.judge import Custom
from verify.model.claim import Claim, Domain, Kind, Param, Source, Verdict
from verify.model.evidence import Check, Evidence
from verify.run.runner import OWN_CONSTRUCTION, ClaimResult, RunResult, make_context, verdict_of

CTX = make_context("quick", 0, progress=False)
BY_DESIGN = "the stated value is computed by the same code as the estimate"


def _claim(cid: str, passes: bool, construction: str | None = None) -> Claim:
    check = Custom(lambda claim, ctx, points: Evidence(checks=[Check("a deterministic check", passes, "detail")]),
                   points=[{"x": 0.5}])
    return Claim(id=f"hermite.test.{cid}", kind=Kind.BOUND, source=Source("hermite", "test"), statement="s",
                 assumptions="a", domain=Domain((Param("x", 0, 1),)), check=check, construction=construction)


def _judged(claim: Claim) -> ClaimResult:
    ev = claim.check.run(claim, CTX)
    r = ClaimResult(claim, ev)
    r.verdict, r.reason = verdict_of(claim, ev, "quick")
    return r


def test_own_construction_is_recorded_and_counted_apart_while_the_verdict_stays_confirmed():
    own, source, own_failed = (_judged(_claim("own", True, BY_DESIGN)), _judged(_claim("src", True)),
                               _judged(_claim("bad", False, BY_DESIGN)))
    assert own.verdict is Verdict.CONFIRMED and own_failed.verdict is Verdict.REFUTED
    doc = RunResult([own, source, own_failed]).to_json()
    rows = {c["id"].rsplit(".", 1)[1]: c for c in doc["claims"]}
    assert rows["own"]["construction"] == BY_DESIGN and rows["own"]["verdict"] == "confirmed"
    assert rows["src"]["construction"] is None
    n = doc["meta"]["counts"]
    # a part of "confirmed": only the confirmed claim of our own construction, not the refuted one
    assert n["confirmed"] == 2 and n[OWN_CONSTRUCTION] == 1 and n["refuted"] == 1
    assert sum(n[v.value] for v in Verdict) == 3   # the per-verdict counts still add up to the claims


@pytest.mark.parametrize("bad", ["", "   ", 3])
def test_construction_must_be_a_sentence(bad):
    with pytest.raises(ValueError, match="construction must be a sentence"):
        _claim("x", True, bad)
