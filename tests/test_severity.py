"""The severity rule (verify/judge/severity.py) and the verdict of a refuted extension, on small claims built here."""
from __future__ import annotations

import math
import random

import pytest
import sympy as sp

from verify.run.runner import ClaimResult, make_context, verdict_of
from verify.model.claim import Claim, Constraint, Domain, Kind, Param, Source, Verdict
from verify.model.evidence import Check, Evidence, StatTest, finalize
from verify.judge import PropertySearch
from verify.judge.severity import CLASSES, assess, one_change, rank

CTX = make_context("quick", 0, progress=False)
X = Domain((Param("x", 0, 1),))


def _claim(check, **kw) -> Claim:
    kw.setdefault("id", "hermite.test.claim")
    return Claim(kind=Kind.BOUND, source=Source("hermite", "test"), statement="s", assumptions="a",
                 domain=kw.pop("domain", X), check=check, **kw)


def _judged(claim: Claim, others=None) -> ClaimResult:
    ev = claim.check.run(claim, CTX) if claim.check is not None else Evidence()
    finalize([ev], 0.05)
    r = ClaimResult(claim, ev)
    r.verdict, r.reason = verdict_of(claim, ev, "quick")
    r.severity = assess(r, {claim.id: r, **(others or {})}, CTX)
    return r


def test_a_failure_on_half_the_domain_is_substantive_with_its_fraction_and_strongest_witness():
    c = _claim(PropertySearch("x <= 1/2", holds=lambda p: p["x"] <= 0.5, margin=lambda p: p["x"] - 0.5))
    r = _judged(c)
    assert r.verdict is Verdict.REFUTED
    m = r.severity["measured"]
    assert r.severity["class"] == "substantive"
    assert m["n"] == 200 and abs(m["fraction"] - 0.5) < 0.1 and m["ci95"][0] < m["fraction"] < m["ci95"][1]
    # the witness is the failing draw with the largest margin (near x = 1), not the shrunk minimal one (x just
    # above 1/2)
    assert m["witness"]["point"]["x"] > 0.95 and m["witness"]["margin"] > 0.45
    assert m["largest_gap"] == m["witness"]["margin"]


def test_a_failure_only_at_an_endpoint_is_a_boundary_erratum():
    c = _claim(PropertySearch("x > 0", holds=lambda p: p["x"] > 0))
    r = _judged(c)
    assert r.verdict is Verdict.REFUTED
    assert r.severity["measured"]["fraction"] == 0 and r.severity["measured"]["depth"] == 0
    assert r.severity["class"] == "boundary"


def test_role_decides_before_measurement():
    fails = PropertySearch("x <= 1/2", holds=lambda p: p["x"] <= 0.5)
    assert _judged(_claim(fails, role="remark")).severity["class"] == "remark"
    assert _judged(_claim(fails, role="caption")).severity["class"] == "remark"
    holds = _judged(_claim(PropertySearch("true", holds=lambda p: True), id="hermite.test.result"))
    step = _judged(_claim(fails, role="proof step", holds_by=("hermite.test.result",)),
                   others={"hermite.test.result": holds})
    assert step.severity["class"] == "proof step"
    assert step.severity["holds_by"] == [{"id": "hermite.test.result", "verdict": "confirmed"}]


def test_a_refuted_extension_does_not_extend_and_has_no_class():
    c = _claim(PropertySearch("x <= 1/2", holds=lambda p: p["x"] <= 0.5), tags=("extension",))
    r = _judged(c)
    assert r.verdict is Verdict.DOES_NOT_EXTEND
    assert r.severity["class"] is None and r.severity["measured"]["fraction"] > 0


def test_confirmed_claims_carry_no_severity():
    assert _judged(_claim(PropertySearch("true", holds=lambda p: True))).severity is None


