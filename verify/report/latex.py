"""LaTeX report of one source (``<paper>/report.tex``), in the shape of a paper's appendix.

Packages from texlive-latex-base only (amsmath, amssymb, graphicx, array, longtable, hyperref).  Formulas are LaTeX
everywhere (stated and corrected forms, witness and counterexample values); free text is escaped (:func:`esc`).
A results document may come from anyone: a formula is typeset as math only when
:func:`verify.report.untrusted.math_ok` accepts it (whitelisted control words only: no file, shell or catcode
primitive), otherwise it is shown as escaped verbatim text; and :func:`verify.report.compile_pdf` always runs
pdflatex with ``-no-shell-escape`` and ``openout_any=p``/``openin_any=p``.  The body (what was
checked, the errata ordered by severity and grouped by root cause, the readings that do not extend, the inconclusive
and confirmed claims one line each, then each erratum in detail) comes before ``\\appendix``, which holds every
claim's full record with its per-point tests and figures.
"""
from __future__ import annotations

import math
import re

from verify.report.tables import (BRIEF_NOTE, DETAILED, ORDER, SOURCE_NOTES, checked_parts, claims_of,
                     corrected_heading, corrected_verdict_word, counts, cross_references, errata_groups,
                     extensions_refuted, fmt, klass, measured, measured_cell, minimal, one_line, point_rows,
                     set_aside_note, short, source_info, verdict_text, what_decides, what_fails, with_verdict, witness,
                     confirmed_split, untested_why, POWER_NOTE, power_cell)
from .untrusted import math_ok, strip_controls

MAX_ROWS = 30
_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_\allowbreak{}",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"$<$", ">": r"$>$",
        "|": r"\textbar{}",
        # a long sympy form or number list may break after an operator instead of running past the margin
        "*": r"*\allowbreak{}", "/": r"/\allowbreak{}", ",": r",\allowbreak{}", "=": r"=\allowbreak{}"}
_UNICODE = {"θ": r"$\theta$", "σ": r"$\sigma$", "γ": r"$\gamma$", "λ": r"$\lambda$", "α": r"$\alpha$",
            "β": r"$\beta$", "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "∞": r"$\infty$", "—": "---",
            "–": "--", "χ": r"$\chi$", "²": r"$^2$", "³": r"$^3$", "−": "-", "…": r"\dots{}", "π": r"$\pi$",
            "δ": r"$\delta$", "ε": r"$\varepsilon$", "∈": r"$\in$", "≠": r"$\neq$", "±": r"$\pm$", "·": r"$\cdot$",
            "×": r"$\times$", "ν": r"$\nu$", "μ": r"$\mu$", "η": r"$\eta$", "Φ": r"$\Phi$", "√": r"$\surd$",
            "≈": r"$\approx$", "’": "'", "‘": "`", "“": "``", "”": "''", "‖": r"$\|$", "⁺": r"$^+$", "∫": r"$\int$",
            "Γ": r"$\Gamma$", "ψ": r"$\psi$", "φ": r"$\phi$", "⊥": r"$\perp$", "≽": r"$\succeq$", "ℓ": r"$\ell$",
            "§": r"$\S$", "∑": r"$\sum$", "κ": r"$\kappa$", "ξ": r"$\xi$", "ρ": r"$\rho$", "τ": r"$\tau$",
            "ω": r"$\omega$", "Δ": r"$\Delta$", "∂": r"$\partial$", "∇": r"$\nabla$", "⊤": r"$\top$",
            "ᵀ": r"$^\top$", "≪": r"$\ll$", "≫": r"$\gg$", "∼": r"$\sim$", "≲": r"$\lesssim$", "≳": r"$\gtrsim$",
            "↛": r"$\not\to$", "✔": "", "✘": "", "₀": r"$_0$", "₁": r"$_1$", "₂": r"$_2$", "ᵢ": r"$_i$",
            "⌈": r"$\lceil$", "⌉": r"$\rceil$", "⌊": r"$\lfloor$", "⌋": r"$\rfloor$", "∘": r"$\circ$",
            "⊗": r"$\otimes$", "⊙": r"$\odot$", "∝": r"$\propto$", "≡": r"$\equiv$", "⇒": r"$\Rightarrow$",
            "⟨": r"$\langle$", "⟩": r"$\rangle$", "Σ": r"$\Sigma$", "Ω": r"$\Omega$", "Θ": r"$\Theta$",
            "Λ": r"$\Lambda$", "Π": r"$\Pi$", "ζ": r"$\zeta$", "ι": r"$\iota$", "ϕ": r"$\varphi$", "Ψ": r"$\Psi$",
            "\u00a0": "~", "é": r"\'e", "è": r"\`e", "ö": r"\"o", "ü": r"\"u", "ä": r"\"a", "°": r"$^\circ$",
            "¹": r"$^1$", "⁻": r"$^-$", "½": r"$\frac12$", "∉": r"$\notin$", "⊂": r"$\subset$", "⊆": r"$\subseteq$",
            "∪": r"$\cup$", "∩": r"$\cap$", "∀": r"$\forall$", "∃": r"$\exists$", "¬": r"$\neg$", "∧": r"$\wedge$",
            "∨": r"$\vee$", "⊕": r"$\oplus$", "†": r"$^\dagger$", "′": "'", "″": "''", "√̅": r"$\surd$"}
