"""Markdown reports that render on a code forge: one per source (``<paper>/report.md``) and the index.

A source's report reads as a referee writes one (:mod:`verify.report.referee` derives what it says): a summary
paragraph (what the paper claims, what holds, the errata in words, what to change), the major errata, the minor
errata (proof steps ranked by what the repaired proof gives), the typos and slips with what differs, each erratum
with its corrected form and verdict, its smallest clear counterexample and the command that reproduces it; then the
readings that do not extend, the inconclusive and the confirmed claims, what was checked, and every claim's full
record in the appendix (per-point tests collapsed in a ``<details>`` block, figures with their captions).  Nothing
in the body is cut: long text is written out of tables.

A results document may come from anyone: each renderer's entry point (:func:`render_index`, :func:`render_paper`)
first puts its prose in a reader's words (:func:`verify.report.referee.plain_doc`) and then makes every string of it
inert markdown (:func:`verify.report.untrusted.inert`: no raw ``<``, no ``|`` that breaks a row, no link, no control
character), so no field can be missed; statements are typeset as math only when the LaTeX whitelist accepts them
(:func:`verify.report.untrusted.md_math`), else shown as code.
"""
from __future__ import annotations

from verify.report.referee import (CONSEQUENCE_WORDS, differs_text, pi_text, singular, SECTION_NOTES, SECTION_TITLES, SECTIONS, counterexample,
                                   errata, figure_caption, greek, place, plain, plain_doc, relevant, summary, values_text,
                                   run_words, what_is_wrong)
from verify.report.tables import (EXTENSION_MARK, ORDER, SOURCE_NOTES, checked_parts, claims_of, corrected_heading, counts,
                                  cross_references, errata_text, error_counts, extensions_refuted, klass, one_line,
                                  papers, point_rows, set_aside_note, short, source_info, verdict_text, with_verdict,
                                  confirmed_split, POWER_NOTE, power_cell, verdict_word,
                                  own_construction, separating_digits, open_settings_text)
from .untrusted import inert, md_cell, md_code, md_math

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η", "theta": "θ",
          "kappa": "κ", "lambda": "λ", "lam": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "rho": "ρ", "sigma": "σ",
          "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Delta": "Δ", "Gamma": "Γ"}


def _name(k: str) -> str:
    base, _, sub = k.partition("_")
    return _GREEK.get(base, base) + (f"_{sub}" if sub else "")


def _cell(s) -> str:
    """A table cell: one line, ``|`` escaped (its text is already inert, :func:`inert`)."""
    return md_cell(s)


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
    cmd, rest = run_words(doc)
    return [f"The run: `{cmd}` ({rest})."]


def _untested(n: dict) -> str:
    """The index's "confirmed" cell: of which own construction; untested power."""
    own, un = n.get("own_construction", 0), n.get("untested_power", 0)
    return f" ({own}; {un})" if own or un else ""


