"""Standalone LaTeX report (amsmath, amssymb, graphicx, hyperref only: texlive-latex-base)."""
from __future__ import annotations

from .tables import (ORDER, corrected_heading, errata_groups, extensions_refuted, fmt, point_rows, set_aside_note,
                     summary_rows)

MAX_ROWS = 30
SUMMARY_ROWS = 22   # rows wrap to 2-3 lines (long sources): 22 fit a page with its footer
_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"$<$", ">": r"$>$",
        "|": r"\textbar{}",
        # a long sympy form or number list may break after an operator instead of running past the margin
        "*": r"*\allowbreak{}", "/": r"/\allowbreak{}", ",": r",\allowbreak{}"}
_UNICODE = {"θ": r"$\theta$", "σ": r"$\sigma$", "γ": r"$\gamma$", "λ": r"$\lambda$", "α": r"$\alpha$",
            "β": r"$\beta$", "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "∞": r"$\infty$", "—": "---",
            "–": "--", "χ": r"$\chi$", "²": r"$^2$", "−": "-", "…": r"\dots{}", "π": r"$\pi$", "δ": r"$\delta$",
            "ε": r"$\varepsilon$", "∈": r"$\in$", "≠": r"$\neq$", "±": r"$\pm$", "·": r"$\cdot$", "×": r"$\times$",
            "ν": r"$\nu$", "μ": r"$\mu$", "η": r"$\eta$", "Φ": r"$\Phi$", "√": r"$\surd$", "≈": r"$\approx$",
            "’": "'", "“": "``", "”": "''", "‖": r"$\|$", "⁺": r"$^+$", "∫": r"$\int$", "Γ": r"$\Gamma$",
            "ψ": r"$\psi$", "φ": r"$\phi$", "⊥": r"$\perp$", "≽": r"$\succeq$", "ℓ": r"$\ell$", "§": r"\S{}", "∑": r"$\sum$"}


def esc(s) -> str:
    s = str(s)
    out = "".join(_ESC.get(ch, ch) for ch in s)
    out = "".join(_UNICODE.get(ch, ch) for ch in out)
    return "".join(ch if ord(ch) < 128 else "?" for ch in out)


def display(m: str | None) -> str:
    if not m:
        return "---"
    m = _safe_math(m)
    # shrink a form wider than the line to the line width (never enlarge a short one)
    return ("\\[\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{$\\displaystyle "
            + m + "$}\\]")


def _safe_math(m: str) -> str:
    # commands outside amsmath/amssymb that sympy or authors may emit
    m = m.replace("\\operatorname{", "\\mathrm{")
    return "".join(_UNICODE.get(ch, ch).strip("$") if ord(ch) >= 128 else ch for ch in m)