_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "kappa", "lambda", "mu", "nu", "xi", "rho",
          "sigma", "tau", "phi", "chi", "psi", "omega", "zeta", "iota", "Gamma", "Delta", "Theta", "Lambda", "Sigma",
          "Phi", "Psi", "Omega", "Pi", "Xi"}


def esc(s) -> str:
    """Free text for LaTeX: specials escaped, known symbols as math, control characters removed, anything else
    as '?'.  No control word of the input survives: every backslash becomes ``\\textbackslash{}``."""
    s = strip_controls(s)
    out = "".join(_ESC.get(ch, ch) for ch in s)
    out = "".join(_UNICODE.get(ch, ch) for ch in out)
    out = re.sub(r"(?<!\\)\$\$", "", out)   # two adjacent inline symbols: one math group
    out = re.sub(r"\.(?=[A-Za-z])", r".\\allowbreak{}", out)   # a long dotted id may break after a dot
    return "".join(ch if ord(ch) < 128 else "?" for ch in out)


def _safe_math(m: str) -> str:
    # commands outside amsmath/amssymb that sympy or authors may emit
    m = " ".join(strip_controls(m).split())
    m = m.replace("\\operatorname{", "\\mathrm{")
    return "".join(_UNICODE.get(ch, ch).strip("$") if ord(ch) >= 128 else ch for ch in m)


def verbatim(m: str) -> str:
    """A formula :func:`math_ok` refuses, as escaped typewriter text (it is shown, not typeset)."""
    return "\\texttt{" + esc(" ".join(strip_controls(m).split())) + "}"


def display(m: str | None) -> str:
    if not m:
        return "---"
    if not math_ok(m):
        return "\\begin{flushleft}" + verbatim(m) + "\\end{flushleft}"
    # shrink a form wider than the line to the line width (never enlarge a short one)
    return ("\\[\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{$\\displaystyle "
            + _safe_math(m) + "$}\\]")


def tex_name(k: str) -> str:
    """A parameter name as math (``gamma`` -> ``\\gamma``, ``T_lt`` -> ``T_{\\mathrm{lt}}``); a name that is not a
    symbol (``W1_upper_bound``, ``dR/dgamma at 0+``) as text."""
    if not re.fullmatch(r"[A-Za-z]+(_[A-Za-z0-9]+)?", str(k)) or (
            str(k).partition("_")[0] not in _GREEK | {"lam"} and len(str(k).partition("_")[0]) > 1):
        return "\\text{" + esc(k) + "}"
    base, _, sub = str(k).partition("_")
    if base in _GREEK:
        b = "\\" + base
    elif base == "lam":
        b = "\\lambda"
    elif len(base) == 1 and base.isalpha():
        b = base
    else:
        b = "\\mathrm{" + re.sub(r"[^A-Za-z0-9]", "", base) + "}"
    if sub:
        b += "_{\\mathrm{" + re.sub(r"[^A-Za-z0-9]", "", sub) + "}}" if len(sub) > 1 else "_{" + sub + "}"
    return b


def tex_num(x) -> str:
    if isinstance(x, bool):
        return "\\mathrm{" + str(x) + "}"
    if isinstance(x, (int, float)):
        if isinstance(x, float) and not math.isfinite(x):
            return "\\infty" if x > 0 else ("-\\infty" if x < 0 else "\\mathrm{NaN}")
        s = short(x)
        if "e" in s:
            mant, ex = s.split("e")
            return f"{mant}\\times 10^{{{int(ex)}}}"
        return s
    return "\\text{" + esc(one_line(x, 40)) + "}"


