"""Power witnesses (Claim.power): plausible wrong statements that the claim's own check must reject."""
from __future__ import annotations

from verify.run.runner import make_context
from verify.model.claim import Alternative, Claim, Domain, Kind, Param, Source
from verify.judge import PropertySearch
from verify.audit.mutants import claim_mutation_power

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
    from verify.run.runner import _power_declared

    declared = _power_declared(_claim())
    assert declared["status"] == "untested" and not declared["sympy_form"] and declared["witnesses"] == []
    assert claim_mutation_power(_claim(), CTX)["covered"] is False


# ------------------------------------------------------------------ tahir2024 (issue 24)
#: the confirmed tahir2024 claims without a stated sympy form (or with one their check does not judge): each declares
#: power witnesses
TAHIR_WITNESSED = (
    "eq13.anomalous", "eq13.sigma_lt_1", "lemma3.3", "rate.lemmaB1.eq69", "text.abstract.strong_overlap",
    "text.abstract.well_represented", "text.sec3_3.noise_shrinks_negative_region",
    "text.sec3_3.out_of_subspace_degrades", "text.sec3_3.snr_below_one", "text.sec3_3_1.larger_negative_region",
    "text.sec3_3_1.order_of_limits", "text.sec3_4.bias_away_from_min_norm", "text.sec3_4.gamma_gt1_forgets",
    "text.sec4.mu_monotone", "thm2.2.kl", "thm2.2.w1", "thm3.4", "thm3.5",
    # confirmed with a stated sympy form that their check does not judge ('not covered' by the sympy mutants)
    "text.sec2_1.far_apart.kl", "text.sec2_1.far_apart.w1", "text.sec3_2.double_descent.under",
    "text.sec3_3.kl_not_negatively_correlated")


def test_tahir2024_confirmed_claims_without_a_sympy_form_declare_witnesses():
    from verify.run.runner import _power_declared
    from verify.run.registry import all_claims

    claims = {c.id: c for c in all_claims()}
    for short in TAHIR_WITNESSED:
        c = claims["tahir2024." + short]
        declared = _power_declared(c)
        assert declared["status"] != "untested" and declared["witnesses"], c.id
        assert all(a.why for a in c.power), c.id   # each says why a referee would call it plausible


def test_tahir2024_anomalous_witnesses_are_rejected_and_the_claim_is_not():
    """eq13.anomalous (sympy at sigma = 0.2, no simulation): a strip of half-width sigma and a one-sided strip are both
    refuted by the claim's own check, which confirms the stated sentence."""
    from verify.run.registry import all_claims

    c = next(x for x in all_claims() if x.id == "tahir2024.eq13.anomalous")
    r = claim_mutation_power(c, CTX)
    assert r["control_verdict"] == "confirmed"
    assert {row["status"] for row in r["mutants"]} == {"refuted"} and r["refuted"] == len(c.power) == 2


def test_tahir2024_reversed_mc_ordering_tests_the_opposite_side():
    """text_helpers.mc_ordering(reverse=True): on the same draws, a clear E[diff] > 0 agrees with the claim's test
    and is rejected by the witness's."""
    import torch

    from verify.claims.tahir2024.text_helpers import mc_ordering

    def rows(p, B, gen, ctx):
        return 1.0 + torch.randn(B, generator=gen, dtype=torch.float64), "diff"
    claim = _claim()
    fwd = mc_ordering(rows, {"quick": 400}, "t")(claim, CTX, [{"x": 0.5}]).tests[0]
    rev = mc_ordering(rows, {"quick": 400}, "t", reverse=True)(claim, CTX, [{"x": 0.5}]).tests[0]
    assert fwd.pvalue > 0.5 and rev.pvalue < 1e-6


# ------------------------------------------------------------------ mutants --jobs / --resume
def test_mutants_in_two_processes_equal_serial_and_resume_reads_back(tmp_path, monkeypatch):
    from verify.audit import mutants as M
    pats = ["shachaf2021.eq7", "dayi2024.init"]
    par = M.mutation_power(pats, "quick", 0, tmp_path / "par", jobs=2)
    ser = M.mutation_power(pats, "quick", 0, tmp_path / "ser")
    strip = lambda d: {k: {kk: vv for kk, vv in v.items() if kk != "seconds"} for k, v in d["claims"].items()}
    assert strip(par) == strip(ser) and list(par["claims"]) == list(ser["claims"]) == pats

    def fail(*a, **k):
        raise AssertionError("a stored claim was judged again")
    monkeypatch.setattr(M, "_power_or_error", fail)
    again = M.mutation_power(pats, "quick", 0, tmp_path / "ser", resume=True)
    assert strip(again) == strip(ser)


def test_power_measured_with_other_library_versions_is_given_with_one_line(monkeypatch):
    """Same code, another hypothesis: the stored record is still read, with a versions_differ note, and a run
    says it in one line instead of losing the power column; other code: not measured."""
    from verify.run import power
    from verify.run.runner import make_context
    from verify.run.cache import numeric_versions
    from verify.audit.mutants import power_key
    from verify.run.registry import select

    c = select(["hermite.dual"])[0]
    here = numeric_versions()
    then = {**here, "hypothesis": "6.170.17" if here["hypothesis"] != "6.170.17" else "6.170.27",
            "platform": "elsewhere"}
    rec = {"covered": True, "judged": 3, "refuted": 2, "detected": 0, "power": 2 / 3, "mutants": [],
           "key": power_key(c, make_context("quick", 0, progress=False))}
    monkeypatch.setattr(power, "_doc", lambda profile: {"seed": 0, "versions": then, "claims": {c.id: rec}})
    p = power.power_of(c, "quick")
    assert p["status"] == "shown" and p["versions_differ"] == {"hypothesis": [then["hypothesis"], here["hypothesis"]]}
    line = power.versions_line([{"power": p}, {"power": {"status": "untested"}}])
    assert line == (f"power measured with hypothesis {then['hypothesis']}, this environment has "
                    f"{here['hypothesis']}; 1 claims' power read from that run")
    monkeypatch.setattr(power, "_doc", lambda profile: {"seed": 0, "versions": {**here, "python": here["python"] + ".9"},
                                                         "claims": {c.id: rec}})
    p = power.power_of(c, "quick")
    assert "versions_differ" not in p and power.versions_line([{"power": p}]) is None   # a patch release of Python
    monkeypatch.setattr(power, "_doc", lambda profile: {"seed": 0, "versions": then,
                                                         "claims": {c.id: {**rec, "key": "0" * 32}}})
    assert power.power_of(c, "quick")["status"] == "not measured"
