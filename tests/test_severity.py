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
from verify.judge.severity import (CLASSES, PROOF_CONSEQUENCES, assess, classify, minimal_change, one_change, order_key,
                                   rank, reclassify)

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


def test_typo_needs_a_confirmed_corrected_form_one_value_level_change_away():
    n, p = sp.symbols("n p", positive=True)
    c = _claim(None, domain=Domain((Param("n", 5, 50), Param("p", 1, 2))),
               stated=1 / (n - p - 2), derived=1 / (n - p - 1))
    assert one_change(c) == "an off-by-one in a constant: −2 where −1"
    ev = Evidence(checks=[Check("stated", False, "counterexample", refutes=True),
                          Check("ours", True, "", refutes=False)])
    r = ClaimResult(c, ev, verdict=Verdict.REFUTED, corrected_verdict=Verdict.CONFIRMED)
    sev = assess(r, {}, CTX)
    # the printed form fails on a set of positive measure (measured against the derived form), yet it is a typo
    assert sev["measured"]["fraction"] > 0.1 and sev["class"] == "typo"
    assert sev["change"]["differs"] == "−2 where −1" and "−2 where −1" in sev["why"]
    r.corrected_verdict = Verdict.INCONCLUSIVE   # an unverified correction is no typo
    assert assess(r, {}, CTX)["class"] == "substantive"


def test_a_parameter_level_misprint_failing_on_positive_measure_is_substantive():
    kappa = sp.Symbol("kappa", positive=True)
    c = _claim(None, domain=Domain((Param("kappa", 0, 1, lower_open=True),)),
               stated=1 / sp.sqrt(2 * sp.pi * kappa), derived=1 / (sp.sqrt(2 * sp.pi) * kappa))
    ev = Evidence(checks=[Check("stated", False, "counterexample", refutes=True)])
    r = ClaimResult(c, ev, verdict=Verdict.REFUTED, corrected_verdict=Verdict.CONFIRMED)
    sev = assess(r, {}, CTX)
    assert sev["change"]["kind"] == "an exponent" and not sev["change"]["value_level"]
    assert sev["class"] == "substantive" and "changes how the result depends" in sev["why"]


def _rec(fraction=None, depth=None):
    return {"method": "m", "fraction": fraction, "depth": depth, "of": "the domain", "ci95": [0.0, 1.0], "n": 10}


R_FOR_R0 = {"kind": "one symbol for another", "differs": "R_t where R_0", "value_level": False}
SIGN = {"kind": "a sign", "differs": "log(1/y) where log(y)", "value_level": True}


@pytest.mark.parametrize("role, measured, change, expect", [
    ("statement", _rec(0.4, 0.5), R_FOR_R0, "substantive"),        # linearization2025.thm2: R_t for R_0, interior
    ("statement", _rec(None, 0.5), R_FOR_R0, "substantive"),
    ("statement", _rec(None, None), R_FOR_R0, "typo"),            # an exact identity of a printed display
    ("statement", _rec(0.4, 0.5), SIGN, "typo"),                  # a value-level slip is a typo wherever it fails
    ("statement", _rec(0.0, 0.0), SIGN, "boundary"),
    ("remark", _rec(0.0, 0.0), None, "boundary"),                 # measure zero, whatever the role
    ("caption", _rec(None, 0.0), None, "boundary"),
    ("remark", _rec(0.4, 0.5), SIGN, "remark"),
    ("table", _rec(None, None), None, "remark"),
    ("statement", _rec(None, None), None, "substantive"),
])
def test_the_rule_table(role, measured, change, expect):
    assert classify(role=role, measured=measured, holds_by=[], corrected_verdict="confirmed",
                    change=change)["class"] == expect


def test_the_typo_rule_reads_the_minimal_corrected_form_not_our_extra_term():
    y, eta, lam, eps = sp.symbols("ytil eta lambda_0 epsilon", positive=True)
    dom = Domain((Param("ytil", 0, 2, lower_open=True), Param("eta", 0, 1, lower_open=True),
                  Param("lambda_0", 0, 1, lower_open=True), Param("epsilon", 0, 1, lower_open=True)))
    printed, ours = sp.log(1 / y) / (eta * lam), sp.log(y / eps) / (eta * lam)
    ev = Evidence(checks=[Check("the count is positive", False, "counterexample", refutes=True)])
    c = _claim(None, domain=dom, stated=printed, derived=ours)
    r = ClaimResult(c, ev, verdict=Verdict.REFUTED, corrected_verdict=Verdict.CONFIRMED)
    assert minimal_change(c) is None                   # log(1/y) against log(y/eps): no typo shape
    c.corrected_form = sp.log(y) / (eta * lam)         # the minimal correction: one sign
    sev = assess(r, {}, CTX)
    assert sev["class"] == "typo" and sev["change"]["kind"] == "a sign"
    assert sev["change"]["differs"] == "log(1/ytil) where log(ytil)"


@pytest.mark.parametrize("stated, correct, kind, differs", [
    ("exp(r**2/2)", "exp(-r**2/2)", "a sign", "exp(r^2/2) where exp(−r^2/2)"),
    ("W_kl*x", "W_lk*x", "a transposed index", "W_kl where W_lk"),
    ("sigma", "n*sigma", "a missing factor", "a factor n missing"),
    ("alpha**2*c", "alpha*c", "an exponent", "alpha^2 where alpha"),
    ("R_t*L", "R_0*L", "one symbol for another", "R_t where R_0"),
    ("-x", "x", "a sign", "−x where x"),
])
def test_what_differs(stated, correct, kind, differs):
    loc = {k: sp.Symbol(k, positive=True) for k in ("r", "x", "sigma", "n", "alpha", "c", "R_t", "R_0", "L")}
    c = _claim(None, stated=sp.sympify(stated, locals=loc), derived=sp.sympify(correct, locals=loc))
    ch = minimal_change(c)
    assert (ch["kind"], ch["differs"]) == (kind, differs)


