"""A source's errata as a referee writes them: the summary paragraph, then major errata, minor errata, typos and
slips, each erratum with its sentence, corrected form, smallest clear counterexample and a command that reproduces
it.  Everything is derived from the results document (claim statements, verdicts, severity records, root causes,
corrected forms); no prose here is written for one source, and no verdict or class is typed in.

Both renderers (:mod:`verify.report.markdown`, :mod:`verify.report.latex`) read the plain-text records of this
module and only format them, so the two reports say the same things in the same order.

Words of the suite stay out of a reader's report (:func:`plain`): the suite's issue numbers ("issue 22"), module
paths (``derivations/lowrank.py``), lines of the text extraction of a source ("L577": an author cannot map them to
the paper; the equation, section or figure number stays), sympy's ``**`` and ``oo``, the run's profile names used as
jargon ("the full profile adds k = 9"), our modules by their dotted names (``derivations.lowrank.prop6_bound_stated``)
and how an identity was checked in the libraries' names ("sympy leaves ...; mpmath at 24 random 50-digit points"
reads "the difference simplifies to ...; at 24 random points in 50-digit arithmetic").  :func:`plain` is applied when rendering only; ``results.json`` keeps the
record as the run wrote it.
"""
from __future__ import annotations

import math
import re

from verify.model.evidence import slope_bound_extra
from verify.judge.severity import PROOF_CONSEQUENCES
from verify.report.notation import strip_claim_id
from verify.report.tables import (SOURCE_NOTES, claims_of, counts, cross_references, errata_groups, is_own, klass,
                                  measured, minimal, paper_of, plural, witness)

# ------------------------------------------------------------------------------------------- reader's words

_ISSUE = re.compile(r"\b[Ii]ssues?\s+\d+(?:\s*(?:,|/|and|&)\s*\d+)*\s*(?:[:;,]\s*)?")
_LINES = re.compile(r"(?:,\s*|\s+)?(?:(?:display|lines?|at)\s+)?\b(?:L\d{2,4}|L\d(?=\)))\b"
                    r"(?:\s*[-–]\s*L?\d{1,4}\b|\s*(?:\+|and|,|/)\s*L\d{1,4}\b)*")
_MODULE = re.compile(r"\b(?:verify|derivations|numerics|tests|benchmarks|docs|reports|scripts)/[\w./-]*\w"
                     r"|\b(?:[A-Za-z_]\w*/)+\w+\.py\b|\b\w+\.py\b")
_FOLDER_WORDS = {"derivations": "our derivation", "numerics": "our simulation code", "tests": "our tests",
                 "benchmarks": "our benchmarks", "verify": "the suite", "docs": "our notes", "reports": "our reports",
                 "scripts": "our scripts"}
_PROFILE = re.compile(r"\b(?:the\s+)?(quick|standard|full)\s+profiles?\b|\bprofiles?\s+(quick|standard|full)\b",
                      re.I)
_RUN_WORDS = {"quick": "the quick run", "standard": "the standard run", "full": "the full run"}
_OO = re.compile(r"(?<![\w.])(-?)oo\b")
_LINE_OBJECT = re.compile(r"\b(of|in|on|from)\s+L\d{2,4}(?:\s*[-–]\s*L?\d{1,4})?\b(?=\s+[a-z])")
_ANY = re.compile(r"[Ii]ssue|\.py\b|/|\bL\d|[Pp]rofile|\*|\|\||\boo\b|=|->|<=|>=|\b(?:grad|sum|int)_|sympy|mpmath"
                  r"|\b(?:verify|derivations|numerics)\.\w|\bat (?:quick|standard|full)\b")
#: a line of the text extraction as a possessive or a sentence's subject: "with L458's R", "; L458 drops the delta"
_LINE_OWNER = re.compile(r"\bL\d{2,4}(?:\s*[-–]\s*L?\d{1,4})?'s\b")
_LINE_SUBJECT = re.compile(r"(^|[.;:(]\s*|\b(?:and|while|where|but)\s+)L\d{2,4}(?:\s*[-–]\s*L?\d{1,4})?(?=\s+[a-z]+s\b)")
#: a run named by its profile: "at quick, seed 0", "rejected at quick and at standard"
_AT_PROFILE = re.compile(r"\bat (quick|standard|full)\b(?!-)")
#: the order checks' bookkeeping in words
_ORDER_WORDS = ((re.compile(r"\(derived\)/\(stated\)"), "the ratio derived/stated"),
                (re.compile(r"\s*;?\s*\bunbounded through the exponents\b"), ", unbounded in"),
                (re.compile(r"\b(\w+)\^1\b(?![./\d])"), r"\1"))
