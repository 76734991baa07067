"""Rows shared by the markdown and LaTeX renderers."""
from __future__ import annotations

ORDER = ["refuted", "does not extend", "inconclusive", "confirmed"]


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


def _short(source: dict) -> str:
    """A source in one word: the first three characters of a source file of the suite (``001``), else the paper
    key (a paper declared by a claims package outside the suite, ``PAPER = Paper(...)``, may cite e.g.
    ``arXiv:1903.08560``)."""
    f = source.get("file", "")
    return f[:3] if f.endswith((".txt", ".py")) else source.get("paper") or f


def summary_rows(doc: dict) -> list[dict]:
    rows = []
    for c in sorted(doc["claims"], key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        rows.append({"id": c["id"], "kind": c["kind"], "verdict": c["verdict"],
                     "derived_only": c.get("basis") == "derivation only",
                     "where": f"{_short(c['source'])} {c['source']['where']}", "reason": c["reason"]})
    return rows


def set_aside_note(ev: dict) -> str | None:
    """One sentence naming the tests set aside as equivalent by construction (zero spread, estimate equal to
    the prediction: e.g. both sides structurally zero at a boundary point); they are not evidence and are not
    shown in the tables (results.json keeps them, with status 'degenerate')."""
    labs = [t["label"] for t in ev.get("tests", []) if t.get("status") == "degenerate"]
    if not labs:
        return None
    return (f"{len(labs)} test(s) set aside as equivalent by construction (zero spread, estimate equal to the "
            f"prediction; not evidence): " + "; ".join(labs[:6]) + (" ..." if len(labs) > 6 else ""))


def point_rows(ev: dict) -> list[list[str]]:
    rows = []
    for t in ev.get("tests", []):
        if t.get("status") == "degenerate":   # not evidence: see set_aside_note
            continue
        bound = "≤ " if t.get("sided") == "upper" else ""
        rows.append([t["label"], t["target"], bound + fmt(t["predicted"]), fmt(t["estimate"]),
                     f"[{fmt(t['ci'][0])}, {fmt(t['ci'][1])}]", fmt(t["tol"]), str(t["trials"]),
                     fmt(t["p_adjusted"]), t["status"]])
    return rows


def errata_groups(doc: dict) -> list[tuple[str | None, list[dict]]]:
    """Refuted claims that are errata of their source (extensions excluded), grouped by root cause:
    claims refuted for one reason form one erratum, listed with its consequences."""
    groups: dict = {}
    for c in sorted(doc["claims"], key=lambda c: c["id"]):
        if c["verdict"] != "refuted":
            continue
        rc = c.get("root_cause")
        key = (rc["summary"] if isinstance(rc, dict) else rc) or ("", c["id"])
        groups.setdefault(key, []).append(c)
    return [(k if isinstance(k, str) else None, v) for k, v in groups.items()]


def extensions_refuted(doc: dict) -> list[dict]:
    """Refuted claims that read a statement beyond its context: "does not extend", not errata."""
    return [c for c in doc["claims"] if c["verdict"] == "does not extend"]


def corrected_heading(c: dict) -> str:
    """How a corrected form is introduced: with its own verdict, as a candidate unless confirmed."""
    v, why = c.get("corrected_verdict"), c.get("corrected_reason", "")
    if v == "confirmed":
        return f"Corrected form (ours), confirmed: {why}"
    if v == "refuted":
        return f"Candidate corrected form (ours), rejected by our own checks: {why}"
    return f"Candidate corrected form (ours), not confirmed ({v or 'no verdict'}: {why})"
