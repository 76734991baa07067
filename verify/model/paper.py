"""Papers declare themselves: ``PAPER = Paper(key, file_or_citation, title)`` in a claims package.

A claims package (``verify/claims/tahir2024/``, or a user's own ``mypaper2026/`` anywhere) says which
source it reads in its ``__init__.py``::

    from verify.kit import Paper
    PAPER = Paper("hastie2019", "arXiv:1903.08560",
                  "Hastie, Montanari, Rosset, Tibshirani, Surprises in high-dimensional ridgeless least squares")

The registry (:mod:`verify.run.registry`) reads ``PAPER`` from every module it loads claims from and from the
packages above it, so :attr:`verify.model.claim.Source.file` and ``.title`` (what the reports print) need no
table inside the claim model.  A claim whose paper no loaded package declares is a one-line error when the
claims are loaded, before anything is simulated (:class:`UndeclaredPaper`).
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_+-]+)*")


def plain_key(key) -> bool:
    """Whether ``key`` is a plain paper key: ASCII letters, digits and underscores, not starting with a digit.

    A paper key becomes a folder name of the reports (``OUT/<key>/``), so a key read from a claims package or from
    a saved ``results.json`` is checked with this where it is read: ``"../x"``, ``"/home/me"``, ``"."`` or a
    name with a path separator or a control character is never a key (issue 34)."""
    return isinstance(key, str) and _PLAIN_KEY.fullmatch(key) is not None


def plain_id(cid) -> bool:
    """Whether ``cid`` is a plain claim id: a paper key, then dot-separated parts of letters, digits, ``_+-``
    (``tahir2024.thm3.6.asymptotic``).  Ids name figure files and anchors of the reports."""
    return isinstance(cid, str) and _PLAIN_ID.fullmatch(cid) is not None


@dataclass(frozen=True)
class Paper:
    """A source that claims cite by ``key`` (``Source(key, "Theorem 1")``): where to read it and what it is.

    key:   the prefix of its claims' ids, e.g. ``"hastie2019"`` (``hastie2019.thm1.underparametrized``).
    file:  the source file or, for a paper not on disk, its citation (``"arXiv:1903.08560"``, a DOI).
    title: authors, title, venue and year, as the reports print them.
    """

    key: str
    file: str
    title: str

    def __post_init__(self) -> None:
        if not plain_key(self.key):
            raise ValueError(f"Paper key {self.key!r} must be a plain key such as 'mypaper2026': ASCII letters, "
                             "digits and underscores (it is the first part of every claim id and names the "
                             "report's folder)")
        if not self.file or not self.title:
            raise ValueError(f"Paper {self.key!r} needs a file (or citation) and a title")


class UndeclaredPaper(LookupError):
    """A claim cites a paper key that no loaded claims package declares with ``PAPER = Paper(...)``."""


_DECLARED: dict[str, tuple[Paper, str]] = {}   # key -> (paper, where it was declared)


def declare(paper: Paper, where: str) -> None:
    """Record ``paper`` as declared by the module ``where``.  The same key declared twice with different
    file or title is an error naming both places; the same declaration seen again (a module imported
    by two routes) is not."""
    if not isinstance(paper, Paper):
        raise ValueError(f"{where}: PAPER must be a verify.kit.Paper(key, file_or_citation, title), "
                         f"not {type(paper).__name__}")
    old = _DECLARED.get(paper.key)
    if old is not None and old[0] != paper:
        raise ValueError(f"paper {paper.key!r} is declared twice, differently: in {old[1]} and in {where}")
    if old is None:
        _DECLARED[paper.key] = (paper, where)


def declared() -> dict[str, Paper]:
    """Every paper declared so far, by key."""
    return {k: p for k, (p, _) in _DECLARED.items()}


def paper_of(key: str) -> Paper:
    """The declared :class:`Paper` of ``key``.  A built-in source (``verify/claims/<key>/``) is imported on
    demand, so ``Source("tahir2024", ...).file`` works before the registry has run."""
    if key not in _DECLARED:
        try:
            mod = importlib.import_module(f"verify.claims.{key}")
        except ImportError:
            mod = None
        if mod is not None and hasattr(mod, "PAPER"):
            declare(mod.PAPER, mod.__name__)
    if key not in _DECLARED:
        raise UndeclaredPaper(f"no claims package declares the paper {key!r}: add "
                              f"PAPER = Paper({key!r}, 'file or citation', 'title') to its __init__.py")
    return _DECLARED[key][0]