def render_index(doc: dict, pdfs: set[str] | None = None) -> str:
    """``index.md``: one line per source."""
    doc = inert(doc)
    pdfs = pdfs or set()
    L = ["# Verification reports", ""] + header_lines(doc) + [""]
    v = doc.get("meta", {}).get("versions", {})
    if v:
        L += ["Library versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if k != "platform") + ".", ""]
    L += ["| source | claims (statements) | confirmed (own construction; untested power) | errata by severity "
          "(refuted claims) | "
          "does not extend | inconclusive | report |",
          "|---|---|---|---|---|---|---|"]
    tot = {k: 0 for k in ("claims", "statements", "untested_power", "own_construction", *ORDER)}
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
        tot["own_construction"] += n["own_construction"]
        for k in ORDER:
            tot[k] += bv[k]
    e = error_counts(doc)   # a root cause shared by two sources is one erratum of the run
    every = {"errors": e["errors"], "witnesses": e["witnesses"], "errors_by_class": e["by_class"]}
    L.append(f"| **all** | {tot['claims']} ({tot['statements']}) | {tot['confirmed']}{_untested(tot)} | "
             f"{_cell(errata_text(every))} | "
             f"{tot['does not extend']} | {tot['inconclusive']} | `results.json` |")
    L += ["", "The first pages of every report in one document: [summary.tex](summary.tex)"
          + (", [summary.pdf](summary.pdf)" if "summary" in pdfs else "") + "."]
    L += ["", "Severity classes (derived by one rule from what each run measures, most serious first): *substantive* "
          "(a stated result fails on a set of positive measure of its own domain as printed: a major erratum), *typo* "
          "(the minimal corrected form, confirmed, is one misprint-shaped change away: the report says what differs), "
          "*boundary* (fails only on a set of measure zero, whatever the role), *proof step* (a step fails while the "
          "result holds; ranked by what the repaired proof gives), *remark* (a sentence of discussion, a caption or a "
          "table). *Does not extend*: a reading beyond the source's own context that fails there; not an erratum. "
          "Errata are counted as independent errors: the refuted claims that witness one root cause count once, in "
          "the class of the most serious, for the source whose statement fails (a claim of another source that "
          "witnesses it is listed there too).", ""]
    return "\n".join(L) + "\n"


def render_paper(doc: dict, paper: str, figs: dict[str, list[str]]) -> str:
    """A source's report as a referee writes one: the summary paragraph, the major errata, the minor errata, the
    typos and slips (:mod:`verify.report.referee`), then the rest (readings that do not extend, inconclusive,
    confirmed), what was checked, and every claim's full record in the appendix."""
    doc = inert(plain_doc(relevant(doc, paper)))
    info, n = source_info(doc, paper), counts(doc, paper)
    L = [f"# {info['title']}", "",   # not the number of its text file: the suite's index, not the paper's
         f"Verification report for `{paper}`. [All sources](../index.md).", ""]
    if paper in SOURCE_NOTES:
        L += [f"> **Note.** {SOURCE_NOTES[paper]}", ""]
    L += ["## Summary", "", " ".join(summary(doc, paper)), ""]
    E = errata(doc, paper)
    for sec in SECTIONS:
        items = [e for e in E if e["section"] == sec]
        if not items:
            continue
        L += [f"## {SECTION_TITLES[sec]}", ""]
        for e in items:
            L += _typo_item(e) if sec == "typo" else _erratum(e)
    if not E:
        L += ["## Errata", "", "No claim of this source was refuted as its authors state it in this run.", ""]
    xr = cross_references(doc, paper)
    if xr:
        L += ["Also refuted here, with a root cause in another source (counted in that source's report): "
              + "; ".join(f"{_ref(c['id'])} → `{rc['paper']}`: {rc['summary']}" for c, rc in xr), ""]
    L += _rest(doc, paper)
    L += ["## What was checked", "",
          "".join(f"**{t}**" if bold else t for t, bold in checked_parts(n)), "",
          "By kind: " + ", ".join(f"{k} {v}" for k, v in sorted(n["by_kind"].items(), key=lambda kv: -kv[1])) + ". "
          "By role: " + ", ".join(f"{k} {v}" for k, v in n["by_role"].items()) + ".", "",
          "The classes: " + " ".join(f"*{SECTION_TITLES[k]}*: {SECTION_NOTES[k]}" for k in SECTIONS), ""]
    L += header_lines(doc) + [""]
    L += ["## Appendix: every claim", "",
          "Each claim's full record; per-point Monte Carlo tables are collapsed (click to open). "
          "Every number is in `results.json`.", ""]
    timing = doc.get("timing", {})
    for c in sorted(claims_of(doc, paper), key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        L += _claim_section(c, figs.get(c["id"], []), timing)
    return "\n".join(L) + "\n"


def _inline(m: str | None) -> str:
    """A formula as inline markdown math (norms as ``\\|``), or verbatim code when the whitelist refuses it."""
    mm = md_math(m) if m else None
    return f"${mm}$" if mm is not None else md_code(m or "")


def _num(x) -> str:
    return short(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def cx_text(cx: dict | None) -> str | None:
    """A counterexample in the paper's notation, nothing cut (a matrix by its shape)."""
    if not cx:
        return None
    parts = []
    vals = list(cx["point"].values())
    wide = separating_digits(vals)
    for i, (k, v) in enumerate(cx["point"].items()):
        t = (values_text(v, _num) if isinstance(v, (list, tuple, dict)) else
             short(v, wide[i]) if i in wide else (pi_text(v) or _num(v)))
        if t:
            parts.append(f"{_name(plain(k))} = {t}")
    out = greek(", ".join(parts)) or "the instance the check describes"
    v = cx.get("values")
    if v and "moment" in v:
        ci = v.get("ci")
        out += (f": simulated tail index of |X| {_num(v['simulated'])}" + (f" [{_num(ci[0])}, {_num(ci[1])}]" if ci else "")
                + f", where E|X|^{_num(v['moment'])} = ∞ as stated needs a tail index of at most {_num(v['moment'])}")
    elif v and "simulated" in v:
        ci = v.get("ci")
        out += (f": simulated {_num(v['simulated'])}" + (f" [{_num(ci[0])}, {_num(ci[1])}]" if ci else "")
                + f" where {v.get('says', 'the paper gives')} {_num(v['paper'])}")
    elif v:
        w = separating_digits([v["derived"], v["paper"]])
        out += f": {short(v['derived'], w.get(0, 3))} where the paper gives {short(v['paper'], w.get(1, 3))}"
    return out


def _differs(e: dict) -> str:
    return differs_text(e, lambda m: (lambda mm: None if mm is None else f"${mm}$")(md_math(m)), str)


def _erratum(e: dict) -> list[str]:
    how = e["cls"] + (f"; {CONSEQUENCE_WORDS[e['consequence']]}" if e.get("consequence") else "")
    L = [f"**{e['n']}. {e['place']}** ({how}). {e['sentence']}", ""]
    if e["differs"]:
        L += [f"- What differs: {_differs(e)}."]
    if e["corrected"]:
        L += [f"- Corrected form ({e['corrected_verdict']}): {_inline(e['corrected'])}"]
    cx = cx_text(e["counterexample"])
    if cx:
        L += [f"- Counterexample: {cx}."]
    if e["others"]:
        L += ["- Also seen in: " + "; ".join(f"{_ref(o['id'])} ({o['place']}, {o['cls']})" for o in e["others"])
              + "."]
    L += [f"- Reproduce: `{e['command']}`", ""]
    return L


def _typo_item(e: dict) -> list[str]:
    bits = [f"**{e['place']}** ({e['cls']}): " + (f"what differs: {_differs(e)}" if e["differs"] else e["sentence"])]
    if e["corrected"]:
        bits.append(f"corrected: {_inline(e['corrected'])} ({e['corrected_verdict']})")
    cx = cx_text(e["counterexample"])
    if cx:
        bits.append(f"counterexample {cx}")
    return [f"{e['n']}. " + "; ".join(bits) + f". Reproduce: `{e['command']}`"
            + ("" if not e["others"] else " Also seen in: " + ", ".join(_ref(o["id"]) for o in e["others"]) + "."),
            ""]


def _rest(doc: dict, paper: str) -> list[str]:
    """After the errata: readings that do not extend and inconclusive claims (a paragraph each: their reasons are
    long and are not cut), confirmed claims in a table of short cells."""
    L = ["## The rest", ""]
    ext = extensions_refuted(doc, paper)
    L += ["### Readings that do not extend", ""]
    if ext:
        L += ["Claims that deliberately read a statement beyond the context the source gives it; they fail there. "
              "Not errata of the source.", ""]
        for c in ext:
            cx = cx_text(counterexample(c))
            L += [f"- {_ref(c['id'])} ({place(c['source']['where'])}): {what_is_wrong(c)}."
                  + (f" Counterexample: {cx}." if cx else "")]
        L.append("")
    else:
        L += ["None in this run.", ""]
    inc = with_verdict(doc, paper, "inconclusive")
    L += ["### Inconclusive", ""]
    if inc:
        L += [f"- {_ref(c['id'])} ({place(c['source']['where'])}{EXTENSION_MARK if c.get('extension') else ''}): "
              f"{c['reason']}" for c in inc] + [""]
    else:
        L += ["None in this run.", ""]
    conf, untested = confirmed_split(doc, paper)
    recon = " on our reconstruction" if paper in SOURCE_NOTES else ""
    L += ["### Confirmed" + recon, ""]
    if conf:
        L += ["| claim | location | what the evidence rules out | could it have failed? |", "|---|---|---|---|"]
        for c in conf:
            ro = c.get("rules_out") or c.get("reason")
            dag = " †" if c.get("basis") == "derivation only" else ""
            L.append(f"| {_ref(c['id'])}{dag} | {_cell(place(c['source']['where']))} | {_cell(ro)} "
                     f"| {_cell(singular(power_cell(c)))} |")
        if any(c.get("basis") == "derivation only" for c in conf):
            L += ["", "† verdict from our derivation only (symbolic identities, searches over closed forms); no "
                  "simulation of the procedure entered it."]
        L += ["", POWER_NOTE, ""]
    else:
        L += ["None in this run.", ""]
    own = own_construction(doc, paper)
    if own:
        L += ["### Checks of our own construction", "",
              "The check passed, but it is true by construction (the stated value computed by the code that makes the "
              "estimate, an identity of our own derivation, a bound we proved): counted apart from the confirmations "
              "of the source.", ""]
        L += [f"- {_ref(c['id'])} ({place(c['source']['where'])}): {c['construction']}" for c in own]
        L.append("")
    if untested:
        L += ["### Confirmed" + recon + ", untested power", "",
              "The check passed, but no plausible wrong version of the statement was shown to fail it, so the pass "
              "is not evidence that the statement holds.", ""]
        L += [f"- {_ref(c['id'])} ({place(c['source']['where'])}): what would give it power: "
              f"{(c.get('power') or {}).get('why') or 'no alternative declared or rejected'}" for c in untested]
        L.append("")
    return L


def _claim_section(c: dict, figs: list[str], timing: dict) -> list[str]:
    s = c["source"]
    role = c.get("role") or "statement"
    L = [f'<a id="{_anchor(c["id"])}"></a>', "", f"### `{c['id']}` — **{verdict_word(c)}**"
         + (f" ({klass(c)})" if klass(c) else ""), "",
         f"{s['where']} · kind: {c['kind']} · role: {role}", "", "*Stated:*", "", _math(c["statement"]), ""]
    if c.get("derived"):
        L += ["*Our derivation (computer algebra):*", "", _math(c["derived"]), ""]
    if c.get("corrected"):
        L += [f"*{corrected_heading(c)}*", "", _math(c["corrected"]), ""]
    L += [f"*Assumptions:* {c['assumptions']}", "", f"*Domain:* {c['domain']}", ""]
    if open_settings_text(c):
        L += [f"*Settings the source leaves open:* {open_settings_text(c)}", ""]
    if c.get("extension"):
        L += ["*Extension:* this claim reads the statement beyond the source's context; a failure says it does not "
              "extend, and is not an erratum of the source.", ""]
    if c.get("notes"):
        L += [f"*Notes:* {c['notes']}", ""]
    L += [f"*Verdict:* **{verdict_text(c)}** — {c['reason']} "
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
            L.append(f"| {_cell(ch['name'])} | {res} | {_cell(ch['detail'])} |")
        L.append("")
    aside = set_aside_note(ev)
    if aside:
        L += [f"*Set aside:* {aside}", ""]
    rows = point_rows(ev)
    if rows:
        L += [f"<details><summary>{len(rows)} Monte Carlo test(s) at grid points</summary>", "",
              "| point | vs | predicted | estimate | 95% CI | tol | trials | Holm p | status |",
              "|---|---|---|---|---|---|---|---|---|"]
        for r in rows:   # every row: the table is collapsed, so its length costs a reader nothing
            L.append("| " + " | ".join(_cell(x) for x in r) + " |")
        L += ["", "</details>", ""]
    for k, f in enumerate(figs):
        L += [f"![{c['id']}]({f})", "", f"*{figure_caption(c, k)}*", ""]
    return L
