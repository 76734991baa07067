"""Per-strategy calibration bookkeeping (verify.audit.calibration.strategy_calibration) and Clopper-Pearson."""
from __future__ import annotations

import pytest
from scipy.stats import binomtest

from verify.audit.calibration import strategy_calibration
from verify.model.stats import clopper_pearson


@pytest.mark.parametrize("k,n", [(0, 1), (0, 30), (1, 30), (7, 20), (20, 20)])
def test_clopper_pearson_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(0.95, method="exact")
    assert clopper_pearson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_strategy_calibration_counts_false_refutations_of_confirmed_claims_only():
    per_seed = [{"seed": 0, "verdicts": {"a": "confirmed", "b": "refuted", "c": "refuted"}},
                {"seed": 1, "verdicts": {"a": "refuted", "b": "refuted", "c": "inconclusive"}},
                {"seed": 2, "verdicts": {"a": "confirmed", "b": "confirmed", "c": "confirmed"}}]
    strategies = {"a": ["Expectation", "Identity"], "b": ["Custom"], "c": ["Expectation"]}
    truth = {"a": "confirmed", "b": "refuted", "c": "confirmed"}     # b is a true erratum: not counted
    cal = strategy_calibration(per_seed, strategies, truth)
    ex = cal["per_strategy"]["Expectation"]
    assert (ex["claims"], ex["runs"], ex["refuted"], ex["inconclusive"]) == (2, 6, 2, 1)
    assert sorted(map(tuple, ex["refuted_at"])) == [("a", 1), ("c", 0)]
    assert cal["per_strategy"]["Identity"]["refuted"] == 1 and "Custom" not in cal["per_strategy"]
    assert cal["run_wide"]["seeds_with_a_false_refutation"] == [0, 1]
    assert not ex["meets_target"]


def test_run_wide_bound_through_the_first_stage_rate():
    """Seeds with a first-stage rejection of a confirmed claim's test (replicated or not) bound the run-wide
    false-refutation rate at (CP upper end of their rate) x alpha; a rejection of an erratum does not count."""
    from verify.audit.calibration import calibration_table
    from verify.model.stats import clopper_pearson

    per_seed = [{"seed": k, "verdicts": {"a": "confirmed", "b": "refuted"},
                 "first_stage_rejections": (["a", "b"] if k == 3 else ["b"])} for k in range(40)]
    cal = strategy_calibration(per_seed, {"a": ["Expectation"], "b": ["Custom"]}, {"a": "confirmed", "b": "refuted"})
    f = cal["run_wide"]
    assert f["seeds_with_a_first_stage_rejection"] == [3] and f["first_stage_seeds"] == 40
    assert abs(f["bound_via_replication"] - clopper_pearson(1, 40)[1] * 0.05) < 1e-15
    assert any("first stage" in row for row in calibration_table(cal))


def test_a_claims_package_subclass_of_a_strategy_counts_as_that_strategy():
    from verify.audit.calibration import strategies_of
    from verify.run.registry import select

    assert strategies_of(select(["linearization2025.thm7.eta_le_1"])[0]) == ["PropertySearch"]


def test_stability_runs_merge_into_one_document(tmp_path):
    """`verify stability --merge`: the seeds of two runs of one profile pooled (a repeated seed once), every count
    and the run-wide first-stage bound recomputed; a file of another profile or not a stability document is a
    one-line error."""
    import json

    from verify.audit.calibration import merge_stability, stability_doc

    strategies = {"a": ["Expectation"], "b": ["Custom"]}
    runs = [{"seed": k, "verdicts": {"a": "confirmed", "b": "refuted" if k == 3 else "confirmed"},
             "first_stage_rejections": ["b"] if k == 3 else []} for k in range(5)]
    for name, part in (("x", runs[:3]), ("y", runs[2:])):
        (tmp_path / f"{name}.json").write_text(json.dumps(stability_doc(part, strategies, "standard", ["a", "b"])))
    doc = merge_stability([tmp_path / "x.json", tmp_path / "y.json"], tmp_path / "out")
    assert doc["seeds"] == [0, 1, 2, 3, 4] and doc["counts"]["b"] == {"confirmed": 4, "refuted": 1}
    assert json.loads((tmp_path / "out" / "stability_standard.json").read_text())["seeds"] == [0, 1, 2, 3, 4]
    assert doc["stable_claims"] == 1                       # b: 4 of 5 is below 95 %
    (tmp_path / "q.json").write_text(json.dumps(stability_doc(runs[:1], strategies, "quick", ["a"])))
    with pytest.raises(ValueError, match="different profiles"):
        merge_stability([tmp_path / "x.json", tmp_path / "q.json"])
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="not a stability document"):
        merge_stability([tmp_path / "bad.json"])
