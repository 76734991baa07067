"""Measured power in runs and reports (verify/run/power.py): a confirmation no alternative was shown able to fail is
reported as "confirmed, untested power", apart from the confirmed claims."""
from __future__ import annotations

import json

import pytest

from verify.run import power
from verify.run.runner import make_context
from verify.audit.mutants import power_key
from verify.run.registry import all_claims

CLAIMS = {c.id: c for c in all_claims()}


def _doc(cid: str, **r) -> dict:
    c = CLAIMS[cid]
    k = power_key(c, make_context("quick", 0, progress=False))
    return {"seed": 0, "claims": {cid: {"covered": True, "judged": 3, "refuted": 0, "detected": 0, "power": 0.0,
                                        "mutants": [], "key": k, **r}}}


@pytest.fixture
def fake_mutants(monkeypatch):
    def use(doc):
        monkeypatch.setattr(power, "_doc", lambda profile: doc)
    return use


def test_power_is_shown_only_when_an_alternative_was_rejected_on_the_same_code(fake_mutants):
    cid = "hermite.dual"
    fake_mutants(_doc(cid, refuted=2, power=2 / 3))
    rec = power.power_of(CLAIMS[cid], "quick")
    assert rec["status"] == "shown" and rec["measured"]["refuted"] == 2
    assert power.power_cell({"power": rec}) == "2 of 3 alternatives rejected"
    # none rejected: untested, with the reason
    fake_mutants(_doc(cid))
    rec = power.power_of(CLAIMS[cid], "quick")
    assert rec["status"] == "untested" and "none of its 3 alternatives" in rec["why"]
    # measured on other code (the key differs): not read
    doc = _doc(cid, refuted=2)
    doc["claims"][cid]["key"] = "0" * 32
    fake_mutants(doc)
    assert power.power_of(CLAIMS[cid], "quick")["status"] == "not measured"


def test_a_claim_with_nothing_to_mutate_is_untested_and_says_what_would_give_it_power(fake_mutants):
    from verify.model.claim import Claim, Domain, Kind, Param, Source
    from verify.judge import PropertySearch

    fake_mutants(None)
    c = Claim(id="hermite.test.untested", kind=Kind.BOUND, source=Source("hermite", "test"), statement="x^2 <= 1",
              assumptions="x in [0, 1]", domain=Domain((Param("x", 0, 1),)),
              check=PropertySearch("x^2 <= 1", holds=lambda p: p["x"] ** 2 <= 1),
              notes="A search.  Untested power: a bound tightened to 1/2 would be rejected.")
    rec = power.power_of(c, "standard")
    assert rec["status"] == "untested" and rec["why"] == "a bound tightened to 1/2 would be rejected"


def test_untested_note_reads_both_phrasings():
    class C:
        notes = "Checked exactly.  Power (issue 24): untested -- a witness would need X. More text."
    assert power.untested_note(C) == "a witness would need X"
    C.notes = "Untested power (issue 24): the check cannot tell Y from Z. Later."
    assert power.untested_note(C) == "the check cannot tell Y from Z"


def _claim_rec(cid: str, verdict: str, status: str) -> dict:
    return {"id": cid, "kind": "bound", "verdict": verdict, "reason": "r", "role": "statement",
            "source": {"paper": "hermite", "file": "f", "where": "somewhere", "title": "t"},
            "statement": "s", "power": {"status": status, "why": "a witness of another order would", "witnesses": [],
                                        "sympy_form": False,
                                        "measured": {"refuted": 1, "judged": 2} if status == "shown" else None},
            "evidence": {"tests": [], "checks": [], "details": {}}, "severity": None}


def test_reports_list_untested_confirmations_apart():
    from verify.report.markdown import render_index
    from verify.report.tables import confirmed_split, counts, verdict_text

    doc = {"meta": {"profile": "quick", "seed": 0, "counts": {}}, "timing": {},
           "claims": [_claim_rec("hermite.a", "confirmed", "shown"), _claim_rec("hermite.b", "confirmed", "untested"),
                      _claim_rec("hermite.c", "refuted", "untested")]}
    shown, untested = confirmed_split(doc, "hermite")
    assert [c["id"] for c in shown] == ["hermite.a"] and [c["id"] for c in untested] == ["hermite.b"]
    assert counts(doc, "hermite")["untested_power"] == 1
    assert verdict_text(doc["claims"][1]) == "confirmed, untested power"
    assert verdict_text(doc["claims"][2]) == "refuted"
    index = render_index(doc)
    assert "| 3 (3) | 2 (0; 1) |" in index   # 2 confirmed: none of our own construction, 1 of untested power


def test_checks_of_our_own_construction_are_counted_and_listed_apart():
    """A confirmation whose check is true by construction (``construction`` in results.json) is neither listed nor
    counted with the confirmations of the source: its verdict says so, the index and the summary count it apart, and
    the report lists it under its own heading with why."""
    from verify.report import latex, markdown
    from verify.report.markdown import render_index
    from verify.report.tables import checked_parts, confirmed_split, counts, own_construction, verdict_text

    own = dict(_claim_rec("hermite.b", "confirmed", "shown"), construction="the bound is one we proved ourselves")
    doc = {"meta": {"profile": "quick", "seed": 0, "counts": {}}, "timing": {},
           "claims": [_claim_rec("hermite.a", "confirmed", "shown"), own]}
    shown, untested = confirmed_split(doc, "hermite")
    assert [c["id"] for c in shown] == ["hermite.a"] and not untested
    assert [c["id"] for c in own_construction(doc, "hermite")] == ["hermite.b"]
    n = counts(doc, "hermite")
    assert n["own_construction"] == 1 and n["untested_power"] == 0
    assert verdict_text(own) == "confirmed, a check of our own construction"
    assert "(1 check of our own construction)" in "".join(t for t, _ in checked_parts(n))
    assert "| 2 (2) | 2 (1; 0) |" in render_index(doc)
    md = "\n".join(markdown._rest(doc, "hermite"))
    assert "### Checks of our own construction" in md and "the bound is one we proved ourselves" in md
    assert "Checks of our own construction" in "\n".join(latex._others(doc, "hermite"))


def test_results_json_power_record_is_json():
    rec = power.power_of(CLAIMS["hermite.dual"], "standard")
    json.dumps(rec)
    assert rec["status"] in ("shown", "untested", "not measured")