@pytest.mark.parametrize("repair, corrected, change, expect", [
    ("weaker rate", "confirmed", None, "weaker rate"),
    (None, "inconclusive", SIGN, "does not follow"),
    (None, "confirmed", None, "not assessed"),
    (None, "confirmed", SIGN, "absorbed"),
    (None, "confirmed", R_FOR_R0, "weaker rate"),
])
def test_a_proof_step_says_what_the_repaired_proof_gives(repair, corrected, change, expect):
    rec = classify(role="proof step", measured=_rec(0.3, 0.5), holds_by=[{"id": "p.r", "verdict": "confirmed"}],
                   corrected_verdict=corrected, change=change, repair=repair)
    assert rec["class"] == "proof step" and rec["proof"]["consequence"] == expect
    assert expect in rec["why"]


def test_proof_steps_are_ordered_by_consequence():
    keys = [order_key({"class": "proof step", "proof": {"consequence": k}}) for k in PROOF_CONSEQUENCES]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert order_key({"class": "typo"}) < keys[0] < order_key({"class": "remark"})


def test_repair_needs_a_proof_step():
    with pytest.raises(ValueError, match="repair"):
        _claim(None, repair="absorbed")
    with pytest.raises(ValueError, match="repair"):
        _claim(None, role="proof step", repair="fine")
    assert _claim(None, role="proof step", repair="absorbed").repair == "absorbed"


def test_reclassify_rederives_the_class_from_a_results_document():
    doc = {"claims": [
        {"id": "p.a", "verdict": "refuted", "role": "remark", "holds_by": [], "corrected_verdict": "confirmed",
         "severity": {"class": "remark", "measured": _rec(0.0, 0.0)}},
        {"id": "p.b", "verdict": "refuted", "role": "proof step", "holds_by": ["p.c"], "corrected_verdict": None,
         "severity": {"class": "proof step", "measured": _rec(None, None)}},
        {"id": "p.c", "verdict": "confirmed", "role": "statement", "holds_by": [], "severity": None},
        {"id": "p.d", "verdict": "refuted", "role": "statement", "holds_by": [], "corrected_verdict": "confirmed",
         "severity": {"class": "typo", "measured": _rec(0.5, 0.5), "change": R_FOR_R0}},
    ]}
    got = {r["id"]: (r["old"], r["new"]) for r in reclassify(doc)}
    assert got == {"p.a": ("remark", "boundary"), "p.b": ("proof step", "proof step"),
                   "p.d": ("typo", "substantive")}
    assert [r for r in reclassify(doc) if r["id"] == "p.b"][0]["record"]["proof"]["consequence"] == "does not follow"


@pytest.mark.parametrize("stated, derived, expect", [
    ("3*x", "2*x", "a constant factor: 3/2"),
    ("x + x**2", "x", "one term"),
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


# ------------------------------------------------------------------ counts of independent errors (verify.report.tables)

def _c(cid, verdict="refuted", cls="substantive", rc=None, role="statement"):
    paper = cid.split(".")[0]
    return {"id": cid, "verdict": verdict, "role": role, "kind": "inequality / bound",
            "source": {"paper": paper, "file": {"a": "000_a.txt", "b": "001_b.txt"}[paper], "where": "x"},
            "root_cause": None if rc is None else {"key": rc[0], "paper": rc[1], "summary": "s", "corrected": None},
            "severity": {"class": cls} if verdict == "refuted" else None, "evidence": {}}


def test_errata_are_counted_by_root_cause_and_for_the_source_whose_statement_fails():
    from verify.report.tables import checked_parts, counts, error_counts, errata_text

    doc = {"claims": [
        # one slip of b seen through four claims, one of them a claim of source a (a cross-source claim)
        _c("b.thm1", rc=("b.slip", "b")), _c("b.thm1.cor", cls="typo", rc=("b.slip", "b")),
        _c("b.eq3", cls="proof step", role="proof step", rc=("b.slip", "b")),
        _c("a.vs_b.eq3", rc=("b.slip", "b")),
        _c("b.eq9", cls="typo"),                                  # no root cause: its own error
        _c("a.remark", cls="remark", role="remark"),
        _c("a.ok", verdict="confirmed"),
    ]}
    b, a = counts(doc, "b"), counts(doc, "a")
    assert (b["errors"], b["witnesses"], b["errors_by_class"]) == (2, 5, {"substantive": 1, "typo": 1})
    assert b["by_verdict"]["refuted"] == 4           # b's own claims; a.vs_b.eq3 counts as a claim of a ...
    assert (a["errors"], a["witnesses"], a["errors_by_class"]) == (1, 1, {"remark": 1})   # ... but an erratum of b
    assert a["by_class"] == {"substantive": 1, "remark": 1}   # the claims of a, as the index printed them
    assert error_counts(doc)["errors"] == 3
    assert errata_text(b) == "2 errata (1 substantive, 1 typo; 5 refuted claims)"
    assert "".join(t for t, _ in checked_parts(b)).count("2 independent errata (1 substantive, 1 typo; 5 refuted")
