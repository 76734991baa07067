"""``python -m verify compare``: two runs' verdicts side by side (verify/report/compare.py)."""
import json

from verify.cli import main
from verify.report.compare import compare, load, markdown


def _doc(profile, verdicts, classes=None):
    classes = classes or {}
    return {"meta": {"profile": profile, "seed": 0, "n_tests": 3},
            "claims": [{"id": i, "verdict": v, "reason": f"{i} is {v} at {profile}",
                        "severity": {"class": classes[i]} if i in classes else None,
                        "evidence": {"tests": [{}] * 2}} for i, v in verdicts.items()]}


def _write(tmp_path, name, doc):
    d = tmp_path / name
    d.mkdir()
    (d / "results.json").write_text(json.dumps(doc))
    return d


def test_transitions_and_changes(tmp_path):
    a = _write(tmp_path, "std", _doc("standard", {"x": "confirmed", "y": "inconclusive", "z": "refuted", "u": "confirmed"},
                                    {"z": "typo"}))
    b = _write(tmp_path, "full", _doc("full", {"x": "confirmed", "y": "confirmed", "z": "refuted", "w": "confirmed"},
                                     {"z": "substantive"}))
    cmp = compare(load(a), load(b / "results.json"))
    assert cmp["common"] == 3 and cmp["same"] == 2
    assert cmp["transitions"]["inconclusive"] == {"confirmed": 1}
    assert [r["id"] for r in cmp["changed"]] == ["y", "z"]   # a verdict change, and a change of erratum class
    assert cmp["changed"][1]["a"] == "refuted (typo)" and cmp["changed"][1]["b"] == "refuted (substantive)"
    assert cmp["only_a"] == ["u"] and cmp["only_b"] == ["w"]
    text = markdown(cmp, ("standard", "full"))
    assert "**2 of the 3 claims both runs hold have the same verdict**" in text
    assert "y is inconclusive at standard" in text and "Only in full (1): `w`" in text


def test_cli_writes_and_bad_input_is_one_line(tmp_path, capsys):
    a = _write(tmp_path, "a", _doc("standard", {"x": "confirmed"}))
    out = tmp_path / "cmp" / "compare.md"
    assert main(["compare", str(a), str(a), "--out", str(out)]) == 0
    assert out.read_text().startswith("| run |") and json.loads(out.with_suffix(".json").read_text())["same"] == 1
    capsys.readouterr()
    assert main(["compare", str(a), str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no results.json") and len(err.strip().splitlines()) == 1
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert main(["compare", str(a), str(tmp_path / "bad.json")]) == 2


def test_many_claims_only_in_one_run_are_counted_by_source():
    a = {"_path": "a", **_doc("standard", {f"p{i % 2}.c{i}": "confirmed" for i in range(40)})}
    b = {"_path": "b", **_doc("full", {"p0.c0": "confirmed"})}
    text = markdown(compare(a, b))
    assert "Only in A (39): p0 (19), p1 (20)" in text
