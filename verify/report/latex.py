"""LaTeX report of one source (``<paper>/report.tex``), in the shape of a paper's appendix.

Packages from texlive-latex-base only (amsmath, amssymb, graphicx, array, longtable, hyperref).  Formulas are LaTeX
everywhere (stated and corrected forms, witness and counterexample values); free text is escaped (:func:`esc`).
A results document may come from anyone: a formula is typeset as math only when
:func:`verify.report.untrusted.math_ok` accepts it (whitelisted control words only: no file, shell or catcode
primitive), otherwise it is shown as escaped verbatim text; and :func:`verify.report.compile_pdf` always runs
pdflatex with ``-no-shell-escape`` and ``openout_any=p``/``openin_any=p``.  The body says what the markdown
report says, in the same order (:mod:`verify.report.referee`): the summary paragraph, major errata, minor errata and
typos (these two in small type, one paragraph an item under a run-in heading of its class, the command that
reproduces an item given once with each item's claims in brackets, so that the errata end within the first two
pages), the rest, what was checked; ``\\appendix`` holds every claim's full record with its per-point tests and captioned figures.  Formulas
are never shrunk: one that does not fit the line is set as math that breaks after its relations and operators.
"""
from __future__ import annotations

import re

from verify.report.tables import (EXTENSION_MARK, ORDER, SOURCE_NOTES, checked_parts, claims_of, corrected_heading, counts,
                                  cross_references, extensions_refuted, fmt, klass, point_rows,
                                  set_aside_note, short, source_info, verdict_text, with_verdict, confirmed_split,
                                  own_construction, separating_digits, open_settings_text,
                                  POWER_NOTE, power_cell)
from verify.report.referee import (CONSEQUENCE_WORDS, differs_text, pi_text, command, singular, SECTION_NOTES, SECTION_TITLES, SECTIONS, counterexample,
                                   errata, figure_caption, place, plain, plain_doc, relevant, summary, values_text,
                                   run_words, what_is_wrong)
from .untrusted import math_ok
from .figures import panel_count
from .referee import figure_caption
from .tex_preamble import PREAMBLE
from .tex_text import _safe_math, cols, display, esc, inline_math, prose, tex_name, tex_num, tex_point, verbatim

MAX_ROWS = 30
def _cls(c: dict) -> str:
    return esc(klass(c) or "unclassified")


def tt(cid: str) -> str:
    """A claim id in typewriter type that may break after its dots and underscores."""
    return "\\texttt{" + esc(cid) + "}"


def _hyper(cid: str) -> str:
    return "\\hyperref[" + _label(cid) + "]{" + tt(cid) + "}"


def _label(cid: str) -> str:
    return "c:" + re.sub(r"[^A-Za-z0-9.:-]", "-", cid)


def _run_line(doc: dict) -> str:
    """The run in a reader's words, as LaTeX: its command (typewriter, pastes into a shell) and what it did."""
    cmd, rest = run_words(doc)
    return "The run: " + _cmd(cmd) + " (" + esc(rest) + ")."


def _body(doc: dict, paper: str) -> list[str]:
    """A source's report before its appendix, as a referee writes one: the summary paragraph, major errata, minor
    errata, typos and slips (:mod:`verify.report.referee`), then the rest and what was checked."""
    n = counts(doc, paper)
    L = []
    if paper in SOURCE_NOTES:
        L += [r"\fbox{\parbox{\dimexpr\linewidth-2\fboxsep-2\fboxrule}{\textbf{Note.} " + esc(SOURCE_NOTES[paper])
              + "}}", ""]
    L += [r"\section*{Summary}", prose(" ".join(summary(doc, paper))), ""]
    L += _errata(doc, paper)
    L += [r"\label{errata-end}"]
    L += _others(doc, paper)
    L += [r"\section*{What was checked}",
          "".join(r"\textbf{" + esc(t) + "}" if bold else esc(t) for t, bold in checked_parts(n)), "",
          esc("By kind: " + ", ".join(f"{k} {v}" for k, v in sorted(n["by_kind"].items(), key=lambda kv: -kv[1]))
              + ". By role: " + ", ".join(f"{k} {v}" for k, v in n["by_role"].items()) + "."), "",
          esc("The classes: " + " ".join(f"{SECTION_TITLES[k]}: {SECTION_NOTES[k]}" for k in SECTIONS)), "",
          r"{\small " + _run_line(doc) + "}", ""]
    return L


