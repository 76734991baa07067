"""Other people's text and names stop here: the report writers' one place for paths and escaping (issue 34).

A saved ``results.json`` may come from anyone (a file attached to a review), so everything in it is data: a name
becomes a path only inside the output folder (:func:`inside`), prose is escaped for the format it lands in, and a
statement meant as LaTeX math is rendered as math only when :func:`math_ok` accepts it.

Math is confined by a **whitelist** of control words (:data:`MATH_WORDS`: Greek letters, relations, operators,
delimiters, accents, fonts, spacing; :data:`MATH_ENVS` for ``\\begin``), not a blacklist of dangerous ones.  TeX has
many ways to reach a file or the shell (``\\input``, ``\\openout``, ``\\write18``, ``\\csname input\\endcsname``,
``\\catcode``, ``^^5cinput``, ``\\let\\x\\input``, packages' ``\\IfFileExists``, ``\\includegraphics``, the
``filecontents`` environment ...) and a blacklist misses the one nobody thought of; none of the whitelisted words
reads or writes a file or changes how TeX reads its input, so a statement built from them can at worst fail to
compile.  A statement that uses anything else (or ``^^``, ``#``, ``%``, ``$``, unbalanced braces) is rendered as
escaped verbatim text in both reports; no statement of the five built-in sources is refused.

Markdown: :func:`inert` escapes every string of a results document once, when a markdown renderer receives it:
control characters removed, whitespace with a line break in it collapsed (no string starts a block), a ``<``
that could open markup as ``&lt;`` (no tag, comment or autolink; ``k <= 9`` stays as it is), an ``&`` that
would start an entity as ``&amp;``, ``](`` broken (no link or image, so no ``javascript:`` link), and
``javascript:``/``vbscript:`` defused.  Each of these renders as the same text, so ordinary text looks as before.
A table cell also escapes ``|`` (:func:`md_cell`), so no string breaks a row.  The math fields (:data:`MATH_KEYS`)
are left for :func:`md_math`.
"""
from __future__ import annotations

import re
from pathlib import Path

# ----------------------------------------------------------------------------------------------- paths

def inside(out, path) -> Path:
    """``path`` (absolute, or relative to the working directory like ``out`` itself, e.g. ``out / name``) resolved
    with symlinks followed, if it lies strictly inside the folder ``out``; else ValueError.

    Every path the report writer writes, replaces or removes goes through here, so neither a name read from a
    file (``"../x"``, ``"/home/me"``) nor a symlink planted in the output folder can take a write outside it."""
    root = Path(out).resolve()
    full = Path(path).resolve()
    if root not in full.parents:
        raise ValueError(f"refusing to write or remove {path}: it is not inside the output folder {out}")
    return full


# ----------------------------------------------------------------------------------------------- text

# C0 and C1 control characters, DEL, and the bidirectional overrides that reorder what a reader sees
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_BREAK = re.compile(r"\s*[\r\n]\s*")


def strip_controls(s: str) -> str:
    """Line breaks and tabs as spaces (with the whitespace around a line break collapsed), other control
    characters removed."""
    s = _BREAK.sub(" ", str(s)).replace("\t", " ")
    return _CONTROL.sub("", s)


# ----------------------------------------------------------------------------------------------- math

_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho "
          "varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon "
          "Phi Psi Omega")
_SYMBOLS = (
    # relations and arrows
    "le leq ge geq ne neq ll gg approx sim simeq asymp equiv cong propto prec succ preceq succeq subset supset "
    "subseteq supseteq subsetneq supsetneq in notin ni perp mid nmid parallel models mapsto to gets rightarrow "
    "leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow iff implies impliedby longrightarrow "
    "Longrightarrow longmapsto uparrow downarrow Uparrow Downarrow nearrow searrow lesssim gtrsim gtrless lessgtr "
    "triangleq doteq vdash dashv not "
    # operators and symbols
    "pm mp times div cdot cdots ldots dots dotsc dotsb vdots ddots circ ast star bullet oplus ominus otimes odot "
    "oslash cup cap setminus wedge vee land lor lnot neg forall exists nexists emptyset varnothing infty partial "
    "nabla sum prod coprod int iint iiint oint bigcup bigcap bigoplus bigotimes bigwedge bigvee top bot ell hbar "
    "imath jmath Re Im aleph wp angle triangle square Box diamond because therefore dagger ddagger S prime "
    "backslash colon intercal surd "
    # function names
    "lim liminf limsup sup inf max min arg det exp log ln lg sin cos tan sec csc cot arcsin arccos arctan sinh "
    "cosh tanh coth dim ker deg gcd hom Pr bmod pmod mod "
    # delimiters and sizes
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr langle rangle lceil rceil "
    "lfloor rfloor vert Vert lvert rvert lVert rVert "
    # structures, accents, fonts, styles, spacing
    "frac dfrac tfrac sqrt binom tbinom dbinom stackrel overset underset substack overline underline widehat "
    "widetilde overbrace underbrace hat bar tilde dot ddot vec check breve acute grave mathring mathbb mathbf "
    "mathcal mathrm mathit mathsf mathtt mathnormal boldsymbol operatorname text textrm textit textbf textsf "
    "texttt emph mbox rm bf it cal displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits quad "
    "qquad enspace thinspace medspace thickspace negthinspace phantom hphantom vphantom mathstrut smash boxed "
    "begin end")
