"""Power witnesses (Claim.power): plausible wrong statements that the claim's own check must reject."""
from __future__ import annotations

from verify.api import make_context
from verify.claim import Alternative, Claim, Domain, Kind, Param, Source
from verify.judge import PropertySearch
from verify.mutants import claim_mutation_power

CTX = make_context("quick", 0, progress=False)


def _bound(c: float) -> PropertySearch:
    return PropertySearch(f"x^2 <= {c}", holds=lambda p: p["x"] ** 2 <= c)


def _claim(**kw) -> Claim:
    return Claim(id="hermite.test.power", kind=Kind.BOUND, source=Source("hermite", "test"), statement="x^2 <= 1",
                 assumptions="x in [0, 1]", domain=Domain((Param("x", 0, 1),)), check=_bound(1.0), **kw)


def test_a_witness_the_check_rejects_counts_and_one_it_cannot_survives():
    c = _claim(power=(Alternative("bound tightened to 1/2", _bound(0.5), "a constant off by 2"),
                      Alternative("bound loosened to 2", _bound(2.0), "weaker: true, cannot be rejected")))
    r = claim_mutation_power(c, CTX)
    assert r["covered"] and r["judged_by"] == ["power witnesses"]
    status = {row["mutant"]: row["status"] for row in r["mutants"]}
    assert status["power witness: bound tightened to 1/2"] == "refuted"
    assert status["power witness: bound loosened to 2"] == "survived"
    assert r["judged"] == 2 and r["refuted"] == 1 and r["control_verdict"] == "confirmed"


def test_without_a_sympy_form_or_a_witness_power_is_untested():
    from verify.api import _power_declared

    assert _power_declared(_claim()) == {"sympy_mutants": False, "witnesses": [], "untested": True}
    assert claim_mutation_power(_claim(), CTX)["covered"] is False