#: our modules by their dotted names ("derivations.lowrank.prop6_bound_stated", "numerics.spherical_sgd.run")
_DOTTED = re.compile(r"\b(derivations|numerics|verify)(?:\.\w+)+")
#: how an exact identity was checked, in a reader's words rather than the libraries' names
_LIBRARY = ((re.compile(r"\bsympy simplifies (.+?) to 0\b"), r"\1 simplifies to 0"),
            (re.compile(r"\bsympy leaves\b"), "the difference simplifies to"),
            (re.compile(r"\bmpmath at (\d+) random (\d+)-digit points\b"), r"at \1 random points in \2-digit arithmetic"),
            (re.compile(r"\bsympy's\b"), "computer algebra's"),
            (re.compile(r"\bsympy\b(?!\.\w)"), "computer algebra"),
            (re.compile(r",\s*mpmath\)"), ", high-precision arithmetic)"),
            (re.compile(r"\(mpmath\)"), "(high-precision arithmetic)"))
#: operators written out in ASCII ("grad_l L", "sum_l", "int_0^oo") as the paper prints them
_OPERATORS = ((re.compile(r"\bgrad_(?=\w)"), "∇_"), (re.compile(r"\bsum_(?=[\w{(])"), "Σ_"),
              (re.compile(r"\bint_(?=[\w{(])"), "∫_"))


def _module_word(m: re.Match) -> str:
    text = m.group(0)
    top = text.split("/")[0] if "/" in text else ""
    return _FOLDER_WORDS.get(top, "our code")


#: counts of one written by templates that assume many: "at each of its 1 one-sided points", "1 of 1 alternatives"
_ONE = ((re.compile(r"\bat each of its 1 ((?:[\w-]+ )?)points\b"), r"at its single \1point"),
        (re.compile(r"\b(\d+) of 1 (alternative|point|test|check)s\b"), r"\1 of 1 \2"))


def singular(s: str) -> str:
    """A count of one in the singular ("at its single one-sided point", "1 of 1 alternative rejected")."""
    if " 1 " not in s:
        return s
    for rx, rep in _ONE:
        s = rx.sub(rep, s)
    return s


#: "n/d = 0.3; n/d = 0.5" (values of one setting joined by a check) as "n/d = 0.3 and 0.5"
_SAME_NAME = re.compile(r"(?<![\w/])([A-Za-z][\w/]*) = (-?[\w.]+)((?:; \1 = -?[\w.]+)+)(?![\w.])")


def _same_name_list(m) -> str:
    vals = [m.group(2)] + re.findall(r"; " + re.escape(m.group(1)) + r" = (-?[\w.]+)", m.group(3))
    return f"{m.group(1)} = " + (", ".join(vals[:-1]) + " and " + vals[-1])


def plain(s) -> str:
    """Text of a results document in a reader's words (see the module docstring); whitespace collapsed."""
    if s is None:
        return ""
    s = " ".join(str(s).split())
    s = singular(s)
    s = _SAME_NAME.sub(_same_name_list, s)
    if not _ANY.search(s):   # most strings (labels, numbers, words) hold nothing to change
        return s
    s = _ISSUE.sub("", s)
    s = _MODULE.sub(_module_word, s)
    s = _DOTTED.sub(lambda m: _FOLDER_WORDS[m.group(1)], s)
    for rx, rep in _LIBRARY:
        s = rx.sub(rep, s)
    s = _LINE_OWNER.sub("the display's", s)
    s = _LINE_SUBJECT.sub(r"\1the display", s)
    s = _LINE_OBJECT.sub(r"\1 the display", s)   # "the term of L499 is": the sentence keeps its object
    s = _LINES.sub("", s)
    s = _PROFILE.sub(lambda m: _RUN_WORDS[(m.group(1) or m.group(2)).lower()], s)
    s = _AT_PROFILE.sub(lambda m: "in " + _RUN_WORDS[m.group(1)], s)
    for rx, rep in _ORDER_WORDS:
        s = rx.sub(rep, s)
    s = s.replace("**", "^").replace("||", "‖")
    s = re.sub(r"(?<=[\w)])\*(?=[\w(])", " ", s)   # sympy's 2*c*sqrt(n) as 2 c sqrt(n)
    s = _OO.sub(lambda m: ("−" if m.group(1) else "") + "∞", s)
    for pat, sym in _OPERATORS:
        s = pat.sub(sym, s)
    for a, b in ((" >= ", " ≥ "), (" <= ", " ≤ "), (" != ", " ≠ "), (" -> ", " → ")):
        s = s.replace(a, b)
    s = re.sub(r"\b(refutes|passed)=(True|False|None)\b", "", s)
    # what the removals leave behind: empty brackets, doubled or dangling punctuation
    for _ in range(2):
        s = re.sub(r"\(\s*[,;:]?\s*\)", "", s)
        s = re.sub(r"\(\s*[,;:]\s*", "(", s)
        s = re.sub(r"\s*[,;]\s*\)", ")", s)
        s = re.sub(r"\s+([,;:.)])", r"\1", s)
        s = re.sub(r"([,;:])\s*\1", r"\1", s)
        s = re.sub(r"\(\s+", "(", s)
    s = re.sub(r"^[\s,;:]+", "", s)
    return " ".join(s.split())


_MATH_LINES = re.compile(r"(?:\\[ ,;]|\s)*\(L\d{1,4}(?:\s*[-–]\s*L?\d{1,4})?\)")
MATH = ("statement", "derived", "corrected", "stated")


