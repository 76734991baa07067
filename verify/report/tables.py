"""What the markdown and LaTeX renderers share: the per-source selection, the errata grouped by root cause and
ordered by severity, and one-line cells.

A summary cell is at most one line of prose: :func:`one_line` collapses whitespace, elides long lists of numbers
(they stay in the claim's detail section and in ``results.json``) and cuts at a word boundary.
"""
from __future__ import annotations

import math
import re

from verify.run.power import is_untested, power_cell
from verify.judge.severity import CLASSES, order_key, rank

ORDER = ["error", "refuted", "does not extend", "inconclusive", "confirmed"]   # error: a check that did not finish
ROLES = ("statement", "proof step", "remark", "caption", "table")

# said on the first page of a source's report
SOURCE_NOTES = {
    "dayi2024": ("The formulas of this source were lost in the text extraction: every stated form in this report is "
                 "our reconstruction from the surrounding text and proofs (each claim's notes say how it was read)."),
}



#: how the reports name a confirmation whose check is true by construction (``Claim.construction``)
OWN = "a check of our own construction"


def is_own(c: dict) -> bool:
    """A confirmation whose check is of our own construction (``construction`` in results.json): true whatever the
    source says, so it is counted and listed apart from the confirmations of the source."""
    return c.get("verdict") == "confirmed" and bool(c.get("construction"))


def verdict_text(c: dict) -> str:
    """A claim's verdict as the reports print it: for a source whose formulas are our reconstruction
    (:data:`SOURCE_NOTES`), the verdict is one on that reconstruction ("confirmed on our reconstruction"); a
    confirmation of our own construction says so."""
    v = c["verdict"]
    recon = " on our reconstruction" if paper_of(c) in SOURCE_NOTES and v in ("confirmed", "refuted") else ""
    return (v + recon + (f", {OWN}" if is_own(c) else "")
            + (", untested power" if v == "confirmed" and is_untested(c) else ""))


def verdict_word(c: dict) -> str:
    """The verdict of a claim's heading: "confirmed, untested power" for a confirmation no alternative was shown
    able to fail, "confirmed, a check of our own construction" for one true by construction."""
    return (c["verdict"] + (f", {OWN}" if is_own(c) else "")
            + (", untested power" if c["verdict"] == "confirmed" and is_untested(c) else ""))


def confirmed_split(doc: dict, paper: str) -> tuple[list[dict], list[dict]]:
    """The confirmations of the source: those whose power to fail is shown or not yet measured, and those of
    untested power (no alternative was rejected: :mod:`verify.run.power`), which the reports list apart.  Checks of
    our own construction (:func:`own_construction`) are in neither list."""
    conf = [c for c in with_verdict(doc, paper, "confirmed") if not is_own(c)]
    return [c for c in conf if not is_untested(c)], [c for c in conf if is_untested(c)]


def own_construction(doc: dict, paper: str) -> list[dict]:
    """The confirmed claims of a source whose check is of our own construction, listed apart with why."""
    return [c for c in with_verdict(doc, paper, "confirmed") if is_own(c)]


def untested_why(c: dict) -> str:
    """What would give a confirmation of untested power its power (the claim's notes), or why it has none."""
    return one_line((c.get("power") or {}).get("why") or "no alternative declared or rejected", 160)


#: the mark an inconclusive (or confirmed) extension carries in the lists after the errata: the claim reads the source
#: beyond its context, so what it finds is about that reading
EXTENSION_MARK = "; an extension: a reading beyond the source's context, not the source's statement"
POWER_NOTE = ("*Could it have failed?* is measured by `python -m verify mutants --profile P` (sympy mutants of the "
              "stated form and the claim's declared power witnesses, each judged by the claim's own check): "
              "\"k of n alternatives rejected\", or \"not measured\" where no mutants result exists for the "
              "claim's present code at this profile.")


CELL = 110   # characters of a one-line prose cell
# errata written out as a paragraph after the table; a boundary slip, a typo or a remark gets its table row only
# (its full record is in the appendix)
DETAILED = ("substantive", "proof step", None)
BRIEF_NOTE = ("Boundary slips, typos and remarks have their row in the table above only; their full records "
              "are in the appendix.")


def fmt(x) -> str:
    if isinstance(x, str):
        return x
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
        return f"{x:.3e}"
    return f"{x:.5g}"