def test_monte_carlo_refutations_report_the_share_of_interior_grid_points():
    t_in = StatTest("a", {"x": 0.5}, 1.0, 2.0, 0.01, 1000, 0.02, 0.0)
    t_edge = StatTest("b", {"x": 0.0}, 1.0, 1.5, 0.01, 1000, 0.02, 0.0)
    t_ok = StatTest("c", {"x": 0.7}, 1.0, 1.0, 0.01, 1000, 0.02, 1.0, ci=(0.99, 1.01))
    ev = Evidence(tests=[t_in, t_edge, t_ok])
    finalize([ev], 0.05)
    c = _claim(None)
    r = ClaimResult(c, ev)
    r.verdict, _ = verdict_of(c, ev, "quick")
    r.severity = assess(r, {}, CTX)
    m = r.severity["measured"]
    assert r.severity["class"] == "substantive"
    assert m["failed"] == 2 and m["n"] == 3 and m["interior_failed"] == 1
    assert m["witness"]["point"] == {"x": 0.5} and math.isclose(m["largest_gap"], 1.0)


def test_only_edge_grid_points_rejected_is_boundary():
    t_edge = StatTest("b", {"x": 0.0}, 1.0, 1.5, 0.01, 1000, 0.02, 0.0)
    t_ok = StatTest("c", {"x": 0.7}, 1.0, 1.0, 0.01, 1000, 0.02, 1.0, ci=(0.99, 1.01))
    ev = Evidence(tests=[t_edge, t_ok])
    finalize([ev], 0.05)
    c = _claim(None)
    r = ClaimResult(c, ev)
    r.verdict, _ = verdict_of(c, ev, "quick")
    r.severity = assess(r, {}, CTX)
    assert r.severity["class"] == "boundary"


def test_typo_needs_a_confirmed_corrected_form_one_change_away():
    kappa = sp.Symbol("kappa", positive=True)
    c = _claim(None, domain=Domain((Param("kappa", 0, 1, lower_open=True),)),
               stated=1 / sp.sqrt(2 * sp.pi * kappa), derived=1 / (sp.sqrt(2 * sp.pi) * kappa))
    assert one_change(c).startswith("a factor")
    ev = Evidence(checks=[Check("stated", False, "counterexample", refutes=True),
                          Check("ours", True, "", refutes=False)])
    r = ClaimResult(c, ev, verdict=Verdict.REFUTED, corrected_verdict=Verdict.CONFIRMED)
    assert assess(r, {}, CTX)["class"] == "typo"
    r.corrected_verdict = Verdict.INCONCLUSIVE   # an unverified correction is no typo
    assert assess(r, {}, CTX)["class"] != "typo"


@pytest.mark.parametrize("stated, derived, expect", [
    ("3*x", "2*x", "a constant factor 3/2"),
    ("x + x**2", "x", "one monomial term"),
    ("sin(x) + x", "cos(x)", None),
])
def test_one_change(stated, derived, expect):
    c = _claim(None, stated=sp.sympify(stated), derived=sp.sympify(derived))
    got = one_change(c)
    assert (got is None) if expect is None else got.startswith(expect)


def test_classes_are_ranked_most_serious_first():
    assert [rank(c) for c in CLASSES] == list(range(len(CLASSES)))
    assert rank(None) == len(CLASSES)


def test_uniform_draw_respects_open_ends_integers_and_constraints():
    d = Domain((Param("n", 1, 5, integer=True), Param("s", 0, 1, lower_open=True), Param("t", 0)),
               (Constraint(lambda p: p["n"] >= 2, "n >= 2"),))
    pts, info = d.uniform(random.Random(1), 300)
    assert len(pts) == 300 and info["box"]["t"] == [0.0, 10.0]
    assert all(isinstance(p["n"], int) and 2 <= p["n"] <= 5 and 0 < p["s"] <= 1 for p in pts)
    assert d.depth({"n": 3, "s": 0.5, "t": 5.0}, info["box"]) == 0.5
    assert d.depth({"n": 3, "s": 0.5, "t": 0.0}, info["box"]) == 0.0


def test_a_failing_step_of_a_result_not_shown_to_hold_is_classed_by_what_fails():
    fails = PropertySearch("x <= 1/2", holds=lambda p: p["x"] <= 0.5)
    result = _judged(_claim(fails, id="hermite.test.result"))          # the result itself is refuted
    step = _judged(_claim(fails, role="proof step", holds_by=("hermite.test.result",)),
                   others={"hermite.test.result": result})
    assert step.severity["class"] == "substantive"
    assert step.severity["holds_by"] == [{"id": "hermite.test.result", "verdict": "refuted"}]
    assert "not shown to hold" in step.severity["note"]