def plain_math(m: str) -> str:
    """A formula of a results document without the lines of the text extraction a claim may cite in it
    ("\\ (L440)")."""
    return _MATH_LINES.sub("", m)


def plain_doc(doc, skip=("id", "key", "paper", "file", "holds_by")):
    """A copy of a results document with every prose string in a reader's words (:func:`plain`); ids, keys and
    file names are kept as they are (ids name anchors, figures and commands), formulas lose only the extraction's
    line numbers (:func:`plain_math`)."""
    if isinstance(doc, dict):
        return {k: (v if k in skip else plain_math(v) if k in MATH and isinstance(v, str) else plain_doc(v, skip))
                for k, v in doc.items()}
    if isinstance(doc, list):
        return [plain_doc(v, skip) for v in doc]
    if isinstance(doc, str):
        return plain(doc)
    return doc


_GREEK_WORDS = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η", "theta": "θ",
                "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "rho": "ρ", "sigma": "σ", "tau": "τ",
                "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "pi": "π", "zeta": "ζ", "eps": "ϵ", "Delta": "Δ", "Gamma": "Γ",
                "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Omega": "Ω"}
_GREEK_RE = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_GREEK_WORDS, key=len, reverse=True)) + r")(?![A-Za-z])")


def greek(s: str) -> str:
    """Greek letters written out in the paper's notation: "N(0, kappa^2)" -> "N(0, κ^2)", "lambda_P" -> "λ_P"."""
    return _GREEK_RE.sub(lambda m: _GREEK_WORDS[m.group(1)], s)


def capital(s: str) -> str:
    return s[:1].upper() + s[1:] if s[:1].islower() else s


def relevant(doc: dict, paper: str) -> dict:
    """The part of a results document one source's report reads: its own claims and the claims of other sources
    whose root cause is this source's (they witness its errata)."""
    def home(c):
        rc = c.get("root_cause")
        return rc.get("paper") if isinstance(rc, dict) else None
    return {**doc, "claims": [c for c in doc["claims"] if paper_of(c) == paper or home(c) == paper]}


def place(where: str | None) -> str:
    """A claim's location in the paper (theorem, equation, section, figure): its ``source.where`` before the quote
    or paraphrase that follows a colon, in a reader's words.  "eq. (45) (App. C.2.2, L597-L603) and Theorem 2's (2):
    the square root ..." -> "eq. (45) (App. C.2.2) and Theorem 2's (2)"."""
    w = plain(where)
    head = re.split(r":\s", w, maxsplit=1)[0]
    head = head.split(" 'for ")[0]
    return head.strip(" ,;") or w


# --------------------------------------------------------------------------------------------- errata

SECTIONS = ("major", "minor", "typo")
SECTION_TITLES = {"major": "Major errata", "minor": "Minor errata", "typo": "Typos and slips"}
SECTION_NOTES = {
    "major": "A result the paper states fails on a set of positive measure of its own domain as printed.",
    "minor": ("Proof steps that fail while the stated result holds (ranked by what the repaired proof gives), "
              "failures on a set of measure zero, sentences, captions or tables."),
    "typo": "A stated result mended by one misprint-shaped change; the corrected text is given.",
}
CONSEQUENCE_WORDS = {"does not follow": "the result does not follow from the proof as printed",
                     "weaker rate": "the repaired proof gives a weaker bound than stated",
                     "not assessed": "what the repaired proof gives is not assessed",
                     "absorbed": "the repaired proof gives the result as stated"}


def section_of(cls: str | None) -> str:
    if cls == "typo":
        return "typo"
    if cls in ("boundary", "proof step", "remark"):
        return "minor"
    return "major"   # substantive, or a refutation without a class (an older document): not played down


def command(ids: list[str], profile: str = "standard") -> str:
    """The one line that reproduces an erratum (every claim that witnesses it); the profile is named only when it
    is not the command's default (standard)."""
    return "python -m verify run " + " ".join(f"'{i}'" for i in ids) + (
        f" --profile {profile}" if profile != "standard" else "")


def run_words(doc: dict) -> tuple[str, str]:
    """The run a report rests on, in a reader's words: the command that reproduces it (the profile named only when
    it is not the default) and what it did (tests, level, device, wall time, start)."""
    meta, timing = doc.get("meta", {}), doc.get("timing", {})
    profile, seed = meta.get("profile") or "standard", meta.get("seed", 0)
    cmd = f"python -m verify run --seed {seed}" + (f" --profile {profile}" if profile != "standard" else "")
    secs = timing.get("seconds")
    took = f"{secs / 60:.0f} min" if isinstance(secs, (int, float)) and secs >= 60 else (
        f"{secs:.0f} s" if isinstance(secs, (int, float)) else "")
    start = str(timing.get("started", ""))[:16].replace("T", " ")
    how = str(meta.get("multiple_testing") or "").strip("() ")
    reused = timing.get("resumed_from_cache")
    n_claims = len(doc.get("claims") or [])
    # a resumed run's wall time is not the computation's: say how much evidence was reused
    reuse = (f"; the evidence of {len(reused)} of {n_claims} claims reused from an earlier run of the same code"
             if isinstance(reused, list) and reused else "")
    rest = (f"{meta.get('n_tests', 0)} Monte Carlo tests at family-wise level {meta.get('alpha_familywise')}"
            + (f", {how}" if how else "") + f"; on {meta.get('device', 'cpu')}"
            + (f", {took}" if took else "") + (f", started {start} UTC" if start else "") + reuse)
    return cmd, rest


