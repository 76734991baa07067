"""Markdown report that renders on a code forge: tables, $...$ formulas and PNG figures."""
from __future__ import annotations

from .tables import (ORDER, corrected_heading, errata_groups, extensions_refuted, fmt, point_rows, set_aside_note,
                     summary_rows)

MAX_ROWS = 40


def _math(s: str | None) -> str:
    return f"$${s}$$" if s else "—"


def render_markdown(doc: dict, figs: dict[str, list[str]]) -> str:
    meta, timing = doc.get("meta", {}), doc.get("timing", {})
    L = ["# Verification report", ""]
    L.append(f"Profile **{meta.get('profile')}**, seed **{meta.get('seed')}**, device `{meta.get('device')}`, "
             f"{meta.get('n_tests', 0)} Monte Carlo tests, family-wise level {meta.get('alpha_familywise')} "
             f"({meta.get('multiple_testing', '')}). Started {timing.get('started', '')}, "
             f"{timing.get('seconds', '?')} s.")
    v = meta.get("versions", {})
    if v:
        L.append("Library versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if k != "platform") + ".")
    counts = meta.get("counts", {})
    L += ["", "**" + ", ".join(f"{counts.get(k, 0)} {k}" for k in ORDER) + "**", ""]
    L += ["## Summary", "", "| claim | kind | verdict | source | reason |", "|---|---|---|---|---|"]
    for r in summary_rows(doc):
        only = " (derivation only)" if r["derived_only"] else ""
        L.append(f"| `{r['id']}` | {r['kind']} | **{r['verdict']}**{only} | {r['where']} | {r['reason']} |".replace("\n", " "))
    groups = errata_groups(doc)
    L += ["", "## Errata", ""]
    if not groups:
        L.append("No claim was refuted as its source states it in this run.")
    for cause, members in groups:
        if cause:
            L += [f"### Erratum: {cause}", "",
                  "One root cause; its consequences: " + ", ".join(f"`{c['id']}`" for c in members) + ".", ""]
        for c in members:
            L += [f"{'####' if cause else '###'} `{c['id']}` — {c['source']['where']}", "",
                  f"*Stated* ({c['source']['file']}):", "", _math(c["statement"]), ""]
            L += _refutation_evidence(c)
            if c.get("corrected"):
                L += [f"*{corrected_heading(c)}*", "", _math(c["corrected"]), ""]
            else:
                L += ["*Corrected form:* none derived.", ""]
    ext = extensions_refuted(doc)
    if ext:
        L += ["## Readings beyond the source that do not hold", "",
              "These claims deliberately read a statement beyond the context the source gives it; their "
              "failure says the statement does not extend, and is not an erratum of the source.", ""]
        for c in ext:
            L += [f"### `{c['id']}` — does not extend ({c['source']['where']})", "", _math(c["statement"]), ""]
            L += _refutation_evidence(c)
    L += ["", "## Claims", ""]
    for c in sorted(doc["claims"], key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        L += _claim_section(c, figs.get(c["id"], []), timing)
    return "\n".join(L) + "\n"


def _refutation_evidence(c: dict) -> list[str]:
    out = []
    ev = c["evidence"]
    for ch in ev.get("checks", []):
        if ch["passed"] is False and ch["refutes"]:
            out += [f"*Counterexample* ({ch['name']}): {ch['detail']}", ""]
    rej = [t for t in ev.get("tests", []) if t["status"] == "rejected" and t["target"] == "stated"]
    if rej:
        out += ["*Simulated against stated:*", "", "| point | stated | simulated (95% CI) | trials | Holm p |",
                "|---|---|---|---|---|"]
        for t in rej[:MAX_ROWS]:
            out.append(f"| {t['label']} | {fmt(t['predicted'])} | {fmt(t['estimate'])} "
                       f"[{fmt(t['ci'][0])}, {fmt(t['ci'][1])}] | {t['trials']} | {fmt(t['p_adjusted'])} |")
        if len(rej) > MAX_ROWS:
            out.append(f"| … {len(rej) - MAX_ROWS} more in results.json | | | | |")
        out.append("")
    return out


def _claim_section(c: dict, figs: list[str], timing: dict) -> list[str]:
    s = c["source"]
    L = [f"### `{c['id']}` — **{c['verdict']}**", "",
         f"{s['file']}, {s['where']} · kind: {c['kind']}", "", "*Stated:*", "", _math(c["statement"]), ""]
    if c.get("derived"):
        L += ["*Derived (sympy):*", "", _math(c["derived"]), ""]
    if c.get("corrected"):
        L += [f"*{corrected_heading(c)}*", "", _math(c["corrected"]), ""]
    L += [f"*Assumptions:* {c['assumptions']}", "", f"*Domain:* {c['domain']}", ""]
    if c.get("extension"):
        L += ["*Extension:* this claim reads the statement beyond the source's context; a refutation is "
              "not an erratum of the source.", ""]
    if c.get("notes"):
        L += [f"*Notes:* {c['notes']}", ""]
    L += [f"*Verdict:* **{c['verdict']}** — {c['reason']} ({timing.get('claims', {}).get(c['id'], '?')} s)", ""]
    if c.get("basis") == "derivation only":
        L += ["*Basis:* our derivation only (symbolic identities, searches over closed forms); no simulation of "
              "the procedure entered this verdict.", ""]
    if c.get("rules_out"):
        L += [f"*What the evidence rules out:* {c['rules_out']}.", ""]
    ev = c["evidence"]
    if ev.get("checks"):
        L += ["| check | result | detail |", "|---|---|---|"]
        for ch in ev["checks"]:
            res = {True: "passed", False: "failed", None: "undecided"}[ch["passed"]]
            L.append(f"| {ch['name']} | {res} | {ch['detail']} |".replace("\n", " "))
        L.append("")
    aside = set_aside_note(ev)
    if aside:
        L += [f"*Set aside:* {aside}", ""]
    rows = point_rows(ev)
    if rows:
        L += ["| point | vs | predicted | estimate | 95% CI | tol | trials | Holm p | status |",
              "|---|---|---|---|---|---|---|---|---|"]
        for r in rows[:MAX_ROWS]:
            L.append("| " + " | ".join(r) + " |")
        if len(rows) > MAX_ROWS:
            L.append(f"| … {len(rows) - MAX_ROWS} more rows in results.json |" + " |" * 8)
        L.append("")
    for f in figs:
        L += [f"![{c['id']}]({f})", ""]
    return L