def render_paper(doc: dict, paper: str, figs: dict[str, list[str]]) -> str:
    doc = plain_doc(relevant(doc, paper))
    timing = doc.get("timing", {})
    info = source_info(doc, paper)
    # the title alone: the number of the source's text file ("001") is the suite's index, not the paper's
    L = PREAMBLE + [r"\begin{document}", r"\sloppy",
                    r"{\centering{\large\bfseries " + esc(info["title"]) + r"\par}\smallskip"
                    r"{\normalsize Verification report (ftverify), " + esc(timing.get("started", "")[:16].replace("T", " "))
                    + r" UTC\par}\medskip}", ""]
    L += _body(doc, paper)
    L += [r"\label{body-end}\clearpage", r"\appendix", r"\section*{Appendix: every claim}",
          esc("Each claim's full record: stated form, assumptions, domain, the reading chosen (notes), checks and "
              "per-point Monte Carlo tests (at most " + str(MAX_ROWS) + " rows; every number is in results.json)."),
          ""]
    for c in sorted(claims_of(doc, paper), key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        L += _claim(c, figs.get(c["id"], []))
    L.append(r"\end{document}")
    return "\n".join(L) + "\n"


def render_summary(doc: dict, sources: list[str]) -> str:
    """``summary.tex``: the body of every source's report (no appendices) in one document, one source per chapter-
    like section; claim ids are plain (the full records are in each source's own report)."""
    doc = plain_doc(doc)
    timing = doc.get("timing", {})
    L = PREAMBLE + [r"\begin{document}", r"\sloppy",
                    r"{\centering{\large\bfseries Verification summary: every source\par}\smallskip"
                    r"{\normalsize ftverify, " + esc(timing.get("started", "")[:16].replace("T", " "))
                    + r" UTC\par}\medskip}", r"{\small " + _run_line(doc) + esc(" The full record of every claim "
                                                                      "(per-point tests, figures) is in the appendix "
                                                                      "of its source's own report.") + "}", ""]
    for k, p in enumerate(sources):
        info = source_info(doc, p)
        num = f"{info['number']}: " if info["number"] else ""
        body = "\n".join(_body(doc, p))
        body = body.replace(r"\subsection*{", r"\subsubsection*{").replace(r"\section*{", r"\subsection*{")
        body = re.sub(r"\\hyperref\[[^\]]*\]", "", body)   # no appendix here to link to
        body = body.replace(r"\label{errata-end}", "")
        L += ([r"\clearpage"] if k else []) + [r"\section*{" + esc(num + info["title"]) + "}",
                                                esc(f"Source text {info['file']} (key {p})."), "", body]
    L.append(r"\end{document}")
    return "\n".join(L) + "\n"


def cx_tex(cx: dict | None) -> str | None:
    """A counterexample in the paper's notation (every coordinate, nothing cut; a matrix by its shape)."""
    if not cx:
        return None
    parts = []
    wide = separating_digits(list(cx["point"].values()))
    for i, (k, v) in enumerate(cx["point"].items()):
        name = tex_name(k)
        name = prose(plain(k)) if name.startswith("\\text{") else f"\\({name}\\)"
        if isinstance(v, (list, tuple, dict)):
            t = values_text(v, short)
            if t:
                parts.append(f"{name} = {prose(t)}")
        elif isinstance(v, (int, float)):
            parts.append(f"{name} \\(= {tex_num(v, wide[i]) if i in wide else pi_text(v, tex=True) or tex_num(v)}\\)")
        else:
            parts.append(f"{name} = {prose(str(v))}")
    out = ", ".join(parts) or "the instance the check describes"
    v = cx.get("values")
    if v and "moment" in v:
        ci = v.get("ci")
        out += (f": simulated tail index of \\(|X|\\) \\({tex_num(v['simulated'])}\\)"
                + (f" \\([{tex_num(ci[0])}, {tex_num(ci[1])}]\\)" if ci else "")
                + f", where \\(E|X|^{{{tex_num(v['moment'])}}} = \\infty\\) as stated needs a tail index of at most "
                  f"\\({tex_num(v['moment'])}\\)")
    elif v and "simulated" in v:
        ci = v.get("ci")
        out += (f": simulated \\({tex_num(v['simulated'])}\\)"
                + (f" \\([{tex_num(ci[0])}, {tex_num(ci[1])}]\\)" if ci else "")
                + f" where {v.get('says', 'the paper gives')} \\({tex_num(v['paper'])}\\)")
    elif v:
        w = separating_digits([v["derived"], v["paper"]])
        out += (f": \\({tex_num(v['derived'], w.get(0, 3))}\\) where the paper gives "
                f"\\({tex_num(v['paper'], w.get(1, 3))}\\)")
    return out


def _cmd(s: str) -> str:
    # straight quotes, as a shell needs them when the command is copied from the PDF (not the typeset ’ ‘)
    tt = re.sub(r"-\{\}(?=-)", "-", esc(s).replace(r"\allowbreak{}", "")).replace("'", r"\textquotesingle{}")
    return r"{\footnotesize\texttt{" + tt + "}}"   # tt: no dash


def _erratum(e: dict) -> list[str]:
    """A major erratum: its sentence, then one line each for what differs, the corrected form, the counterexample,
    the other witnesses and the command."""
    how = _how(e)
    L = [r"{\raggedright\parskip=1pt \textbf{" + prose(f"{e['n']}. {e['place']}") + "} (" + esc(how) + "). "
         + prose(e["sentence"]) + r"\par"]
    for part in _parts(e):
        L.append(part + r"\par")
    return ["\n".join(L) + "}", ""]


def _differs(e: dict) -> str:
    return differs_text(e, lambda m: f"\\({_safe_math(m)}\\)" if math_ok(m) else None, prose)


def _parts(e: dict, style: str = "\\displaystyle", command: bool = True) -> list[str]:
    out = []
    if e["differs"]:
        out.append(r"\textit{What differs:} " + _differs(e) + ".")
    if e["corrected"]:
        out.append(r"\textit{Corrected form} (" + esc(e["corrected_verdict"]) + "): " + inline_math(e["corrected"], style)
                   + ".")
    cx = cx_tex(e["counterexample"])
    if cx:
        out.append(r"\textit{Counterexample:} " + cx + ".")
    if e["others"]:
        out.append(r"\textit{Also seen in:} " + "; ".join(
            _hyper(o["id"]) + " (" + prose(f"{o['place']}, {o['cls']}") + ")" for o in e["others"]) + ".")
    if command:
        out.append(r"\textit{Reproduce:} " + _cmd(e["command"]))
    else:   # the section's lead line gives the command; the item names the claims it runs
        out.append("[" + ", ".join(_cmd(i) for i in e["ids"]) + "]")
    return out


#: a group of minor errata under its class in words ("Remark:" would read as a remark of the paper)
_GROUP = {"remark": "sentences, captions or tables that do not match", "boundary": "failures on sets of measure zero",
          "proof step": "proof steps", "typo": "typos"}


def _how(e: dict) -> str:
    return e["cls"] + (f"; {CONSEQUENCE_WORDS[e['consequence']]}" if e.get("consequence") else "")


def _compact(e: dict) -> list[str]:
    """A minor erratum or a typo: the same parts as :func:`_erratum`, run on as one paragraph in small type, under
    a run-in heading of its class (:func:`_compact_section`), and the claims that reproduce it in brackets."""
    head = (r"\textit{What differs:} " + _differs(e) + "." if e["section"] == "typo" and e["differs"]
            else prose(e["sentence"]))
    parts = [p for p in _parts(e, "\\textstyle", command=False)
             if not (e["section"] == "typo" and p.startswith(r"\textit{What differs:}"))]
    return [r"\textbf{" + prose(f"{e['n']}. {e['place']}") + "}. " + head + " " + " ".join(parts) + r"\par"]


def _compact_section(items: list[dict], profile: str, lead: bool = True) -> list[str]:
    """Minor errata or typos, in small type with no space between items: (``lead``) the command that reproduces an
    item, then the items grouped by class (and by what the repaired proof gives), each group under a run-in
    heading."""
    # footnote size, a footnote's leading; a line holding scripts of inline math (n_Q^2) may come 1pt closer to
    # its neighbour before TeX moves it away (lineskiplimit), so that math in the items does not lengthen them
    L = [r"{\fontsize{8}{9}\selectfont\raggedright\parskip=1pt\lineskiplimit=-1pt "]
    if lead:   # the command with the claims of an item in place of <claims> (as command() writes it)
        L.append(esc("Each item below ends with the claims that reproduce it: ")
                 + _cmd(command(["<claims>"], profile).replace("'", "")) + r".\par")
    last = None
    for e in items:
        how = _how(e)
        item = _compact(e)
        if how != last:   # the group's heading runs in before its first item, the class in words
            words = _GROUP.get(e["cls"], e["cls"]) + how[len(e["cls"]):]
            item[0] = r"\textit{" + esc(words[0].upper() + words[1:]) + r":} " + item[0]
            last = how
        L += item
    return ["\n".join(L) + "}", ""]


def _errata(doc: dict, paper: str) -> list[str]:
    E = errata(doc, paper)
    L = []
    if not E:
        return [r"\section*{Errata}", esc("No claim of this source was refuted as its authors state it in this run."), ""]
    profile = (doc.get("meta") or {}).get("profile")
    profile = profile if isinstance(profile, str) and re.fullmatch(r"[a-z]+", profile) else "standard"
    led = False
    for sec in SECTIONS:
        items = [e for e in E if e["section"] == sec]
        if not items:
            continue
        L += [r"\section*{" + esc(SECTION_TITLES[sec]) + "}"]
        if sec == "major":
            for e in items:
                L += _erratum(e)
        else:
            L += _compact_section(items, profile, lead=not led)
            led = True
    xr = cross_references(doc, paper)
    if xr:
        L += [esc("Also refuted here, with a root cause in another source (counted in that source's report): ")
              + "; ".join(tt(c["id"]) + " (" + esc(rc["paper"]) + ": " + prose(rc["summary"]) + ")" for c, rc in xr)
              + "."]
    return L + [""]


def _others(doc: dict, paper: str) -> list[str]:
    """After the errata: readings that do not extend and inconclusive claims (a paragraph each: their reasons are
    long and are not cut), confirmed claims in a table of short cells."""
    L = [r"\section*{The rest}", r"\subsection*{Readings that do not extend}"]
    ext = extensions_refuted(doc, paper)
    if ext:
        L += [esc("Claims that deliberately read a statement beyond the context the source gives it and fail "
                  "there; not errata of the source."), r"\begin{itemize}\setlength{\itemsep}{1pt}"]
        for c in ext:
            cx = cx_tex(counterexample(c))
            L.append(r"\item " + _hyper(c["id"]) + " (" + prose(place(c["source"]["where"])) + "): "
                     + prose(what_is_wrong(c)) + "." + (" Counterexample: " + cx + "." if cx else ""))
        L.append(r"\end{itemize}")
    else:
        L.append("None in this run.")
    inc = with_verdict(doc, paper, "inconclusive")
    L += ["", r"\subsection*{Inconclusive}"]
    if inc:
        L += [r"\begin{itemize}\setlength{\itemsep}{1pt}"]
        L += [r"\item " + _hyper(c["id"]) + " (" + prose(place(c["source"]["where"])
                                                  + (EXTENSION_MARK if c.get("extension") else "")) + "): "
              + prose(c["reason"]) for c in inc]
        L.append(r"\end{itemize}")
    else:
        L.append("None in this run.")
    conf, untested = confirmed_split(doc, paper)
    recon = " on our reconstruction" if paper in SOURCE_NOTES else ""
    L += ["", r"\subsection*{Confirmed" + recon + "}"]
    if conf:
        L += [r"{\small\setlength{\tabcolsep}{3pt}\begin{longtable}{" + cols(0.25, 0.2, 0.4, 0.15) + "}",
              r"\textbf{claim} & \textbf{location} & \textbf{what the evidence rules out} & "
              r"\textbf{could it have failed?}\\\hline\endhead"]
        for c in conf:
            dag = r"$^\dagger$" if c.get("basis") == "derivation only" else ""
            ro = c.get("rules_out") or c.get("reason")
            L.append(f"{_hyper(c['id'])}{dag} & {prose(place(c['source']['where']))} & {esc(ro)} "
                     f"& {esc(singular(power_cell(c)))}\\\\")
        L.append(r"\hline\end{longtable}}")
        if any(c.get("basis") == "derivation only" for c in conf):
            L += [r"{\small $^\dagger$ " + esc("verdict from our derivation only (symbolic identities, searches "
                                                "over closed forms); no simulation of the procedure entered it.")
                  + "}", ""]
        L += [r"{\small " + note_tex(POWER_NOTE) + "}"]
    else:
        L.append("None in this run.")
    own = own_construction(doc, paper)
    if own:
        L += ["", r"\subsection*{Checks of our own construction}",
              esc("The check passed, but it is true by construction (the stated value computed by the code that makes "
                  "the estimate, an identity of our own derivation, a bound we proved): counted apart from the "
                  "confirmations of the source."), r"\begin{itemize}\setlength{\itemsep}{1pt}"]
        L += [r"\item " + _hyper(c["id"]) + " (" + prose(place(c["source"]["where"])) + "): " + prose(c["construction"])
              for c in own]
        L.append(r"\end{itemize}")
    if untested:
        L += ["", r"\subsection*{Confirmed" + recon + ", untested power}",
              esc("The check passed, but no plausible wrong version of the statement was shown to fail it, so the "
                  "pass is not evidence that the statement holds."), r"\begin{itemize}\setlength{\itemsep}{1pt}"]
        L += [r"\item " + _hyper(c["id"]) + " (" + prose(place(c["source"]["where"])) + "): what would give it power: "
              + prose((c.get("power") or {}).get("why") or "no alternative declared or rejected") for c in untested]
        L.append(r"\end{itemize}")
    return L + [""]


def _claim(c: dict, figs: list[str]) -> list[str]:
    s = c["source"]
    L = [r"\subsection*{" + tt(c["id"]) + ": " + esc(verdict_text(c))
         + (" (" + _cls(c) + ")" if klass(c) else "") + r"}\label{" + _label(c["id"]) + "}",
         esc(f"{s['where']}; kind: {c['kind']}; role: {c.get('role') or 'statement'}."), "Stated:",
         display(c["statement"])]
    if c.get("derived"):
        L += ["Our derivation (computer algebra):", display(c["derived"])]
    if c.get("corrected"):
        L += [esc(corrected_heading(c)) + ":", display(c["corrected"])]
    if c.get("extension"):
        L += [esc("Extension: read beyond the source's context; a failure says it does not extend, not an erratum."),
              ""]
    L += [r"\textit{Assumptions:} " + esc(c["assumptions"]), "", r"\textit{Domain:} " + esc(c["domain"]), ""]
    if open_settings_text(c):
        L += [r"\textit{Settings the source leaves open:} " + esc(open_settings_text(c)), ""]
    if c.get("notes"):
        L += [r"\textit{Notes:} " + esc(c["notes"]), ""]
    L += [r"\textit{Verdict:} \textbf{" + esc(verdict_text(c)) + "} --- " + esc(c["reason"]), ""]
    if c.get("basis") == "derivation only":
        L += [r"\textit{Basis:} our derivation only (symbolic identities, searches over closed forms); no simulation "
              "of the procedure entered this verdict.", ""]
    if c.get("rules_out"):
        L += [r"\textit{What the evidence rules out:} " + esc(c["rules_out"]) + ".", ""]
    ev = c["evidence"]
    if ev.get("checks"):
        L.append(r"{\footnotesize\setlength{\tabcolsep}{3pt}\begin{longtable}{" + cols(0.27, 0.09, 0.64) + "}"
                 r"check & result & detail\\\hline\endhead")
        for ch in ev["checks"]:
            res = {True: "passed", False: "failed", None: "undecided"}[ch["passed"]]
            L.append(f"{esc(ch['name'])} & {res} & {esc(ch['detail'])}\\\\")
        L.append(r"\end{longtable}}")
    aside = set_aside_note(ev)
    if aside:
        L += [r"\textit{Set aside:} " + esc(aside), ""]
    rows = point_rows(ev)
    if rows:
        L.append(r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\begin{longtable}{"
                 + cols(0.25, 0.07, 0.09, 0.09, 0.16, 0.08, 0.07, 0.08, 0.11) + "}"
                 r"point & vs & pred. & est. & 95\% CI & tol & trials & Holm $p$ & status\\\hline\endhead")
        for r in rows[:MAX_ROWS]:
            L.append(" & ".join(esc(x) for x in r) + r"\\")
        L.append(r"\end{longtable}}")
        if len(rows) > MAX_ROWS:
            L.append(esc(f"({len(rows) - MAX_ROWS} more rows in results.json)"))
        L.append("")
    for k, f in enumerate(figs):
        data = c["evidence"].get("figures") or []
        fd = data[k] if k < len(data) and isinstance(data[k], dict) else {}
        wide = bool(fd.get("series")) and panel_count(fd) >= 3   # small multiples: the page's size, or unreadable
        L += [r"\begin{center}\includegraphics[width=" + (r"\linewidth" if wide else r"0.72\linewidth")
              + (r",height=0.9\textheight" if wide else r",height=0.42\textheight") + r",keepaspectratio]{"
              + f + r"}\par\smallskip{\small " + caption_tex(c, k) + r"}\end{center}"]
    return L


def caption_tex(c: dict, k: int) -> str:
    """A figure's caption: the claim id as it is, the rest as prose whose ``$...$`` (axis labels) is math when the
    whitelist admits it (:func:`prose`, :func:`math_ok`)."""
    cap, head = figure_caption(c, k), f"Figure {k + 1} of {c['id']}"
    rest = cap[len(head):] if cap.startswith(head) else cap
    out = []
    for seg in re.split(r"(\$[^$]+\$)", rest):
        if seg.startswith("$") and seg.endswith("$") and len(seg) > 1 and math_ok(seg[1:-1]):
            out.append("$" + _safe_math(seg[1:-1]) + "$")
        else:
            lead, tail = seg[: len(seg) - len(seg.lstrip())], seg[len(seg.rstrip()):]
            out.append(lead + prose(seg) + tail if seg.strip() else esc(seg))   # prose() trims: keep the spaces
    return esc(head if cap.startswith(head) else "") + "".join(out)


def note_tex(note: str) -> str:
    """A markdown note in LaTeX: `code` as a command (its -- kept, not an en dash), "quoted" text with opening and
    closing quotes, *emphasis* dropped."""
    parts = note.replace("*", "").split("`")
    return "".join(_cmd(p) if i % 2 else re.sub(r'"([^"]*)"', r"``\1''", esc(p)) for i, p in enumerate(parts))


__all__ = ["render_paper", "render_summary", "esc", "prose", "display", "inline_math", "tex_point", "fmt"]