def render_latex(doc: dict, figs: dict[str, list[str]]) -> str:
    meta, timing = doc.get("meta", {}), doc.get("timing", {})
    counts = meta.get("counts", {})
    L = [r"\documentclass[10pt]{article}",
         r"\usepackage{amsmath,amssymb,graphicx,array}", r"\newcolumntype{P}[1]{>{\raggedright\arraybackslash}p{#1}}", r"\usepackage[hidelinks]{hyperref}",
         r"\setlength{\parindent}{0pt}\setlength{\parskip}{4pt}",
         r"\addtolength{\textwidth}{3cm}\addtolength{\oddsidemargin}{-1.5cm}",
         r"\title{Verification report}", r"\date{" + esc(timing.get("started", "")) + "}", r"\begin{document}",
         r"\sloppy",   # long number lists and sympy forms stretch a line rather than run past the margin
         r"\maketitle",
         esc(f"Profile {meta.get('profile')}, seed {meta.get('seed')}, device {meta.get('device')}, "
             f"{meta.get('n_tests', 0)} Monte Carlo tests, family-wise level {meta.get('alpha_familywise')} "
             f"({meta.get('multiple_testing', '')}), {timing.get('seconds', '?')} s. ")
         + esc(", ".join(f"{counts.get(k, 0)} {k}" for k in ORDER)) + ".", "",
         r"\section*{Summary}"]
    # a tabular cannot break across pages (longtable needs texlive-latex-recommended): one table per
    # SUMMARY_ROWS claims; ids in a column wide enough for the longest, sources shortened
    rows = summary_rows(doc)
    head = [r"{\scriptsize\setlength{\tabcolsep}{3pt}\begin{tabular}{P{6.2cm}P{2.0cm}P{1.3cm}P{4.8cm}}", r"claim & kind & verdict & source\\\hline"]
    for k in range(0, len(rows), SUMMARY_ROWS):
        L += head
        for r in rows[k:k + SUMMARY_ROWS]:
            where = r["where"] if len(r["where"]) <= 90 else r["where"][:88] + "..."
            dag = r"$^\dagger$" if r["derived_only"] else ""   # verdict from our derivation only
            L.append(f"\\texttt{{{esc(r['id'])}}} & {esc(r['kind'])} & \\textbf{{{r['verdict']}}}{dag} & {esc(where)}\\\\")
        L += [r"\end{tabular}}", r"\clearpage" if k + SUMMARY_ROWS < len(rows) else ""]
    if any(r["derived_only"] for r in rows):
        L += [r"{\scriptsize $^\dagger$ verdict from our derivation only (symbolic identities, searches over closed "
              r"forms); no simulation of the procedure entered it.}", ""]
    L += [r"\section*{Errata}"]
    groups = errata_groups(doc)
    if not groups:
        L.append("No claim was refuted as its source states it in this run.")
    for cause, members in groups:
        if cause:
            L += [f"\\subsection*{{Erratum: {esc(cause)}}}",
                  esc("One root cause; its consequences: " + ", ".join(c["id"] for c in members) + ".")]
        for c in members:
            L += [f"\\{'subsubsection' if cause else 'subsection'}*{{\\texttt{{{esc(c['id'])}}}: "
                  f"{esc(c['source']['where'])}}}",
                  "Stated (" + esc(c["source"]["file"]) + "):", display(c["statement"]), esc(c["reason"]) + "."]
            for ch in c["evidence"].get("checks", []):
                if ch["passed"] is False and ch["refutes"]:
                    L.append("Counterexample (" + esc(ch["name"]) + "): " + esc(ch["detail"]) + ".")
            if c.get("corrected"):
                L += [esc(corrected_heading(c)) + ":", display(c["corrected"])]
    ext = extensions_refuted(doc)
    if ext:
        L += [r"\section*{Readings beyond the source that do not hold}",
              esc("These claims read a statement beyond its context in the source; their failure is not an "
                  "erratum of the source.")]
        for c in ext:
            L += [f"\\subsection*{{\\texttt{{{esc(c['id'])}}}: does not extend}}", display(c["statement"]),
                  esc(c["reason"]) + "."]
    L.append(r"\section*{Claims}")
    for c in sorted(doc["claims"], key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        L += _claim(c, figs.get(c["id"], []))
    L.append(r"\end{document}")
    return "\n".join(L) + "\n"


def _claim(c: dict, figs: list[str]) -> list[str]:
    s = c["source"]
    L = [f"\\subsection*{{\\texttt{{{esc(c['id'])}}}: {c['verdict']}}}",
         esc(f"{s['file']}, {s['where']}; kind: {c['kind']}."), "Stated:", display(c["statement"])]
    if c.get("derived"):
        L += ["Derived (sympy):", display(c["derived"])]
    if c.get("corrected"):
        L += [esc(corrected_heading(c)) + ":", display(c["corrected"])]
    if c.get("extension"):
        L += [esc("Extension: read beyond the source's context; a refutation is not an erratum."), ""]
    L += ["\\textit{Assumptions:} " + esc(c["assumptions"]), "", "\\textit{Domain:} " + esc(c["domain"]), ""]
    if c.get("notes"):
        L += ["\\textit{Notes:} " + esc(c["notes"]), ""]
    L += [f"\\textit{{Verdict:}} \\textbf{{{c['verdict']}}} --- " + esc(c["reason"]), ""]
    if c.get("basis") == "derivation only":
        L += ["\\textit{Basis:} our derivation only (symbolic identities, searches over closed forms); no simulation "
              "of the procedure entered this verdict.", ""]
    if c.get("rules_out"):
        L += ["\\textit{What the evidence rules out:} " + esc(c["rules_out"]) + ".", ""]
    ev = c["evidence"]
    if ev.get("checks"):
        L.append(r"{\footnotesize\setlength{\tabcolsep}{3pt}\begin{tabular}{P{4.3cm}P{1.4cm}P{8.7cm}}check & result & detail\\\hline")
        for ch in ev["checks"]:
            res = {True: "passed", False: "failed", None: "undecided"}[ch["passed"]]
            L.append(f"{esc(ch['name'])} & {res} & {esc(ch['detail'][:400])}\\\\")
        L.append(r"\end{tabular}}")
        L.append("")
    aside = set_aside_note(ev)
    if aside:
        L += ["\\textit{Set aside:} " + esc(aside), ""]
    rows = point_rows(ev)
    if rows:
        L.append(r"{\scriptsize\setlength{\tabcolsep}{3pt}\begin{tabular}{P{3.9cm}lllP{2.8cm}llll}point & vs & pred. & est. & 95\% CI & tol & "
                 r"trials & Holm $p$ & status\\\hline")
        for r in rows[:MAX_ROWS]:
            L.append(" & ".join(esc(x) for x in r) + r"\\")
        L.append(r"\end{tabular}}")
        if len(rows) > MAX_ROWS:
            L.append(esc(f"({len(rows) - MAX_ROWS} more rows in results.json)"))
        L.append("")
    for f in figs:
        L += [r"\begin{center}\includegraphics[width=0.7\textwidth]{" + f + r"}\end{center}"]
    return L