def short(x, digits: int = 3) -> str:
    """A number for a table cell: three significant digits (``digits``)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        return str(x)
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


def separating_digits(values) -> dict[int, int]:
    """For the floats among ``values`` that print alike at three significant digits but differ (a counterexample's
    two sides, 8.87e-07 against 8.87e-07), the digits at which they print apart, and for a float near an integer
    that three digits would print as that integer (1.0041 as 1), the digits (at most six) that show it is not:
    ``{index: digits}``; the others keep three.  Without it a counterexample whose failure lies past the third
    digit would show none."""
    idx = [i for i, v in enumerate(values)
           if isinstance(v, float) and not isinstance(v, bool) and math.isfinite(v)]
    out: dict[int, int] = {}
    for i in idx:
        v = values[i]
        if abs(v) < 10 and v != round(v) and re.fullmatch(r"-?\d+", short(v)):
            # 1.0041 printed as "1" would read as exactly 1 (a counterexample to '<= 1' showing none): up to six
            # digits, never the rounding noise of 1.0000000000000002
            d = next((d for d in range(4, 7) if not re.fullmatch(r"-?\d+", short(v, d))), None)
            if d:
                out[i] = d
        clash = [j for j in idx if j != i and values[j] != values[i] and short(values[j]) == short(values[i])]
        if not clash:
            continue
        d = 3
        while d < 17 and any(short(values[j], d) == short(values[i], d) for j in clash):
            d += 1
        out[i] = max(d, out.get(i, 3))
    return out


_NUMLIST = re.compile(r"[\[(]?\s*-?[\d.]+(?:e[-+]?\d+)?(?:\s*[,;]\s*[\[(]?\s*-?[\d.]+(?:e[-+]?\d+)?[\])]?){4,}[\])]?",
                      re.I)


def one_line(s, n: int = CELL) -> str:
    """At most one line of prose: whitespace collapsed, lists of more than four numbers elided, cut at a word."""
    if s is None:
        return ""
    s = " ".join(str(s).split())
    s = _NUMLIST.sub("[…]", s)
    if len(s) <= n:
        return s
    cut = s[:n - 1]
    sp = cut.rfind(" ")
    if sp > n * 0.6:
        cut = cut[:sp]
    return cut.rstrip(" ,;:(") + "…"


def truncate(s, n: int) -> str:
    s = " ".join(str(s or "").split())
    return s if len(s) <= n else s[:n - 1].rstrip() + "…"


# ----------------------------------------------------------------------------------------------- per source

def papers(doc: dict) -> list[str]:
    """The sources of a run in the order of their file numbers (000 ... 004), general identities last."""
    seen = {}
    for c in doc["claims"]:
        s = c["source"]
        p = s.get("paper") or c["id"].split(".")[0]
        seen.setdefault(p, s.get("file", ""))
    return sorted(seen, key=lambda p: (not seen[p][:3].isdigit(), seen[p], p))


def paper_of(c: dict) -> str:
    return c["source"].get("paper") or c["id"].split(".")[0]


def claims_of(doc: dict, paper: str) -> list[dict]:
    return [c for c in doc["claims"] if paper_of(c) == paper]


def source_info(doc: dict, paper: str) -> dict:
    cs = claims_of(doc, paper)
    s = cs[0]["source"] if cs else {}
    f = s.get("file", "")
    return {"paper": paper, "file": f, "title": s.get("title") or paper,
            "number": f[:3] if f[:3].isdigit() else None}


def klass(c: dict) -> str | None:
    sev = c.get("severity")
    return sev.get("class") if isinstance(sev, dict) else None


def root(c: dict) -> dict | None:
    rc = c.get("root_cause")
    if isinstance(rc, dict):
        return rc
    if isinstance(rc, str) and rc:   # results of an older run: the summary only
        return {"key": rc, "paper": paper_of(c), "summary": rc, "corrected": None}
    return None


def counts(doc: dict, paper: str) -> dict:
    """Statements checked, verdicts, errata by severity class, by kind and by role, for one source.

    Errata are counted as independent errors (:func:`error_counts`): ``errors`` and ``errors_by_class`` (one per
    root cause homed in this source, whatever the number of claims that witness it), ``witnesses`` (the refuted
    claims behind them, other sources' included); ``by_verdict`` counts this source's own claims and ``by_class``
    their classes (what the index printed before it counted errors)."""
    cs = claims_of(doc, paper)
    out = {"claims": len(cs), "statements": sum(1 for c in cs if c.get("role", "statement") == "statement"),
           "by_verdict": {v: sum(1 for c in cs if c["verdict"] == v) for v in ORDER},
           "untested_power": sum(1 for c in cs if c["verdict"] == "confirmed" and is_untested(c)),
           "own_construction": sum(1 for c in cs if is_own(c)),
           "by_class": {}, "by_kind": {}, "by_role": {}}
    for c in cs:
        out["by_kind"][c["kind"]] = out["by_kind"].get(c["kind"], 0) + 1
        r = c.get("role") or "statement"
        out["by_role"][r] = out["by_role"].get(r, 0) + 1
        if c["verdict"] == "refuted":
            k = klass(c) or "unclassified"
            out["by_class"][k] = out["by_class"].get(k, 0) + 1
    out["by_class"] = dict(sorted(out["by_class"].items(), key=lambda kv: rank(kv[0])))
    e = error_counts(doc, paper)
    out.update(errors=e["errors"], witnesses=e["witnesses"], errors_by_class=e["by_class"])
    return out


def error_counts(doc: dict, paper: str | None = None) -> dict:
    """Independent errors of a source (of the whole run without ``paper``): one per root cause, one per refuted
    claim without a root cause; a cross-source claim counts for the source whose statement fails
    (``RootCause.paper``).  ``errors`` (their number), ``witnesses`` (the refuted claims that show them) and
    ``by_class`` (errors by the class of their most serious witness, most serious first)."""
    groups = errata_groups(doc, paper)
    by_class: dict = {}
    for g in groups:
        k = g["class"] or "unclassified"
        by_class[k] = by_class.get(k, 0) + 1
    return {"errors": len(groups), "witnesses": sum(len(g["members"]) for g in groups),
            "by_class": dict(sorted(by_class.items(), key=lambda kv: rank(kv[0])))}


def errata_text(n: dict) -> str:
    """The errata of a :func:`counts` record in words: "2 errata (1 substantive, 1 typo; 5 refuted claims)"."""
    e, w = n.get("errors", 0), n.get("witnesses", 0)
    if not e:
        return "0 errata"
    return (f"{plural(e, 'erratum', 'errata')} ({class_counts_text(n['errors_by_class'])}"
            + (f"; {plural(w, 'refuted claim')}" if w != e else "") + ")")


def plural(k: int, noun: str, many: str | None = None) -> str:
    return f"{k} {noun if k == 1 else (many or noun + 's')}"


def checked_parts(n: dict) -> list[tuple[str, bool]]:
    """The "what was checked" sentence as (text, bold) pieces."""
    bv = n["by_verdict"]
    err = plural(n["errors"], "independent erratum", "independent errata")
    wit = f"; {plural(n['witnesses'], 'refuted claim')}" if n["witnesses"] != n["errors"] else ""
    return [(f"{plural(n['claims'], 'claim')} ({plural(n['statements'], 'statement')}): ", False),
            (f"{bv['confirmed']} confirmed", True),
            (paren_counts(n), False),
            (", ", False), (err, True),
            ((f" ({class_counts_text(n['errors_by_class'])}{wit})" if n["errors"] else "")
             + f", {bv['does not extend']} {'does' if bv['does not extend'] == 1 else 'do'} not extend, "
             f"{bv['inconclusive']} inconclusive.", False)]


def paren_counts(n: dict) -> str:
    """What part of a :func:`counts` record's confirmations is not a confirmation of the source in the full sense:
    " (2 checks of our own construction, 1 of untested power)", or ""."""
    parts = ([plural(n["own_construction"], "check") + " of our own construction"] if n.get("own_construction") else []) \
        + ([f"{n['untested_power']} of untested power"] if n.get("untested_power") else [])
    return f" ({', '.join(parts)})" if parts else ""


def class_counts_text(by_class: dict) -> str:
    return ", ".join(f"{n} {k}" for k, n in by_class.items()) or "none"


def errata_groups(doc: dict, paper: str | None = None) -> list[dict]:
    """Refuted claims (errata of their source), grouped by root cause and ordered by severity.

    With ``paper``: the groups whose root cause is that source's, including claims of other sources that share
    it (a cross-paper claim about 001's (142) belongs with 001's (142)); a refuted claim without a root cause
    is a group of its own in its own source.  Groups are ordered by their most serious member
    (:data:`verify.judge.severity.CLASSES`), then by size; members by class, then id."""
    groups: dict = {}
    for c in sorted(doc["claims"], key=lambda c: c["id"]):
        if c["verdict"] != "refuted":
            continue
        rc = root(c)
        home = rc["paper"] if rc and rc.get("paper") else paper_of(c)
        if paper is not None and home != paper:
            continue
        key = ("rc", rc["key"]) if rc else ("claim", c["id"])
        g = groups.setdefault(key, {"key": rc["key"] if rc else None, "paper": home,
                                    "summary": rc["summary"] if rc else None,
                                    "corrected": rc.get("corrected") if rc else None, "members": []})
        g["members"].append(c)
    out = list(groups.values())
    for g in out:
        g["members"].sort(key=lambda c: (order_key(c.get("severity")), c["id"]))
        g["class"] = klass(g["members"][0])
    # most serious first; proof steps by what the repaired proof gives (verify.judge.severity.PROOF_CONSEQUENCES)
    out.sort(key=lambda g: (order_key(g["members"][0].get("severity")), -len(g["members"]), g["members"][0]["id"]))
    k = 0
    for g in out:
        if g["key"]:
            k += 1
        g["label"] = f"R{k}" if g["key"] else None
    return out


def cross_references(doc: dict, paper: str) -> list[tuple[dict, dict]]:
    """Refuted claims of ``paper`` whose root cause is another source's: (claim, root cause)."""
    out = []
    for c in claims_of(doc, paper):
        rc = root(c)
        if c["verdict"] == "refuted" and rc and rc.get("paper") and rc["paper"] != paper:
            out.append((c, rc))
    return out


def extensions_refuted(doc: dict, paper: str | None = None) -> list[dict]:
    """Claims that read a statement beyond its context and fail there: "does not extend", not errata."""
    return [c for c in doc["claims"] if c["verdict"] == "does not extend" and (paper is None or paper_of(c) == paper)]


def with_verdict(doc: dict, paper: str, verdict: str) -> list[dict]:
    return sorted((c for c in claims_of(doc, paper) if c["verdict"] == verdict), key=lambda c: c["id"])


# --------------------------------------------------------------------------------- evidence in one line

def measured(c: dict) -> dict:
    sev = c.get("severity")
    return (sev.get("measured") or {}) if isinstance(sev, dict) else {}


def witness(c: dict) -> dict | None:
    w = measured(c).get("witness")
    return w if isinstance(w, dict) and w.get("point") else None


def minimal(c: dict) -> dict | None:
    m = measured(c).get("minimal")
    if isinstance(m, dict) and m:
        return m
    for ch in c["evidence"].get("checks", []):   # results without a severity record
        if ch.get("passed") is False and ch.get("refutes") and isinstance(ch.get("counterexample"), dict) \
                and ch["counterexample"]:
            return ch["counterexample"]
    return None


def open_settings_text(c: dict) -> str | None:
    """The settings a claim declares open (``evidence.details['open settings']``, :class:`OverOpenSetting`): each
    in words with the values run, then the source's words that leave them open (once for settings that share them);
    several settings are crossed.  None when there are none."""
    rows = ((c.get("evidence") or {}).get("details") or {}).get("open settings")
    rows = [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
    if not rows:
        return None
    quotes: dict = {}
    for r in rows:
        vals = ", ".join(fmt(v) if isinstance(v, (int, float)) else str(v) for v in r.get("values") or [])
        quotes.setdefault(r.get("quote", ""), []).append(f"{r.get('setting', '')}: {r.get('param', '')} in {{{vals}}}")
    rule = ("each value judged and the claim refuted only if it fails at every value" if len(rows) == 1 else
            "crossed, each combination judged and the claim refuted only if it fails at every combination")
    return "; ".join(f"{'; '.join(ws)} ({rule}); the source: {q}" if i == 0 else f"{'; '.join(ws)}; the source: {q}"
                     for i, (q, ws) in enumerate(quotes.items()))


def pct(x: float) -> str:
    return f"{100 * x:.3g}"


def _ci_pct(m: dict) -> str:
    ci = m.get("ci95")
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(isinstance(v, (int, float)) for v in ci):
        return f" [{pct(ci[0])}–{pct(ci[1])} %]"
    return ""


def measured_cell(c: dict) -> str:
    """Class support in one line: the failing fraction with its interval and how it was measured; for a proof
    step, the claims that show the result holds; for a typo, the one change."""
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    m = sev.get("measured") or {}
    parts = []
    if sev.get("class") == "proof step":
        held = sev.get("holds_by") or []
        parts.append("result: " + (", ".join(f"{h['id']} {h['verdict']}" for h in held) if held
                                   else "no claim shows it holds"))
    if sev.get("class") == "typo" and sev.get("correction"):
        parts.append(str(sev["correction"]))
    f = m.get("fraction")
    if isinstance(f, (int, float)):
        of = m.get("of", "the domain")
        if of == "the grid points":
            parts.append(f"{m.get('failed', '?')} of {m.get('n', '?')} grid points"
                         + (f" ({m['interior_failed']} interior)" if "interior_failed" in m else ""))
        else:
            how = f"uniform draw, n = {m['n']}" if m.get("n") else one_line(m.get("method"), 40)
            parts.append(f"{pct(f)} % of {of}{_ci_pct(m)} ({how})")
    elif m.get("method", "").startswith("one deterministic counterexample"):
        parts.append("one counterexample; fraction not measured")
    elif m.get("method"):
        parts.append(one_line(m["method"], 60))
    if isinstance(m.get("largest_gap"), (int, float)) and math.isfinite(m["largest_gap"]):
        parts.append(f"largest gap {short(m['largest_gap'])}")
    return "; ".join(parts) or "not measured"


def what_fails(c: dict, n: int = CELL) -> str:
    """The failing check or test in one line, without the counterexample (it has a column of its own)."""
    r = re.split(r":\s*counterexample\b", str(c.get("reason") or ""), maxsplit=1)[0]
    return one_line(r, n)


def what_decides(c: dict, n: int = CELL) -> str:
    """For an inconclusive claim: its reason, which names what would decide it (trials, a profile)."""
    return one_line(c.get("reason"), n)


def corrected_heading(c: dict) -> str:
    """How a corrected form is introduced: with its own verdict, as a candidate unless confirmed."""
    v, why = c.get("corrected_verdict"), c.get("corrected_reason", "")
    if v == "confirmed":
        return f"Corrected form (ours), confirmed: {why}"
    if v == "refuted":
        return f"Candidate corrected form (ours), rejected by our own checks: {why}"
    return f"Candidate corrected form (ours), not confirmed ({v or 'no verdict'}: {why})"


def corrected_verdict_word(c: dict) -> str:
    v = c.get("corrected_verdict")
    return {"confirmed": "confirmed", "refuted": "rejected", None: "no verdict"}.get(v, v or "no verdict")


# ---------------------------------------------------------------------------------------- the appendix

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


def _short(source: dict) -> str:
    """A source in one word: the first three characters of a source file of the suite (``001``), else the paper
    key (a paper declared by a claims package outside the suite, ``PAPER = Paper(...)``, may cite e.g.
    ``arXiv:1903.08560``)."""
    f = source.get("file", "")
    return f[:3] if f.endswith((".txt", ".py")) else source.get("paper") or f


def summary_rows(doc: dict) -> list[dict]:
    """One row per claim for the terminal summary."""
    rows = []
    for c in sorted(doc["claims"], key=lambda c: (ORDER.index(c["verdict"]), c["id"])):
        rows.append({"id": c["id"], "kind": c["kind"], "verdict": c["verdict"], "class": klass(c),
                     "derived_only": c.get("basis") == "derivation only",
                     "where": f"{_short(c['source'])} {c['source']['where']}", "reason": c["reason"]})
    return rows


__all__ = ["CLASSES", "ORDER", "ROLES", "SOURCE_NOTES", "fmt", "short", "one_line", "papers", "claims_of",
           "source_info", "counts", "EXTENSION_MARK", "error_counts", "errata_text", "errata_groups", "cross_references", "extensions_refuted", "with_verdict",
           "measured", "witness", "minimal", "measured_cell", "what_fails", "corrected_heading", "set_aside_note",
           "point_rows", "summary_rows"]
