"""Power witnesses of the proof-step claims of tahir2024 App. B (issue 24): each confirmed chain declares plausible
slips in one of its links, and its own check rejects them."""
from __future__ import annotations

import pytest

from verify.run.runner import _power_declared, make_context
from verify.audit.mutants import claim_mutation_power
from verify.run.registry import all_claims

CTX = make_context("quick", 0, progress=False)

#: the confirmed proof-step claims without a stated sympy form: each declares power witnesses
WITNESSED = ("proof.lemma3_3.eq36_49", "proof.lemmaB1.eq52_68", "proof.lemmaB1.eq71_72", "proof.thm3_5.eq78_87",
             "proof.thm3_5.eq90", "proof.thm3_6.eq91_98", "proof.thm3_7.eq104_111")


def _claim(short):
    return next(c for c in all_claims() if c.id == "tahir2024." + short)


@pytest.mark.parametrize("short", WITNESSED)
def test_the_proof_steps_declare_witnesses_that_say_why(short):
    c = _claim(short)
    declared = _power_declared(c)
    assert declared["status"] != "untested" and declared["witnesses"], c.id
    assert all(a.why for a in c.power), c.id


@pytest.mark.parametrize("short", ("proof.thm3_6.eq91_98", "proof.thm3_7.eq104_111", "proof.lemma3_3.eq36_49"))
def test_each_witness_is_refuted_and_the_claim_is_not(short):
    """The cheapest chains (per-draw identities, invariant-set instances): every slip is rejected at quick on the
    claim's own draws, while the claim itself is confirmed."""
    c = _claim(short)
    r = claim_mutation_power(c, CTX)
    assert r["control_verdict"] == "confirmed"
    assert {row["status"] for row in r["mutants"]} == {"refuted"} and r["refuted"] == len(c.power)