def tex_point(pt: dict | None, n: int = 6) -> str:
    """A parameter point as inline math: ``\\(\\gamma = 0.5,\\ \\sigma = 1\\)`` (at most ``n`` coordinates)."""
    if not pt:
        return "---"
    items = [(k, v) for k, v in pt.items() if not isinstance(v, (list, tuple, dict))]
    more = len(items) > n
    # one math group per coordinate: a line may break between them
    def one(k, v):
        name = tex_name(k)
        name = esc(k) if name.startswith("\\text{") else f"\\({name}\\)"
        if isinstance(v, (int, float)):
            return f"{name} \\(= {tex_num(v)}\\)"
        return f"{name} = " + esc(one_line(v, 40))
    if not items:
        return "(a design: see the claim's checks)"
    return ", ".join(one(k, v) for k, v in items[:n]) + (", \\dots" if more else "")


def witness_cell(c: dict) -> str:
    w = witness(c)
    if w:
        out = tex_point(w["point"], 4)
        mg = w.get("margin")
        if isinstance(mg, (int, float)) and math.isfinite(mg):
            out += f" (margin \\({tex_num(mg)}\\))"
        return out
    m = minimal(c)
    return ("minimal: " + tex_point(m, 4)) if m else "---"


def fitted(m: str) -> str:
    """A formula at its natural size when it fits the line (of a cell), else shrunk to the line."""
    if not math_ok(m):
        return verbatim(m)
    return ("\\sbox0{$" + _safe_math(m) + "$}\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}"
            "\\else\\usebox0\\fi{}")


def _corr_row(c: dict, group_corrected: str | None) -> str | None:
    """The row under an erratum with its corrected form and that form's own verdict (spanning the columns after
    the class); None when there is none or it is the group's form, shown once on the group's row."""
    f = " ".join((c.get("corrected") or "").split())
    if not f or (group_corrected and f == " ".join(group_corrected.split())):
        if f:
            return (" & \\multicolumn{4}{" + cols(0.905) + "}{\\textit{corrected form: the group's, "
                    + esc(corrected_verdict_word(c)) + " here}}\\\\")
        return None
    return (" & \\multicolumn{4}{" + cols(0.905) + "}{\\textit{corrected (ours, " + esc(corrected_verdict_word(c))
            + "):} " + fitted(f) + "}\\\\[2pt]")


def _cls(c: dict) -> str:
    return esc(klass(c) or "unclassified")


def tt(cid: str) -> str:
    """A claim id in typewriter type that may break after its dots and underscores."""
    return "\\texttt{" + esc(cid) + "}"


def _hyper(cid: str) -> str:
    return "\\hyperref[" + _label(cid) + "]{" + tt(cid) + "}"


def _label(cid: str) -> str:
    return "c:" + re.sub(r"[^A-Za-z0-9.:-]", "-", cid)


PREAMBLE = [r"\documentclass[10pt]{article}",
            # T1 would need cm-super or lmodern (not in texlive-latex-base) for scalable fonts: OT1's Type 1 CM
            r"\usepackage{amsmath,amssymb,graphicx,array,longtable}",
            r"\usepackage[hidelinks]{hyperref}",
            r"\newcolumntype{P}[1]{>{\raggedright\arraybackslash}p{#1}}",
            r"\setlength{\parindent}{0pt}\setlength{\parskip}{4pt}",
            r"\usepackage[a4paper,margin=2cm]{geometry}",
            r"\setlength{\LTpre}{4pt}\setlength{\LTpost}{4pt}",
            r"\emergencystretch=3em"]


def _run_line(doc: dict) -> str:
    meta, timing = doc.get("meta", {}), doc.get("timing", {})
    return (f"Profile {meta.get('profile')}, seed {meta.get('seed')}, device {meta.get('device')}; "
            f"{meta.get('n_tests', 0)} Monte Carlo tests in the run, family-wise level {meta.get('alpha_familywise')} "
            f"({meta.get('multiple_testing', '')}); {timing.get('seconds', '?')} s.")