def _clean_num(x):
    """A stated value of float noise (5.55e-17) is 0."""
    return 0.0 if isinstance(x, float) and abs(x) < 1e-12 else x


def counterexample(c: dict) -> dict | None:
    """The smallest clear counterexample of a refuted claim: the minimal one (smallest violation found by the
    search, or the instance a check names) when recorded, else the strongest witness; with the simulated or
    derived value beside the paper's when the witness records them.  ``{"point", "kind", "values"}``."""
    mn = measured(c).get("minimal")
    w = witness(c)
    if isinstance(mn, dict) and mn and not (w and _rounding_sized(c, mn) and (w.get("margin") or 0) > ROUNDING):
        return {"point": mn, "kind": "minimal", "values": None}
    if w:
        vals = None
        if isinstance(w.get("estimate"), (int, float)):
            vals = {"simulated": w["estimate"], "ci": w.get("ci"), "paper": _clean_num(w.get("stated"))}
            m = _moment_at(c, w)
            if m is not None:   # a divergence: the estimate is a tail index, the stated value the moment
                vals["moment"] = m
            vals["says"] = paper_says(c, w)
            x = _slope_bound_at(c, w)
            if x is not None:   # a bound O(x^p) tested on -slope: read in the slope's own sign
                vals.update(simulated=x["slope"], ci=x.get("slope_ci"), paper=-_clean_num(w.get("stated")),
                            says="the paper's statement needs a log-log slope of at least")
        elif isinstance(w.get("stated"), (int, float)) and isinstance(w.get("derived"), (int, float)):
            vals = {"derived": w["derived"], "paper": _clean_num(w["stated"])}
        return {"point": w["point"], "kind": "witness", "values": vals}
    mn = minimal(c)   # a check's counterexample (a results document without a severity record)
    return {"point": mn, "kind": "minimal", "values": None} if mn else None


#: a violation no larger than this (in the check's own margin) is at float64 rounding: printed, it shows no failure
ROUNDING = 1e-12


def _rounding_sized(c: dict, mn: dict) -> bool:
    """Whether the minimal counterexample's violation is positive but at rounding size (its search's margin, when it
    has one, in (0, ROUNDING]): shrinking can end on a point that fails only in the last digits, where a reader
    sees no failure; the strongest witness is then the clear one.  An exact tie (margin 0) is kept: it is the
    boundary case itself."""
    for ch in c["evidence"].get("checks", []):
        if ch.get("passed") is False and ch.get("counterexample") == mn:
            m = (ch.get("extra") or {}).get("minimal_margin")
            return isinstance(m, (int, float)) and 0 < m <= ROUNDING
    return False


