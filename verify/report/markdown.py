"""Markdown reports that render on a code forge: one per source (``<paper>/report.md``) and the index.

The first screen answers "what is wrong in this source, and how badly": what was checked, the errata ordered by
severity and grouped by root cause, then the readings that do not extend, the inconclusive claims and the confirmed
ones, one line each.  Every claim's full record (stated form, assumptions, notes, checks, per-point tests in a
collapsed ``<details>`` block, figures) follows in the appendix.

A results document may come from anyone: each renderer's entry point (:func:`render_index`, :func:`render_paper`)
first makes every string of it inert markdown (:func:`verify.report.untrusted.inert`: no raw ``<``, no ``|`` that
breaks a row, no link, no control character), so no field can be missed; statements are typeset as math only
when the LaTeX whitelist accepts them (:func:`verify.report.untrusted.md_math`), else shown as code.
"""
from __future__ import annotations

import math

from verify.report.tables import (BRIEF_NOTE, DETAILED, ORDER, SOURCE_NOTES, checked_parts, claims_of,
                     corrected_heading, corrected_verdict_word, counts, cross_references, errata_groups, errata_text, error_counts,
                     extensions_refuted, fmt, klass, measured, measured_cell, minimal, one_line, papers, point_rows,
                     set_aside_note, short, source_info, verdict_text, what_decides, what_fails, with_verdict, witness,
                     confirmed_split, untested_why, POWER_NOTE, power_cell, verdict_word)
from .untrusted import inert, md_cell, md_code, md_math

MAX_ROWS = 40
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η", "theta": "θ",
          "kappa": "κ", "lambda": "λ", "lam": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "rho": "ρ", "sigma": "σ",
          "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Delta": "Δ", "Gamma": "Γ"}


def _name(k: str) -> str:
    base, _, sub = k.partition("_")
    return _GREEK.get(base, base) + (f"_{sub}" if sub else "")


def point_text(pt: dict | None, n: int = 90) -> str:
    """``{'gamma': 0.5, 'sigma': 1}`` -> ``γ = 0.5, σ = 1`` (one line)."""
    if not pt:
        return "—"
    parts = []
    for k, v in pt.items():
        if isinstance(v, (list, tuple, dict)):
            continue
        parts.append(f"{_name(k)} = {short(v) if isinstance(v, (int, float)) else v}")
    return one_line(", ".join(parts), n) if parts else "(a design, see the claim's checks)"


def witness_cell(c: dict) -> str:
    w = witness(c)
    if w:
        out = point_text(w["point"], 70)
        mg = w.get("margin")
        if isinstance(mg, (int, float)) and math.isfinite(mg):
            out += f" (margin {short(mg)})"
        return out
    m = minimal(c)
    return ("minimal: " + point_text(m, 70)) if m else "—"


def _cell(s) -> str:
    """A table cell: one line, ``|`` escaped (its text is already inert, :func:`inert`)."""
    return md_cell(s)


def _math_cell(s: str | None, n: int = 60) -> str | None:
    """A short formula as inline math in a table cell (``|`` as ``\\vert``, ``\\|`` as ``\\Vert``), or None when
    it is long or not accepted as math (the cell then points to the detail)."""
    m = md_math(s) if s else None
    if not m or len(m) > n:
        return None
    return "$" + m.replace(r"\|", r"\Vert ").replace("|", r"\vert ") + "$"


def _math(s: str | None) -> str:
    """A display formula; one the math whitelist refuses is shown verbatim as code."""
    if not s:
        return "—"
    m = md_math(s)
    return f"$${m}$$" if m is not None else md_code(s)


def _anchor(cid: str) -> str:
    return "c-" + "".join(ch if ch.isalnum() else "-" for ch in cid).lower()


def _ref(cid: str) -> str:
    return f"[`{cid}`](#{_anchor(cid)})"


def header_lines(doc: dict) -> list[str]:
    meta, timing = doc.get("meta", {}), doc.get("timing", {})
    return [f"Profile **{meta.get('profile')}**, seed **{meta.get('seed')}**, device `{meta.get('device')}`, "
            f"{meta.get('n_tests', 0)} Monte Carlo tests in the run, family-wise level {meta.get('alpha_familywise')} "
            f"({meta.get('multiple_testing', '')}). Started {timing.get('started', '')}, "
            f"{timing.get('seconds', '?')} s."]


def _untested(n: dict) -> str:
    return f" ({n['untested_power']})" if n.get("untested_power") else ""