def _body(doc: dict, paper: str) -> list[str]:
    """A source's report before its appendix: what was checked, the errata table, the other verdicts one line each,
    then the substantive and proof-step errata in detail."""
    n = counts(doc, paper)
    L = []
    if paper in SOURCE_NOTES:
        L += [r"\fbox{\parbox{\dimexpr\linewidth-2\fboxsep-2\fboxrule}{\textbf{Note.} " + esc(SOURCE_NOTES[paper])
              + "}}", ""]
    L += [r"\section*{What was checked}",
          "".join(r"\textbf{" + esc(t) + "}" if bold else esc(t) for t, bold in checked_parts(n)), "",
          esc("By kind: " + ", ".join(f"{k} {v}" for k, v in sorted(n["by_kind"].items(), key=lambda kv: -kv[1]))
              + ". By role: " + ", ".join(f"{k} {v}" for k, v in n["by_role"].items()) + "."), ""]
    L += _errata(doc, paper)
    L += _others(doc, paper)
    detailed = [(c, g) for g in errata_groups(doc, paper) for c in g["members"] if klass(c) in DETAILED]
    if detailed:
        L += [r"\section*{Errata in detail}"]
        for c, g in detailed:
            L += _erratum_detail(c, g)
    return L


def render_paper(doc: dict, paper: str, figs: dict[str, list[str]]) -> str:
    timing = doc.get("timing", {})
    info = source_info(doc, paper)
    num = f"{info['number']}: " if info["number"] else ""
    L = PREAMBLE + [r"\begin{document}", r"\sloppy",
                    r"{\centering{\large\bfseries " + esc(num + info["title"]) + r"\par}\smallskip"
                    r"{\normalsize Verification report (ftverify), " + esc(timing.get("started", "")[:16].replace("T", " "))
                    + r" UTC\par}\medskip}",
                    r"{\small " + esc(f"Source text {info['file']} (key {paper}). " + _run_line(doc)) + "}", ""]
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
    timing = doc.get("timing", {})
    L = PREAMBLE + [r"\begin{document}", r"\sloppy",
                    r"{\centering{\large\bfseries Verification summary: every source\par}\smallskip"
                    r"{\normalsize ftverify, " + esc(timing.get("started", "")[:16].replace("T", " "))
                    + r" UTC\par}\medskip}", r"{\small " + esc(_run_line(doc) + " The full record of every claim "
                                                               "(per-point tests, figures) is in the appendix of its "
                                                               "source's own report.") + "}", ""]
    for k, p in enumerate(sources):
        info = source_info(doc, p)
        num = f"{info['number']}: " if info["number"] else ""
        body = "\n".join(_body(doc, p))
        body = body.replace(r"\subsection*{", r"\subsubsection*{").replace(r"\section*{", r"\subsection*{")
        body = re.sub(r"\\hyperref\[[^\]]*\]", "", body)   # no appendix here to link to
        L += ([r"\clearpage"] if k else []) + [r"\section*{" + esc(num + info["title"]) + "}",
                                                esc(f"Source text {info['file']} (key {p})."), "", body]
    L.append(r"\end{document}")
    return "\n".join(L) + "\n"


def cols(*fr: float) -> str:
    """Column specification of paragraph columns taking the given fractions of the line (their sum <= 1)."""
    return "".join(f"P{{\\dimexpr {f}\\linewidth-2\\tabcolsep\\relax}}" for f in fr)


_ERR_COLS = cols(0.095, 0.22, 0.27, 0.2, 0.215)


def _errata(doc: dict, paper: str) -> list[str]:
    groups = errata_groups(doc, paper)
    L = [r"\section*{Errata, most serious first}"]
    if not groups:
        return L + [esc("No claim of this source was refuted as its authors state it in this run."), ""]
    L += [esc("Grouped by root cause (R1, R2, ...). The strongest witness is the failing point with the largest "
              "margin (violation in units of the stated value) inside the stated domain; the minimal counterexample "
              "and every number are in the claim's detail."),
          r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\renewcommand{\arraystretch}{1.15}",
          r"\begin{longtable}{" + _ERR_COLS + "}",
          r"\textbf{class} & \textbf{claim, location} & \textbf{what fails} & \textbf{strongest witness} & "
          r"\textbf{measured}\\\hline\endhead"]
    for g in groups:
        if g["label"]:
            corr = " ".join((g["corrected"] or "").split())
            corr_t = (r"\newline\textit{corrected (ours):} " + fitted(corr)) if corr else ""
            L.append(r"\multicolumn{5}{@{}P{\linewidth}@{}}{\rule{0pt}{9pt}\textbf{" + esc(g["label"]) + "} "
                     + esc(one_line(g["summary"], 160)) + corr_t + r"}\\*[1pt]")   # \\*: no page break after
        for c in g["members"]:
            other = f" (from {c['source']['paper']})" if c["source"].get("paper") != paper else ""
            row = _corr_row(c, g["corrected"])
            L.append(" & ".join([
                _cls(c), _hyper(c["id"]) + esc(other) + ", " + esc(one_line(c["source"]["where"], 45)),
                esc(what_fails(c, 90)), witness_cell(c), esc(measured_cell(c))]) + (r"\\*" if row else r"\\"))
            if row:
                L.append(row)
        if g is not groups[-1]:
            L.append(r"\hline")
    L += [r"\hline\end{longtable}}"]
    if any(klass(c) not in DETAILED for g in groups for c in g["members"]):
        L += [esc(BRIEF_NOTE)]
    xr = cross_references(doc, paper)
    if xr:
        L += [esc("Also refuted here, with a root cause in another source (listed in that source's report): ")
              + "; ".join(tt(c["id"]) + " " + esc(f"({rc['paper']}: {one_line(rc['summary'], 80)})")
                          for c, rc in xr) + "."]
    return L + [""]