def pi_multiple(v) -> tuple[int, int] | None:
    """(k, q) when the float ``v`` is k π/q to rounding (q in 1, 2, 3, 4, 6; |k| <= 4q), else None: a witness at
    θ = π/2 is printed as π/2, not 1.571."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v == 0 or not math.isfinite(v):
        return None
    for q in (1, 2, 3, 4, 6):
        k = round(v * q / math.pi)
        if k and abs(k) <= 4 * q and abs(v - k * math.pi / q) <= 1e-12 * abs(v):
            g = math.gcd(k, q)
            return k // g, q // g
    return None


def pi_text(v, tex: bool = False) -> str | None:
    """``v`` as "π/2", "2π/3", "−π" (``tex``: "\\pi/2") when :func:`pi_multiple` finds it, else None."""
    kq = pi_multiple(v)
    if kq is None:
        return None
    k, q = kq
    pi = "\\pi" if tex else "π"
    num = ("-" if k < 0 else "") + (pi if abs(k) == 1 else f"{abs(k)}{pi}")
    return num if q == 1 else f"{num}/{q}"


def paper_says(c: dict, w: dict) -> str:
    """How the paper's value reads beside a simulated one: "the paper gives" (an equality), or "the paper's
    statement needs at most" when the test at the witness's point is one-sided (the statement is a bound or an
    ordering, E <= stated): an ordering tested as "difference < 0" does not state the value 0."""
    for t in c.get("evidence", {}).get("tests", []):
        if t.get("params") == w.get("point") and (t.get("sided") == "upper" or (t.get("extra") or {}).get(
                "one_sided")):
            return "the paper's statement needs at most"
    return "the paper gives"


def _slope_bound_at(c: dict, w: dict) -> dict | None:
    """The extra of the witness's test when it is a one-sided slope test built on -slope ("slope >= p", shown as
    "-slope <= -p": :func:`verify.model.evidence.slope_bound_extra`), else None."""
    for t in c.get("evidence", {}).get("tests", []):
        x = slope_bound_extra(t.get("sided"), t.get("extra"))
        if x is not None and t.get("params") == w.get("point") and t.get("estimate") == w.get("estimate"):
            return x
    return None


def _moment_at(c: dict, w: dict) -> float | None:
    """The moment p of a divergence test ("E|X|^p is infinite") at the witness's point, or None: there the simulated
    value is the tail index of |X| and the statement needs it to be at most p."""
    for t in c.get("evidence", {}).get("tests", []):
        x = t.get("extra") or {}
        if isinstance(x, dict) and isinstance(x.get("moment"), (int, float)) and t.get("params") == w.get("point") \
                and t.get("estimate") == w.get("estimate"):
            return float(x["moment"])
    return None


def values_text(v, fmt) -> str | None:
    """A non-scalar coordinate of a counterexample in words: a short list as a tuple, a matrix by its shape
    (its entries are in ``results.json``); None for anything else."""
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, (int, float, str)) and not isinstance(x, bool) for x in v) and len(v) <= 4:
            if len(v) == 1:   # a design of one value reads as that value, not as "(1)"
                return fmt(v[0]) if not isinstance(v[0], str) else plain(v[0])
            return "(" + ", ".join(fmt(x) if not isinstance(x, str) else plain(x) for x in v) + ")"
        if v and all(isinstance(r, (list, tuple)) for r in v):
            return f"a {len(v)}×{len(v[0])} array"
        return f"a vector of {len(v)} values"
    return None


def what_is_wrong(c: dict) -> str:
    """One claim's failure in words: its reason without the counterexample (which has a line of its own).  A reason
    of the form "<the statement checked>: counterexample ..." names what was checked, not what is wrong: it is
    introduced as the statement that does not hold as printed."""
    parts = re.split(r":\s*counterexample\b", str(c.get("reason") or ""), maxsplit=1)
    text = plain(parts[0]).rstrip(".")
    return f"Does not hold as printed: {text}" if len(parts) > 1 and text else text


def _consequence(c: dict) -> str | None:
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    p = sev.get("proof") if isinstance(sev.get("proof"), dict) else {}
    return p.get("consequence") if p.get("consequence") in PROOF_CONSEQUENCES else None


def correction_text(c: dict) -> str | None:
    """What differs between the printed form and the minimal corrected one ("−2 where −1"), when recorded."""
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    ch = sev.get("change") if isinstance(sev.get("change"), dict) else None
    if ch and ch.get("differs"):
        return plain(ch["differs"])
    return plain(sev.get("correction")) or None


#: sympy's LaTeX of a symbol named with a modifier word (R_tilde_0 -> R_{tilde 0}) as the accent it names
_MODIFIER = re.compile(r"([A-Za-z])_\{(tilde|hat|bar) ?([^{}]*)\}")


def correction_math(c: dict) -> tuple[str, str] | None:
    """The printed and the correct piece of a change of the form "X where Y" as LaTeX (``severity.change``'s
    ``printed`` / ``correct``), so that a report sets them as formulas (√R̃₀, not "sqrt(R_tilde_0)"); None for the
    other forms ("a factor n missing") or when not recorded."""
    sev = c.get("severity") if isinstance(c.get("severity"), dict) else {}
    ch = sev.get("change") if isinstance(sev.get("change"), dict) else None
    if not ch or str(ch.get("differs", "")).count(" where ") != 1:
        return None
    a, b = ch.get("printed"), ch.get("correct")
    if not (isinstance(a, str) and isinstance(b, str) and a and b):
        return None
    fix = lambda t: _MODIFIER.sub(lambda m: f"\\{m.group(2)}{{{m.group(1)}}}"   # noqa: E731
                                  + (f"_{{{m.group(3)}}}" if m.group(3) else ""), t)
    return fix(a), fix(b)


def differs_text(e: dict, as_math, as_text) -> str:
    """An erratum's "what differs" for a renderer: its two pieces through ``as_math`` (LaTeX -> the renderer's inline
    math, or None when its whitelist refuses it) when :func:`correction_math` recorded them, else the words through
    ``as_text``."""
    mm = [as_math(x) for x in e.get("differs_math") or ()]
    return f"{mm[0]} where {mm[1]}" if len(mm) == 2 and None not in mm else as_text(e["differs"])


def errata(doc: dict, paper: str) -> list[dict]:
    """The independent errata of a source, most serious first (one per root cause: :func:`errata_groups`), as
    records a renderer formats: ``section`` (:data:`SECTIONS`), ``n`` (numbered in order), ``cls``, ``consequence``
    (a proof step's), ``place``, ``sentence`` (what is wrong, in words), ``corrected`` (LaTeX) with
    ``corrected_verdict``, ``differs`` (a typo's change), ``counterexample`` (:func:`counterexample`), ``ids`` (the
    witnesses), ``others`` (the witnesses beyond the first, with their place and class), ``command``."""
    profile = (doc.get("meta") or {}).get("profile")
    profile = profile if isinstance(profile, str) and re.fullmatch(r"[a-z]+", profile) else "standard"
    out = []
    for g in errata_groups(doc, paper):
        # the witness that leads: the most serious, and among those one of the source's own claims
        lead = next((c for c in g["members"] if paper_of(c) == g["paper"] and klass(c) == g["class"]),
                    g["members"][0])
        corrected = g.get("corrected") or lead.get("corrected")
        cv = lead.get("corrected_verdict") if lead.get("corrected") else ("confirmed" if corrected else None)
        if g.get("corrected") and lead.get("corrected") and " ".join(g["corrected"].split()) != \
                " ".join(lead["corrected"].split()):
            corrected, cv = lead["corrected"], lead.get("corrected_verdict")
        rec = {"section": section_of(g["class"]), "cls": g["class"] or "unclassified", "consequence": _consequence(lead),
               "place": place(lead["source"].get("where")),
               "sentence": _sentence(capital(greek(plain(g["summary"]) if g.get("summary") else what_is_wrong(lead)))), "corrected": corrected or None,
               "corrected_verdict": _verdict_word(cv) if corrected else None,
               "differs": correction_text(lead), "differs_math": correction_math(lead),
               "counterexample": counterexample(lead),
               "ids": [lead["id"]] + [c["id"] for c in g["members"] if c is not lead],
               "command": command([lead["id"]] + [c["id"] for c in g["members"] if c is not lead], profile),
               "name": result_name(lead),
               "others": [{"id": c["id"], "place": place(c["source"].get("where")), "cls": klass(c) or "unclassified",
                           "paper": paper_of(c)} for c in g["members"] if c is not lead],
               "lead_paper": paper_of(lead)}
        out.append(rec)
    order = {s: i for i, s in enumerate(SECTIONS)}
    out.sort(key=lambda e: order[e["section"]])   # stable: severity order within a section
    for k, e in enumerate(out, 1):
        e["n"] = k
    return out


def _verdict_word(v: str | None) -> str:
    return {"confirmed": "confirmed", "refuted": "rejected by our own checks"}.get(
        v, f"not confirmed: {v}" if v else "no verdict")


# ------------------------------------------------------------------------------------------ the summary

_RESULT = re.compile(r"\b(Theorem|Thm\.?|Lemma|Proposition|Prop\.|Corollary|Cor\.)\s*([0-9A-Z]+(?:\.[0-9]+)*)\b")
_FULL = {"Thm": "Theorem", "Thm.": "Theorem", "Prop.": "Proposition", "Cor.": "Corollary"}


def result_name(c: dict) -> str | None:
    """The named result a statement claim checks ("Theorem 3.9", "Lemma 5"), read from its location."""
    w = plain(c["source"].get("where"))
    m = _RESULT.search(w)
    if not m:
        return None
    name = f"{_FULL.get(m.group(1), m.group(1))} {m.group(2)}"
    # another paper's result cited in brackets ("(Du et al. 2019, Thm 3.1)") is named with its authors
    before = w[:m.start()]
    opened = before.rfind("(")
    if opened > before.rfind(")"):
        cite = _CITE.search(before[opened + 1:])
        if cite:
            name += f" of {cite.group(0).strip(' ,')}"
    return name


_CITE = re.compile(r"[A-Z][A-Za-z-]+(?: (?:and|&) [A-Z][A-Za-z-]+)?(?: et al\.)?,? \(?\d{4}\)?")


def _names(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def summary(doc: dict, paper: str) -> list[str]:
    """The summary paragraph, as sentences: what the paper claims (its named results and how many statements were
    checked), what holds, the errata in words, what to change."""
    cs = claims_of(doc, paper)
    n = counts(doc, paper)
    bv = n["by_verdict"]
    stmts = [c for c in cs if (c.get("role") or "statement") == "statement"]
    named, classes = {}, {}
    # a claim refuted through another source's statement names that source's result ("001 Theorem 3.9 proof"),
    # not one of this paper's: it is counted in that source's report (the last sentence says so)
    elsewhere = {c["id"] for c, _ in cross_references(doc, paper)}
    for c in stmts:
        if c["id"] in elsewhere:
            continue
        nm = result_name(c)
        if nm:
            # a confirmation of our own construction (a bound we derived, a law affine by design) does not show the
            # printed form holds: it is told apart
            named.setdefault(nm, []).append("confirmed (own construction)" if is_own(c) else c["verdict"])
            if c["verdict"] == "refuted":
                classes.setdefault(nm, set()).add(klass(c))
    fails = [k for k, v in named.items() if "refuted" in v]
    # a result whose every refutation is a misprint is misprinted, not failing: the reader is sent to the typos
    misprinted = [k for k in fails if classes.get(k) == {"typo"}]
    # one whose every refutation is on a set of measure zero holds almost everywhere: it does not "fail as printed"
    edge = [k for k in fails if k not in misprinted and classes.get(k) <= {"boundary", "typo"}]
    fails = [k for k in fails if k not in misprinted and k not in edge]
    # a result confirmed as printed holds, whatever checks of our own construction or readings beyond it add
    holds = [k for k, v in named.items() if "confirmed" in v
             and all(x in ("confirmed", "confirmed (own construction)", "does not extend") for x in v)]
    own = [k for k, v in named.items() if "confirmed (own construction)" in v
           and all(x in ("confirmed (own construction)", "does not extend") for x in v)]
    other = [k for k, v in named.items() if k not in fails and k not in holds and k not in own and k not in edge
             and (k not in misprinted or "inconclusive" in v)]
    undecided = [k for k in other if "inconclusive" in named[k]]
    beyond_ = [k for k in other if k not in undecided and "does not extend" in named[k]]
    S = []
    roles = n["by_role"]
    S.append(f"We checked {plural(len(cs), 'claim')} of this source: "
             + _names([plural(len(stmts), "stated result")]
                      + [plural(v, k) for k, v in roles.items() if k != "statement"]) + ".")
    if holds:
        S.append(f"{_results(holds)} {'holds' if len(holds) == 1 else 'hold'} as stated in "
                 "every check we ran" + (" (on our reconstruction of its formulas)" if paper in SOURCE_NOTES
                                         else "") + ".")
    if own:
        S.append(f"For {_results(own)} we could test only a form of our own construction (a bound we derived, or a "
                 "law simulated to have the stated shape); it holds, but that does not show the printed form holds.")
    unnamed = [c for c in stmts if c["id"] not in elsewhere and not result_name(c)]
    if unnamed:   # stated results without a theorem number (identities, equations): counted, not left out
        k = {v: sum(1 for c in unnamed if ("own" if is_own(c) else c["verdict"]) == v)
             for v in ("confirmed", "own", "refuted", "inconclusive", "does not extend")}
        other_ = "other " if named else ""
        if k["confirmed"] == len(unnamed):
            S.append(f"The {other_}{plural(len(unnamed), 'stated result')} without a theorem number "
                     + ("holds" if len(unnamed) == 1 else "all hold") + " as stated in every check we ran.")
        else:
            one = {"confirmed": ("holds as stated in every check we ran", "hold as stated in every check we ran"),
                   "own": ("holds in a form of our own construction", "hold in a form of our own construction"),
                   "refuted": ("fails as printed", "fail as printed"),
                   "inconclusive": ("is inconclusive", "are inconclusive"),
                   "does not extend": ("does not extend in our reading beyond its setting",
                                       "do not extend in our readings beyond their setting")}
            S.append(f"Of the {other_}{plural(len(unnamed), 'stated result')} without a theorem number, " + _names(
                [f"{v} {one[w][0] if v == 1 else one[w][1]}" for w, v in k.items() if v]) + ".")
    if fails:
        S.append(f"{_results(fails)} {'fails' if len(fails) == 1 else 'fail'} as printed in at "
                 "least one reading.")
    if edge:
        S.append(f"{_results(edge)} {'fails' if len(edge) == 1 else 'fail'} only on a set of measure zero (at "
                 "the boundary of the stated domain; listed under Minor errata).")
    if misprinted:
        S.append(f"{_results(misprinted)} {'carries' if len(misprinted) == 1 else 'carry'} a misprint "
                 "(listed under Typos and slips, with the corrected text).")
    if undecided:
        S.append(f"For {_results(undecided)} the evidence is inconclusive in at least one reading.")
    if beyond_:
        S.append(f"For {_results(beyond_)} a reading beyond the paper's own setting does not extend (not an "
                 "erratum).")
    E = errata(doc, paper)
    by = {s: [e for e in E if e["section"] == s] for s in SECTIONS}
    if not E:
        S.append("We found no erratum: no claim of this source was refuted as its authors state it.")
    else:
        proof = [e for e in by["minor"] if e["cls"] == "proof step"]
        rest = [e for e in by["minor"] if e["cls"] != "proof step"]
        kinds: dict = {}
        for e in rest:
            kinds[e["cls"]] = kinds.get(e["cls"], 0) + 1
        worse = [e for e in proof if e["consequence"] in ("does not follow", "weaker rate")]
        parts = ([plural(len(by["major"]), "major erratum", "major errata")] if by["major"] else []) \
            + ([f"{plural(len(proof), 'proof step')} that {'fails' if len(proof) == 1 else 'fail'} while the "
                + ("result it serves holds" if len(proof) == 1 else "results they serve hold")
                + (f" ({len(worse)} of them giving less than printed once repaired: "
                   + " or ".join(w for c, w in (("weaker rate", "a weaker bound"), ("does not follow", "no proof"))
                                 if any(e["consequence"] == c for e in worse)) + ")"
                   if worse else "")] if proof else []) \
            + [f"{v} {_cls_words(k, v)}" for k, v in kinds.items()] \
            + ([plural(len(by["typo"]), "typo or slip", "typos or slips")] if by["typo"] else [])
        wit = n["witnesses"]
        S.append(f"We find {plural(len(E), 'independent erratum', 'independent errata')}"
                 + (f", seen through {plural(wit, 'refuted claim')}" if wit != len(E) else "") + ": "
                 + _names(parts) + ".")
        # the major errata are named in "What to change" and said in words right below, each once
        todo = []
        if by["major"]:
            names = _names([e["name"] or e["place"] for e in by["major"]])
            nums = _names([str(e["n"]) for e in by["major"]])
            todo.append(f"restate {names} as in the corrected {'form' if len(by['major']) == 1 else 'forms'} of "
                        f"{'erratum' if len(by['major']) == 1 else 'errata'} {nums}")
        if by["typo"]:
            todo.append(("correct the misprint" if len(by["typo"]) == 1 else f"correct the {len(by['typo'])} misprints")
                        + " listed under Typos and slips")
        if proof:
            todo.append(f"repair {plural(len(proof), 'proof step')}")
        edges = [e for e in rest if e["cls"] == "boundary"]
        texts = [e for e in rest if e["cls"] != "boundary"]
        if edges:
            todo.append(f"state the boundary case of {plural(len(edges), 'result')} that {'fails' if len(edges) == 1 else 'fail'} "
                        "only there")
        if texts:
            todo.append(f"amend {plural(len(texts), 'sentence, caption or table', 'sentences, captions or tables')}")
        S.append("What to change: " + "; ".join(todo) + ".")
    beyond = ([f"{bv['does not extend']} of our readings beyond the paper's own setting "
               f"{'does' if bv['does not extend'] == 1 else 'do'} not extend (not errata)"] if bv["does not extend"]
              else []) + ([f"{plural(bv['inconclusive'], 'claim')} {'is' if bv['inconclusive'] == 1 else 'are'} "
                           "inconclusive"] if bv["inconclusive"] else [])
    if beyond:   # with no erratum there is nothing to go beyond
        S.append(("Beyond the errata: " if E else "") + (" and ".join(beyond) if E else capital(" and ".join(beyond)))
                 + ".")
    xr = cross_references(doc, paper)
    if xr:
        S.append(f"{plural(len(xr), 'claim')} of this source {'is' if len(xr) == 1 else 'are'} refuted through "
                 "another source's statement and counted there.")
    return S


_PLURAL = {"Theorem": "Theorems", "Lemma": "Lemmas", "Proposition": "Propositions", "Corollary": "Corollaries"}


def _results(names: list[str]) -> str:
    """Named results in few words: "Lemmas 1, 2 and 6 and Theorem 3"."""
    by: dict = {}
    for nm in sorted(dict.fromkeys(names), key=_natural):
        kind, _, num = nm.partition(" ")
        by.setdefault(kind, []).append(num)
    return _names([f"{_PLURAL.get(k, k)} {_names(v)}" if len(v) > 1 else f"{k} {v[0]}" for k, v in by.items()])


def _sentence(s: str) -> str:
    s = s.strip()
    return s if s.endswith((".", "!", "?")) else s + "."


def _cls_words(k: str, v: int) -> str:
    return {"boundary": "failure on a set of measure zero" if v == 1 else "failures on sets of measure zero",
            "remark": "sentence, caption or table that does not match" if v == 1
            else "sentences, captions or tables that do not match"}.get(k, k)


def _natural(name: str):
    kind, _, num = name.partition(" ")
    return kind, [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.]", num)]


def figure_caption(c: dict, k: int) -> str:
    """What a claim's k-th figure shows (its title, without the claim id it may start with, or else its vertical
    axis against its horizontal one), what it draws (the roles of its series: the stated form, Monte Carlo, ...)
    and the claim's verdict, for the caption under it."""
    figs = (c.get("evidence") or {}).get("figures") or []
    fig = figs[k] if k < len(figs) and isinstance(figs[k], dict) else {}
    title = strip_claim_id(plain(fig.get("title") or ""), c["id"])
    if not title and fig.get("ylabel"):   # an untitled figure: what is plotted against what
        x = fig.get("xlabel") or fig.get("x") or ""
        title = plain(f"{fig['ylabel']} against {x}" if x else fig["ylabel"])
    roles = _figure_roles(fig)
    title, roles = (re.sub(r"\s?->\s?inf(inity)?\b", " → ∞", t).replace("->", "→") for t in (title, roles))
    cls = klass(c)
    verdict = c["verdict"] + (f", {cls}" if cls else "")
    return (f"Figure {k + 1} of {c['id']}" + (f": {title}" if title else "")
            + (f"; drawn: {roles}" if roles else "") + f". Verdict: {verdict}.")


def _figure_roles(fig: dict) -> str:
    """The distinct roles of a figure's series ("(27), Monte Carlo"), or "" when they are not few and named."""
    from verify.report.figures import _structure
    try:
        roles = list(dict.fromkeys(s["role"] for s in _structure(fig) if s.get("role")))
    except (KeyError, TypeError):
        return ""
    return ", ".join(plain(r) for r in roles) if 2 <= len(roles) <= 6 else ""


__all__ = ["plain", "plain_doc", "place", "errata", "summary", "counterexample", "command", "SECTIONS",
           "SECTION_TITLES", "SECTION_NOTES", "CONSEQUENCE_WORDS", "correction_text", "result_name", "figure_caption",
           "singular", "strip_claim_id", "values_text", "what_is_wrong", "relevant", "plain_math", "paper_says"]