MATH_WORDS = frozenset((_GREEK + " " + _SYMBOLS).split())
MATH_ENVS = frozenset("cases dcases aligned alignedat gathered split array matrix pmatrix bmatrix Bmatrix vmatrix "
                      "Vmatrix smallmatrix subarray".split())
MATH_KEYS = frozenset({"statement", "derived", "corrected", "stated"})
_WORD = re.compile(r"\\([A-Za-z]+)|\\(.)", re.S)


def math_ok(m: str) -> bool:
    """Whether ``m`` may be typeset as LaTeX math: only whitelisted control words (:data:`MATH_WORDS`), an
    environment only of :data:`MATH_ENVS`, control symbols only of ASCII characters, balanced braces, and none of ``^^`` (TeX's character-code notation,
    which can spell any control word), ``#``, ``%``, ``$``."""
    m = strip_controls(m)
    if "^^" in m or any(ch in m for ch in "#%$"):
        return False
    depth = 0
    for ch in re.sub(r"\\[{}]", "", m):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    if depth:
        return False
    for word, symbol in _WORD.findall(m):
        if word and word not in MATH_WORDS:
            return False
        if symbol and not symbol.isascii():   # "\\À": pdflatex reads the first byte of a letter as a control symbol
            return False
    return all(env in MATH_ENVS for env in re.findall(r"\\(?:begin|end)\s*\{([^{}]*)\}", m)) and \
        len(re.findall(r"\\(?:begin|end)\b", m)) == len(re.findall(r"\\(?:begin|end)\s*\{", m))


# ----------------------------------------------------------------------------------------------- markdown

_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
# a < that can open markup: a tag, a closing tag, a comment or declaration, a processing instruction, an autolink
# (CommonMark's raw HTML and HTML blocks, and an HTML parser, all need one of these after it); "k <= 9" is text
_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_SCHEME = re.compile(r"(?i)(java|vb)(script)\s*:")


def md_text(s) -> str:
    """A string from a results document as inert markdown text that renders as the same characters."""
    s = strip_controls(s)
    s = _TAG.sub("&lt;", _ENTITY.sub("&amp;", s))
    s = s.replace("](", r"]\(")
    return _SCHEME.sub(lambda m: f"{m[1]}{m[2]}&#58;", s)


def md_cell(s) -> str:
    """Inert text as one table cell: on one line, every ``|`` escaped (a backslash before one doubled, so that it
    cannot unescape it)."""
    s = str(s).replace("\n", " ")
    return re.sub(r"(\\*)\|", lambda m: m[1] * 2 + r"\|", s)


def md_math(m: str) -> str | None:
    """A statement for markdown math (``$...$``), or None when :func:`math_ok` refuses it.  Whitespace is not
    significant in math, so a ``<`` that could open a tag and a ``](`` that could close a link text get a space."""
    if not math_ok(m):
        return None
    m = " ".join(strip_controls(m).split())
    return _TAG.sub("< ", m).replace("](", "] (")


def md_code(s: str) -> str:
    """Verbatim text as an inline code span (a fence longer than any run of backticks in it); ``|`` escaped so
    that it can stand in a table cell."""
    s = strip_controls(s).replace("|", r"\|")
    fence = "`" * (max((len(r) for r in re.findall("`+", s)), default=0) + 1)
    return f"{fence} {s} {fence}"


def inert(doc):
    """A copy of a results document (any JSON value) with every string, keys included, made inert markdown text
    (:func:`md_text`); the math fields (:data:`MATH_KEYS`) are kept as they are, for :func:`md_math`."""
    if isinstance(doc, dict):
        return {md_text(k): (v if k in MATH_KEYS and isinstance(v, str) else inert(v)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [inert(v) for v in doc]
    if isinstance(doc, str):
        return md_text(doc)
    return doc


__all__ = ["inside", "strip_controls", "math_ok", "md_text", "md_cell", "md_math", "md_code", "inert", "MATH_WORDS",
           "MATH_ENVS", "MATH_KEYS"]