def _others(doc: dict, paper: str) -> list[str]:
    L = [r"\section*{Readings that do not extend}"]
    ext = extensions_refuted(doc, paper)
    if ext:
        L += [esc("Claims that deliberately read a statement beyond the context the source gives it and fail "
                  "there; not errata of the source."),
              r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\begin{longtable}{" + cols(0.26, 0.2, 0.34, 0.2) + "}",
              r"\textbf{claim} & \textbf{location} & \textbf{what fails} & \textbf{witness}\\\hline\endhead"]
        for c in ext:
            L.append(f"{_hyper(c['id'])} & {esc(one_line(c['source']['where'], 50))} & {esc(what_fails(c, 100))} & "
                     f"{witness_cell(c)}\\\\")
        L.append(r"\hline\end{longtable}}")
    else:
        L.append("None in this run.")
    inc = with_verdict(doc, paper, "inconclusive")
    L += ["", r"\section*{Inconclusive}"]
    if inc:
        L += [r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\begin{longtable}{" + cols(0.26, 0.2, 0.54) + "}",
              r"\textbf{claim} & \textbf{location} & \textbf{why, and what would decide it}\\\hline\endhead"]
        for c in inc:
            L.append(f"{_hyper(c['id'])} & {esc(one_line(c['source']['where'], 50))} & {esc(what_decides(c, 120))}\\\\")
        L.append(r"\hline\end{longtable}}")
    else:
        L.append("None in this run.")
    conf, untested = confirmed_split(doc, paper)
    recon = " on our reconstruction" if paper in SOURCE_NOTES else ""
    L += ["", r"\section*{Confirmed" + recon + "}"]
    if conf:
        L += [r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\begin{longtable}{" + cols(0.25, 0.18, 0.41, 0.16) + "}",
              r"\textbf{claim} & \textbf{location} & \textbf{what the evidence rules out} & "
              r"\textbf{could it have failed?}\\\hline\endhead"]
        for c in conf:
            dag = r"$^\dagger$" if c.get("basis") == "derivation only" else ""
            ro = c.get("rules_out") or c.get("reason")
            L.append(f"{_hyper(c['id'])}{dag} & {esc(one_line(c['source']['where'], 50))} & {esc(one_line(ro, 110))} "
                     f"& {esc(power_cell(c))}\\\\")
        L.append(r"\hline\end{longtable}}")
        if any(c.get("basis") == "derivation only" for c in conf):
            L += [r"{\scriptsize $^\dagger$ " + esc("verdict from our derivation only (symbolic identities, searches "
                                                    "over closed forms); no simulation of the procedure entered it.")
                  + "}", ""]
        L += [r"{\scriptsize " + esc(POWER_NOTE.replace("*", "").replace("`", "")) + "}"]
    else:
        L.append("None in this run.")
    if untested:
        L += ["", r"\section*{Confirmed" + recon + ", untested power}",
              esc("The check passed, but no plausible wrong version of the statement was shown to fail it, so the "
                  "pass is not evidence that the statement holds."), "",
              r"{\scriptsize\setlength{\tabcolsep}{2.5pt}\begin{longtable}{" + cols(0.26, 0.2, 0.54) + "}",
              r"\textbf{claim} & \textbf{location} & \textbf{what would give it power}\\\hline\endhead"]
        for c in untested:
            L.append(f"{_hyper(c['id'])} & {esc(one_line(c['source']['where'], 50))} & {esc(untested_why(c))}\\\\")
        L.append(r"\hline\end{longtable}}")
    return L + [""]


