"""Coverage ledgers: which labelled items of a source text the claims test, and which they do not (issue 27).

Three parts:

- :func:`parse` reads a source text (the five in ``../shared/seeds/`` or any markdown/LaTeX-like text) and lists
  its labelled items with their line ranges (1-based, inclusive):

  ========== ============================================================== =========================
  kind       what is recognised                                             key
  ========== ============================================================== =========================
  statement  ``Theorem/Lemma/Proposition/Corollary/Claim/Remark/Condition/  ``Theorem 4.1``,
             Assumption/Definition N`` headers (``Theorem3.7.``,            ``Lemma B.1``
             ``LemmaB.1.``, ``Theorem 1 (Informal, see Theorem 5).``,
             ``Theorem 5:``), a number then ``.`` or ``:``
  equation   a display (``$$...$$``) with ``\\tag{n}`` or a trailing /      ``eq. (3)``
             following ``(n)``; a plain-text line ending in ``(n)`` that
             holds mathematics (001); ``| (n) |`` (003, formula lost)
  display    an unnumbered ``$$...$$`` display (a step of a proof, most     ``display L306``
             often)
  table      ``Table N:`` captions; in slides, a block of tab-separated rows ``Table 1``, ``table L480``
  figure     ``Figure N:`` / ``Fig. N.`` captions                           ``Figure 2``
  slide      slide decks only (recognised by a footer line repeated on      ``slide: Experiments``
             every slide): each titled slide
  ========== ============================================================== =========================

  In LaTeX sources, ``\\begin{equation|align|...}``, ``\\begin{theorem|lemma|...}``, ``\\begin{table|figure}`` are
  items too, keyed by their ``\\tag`` or ``\\label`` (``eq. eq:ab``, ``Theorem thm:main``), else by line.
  A key that occurs again (a theorem restated on a later slide, an equation number repeated) gets ``#2``, ``#3``.

- A **ledger** per source (``verify/claims/<paper>/ledger.py``, a list of :class:`Entry`): every parsed item, plus
  items added by hand (the abstract's and introduction's result sentences, a section's simulation settings, captions
  lost in extraction), each with its line range and either the claim ids that test it, or a reason from
  :data:`REASONS` why it is not checkable, or ``todo``: what a claim would check (an *uncovered* item).

- :func:`summary` / :func:`render`: per source, items / covered / not checkable (by reason) / uncovered
  (``python -m verify coverage [PAPER ...]``); :func:`stub` writes a ledger to fill in
  (``python -m verify coverage --init SOURCE [--write FILE]``).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

SEEDS = Path(os.environ.get("FTVERIFY_SEEDS") or Path(__file__).resolve().parents[2].parent / "shared" / "seeds")
"""Where the five built-in sources' texts live: ``../shared/seeds/`` beside the repository (README, "Paper keys"),
or the folder named by the environment variable ``FTVERIFY_SEEDS``.  A claims package of one's own names its text
in its ledger instead (:func:`ledger_source`)."""

PAPERS = {  # paper key -> its source text (README, "Paper keys")
    "shachaf2021": "000_efaf07e323d59f0e.txt",
    "tahir2024": "001_759117b8232d72ac.txt",
    "liu2019": "002_040fb3cd502e6250.txt",
    "dayi2024": "003_83d15a9763fa9a30.txt",
    "linearization2025": "004_04c86723a9734555.txt",
}

REASONS = {
    "definition": "a definition, notation or setting: it fixes an object and asserts nothing to test",
    "assumption": "a premise the results assume, not a statement the source claims to hold",
    "lost in extraction": "the formula was lost when the PDF was extracted; nothing of it survives to test",
    "needs data": "needs data, models or compute that cannot be had offline (ImageNet, RoBERTa, ...)",
    "restatement": "the same statement as another item of the ledger, which carries its coverage",
    "no result": "prose, an outline or a question: it states no result",
    "cited": "a result quoted from other work and used as a tool; its own source proves it",
    "not in the text": "the source defers it to a supplement or appendix that the text does not include",
}
"""The reasons a ledger entry may give for an item that no claim tests (``Entry.reason`` is one of the keys)."""

STATUSES = ("covered", "not checkable", "uncovered")


# --------------------------------------------------------------------------------------------------------- parsing
@dataclass(frozen=True)
class Item:
    key: str
    kind: str  # statement, equation, display, table, figure, slide
    start: int  # 1-based, inclusive
    end: int
    title: str  # the first line, shortened

    def __str__(self) -> str:
        return f"{self.key} [{self.start}-{self.end}] {self.title}"


_HEADWORDS = ("Theorem", "Lemma", "Proposition", "Corollary", "Claim", "Remark", "Condition", "Assumption",
              "Definition", "Conjecture", "Example")
_HEAD = re.compile(r"^\s*(?:\*\*|\*)?\d{0,2}(" + "|".join(_HEADWORDS) + r")\s*"
                   r"([A-Z]?\.?\d+(?:\.\d+)*)\s*(\((?:[^()]|\([^()]*\))*\))?\s*(?:\*\*|\*)?\s*[.:](?!\d)")
_CAPTION = re.compile(r"^\s*(?:\*\*)?(Table|Figure|Fig\.)\s*([A-Z]?\.?\d+)\s*(?:\*\*)?\s*[:.]")
_TAG = re.compile(r"\\tag\{([^}]+)\}")
_TRAILING_NO = re.compile(r"\(\s*([A-Z]?\.?\d+[a-z]?)\s*\)\s*(?:\$\$)?\s*$")
_BARE_NO = re.compile(r"^\s*\(\s*(\d+[a-z]?)\s*\)\s*$")
_LOST_NO = re.compile(r"^\s*\|\s*\(\s*(\d+[a-z]?)\s*\)\s*\|[|\s]*$")  # 003: "| (5) |", the formula lost
_PLAIN_EQ = re.compile(r"(?:^|\s)\(\s*(\d+)\s*\)\s*$")
_MATHY = re.compile(r"[=≤≥<>≽≼≈∝∑∫]|\\le|\\ge")
_HEADING = re.compile(r"^\s*(?:#+\s*|(?:\d+|[A-Z])(?:\.\d+)*\.?\s+(?=[A-Z])|(?=(?:Abstract|References|Appendix|"
                      r"Acknowledg\w*)\s*$))")


def _short(line: str, n: int = 90) -> str:
    s = " ".join(line.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _is_heading(line: str) -> bool:
    s = line.strip()
    return bool(s) and len(s) <= 80 and not s.endswith((".", ",", ";")) and bool(_HEADING.match(s)) \
        and not _HEAD.match(s) and not _CAPTION.match(s) and "$" not in s and "=" not in s


def _footers(lines: list[str]) -> set[str]:
    """Lines repeated on many slides (a deck's footer): the most frequent short line without mathematics that stands
    between blank lines (and any as frequent), if it occurs at least four times."""
    alone = [s.strip() for i, s in enumerate(lines) if s.strip() and (i == 0 or not lines[i - 1].strip())
             and (i + 1 == len(lines) or not lines[i + 1].strip())]  # a line with blank lines around it
    c = Counter(alone)
    c = Counter({s: k for s, k in c.items() if len(s) <= 60 and "$" not in s and not s.startswith(("-", "|"))
                 and not _HEAD.match(s) and re.search(r"[A-Za-z]{3}", s) and not s.endswith(".")})
    top = max(c.values(), default=0)
    return {s for s, k in c.items() if k >= max(4, 0.6 * top)}


def parse(text: str) -> list[Item]:
    """The labelled items of a source text, in order of their first line (see the module docstring)."""
    lines = text.splitlines()
    n = len(lines)
    footers = _footers(lines)
    slides = bool(footers) and sum(s.lstrip().startswith("- ") for s in lines) >= 20
    raw: list[tuple[str, str, int, int, str]] = []  # (key, kind, start, end, title) with 0-based lines
    in_display: set[int] = set()

    # displays: $$ ... $$, possibly over several lines
    i = 0
    while i < n:
        s = lines[i]
        if s.strip().startswith("$$") or (s.count("$$") % 2 == 1 and "$$" in s.strip()[:4]):
            j = i
            count = s.count("$$")
            while count % 2 == 1 and j + 1 < n:
                j += 1
                count += lines[j].count("$$")
            block = "\n".join(lines[i: j + 1])
            tag = _TAG.search(block) or re.search(r"\\quad\s*\((\d+[a-z]?)\)\s*(?:\\end\{aligned\})?\s*\$\$", block)
            no = tag.group(1) if tag else None
            end = j
            if no is None:
                m = _TRAILING_NO.search(lines[j])
                if m:
                    no = m.group(1)
                else:  # "(2)" alone on the next non-blank line (000)
                    k = j + 1
                    while k < n and not lines[k].strip() and k - j <= 2:
                        k += 1
                    if k < n and _BARE_NO.match(lines[k]):
                        no, end = _BARE_NO.match(lines[k]).group(1), k
            in_display.update(range(i, end + 1))
            if no is not None:
                raw.append((f"eq. ({no})", "equation", i, end, _short(lines[i])))
            else:
                raw.append((f"display L{i + 1}", "display", i, end, _short(lines[i])))
            i = end + 1
            continue
        i += 1

    plain_eq: set[int] = set()  # lines of plain-text equations: they end a caption or a statement's block
    top = 0  # the largest plain-text equation number so far: a later "(n)" with n <= top is a reference
    for i, s in enumerate(lines):
        if i in in_display:
            continue
        m = _TAG.search(s)
        if m and "$" in s:  # an inline display with its own tag (000: "$...$ $\tag{4}$")
            raw.append((f"eq. ({m.group(1)})", "equation", i, i, _short(s)))
            continue
        m = _LOST_NO.match(s)
        if m:
            raw.append((f"eq. ({m.group(1)})", "equation", i, i, "(formula lost in extraction)"))
            continue
        m = _PLAIN_EQ.search(s)
        if m and f"eq. ({m.group(1)})" in {r[0] for r in raw} and not _MATHY.search(s):
            continue  # a reference to an equation displayed earlier
        if m and "$" not in s and not _HEAD.match(s) and (int(m.group(1)) > top or _MATHY.search(s)) \
                and (_MATHY.search(s) or len(s.strip()) <= 40 or int(m.group(1)) <= top + 3):
            top = max(top, int(m.group(1)))
            plain_eq.add(i)
            raw.append((f"eq. ({m.group(1)})", "equation", i, i, _short(s)))

    latex = _latex_environments(lines, in_display)
    raw += latex

    heads: list[tuple[int, str, str]] = []  # (line, key, kind)
    for i, s in enumerate(lines):
        if i in in_display:
            continue
        m = _HEAD.match(s)
        if m:
            num = m.group(2).lstrip(".")
            heads.append((i, f"{m.group(1)} {num}", "statement"))
            continue
        m = _CAPTION.match(s)
        if m:
            word = "Figure" if m.group(1).startswith("Fig") else "Table"
            heads.append((i, f"{word} {m.group(2)}", word.lower()))

    if slides:
        titles = _slide_titles(lines, footers, {h[0] for h in heads}, in_display)
        heads += [(i, f"slide: {_short(lines[i], 60)}", "slide") for i in titles]
        heads.sort()
        # a slide (titled by a header or not) runs to the line before the next slide title or footer
        starts = sorted({h[0] for h in heads if h[2] in ("statement", "slide")}
                        | {i for i, s in enumerate(lines) if s.strip() in footers})
        for i, key, kind in heads:
            if kind in ("statement", "slide"):
                nxt = next((k for k in starts if k > i), n)
                end = _trim(lines, i, nxt - 1)
                raw.append((key, kind, i, end, _short(lines[i])))
            else:
                raw.append((key, kind, i, _paragraph_end(lines, i, n, in_display), _short(lines[i])))
        raw += [(f"table L{a + 1}", "table", a, b, _short(lines[a])) for a, b in _tab_tables(lines)]
    else:
        stops = sorted({h[0] for h in heads} | {i for i, s in enumerate(lines) if _is_heading(s)}
                       | plain_eq | {r[2] for r in latex}
                       | {i for i, s in enumerate(lines) if re.match(r"^\s*(?:\*|_)?Proof\b", s)})
        blanks = any(not s.strip() for s in lines[: min(n, 200)])
        for i, key, kind in heads:
            nxt = next((k for k in stops if k > i), n)
            end = _paragraph_end(lines, i, nxt, in_display) if blanks else _trim(lines, i, nxt - 1)
            raw.append((key, kind, i, end, _short(lines[i])))

    raw.sort(key=lambda r: (r[2], r[1] != "statement"))
    seen: Counter = Counter()
    out = []
    for key, kind, a, b, title in raw:
        seen[key] += 1
        out.append(Item(key if seen[key] == 1 else f"{key} #{seen[key]}", kind, a + 1, b + 1, title))
    return out


_ENV = re.compile(r"\\begin\{(equation|align|gather|multline|eqnarray|flalign|"
                  + "|".join(w.lower() for w in _HEADWORDS) + r"|table|figure)(\*?)\}")
_LABEL = re.compile(r"\\label\{([^}]+)\}")


def _latex_environments(lines: list[str], in_display: set[int]) -> list[tuple[str, str, int, int, str]]:
    """LaTeX sources: ``\\begin{equation|align|...}`` displays (keyed by their ``\\tag`` or ``\\label``, else by line),
    ``\\begin{theorem|lemma|...}`` statements and ``\\begin{table|figure}`` floats (keyed by ``\\label``, else by
    line): LaTeX numbers them itself, so the text does not carry the number."""
    out = []
    for i, s in enumerate(lines):
        if i in in_display:
            continue
        m = _ENV.search(s)
        if not m:
            continue
        env, star = m.group(1), m.group(2)
        j = i
        while j < len(lines) and f"\\end{{{env}{star}}}" not in lines[j]:
            j += 1
        j = min(j, len(lines) - 1)
        block = "\n".join(lines[i: j + 1])
        tag, label = _TAG.search(block), _LABEL.search(block)
        if env in ("table", "figure"):
            key = f"{env.capitalize()} {label.group(1) if label else f'L{i + 1}'}"
            out.append((key, env, i, j, _short(s)))
        elif env.capitalize() in _HEADWORDS:
            key = f"{env.capitalize()} {label.group(1) if label else f'L{i + 1}'}"
            out.append((key, "statement", i, j, _short(s)))
        elif tag:
            out.append((f"eq. ({tag.group(1)})", "equation", i, j, _short(s)))
        elif label and not star:
            out.append((f"eq. {label.group(1)}", "equation", i, j, _short(s)))
        else:
            out.append((f"display L{i + 1}", "display", i, j, _short(s)))
    return out


def _trim(lines: list[str], a: int, b: int) -> int:
    while b > a and not lines[b].strip():
        b -= 1
    return b


def _paragraph_end(lines: list[str], i: int, stop: int, in_display: set[int]) -> int:
    """The last line of the block that starts at line i: its paragraph, then any display, numbered line or
    continuation ('where ...', a lower-case start) that follows it, up to ``stop`` (exclusive)."""
    end = i
    k = i + 1
    while k < stop:
        s = lines[k].strip()
        if s:
            end = k
            k += 1
            continue
        j = k  # a blank line: does the block continue after it?
        while j < stop and not lines[j].strip():
            j += 1
        if j >= stop:
            break
        t = lines[j].strip()
        if j in in_display or _BARE_NO.match(t) or t[:1].islower() or t.startswith(("where", "$", "\\", "(")):
            k = j
            continue
        break
    return end


def _slide_titles(lines, footers, head_lines, in_display) -> list[int]:
    """Slide titles: a short line alone between blank lines, no mathematics, no closing punctuation, which opens a
    slide: it follows a "Section N :" divider, or is followed by bullets, a theorem header, a table or a panel
    label "(a)", or recurs as such a line (a slide continued)."""
    n = len(lines)

    def nxt(i):
        j = i + 1
        while j < n and not lines[j].strip():
            j += 1
        return lines[j] if j < n else ""

    def prv(i):
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        return lines[j].strip() if j >= 0 else ""

    cand = []
    for i, s in enumerate(lines):
        t = s.strip()
        if not t or i in head_lines or i in in_display or t in footers or len(t) > 90 or "$" in t:
            continue
        if t.startswith(("-", "(", "|", "\\", "•")) or "\t" in s or t.endswith((".", ":", ",", ";")):
            continue
        if re.match(r"^Section \d+\s*:", t) or t == "End of Document" or not re.match(r"[A-Z]", t):
            continue
        if (i == 0 or not lines[i - 1].strip()) and (i + 1 >= n or not lines[i + 1].strip()):
            cand.append(i)
    repeated = Counter(lines[i].strip() for i in cand)
    out = []
    for i in cand:
        after = nxt(i)
        if (repeated[lines[i].strip()] > 1 or re.match(r"^Section \d+\s*:", prv(i))
                or after.lstrip().startswith(("- ", "(a)")) or "\t" in after or _HEAD.match(after)):
            out.append(i)
    return out


def _tab_tables(lines) -> list[tuple[int, int]]:
    out, i = [], 0
    while i < len(lines):
        if lines[i].count("\t") >= 2:
            j = i
            while j + 1 < len(lines) and lines[j + 1].count("\t") >= 1:
                j += 1
            if j > i:
                out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


# ---------------------------------------------------------------------------------------------------------- ledger
@dataclass(frozen=True)
class Entry:
    """One item of a source and what tests it.

    Exactly one of: ``claims`` (the ids of the claims that test it), ``reason`` (a key of :data:`REASONS`, with
    ``note`` saying why in one line), ``todo`` (uncovered: what a claim would check). ``manual`` marks an item that
    the parser does not find (a result sentence of the abstract, a section's settings, a caption lost in extraction).
    """
    key: str
    start: int
    end: int
    claims: tuple[str, ...] = ()
    reason: str | None = None
    note: str = ""
    todo: str | None = None
    manual: bool = False

    def __post_init__(self):
        object.__setattr__(self, "claims", tuple(self.claims))
        given = [bool(self.claims), self.reason is not None, self.todo is not None]
        if sum(given) != 1:
            raise ValueError(f"ledger entry {self.key!r}: give exactly one of claims, reason, todo")
        if self.reason is not None and self.reason not in REASONS:
            raise ValueError(f"ledger entry {self.key!r}: unknown reason {self.reason!r} (one of {sorted(REASONS)})")
        if not 1 <= self.start <= self.end:
            raise ValueError(f"ledger entry {self.key!r}: bad line range {self.start}-{self.end}")

    @property
    def status(self) -> str:
        return "covered" if self.claims else "not checkable" if self.reason else "uncovered"


def E(key: str, start: int, end: int | None = None, *claims: str, reason: str | None = None, note: str = "",
      todo: str | None = None, manual: bool = False) -> Entry:
    """Shorthand for a ledger line: ``E("Theorem 4.1", 81, 88, "shachaf2021.thm4.1")``.

    Parameters
    ----------
    key
        the item's label as the source prints it ("Theorem 4.1", "eq. (12)", "abstract: ..."), unique in the ledger
    start, end
        its first and last line in the source text (``end`` defaults to ``start``)
    claims
        the ids of the claims that test it
    reason
        instead of claims: why no claim tests it, a key of :data:`REASONS` (a definition, a citation, ...)
    note
        one line saying why, with ``reason``
    todo
        instead of claims: the item is uncovered; what a claim would check
    manual
        the item is one the parser does not find (a sentence of the abstract, a caption lost in extraction)
    """
    return Entry(key, start, start if end is None else end, tuple(claims), reason, note, todo, manual)


@dataclass(frozen=True)
class Ledger:
    """A paper's coverage ledger (``LEDGER`` in ``verify/claims/<paper>/ledger.py``): every labelled item of its
    source text with the claims that test it, or why none does (``python -m verify coverage``).

    Parameters
    ----------
    paper
        the paper key of its claims (the first part of their ids)
    source
        the source text: a file name in ``shared/seeds`` for a built-in paper, the text's path relative to the
        package for a package of one's own
    entries
        one :func:`E` line per item of the source
    """

    paper: str
    source: str  # the file name in SEEDS; for a package of one's own, the text's path relative to the package
    entries: tuple[Entry, ...] = field(default_factory=tuple)

    def __post_init__(self):
        object.__setattr__(self, "entries", tuple(self.entries))
        dup = [k for k, c in Counter(e.key for e in self.entries).items() if c > 1]
        if dup:
            raise ValueError(f"ledger of {self.paper}: duplicate keys {dup}")

    def by_key(self) -> dict[str, Entry]:
        return {e.key: e for e in self.entries}


def source_path(name: str) -> Path:
    """A paper key, a seed file's name, or a path -> the text's path."""
    if name in PAPERS:
        return SEEDS / PAPERS[name]
    p = Path(name)
    if p.exists():
        return p
    if (SEEDS / name).exists():
        return SEEDS / name
    raise FileNotFoundError(f"no source text {name!r}: give a paper key ({', '.join(PAPERS)}), "
                            f"a file in {SEEDS} or a path")


def read_source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a UTF-8 text file") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder, not a source text") from None


def _package_home(paper: str):
    """(module name, folder) of the claims package of a paper that is not a built-in source (``--claims`` or an
    installed entry point), or ValueError naming the papers there are."""
    from verify.run.registry import home

    h = home(paper)
    if h is None:
        raise ValueError(f"unknown paper {paper!r} (one of {', '.join(PAPERS)}, or the paper of a claims package "
                         f"given with --claims or installed)")
    return h


def load_ledger(paper: str) -> Ledger:
    """The ``LEDGER`` of a paper: ``verify/claims/<paper>/ledger.py`` for a built-in source; for a claims package of
    one's own (``--claims PKG`` or installed), the ``ledger.py`` of the package that declares the paper's ``PAPER``
    (``python -m verify new`` writes one)."""
    if paper in PAPERS:
        try:
            return importlib.import_module(f"verify.claims.{paper}.ledger").LEDGER
        except ModuleNotFoundError:
            raise ValueError(f"{paper} has no ledger yet (verify/claims/{paper}/ledger.py; start one with `python -m "
                             f"verify coverage --init {paper} --write verify/claims/{paper}/ledger.py`)") from None
    name, folder = _package_home(paper)
    path = folder / "ledger.py"
    if not path.exists():
        raise ValueError(f"{paper} has no ledger yet ({path}; start one with `python -m verify coverage --init "
                         f"SOURCE_TEXT --write {path}`)")
    try:
        # read afresh from the file (an edited ledger is seen by the next call); named inside its package, so
        # that its own relative imports work
        inside = folder.name == name.rsplit(".", 1)[-1] and (folder / "__init__.py").exists()
        spec = importlib.util.spec_from_file_location(f"{name}.ledger" if inside else f"_ledger_{paper}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        led = mod.LEDGER
    except Exception as e:  # noqa: BLE001 -- a user's ledger that fails is one line naming it
        raise ValueError(f"cannot load the ledger {path}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                         ) from None
    if not isinstance(led, Ledger) or led.paper != paper:
        raise ValueError(f"{path}: LEDGER must be Ledger({paper!r}, 'source text', [...]) (verify.kit.Ledger)")
    return led


def ledger_source(ledger: Ledger) -> Path:
    """The source text a ledger describes: for a built-in source, its file in :data:`SEEDS`; for a claims package of
    one's own, ``Ledger(paper, source, ...)``'s ``source``, a path relative to the package's folder (or absolute):
    the text lives where its user keeps it, not beside the repository."""
    if ledger.paper in PAPERS:
        return source_path(ledger.paper)
    _, folder = _package_home(ledger.paper)
    path = (folder / Path(ledger.source).expanduser()).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"{ledger.paper}: no source text at {path} (the ledger's second argument, "
                                f"{ledger.source!r}, is the text's path relative to {folder})")
    return path


def compare(ledger: Ledger, items: list[Item]) -> dict[str, list]:
    """A ledger against a fresh parse of its source: ``missing`` (parsed, not in the ledger), ``moved`` (in both,
    with another line range), ``stale`` (in the ledger as a parsed item, not found by the parse)."""
    entries = ledger.by_key()
    parsed = {it.key: it for it in items}
    return {
        "missing": [it for it in items if it.key not in entries],
        "moved": [(entries[k], parsed[k]) for k in parsed if k in entries
                  and (entries[k].start, entries[k].end) != (parsed[k].start, parsed[k].end)],
        "stale": [e for e in ledger.entries if not e.manual and e.key not in parsed],
    }


def dangling(ledger: Ledger, known_ids) -> list[tuple[str, str]]:
    """(entry key, claim id) for every claim a ledger names that is not registered."""
    known = set(known_ids)
    return [(e.key, c) for e in ledger.entries for c in e.claims if c not in known]


def orphan_claims(ledger: Ledger, known_ids) -> set[str]:
    """The registered claims of the ledger's paper (ids ``<paper>.*``) that no entry names."""
    named = {c for e in ledger.entries for c in e.claims}
    return {c for c in known_ids if c.startswith(ledger.paper + ".") and c not in named}


def summary(ledger: Ledger) -> dict:
    st = Counter(e.status for e in ledger.entries)
    return {"paper": ledger.paper, "source": ledger.source, "items": len(ledger.entries),
            "covered": st["covered"], "not checkable": st["not checkable"], "uncovered": st["uncovered"],
            "reasons": dict(sorted(Counter(e.reason for e in ledger.entries if e.reason).items())),
            "claims": len({c for e in ledger.entries for c in e.claims})}


def render(ledgers: list[Ledger], *, show: tuple[str, ...] = (), known_ids=None) -> str:
    """The coverage table, then (``show``) the entries of the given statuses, one a line."""
    rows = [summary(l) for l in ledgers]
    out = [f"{'paper':18s} {'source':26s} {'items':>5s} {'covered':>7s} {'not checkable':>13s} {'uncovered':>9s}"
           f"  claims named"]
    for r in rows:
        out.append(f"{r['paper']:18s} {r['source']:26s} {r['items']:5d} {r['covered']:7d} {r['not checkable']:13d} "
                   f"{r['uncovered']:9d}  {r['claims']}")
    if len(rows) > 1:
        t = {k: sum(r[k] for r in rows) for k in ("items", "covered", "not checkable", "uncovered", "claims")}
        out.append(f"{'total':18s} {'':26s} {t['items']:5d} {t['covered']:7d} {t['not checkable']:13d} "
                   f"{t['uncovered']:9d}  {t['claims']}")
    if any(r["reasons"] for r in rows):
        out.append("")
        out.append("not checkable, by reason:")
        for r in rows:
            if r["reasons"]:
                out.append(f"  {r['paper']:18s} " + ", ".join(f"{k}: {v}" for k, v in r["reasons"].items()))
    if known_ids is not None:
        bad = [(l.paper, k, c) for l in ledgers for k, c in dangling(l, known_ids)]
        if bad:
            out.append("")
            out.append(f"{len(bad)} ledger entries name a claim that does not exist:")
            out += [f"  {p}: {k}: {c}" for p, k, c in bad]
    if known_ids is not None:
        orphans = [(l.paper, c) for l in ledgers for c in sorted(orphan_claims(l, known_ids))]
        if orphans:
            out.append("")
            out.append(f"{len(orphans)} claims of these papers are named by no ledger entry (add them to the entries "
                       f"they test):")
            out += [f"  {p}: {c}" for p, c in orphans]
    for status in show:
        for l in ledgers:
            sel = [e for e in l.entries if e.status == status]
            if not sel:
                continue
            out.append("")
            out.append(f"{l.paper}: {status} ({len(sel)})")
            for e in sel:
                what = e.todo if status == "uncovered" else (f"[{e.reason}] {e.note}" if e.reason
                                                             else ", ".join(e.claims))
                out.append(f"  {e.key} [L{e.start}-{e.end}]: {what}")
    return "\n".join(out)


def stub(items: list[Item], paper: str, source: str) -> str:
    """A ledger module to fill in: every parsed item as an uncovered entry with its first line as a comment."""
    out = [f'"""Coverage ledger of {source}: every labelled item, with the claims that test it or why none does.',
           "", "Generated by ``python -m verify coverage --init``; fill in each entry's claims, reason or todo.",
           '"""', "from verify.kit import Ledger, LedgerEntry as E", "", f"LEDGER = Ledger({paper!r}, {source!r}, ["]
    for it in items:
        out.append(f"    # {it.title}")
        out.append(f"    E({it.key!r}, {it.start}, {it.end}, todo=\"\"),")
    out.append("])")
    return "\n".join(out) + "\n"
