"""Every built-in claim is a test: its quick-profile verdict must equal the reviewed one.

The reviewed verdicts live in ``tests/expected_verdicts.json``.  A change of any verdict,
a new claim without a reviewed verdict, or a reviewed claim that disappeared fails loudly.
To review a change: run ``python -m verify run --profile quick --seed 0``, read the
evidence in reports/report.md, and only then edit the file.

The verdict items ``test_claim_verdict[<claim id>]`` are made by the pytest plugin
(:mod:`verify.plugin`), the same mechanism a user's own claims package uses: ``SUITE`` (tests/conftest.py)
is the built-in sources pinned in expected_verdicts.json, judged in one run shared with ``quick_run``.
Only the built-in sources count here, whatever other claims packages are installed.
"""
from __future__ import annotations

import math

import json
from pathlib import Path

import pytest

from conftest import SUITE
from verify.judge.severity import CLASSES
from verify.run.registry import builtin_claims

pytestmark = pytest.mark.claims

EXPECTED = json.loads((Path(__file__).parent / "expected_verdicts.json").read_text())
IDS = [c.id for c in builtin_claims()]


def test_there_are_claims():
    assert len(IDS) >= 3


def test_every_claim_has_a_reviewed_verdict():
    missing = sorted(set(IDS) - set(EXPECTED))
    stale = sorted(set(EXPECTED) - set(IDS))
    assert not missing, f"claims without a reviewed verdict in expected_verdicts.json: {missing}"
    assert not stale, f"reviewed verdicts for claims that no longer exist: {stale}"


# one item per claim, test_claim_verdict[<id>]: its verdict in the quick run against expected_verdicts.json, with
# the claim's reason and evidence in the failure message (verify.plugin.ClaimItem)
test_claim_verdict = SUITE


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_evidence_is_complete(claim_id, quick_run):
    r = {r.claim.id: r for r in quick_run.claims}[claim_id].to_json()
    assert r["source"]["file"].endswith((".txt", ".py")) and r["source"]["where"]
    assert r["statement"] and r["assumptions"]
    ev = r["evidence"]
    assert ev["tests"] or ev["checks"], "a verdict needs evidence"
    broken = [c["detail"] for c in ev["checks"] if c["name"] == "check raised an error"]
    assert not broken, f"the check raised an error (a bug, not evidence): {broken[0]}"
    if ev["tests"]:
        assert ev["seeds"], "Monte Carlo evidence must record its seeds"
    for t in ev["tests"]:
        # JSON has no infinities: results.json writes them as the strings "inf" / "-inf" (an unbounded CI
        # is honest evidence of an undefined estimate, e.g. a censored median; such a test is undecided).
        lo, est, hi = (float(v) for v in (t["ci"][0], t["estimate"], t["ci"][1]))
        assert t["trials"] > 1 and lo <= est <= hi
        if not (math.isfinite(lo) and math.isfinite(hi)):
            assert t["status"] in ("undecided", "degenerate"), "a test with an unbounded interval can decide nothing"
    if r["verdict"] == "refuted":
        has_cx = any(c["passed"] is False and c["refutes"] for c in ev["checks"])
        has_rej = any(t["status"] == "rejected" and t["target"] == "stated" for t in ev["tests"])
        assert has_cx or has_rej, "a refutation must show its counterexample or rejected test"


@pytest.mark.parametrize("claim_id", IDS)
def test_tests_that_cannot_fail_are_set_aside(claim_id, quick_run):
    """A Monte Carlo test with zero spread and an estimate equal to its prediction to the last bit cannot fail:
    the judge sets it aside ('degenerate'), so it never counts towards a verdict."""
    r = {r.claim.id: r for r in quick_run.claims}[claim_id]
    for t in r.evidence.tests:
        if t.extra.get("std") == 0.0 and t.estimate == t.predicted:
            assert t.status == "degenerate", t.label


@pytest.mark.parametrize("claim_id", IDS)
def test_corrected_forms_have_their_own_verdict(claim_id, quick_run):
    r = {r.claim.id: r for r in quick_run.claims}[claim_id].to_json()
    if r["corrected"]:
        assert r["corrected_verdict"] in ("confirmed", "refuted", "inconclusive"), r["corrected_verdict"]
        assert r["corrected_reason"]
    if r["verdict"] == "confirmed" and any(t["status"] != "degenerate" for t in r["evidence"]["tests"]):
        assert r["rules_out"], "a Monte Carlo confirmation must say what it rules out"


# ---------------------------------------------------------------- the errata list of the pinned quick run
# Every refutation is of the source as its authors meant it (extensions 'do not extend'), declares what part of the
# source it reads, carries a derived severity class with its measured support, and claims refuted for one reason
# share one root cause.  In this file with the other readers of ``quick_run``: scripts/test.sh runs the tests in two
# pytest-xdist workers file by file (--dist loadfile), so every reader of the run is in the worker that simulates it.

@pytest.fixture(scope="module")
def doc(quick_run):
    return quick_run.to_json()


def test_no_extension_is_refuted(doc):
    bad = [c["id"] for c in doc["claims"] if c["extension"] and c["verdict"] == "refuted"]
    assert not bad, f"extensions must 'not extend', never be refuted: {bad}"
    assert "does not extend" in doc["meta"]["counts"]


def test_every_refutation_declares_its_role_and_has_a_measured_severity(doc):
    for c in doc["claims"]:
        if c["verdict"] != "refuted":
            assert c["severity"] is None or c["verdict"] == "does not extend", c["id"]
            continue
        s = c["severity"]
        assert c["role_declared"], f"{c['id']}: a refuted claim declares its role (statement, proof step, ...)"
        assert s["class"] in CLASSES, c["id"]
        assert s["measured"]["method"] != "none recorded", f"{c['id']}: no measurement behind its severity"
        if s["class"] in ("substantive", "boundary") and s["measured"].get("fraction") is not None:
            lo, hi = s["measured"]["ci95"]
            assert lo <= s["measured"]["fraction"] <= hi or s["measured"]["of"] == "the grid points", c["id"]
        if s["class"] == "proof step":
            assert "holds_by" in s, c["id"]


def test_root_causes_are_one_object_per_key(doc):
    seen: dict = {}
    for c in doc["claims"]:
        rc = c["root_cause"]
        if rc is None:
            continue
        assert seen.setdefault(rc["key"], rc) == rc, f"{c['id']}: root cause {rc['key']} declared twice, differently"
        assert rc["summary"] and rc["paper"], c["id"]


def test_a_witness_is_shown_where_a_uniform_draw_failed(doc):
    for c in doc["claims"]:
        s = c.get("severity") or {}
        m = s.get("measured", {})
        if m.get("failed") and m.get("of") == "the domain":
            assert m.get("witness"), f"{c['id']}: failing draws but no strongest witness recorded"