def _erratum_detail(c: dict, g: dict) -> list[str]:
    s = c["source"]
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    m = measured(c)
    L = [r"\subsection*{" + tt(c["id"]) + " --- " + _cls(c) + "}",
         esc(f"Stated ({s['where']}):"), display(c["statement"]),
         r"\textit{What fails:} " + esc(one_line(c["reason"], 500)) + ".", ""]
    if sev.get("why"):
        L += [r"\textit{Severity:} \textbf{" + esc(sev.get("class")) + "} --- " + esc(sev["why"]) + ".", ""]
    elif m:
        L += [r"\textit{Measured:} " + esc(measured_cell(c)) + ".", ""]
    gap = m.get("largest_gap")
    gap = gap if isinstance(gap, (int, float)) and math.isfinite(gap) else None
    how = m.get("method") if m.get("method") and m["method"] not in (sev.get("why") or "") \
        and (m.get("fraction") is not None or gap is not None) else None
    if how or gap is not None:
        L += [r"\textit{How measured:} " + "; ".join(filter(None, [
            esc(how) if how else None,
            f"largest gap \\({tex_num(gap)}\\) in units of the stated value" if gap is not None else None])) + ".", ""]
    w = witness(c)
    if w:
        extra = ""
        if isinstance(w.get("estimate"), (int, float)):
            extra = (f"; simulated \\({tex_num(w['estimate'])}\\)"
                     + (f" \\([{tex_num(w['ci'][0])}, {tex_num(w['ci'][1])}]\\)" if w.get("ci") else "")
                     + f" vs stated \\({tex_num(w.get('stated'))}\\)")
        elif isinstance(w.get("stated"), (int, float)) and isinstance(w.get("derived"), (int, float)):
            extra = f"; stated \\({tex_num(w['stated'])}\\) vs derived \\({tex_num(w['derived'])}\\)"
        mg = w.get("margin")
        L += [r"\textit{Strongest witness:} " + tex_point(w["point"], 12)
              + (f", margin \\({tex_num(mg)}\\)" if isinstance(mg, (int, float)) and math.isfinite(mg) else "")
              + extra + (" (" + esc(w["how"]) + ")" if w.get("how") else "") + ".", ""]
    mn = minimal(c)
    if mn:
        L += [r"\textit{Minimal counterexample:} " + tex_point(mn, 12) + ".", ""]
    if g.get("summary"):
        L += [r"\textit{Root cause} (" + esc(f"{g['label']}, {g['paper']}") + "): " + esc(g["summary"]), ""]
    if c.get("corrected"):
        L += [r"\textit{" + esc(corrected_heading(c)) + ":}", display(c["corrected"])]
    return L


def _claim(c: dict, figs: list[str]) -> list[str]:
    s = c["source"]
    L = [r"\subsection*{" + tt(c["id"]) + ": " + esc(verdict_text(c))
         + (" (" + _cls(c) + ")" if klass(c) else "") + r"}\label{" + _label(c["id"]) + "}",
         esc(f"{s['where']}; kind: {c['kind']}; role: {c.get('role') or 'statement'}."), "Stated:",
         display(c["statement"])]
    if c.get("derived"):
        L += ["Derived (sympy):", display(c["derived"])]
    if c.get("corrected"):
        L += [esc(corrected_heading(c)) + ":", display(c["corrected"])]
    if c.get("extension"):
        L += [esc("Extension: read beyond the source's context; a failure says it does not extend, not an erratum."),
              ""]
    L += [r"\textit{Assumptions:} " + esc(c["assumptions"]), "", r"\textit{Domain:} " + esc(c["domain"]), ""]
    if c.get("notes"):
        L += [r"\textit{Notes:} " + esc(c["notes"]), ""]
    L += [r"\textit{Verdict:} \textbf{" + esc(verdict_text(c)) + "} --- " + esc(one_line(c["reason"], 400)), ""]
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
            L.append(f"{esc(one_line(ch['name'], 80))} & {res} & {esc(one_line(ch['detail'], 400))}\\\\")
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
    for f in figs:
        L += [r"\begin{center}\includegraphics[width=0.72\linewidth,height=0.42\textheight,keepaspectratio]{"
              + f + r"}\end{center}"]
    return L


__all__ = ["render_paper", "render_summary", "esc", "display", "fitted", "tex_point", "fmt"]
