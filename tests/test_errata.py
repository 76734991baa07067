"""The errata list of the pinned quick run: every refutation is of the source as its authors meant it (extensions
'do not extend'), declares what part of the source it reads, carries a derived severity class with its measured
support, and claims refuted for one reason share one root cause."""
from __future__ import annotations

import pytest

from verify.judge.severity import CLASSES

pytestmark = pytest.mark.claims


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