def render_index(doc: dict, pdfs: set[str] | None = None) -> str:
    """``index.md``: one line per source."""
    doc = inert(doc)
    pdfs = pdfs or set()
    L = ["# Verification reports", ""] + header_lines(doc) + [""]
    v = doc.get("meta", {}).get("versions", {})
    if v:
        L += ["Library versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if k != "platform") + ".", ""]
    L += ["| source | claims (statements) | confirmed (untested power) | errata by severity (refuted claims) | "
          "does not extend | inconclusive | report |",
          "|---|---|---|---|---|---|---|"]
    tot = {k: 0 for k in ("claims", "statements", "untested_power", *ORDER)}
    for p in papers(doc):
        info, n = source_info(doc, p), counts(doc, p)
        bv = n["by_verdict"]
        num = f"{info['number']} " if info["number"] else ""
        links = f"[md]({p}/report.md), [tex]({p}/report.tex)" + (f", [pdf]({p}/report.pdf)" if p in pdfs else "")
        L.append(f"| **{num}{p}** — {_cell(one_line(info['title'], 70))} | {n['claims']} ({n['statements']}) | "
                 f"{bv['confirmed']}{_untested(n)} | {_cell(errata_text(n))} | "
                 f"{bv['does not extend']} | {bv['inconclusive']} | {links} |")
        tot["claims"] += n["claims"]
        tot["statements"] += n["statements"]
        tot["untested_power"] += n["untested_power"]
        for k in ORDER:
            tot[k] += bv[k]
    e = error_counts(doc)   # a root cause shared by two sources is one erratum of the run
    every = {"errors": e["errors"], "witnesses": e["witnesses"], "errors_by_class": e["by_class"]}
    L.append(f"| **all** | {tot['claims']} ({tot['statements']}) | {tot['confirmed']}{_untested(tot)} | "
             f"{_cell(errata_text(every))} | "
             f"{tot['does not extend']} | {tot['inconclusive']} | `results.json` |")
    L += ["", "The first pages of every report in one document: [summary.tex](summary.tex)"
          + (", [summary.pdf](summary.pdf)" if "summary" in pdfs else "") + "."]
    L += ["", "Severity classes (derived by `verify/judge/severity.py`, most serious first): *substantive* (fails on a set "
          "of positive measure of the stated domain), *typo* (a verified corrected form one constant, factor or "
          "term away), *boundary* (fails only on a set of measure zero), *proof step* (a step fails, the result "
          "holds), *remark* (a sentence of discussion, a caption or a table). *Does not extend*: a reading beyond "
          "the source's own context that fails there; not an erratum. A cross-source claim counts in its own "
          "source's line and is listed under the root cause's source.  Errata are counted as independent errors: the "
          "refuted claims that witness one root cause (`RootCause`) count once, in the class of the most serious.", ""]
    return "\n".join(L) + "\n"


def render_paper(doc: dict, paper: str, figs: dict[str, list[str]]) -> str:
    doc = inert(doc)
    info, n = source_info(doc, paper), counts(doc, paper)
    bv = n["by_verdict"]
    num = f"{info['number']} · " if info["number"] else ""
    L = [f"# {num}{info['title']}", "",
         f"Verification report for `{paper}` (source text `{info['file']}`). [All sources](../index.md)."]
    L += [""] + header_lines(doc) + [""]
    if paper in SOURCE_NOTES:
        L += [f"> **Note.** {SOURCE_NOTES[paper]}", ""]
    L += ["## What was checked", "",
          "".join(f"**{t}**" if bold else t for t, bold in checked_parts(n)), "",
          "By kind: " + ", ".join(f"{k} {v}" for k, v in sorted(n["by_kind"].items(), key=lambda kv: -kv[1])) + ". "
          "By role: " + ", ".join(f"{k} {v}" for k, v in n["by_role"].items()) + ".", ""]
    L += _errata(doc, paper)
    ext = extensions_refuted(doc, paper)
    L += ["## Readings that do not extend", ""]
    if ext:
        L += ["Claims that deliberately read a statement beyond the context the source gives it; they fail there. "
              "Not errata of the source.", "",
              "| claim | location | what fails | witness |", "|---|---|---|---|"]
        for c in ext:
            L.append(f"| {_ref(c['id'])} | {_cell(one_line(c['source']['where'], 50))} | {_cell(what_fails(c, 90))} "
                     f"| {_cell(witness_cell(c))} |")
    else:
        L.append("None in this run.")
    inc = with_verdict(doc, paper, "inconclusive")
    L += ["", "## Inconclusive", ""]
    if inc:
        L += ["| claim | location | why, and what would decide it |", "|---|---|---|"]
        for c in inc:
            L.append(f"| {_ref(c['id'])} | {_cell(one_line(c['source']['where'], 50))} | {_cell(what_decides(c))} |")
    else:
        L.append("None in this run.")
    conf, untested = confirmed_split(doc, paper)
    recon = " on our reconstruction" if paper in SOURCE_NOTES else ""
    L += ["", "## Confirmed" + recon, ""]
    if conf:
        L += ["| claim | location | what the evidence rules out | could it have failed? |", "|---|---|---|---|"]
        for c in conf:
            ro = c.get("rules_out") or c.get("reason")
            dag = " †" if c.get("basis") == "derivation only" else ""
            L.append(f"| {_ref(c['id'])}{dag} | {_cell(one_line(c['source']['where'], 50))} | {_cell(one_line(ro))} "
                     f"| {_cell(power_cell(c))} |")
        if any(c.get("basis") == "derivation only" for c in conf):
            L += ["", "† verdict from our derivation only (symbolic identities, searches over closed forms); no "
                  "simulation of the procedure entered it."]
        L += ["", POWER_NOTE]
    else:
        L.append("None in this run.")
    if untested:
        L += ["", "## Confirmed" + recon + ", untested power", "",
              "The check passed, but no plausible wrong version of the statement was shown to fail it, so the pass "
              "is not evidence that the statement holds.", "",
              "| claim | location | what would give it power |", "|---|---|---|"]
        for c in untested:
            L.append(f"| {_ref(c['id'])} | {_cell(one_line(c['source']['where'], 50))} | {_cell(untested_why(c))} |")
    detailed = [(c, g) for g in errata_groups(doc, paper) for c in g["members"] if klass(c) in DETAILED]
    if detailed:
        L += ["", "## Errata in detail", ""]
        for c, g in detailed:
            L += _erratum_detail(c, g)
    L += ["", "## Appendix: every claim", "",
          "Each claim's full record; per-point Monte Carlo tables are collapsed (click to open). "
          "Every number is in `results.json`.", ""]
    timing = doc.get("timing", {})
    for c in sorted(claims_of(doc, paper), key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        L += _claim_section(c, figs.get(c["id"], []), timing)
    return "\n".join(L) + "\n"


def _errata(doc: dict, paper: str) -> list[str]:
    groups = errata_groups(doc, paper)
    L = ["## Errata, most serious first", ""]
    if not groups:
        L.append("No claim of this source was refuted as its authors state it in this run.")
    else:
        L += ["Grouped by root cause (R1, R2, …); the strongest witness is the failing point with the largest margin "
              "(violation in units of the stated value) inside the stated domain; the minimal counterexample and "
              "every number are in the claim's detail below.", "",
              "| class | claim · location | what fails | strongest witness | corrected form (verdict) | measured |",
              "|---|---|---|---|---|---|"]
        for g in groups:
            if g["label"]:
                corr = _math_cell(g["corrected"], 200)
                L.append(f"| **{g['label']}** | **{_cell(one_line(g['summary'], 120))}** | "
                         f"{len(g['members'])} claim(s) | | {corr or ('see below' if g['corrected'] else '')} | |")
            for c in g["members"]:
                other = f" *(from {c['source']['paper']})*" if c["source"].get("paper") != paper else ""
                corr = _math_cell(c.get("corrected"), 200)
                corr = (corr or "see detail") if c.get("corrected") else "none derived"
                if c.get("corrected"):
                    corr += f" ({corrected_verdict_word(c)})"
                L.append(f"| {_cell(klass(c) or 'unclassified')} | {_ref(c['id'])}{_cell(other)} · "
                         f"{_cell(one_line(c['source']['where'], 45))} | {_cell(what_fails(c, 90))} | "
                         f"{_cell(witness_cell(c))} | {_cell(corr)} | {_cell(measured_cell(c))} |")
    if any(klass(c) not in DETAILED for g in groups for c in g["members"]):
        L += ["", BRIEF_NOTE]
    xr = cross_references(doc, paper)
    if xr:
        L += ["", "Also refuted here, with a root cause in another source (listed in that source's report): "
              + "; ".join(f"{_ref(c['id'])} → `{rc['paper']}`: {one_line(rc['summary'], 80)}" for c, rc in xr) + "."]
    return L + [""]


def _erratum_detail(c: dict, g: dict) -> list[str]:
    s = c["source"]
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    m = measured(c)
    L = [f"### {c['id']} — {klass(c) or 'unclassified'}", "",
         f"*Stated* ({s['file']}, {s['where']}):", "", _math(c["statement"]), "",
         f"*What fails:* {one_line(c['reason'], 600)}", ""]
    if sev.get("why"):
        L += [f"*Severity:* **{sev.get('class')}** — {sev['why']}.", ""]
    elif m:
        L += [f"*Measured:* {measured_cell(c)}.", ""]
    gap = m.get("largest_gap")
    gap = gap if isinstance(gap, (int, float)) and math.isfinite(gap) else None
    how = m.get("method") if m.get("method") and m["method"] not in (sev.get("why") or "") \
        and (m.get("fraction") is not None or gap is not None) else None
    if how or gap is not None:
        L += [f"*How measured:* " + "; ".join(filter(None, [
            how, f"largest gap {short(gap)} in units of the stated value" if gap is not None else None])) + ".", ""]
    w = witness(c)
    if w:
        extra = ""
        if isinstance(w.get("estimate"), (int, float)):
            extra = f"; simulated {fmt(w['estimate'])}" + (f" [{fmt(w['ci'][0])}, {fmt(w['ci'][1])}]"
                                                          if w.get("ci") else "") + f" vs stated {fmt(w.get('stated'))}"
        elif isinstance(w.get("stated"), (int, float)) and isinstance(w.get("derived"), (int, float)):
            extra = f"; stated {fmt(w['stated'])} vs derived {fmt(w['derived'])}"
        L += [f"*Strongest witness:* {point_text(w['point'], 300)}"
              + (f", margin {short(w['margin'])}" if isinstance(w.get("margin"), (int, float))
                 and math.isfinite(w["margin"]) else "") + extra + (f" ({w['how']})" if w.get("how") else "") + ".", ""]
    mn = minimal(c)
    if mn:
        L += [f"*Minimal counterexample:* {point_text(mn, 300)}.", ""]
    if g.get("summary"):
        L += [f"*Root cause* ({g['label']}, {g['paper']}): {g['summary']}", ""]
    if c.get("corrected"):
        L += [f"*{corrected_heading(c)}*", "", _math(c["corrected"]), ""]
    return L


def _claim_section(c: dict, figs: list[str], timing: dict) -> list[str]:
    s = c["source"]
    role = c.get("role") or "statement"
    L = [f'<a id="{_anchor(c["id"])}"></a>', "", f"### `{c['id']}` — **{verdict_word(c)}**"
         + (f" ({klass(c)})" if klass(c) else ""), "",
         f"{s['file']}, {s['where']} · kind: {c['kind']} · role: {role}", "", "*Stated:*", "", _math(c["statement"]), ""]
    if c.get("derived"):
        L += ["*Derived (sympy):*", "", _math(c["derived"]), ""]
    if c.get("corrected"):
        L += [f"*{corrected_heading(c)}*", "", _math(c["corrected"]), ""]
    L += [f"*Assumptions:* {c['assumptions']}", "", f"*Domain:* {c['domain']}", ""]
    if c.get("extension"):
        L += ["*Extension:* this claim reads the statement beyond the source's context; a failure says it does not "
              "extend, and is not an erratum of the source.", ""]
    if c.get("notes"):
        L += [f"*Notes:* {c['notes']}", ""]
    L += [f"*Verdict:* **{verdict_text(c)}** — {one_line(c['reason'], 400)} "
          f"({timing.get('claims', {}).get(c['id'], '?')} s)", ""]
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
            L.append(f"| {_cell(ch['name'])} | {res} | {_cell(one_line(ch['detail'], 300))} |")
        L.append("")
    aside = set_aside_note(ev)
    if aside:
        L += [f"*Set aside:* {aside}", ""]
    rows = point_rows(ev)
    if rows:
        L += [f"<details><summary>{len(rows)} Monte Carlo test(s) at grid points</summary>", "",
              "| point | vs | predicted | estimate | 95% CI | tol | trials | Holm p | status |",
              "|---|---|---|---|---|---|---|---|---|"]
        for r in rows[:MAX_ROWS]:
            L.append("| " + " | ".join(_cell(x) for x in r) + " |")
        if len(rows) > MAX_ROWS:
            L.append(f"| … {len(rows) - MAX_ROWS} more rows in results.json |" + " |" * 8)
        L += ["", "</details>", ""]
    for f in figs:
        L += [f"![{c['id']}]({f})", ""]
    return L
