"""Rows shared by the markdown and LaTeX renderers."""
from __future__ import annotations

ORDER = ["refuted", "inconclusive", "confirmed"]


def fmt(x) -> str:
    if isinstance(x, str):
        return x
    if x is None:
        return "—"
    if isinstance(x, int):
        return str(x)
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
        return f"{x:.3e}"
    return f"{x:.5g}"


def summary_rows(doc: dict) -> list[dict]:
    rows = []
    for c in sorted(doc["claims"], key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        rows.append({"id": c["id"], "kind": c["kind"], "verdict": c["verdict"],
                     "where": f"{c['source']['file'][:3]} {c['source']['where']}", "reason": c["reason"]})
    return rows


def point_rows(ev: dict) -> list[list[str]]:
    rows = []
    for t in ev.get("tests", []):
        bound = "≤ " if t.get("sided") == "upper" else ""
        rows.append([t["label"], t["target"], bound + fmt(t["predicted"]), fmt(t["estimate"]),
                     f"[{fmt(t['ci'][0])}, {fmt(t['ci'][1])}]", fmt(t["tol"]), str(t["trials"]),
                     fmt(t["p_adjusted"]), t["status"]])
    return rows
