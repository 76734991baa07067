"""Discovery of claims: every module that defines ``CLAIMS``, from three places.

* the built-in sources, every module under :mod:`verify.claims`;
* installed packages that register a claims module or package under the entry-point group
  ``ftverify.claims`` (in their ``pyproject.toml``: ``[project.entry-points."ftverify.claims"]
  hastie2019 = "hastie2019"``);
* ``--claims SOURCE`` on the command line (:func:`use`): a ``.py`` file, a folder (a package, or a plain
  folder of ``.py`` files and packages), or a dotted module name.

Each module's paper must be declared by ``PAPER = Paper(...)`` in the module or a package above it
(:mod:`verify.model.paper`); claim ids must be unique across all places.  An installed package (entry point) whose import
raises is skipped with one warning line naming it: a colleague's broken package does not stop the built-in claims
(a ``--claims`` source that fails to import stays an error).  Both are checked when the claims are
loaded, before anything is simulated, with a one-line error (:class:`ClaimsError`).  Worker processes
(``--jobs N``) call :func:`use` with :func:`sources` first, so they load exactly the same claims.

Selection (:func:`default_patterns`): a command given ``--claims PKG`` and no pattern selects PKG's claims only (its
papers' keys are the patterns); a pattern selects among every loaded claim (``'*'``: all, ``mypaper2026``: one
paper's).  What belongs to a package lives in it, found through the module that declares its ``PAPER``
(:func:`home`): its ``ledger.py``, its measured power (``power/mutants_<profile>.json``) and its pinned verdicts
(:func:`package_pins`).

Claims that share an in-process cache of their simulation (one set of runs read by several claims) may be declared
together by their module: ``RUN_TOGETHER = (("paper.a", "paper.b"), ...)``.  A ``--jobs`` run sends each such group
to one worker process, in order (:func:`run_together`), so the runs are computed once; a claim's numbers do not
depend on it (every draw is seeded by the run seed and the claim's own keys).  An id of a group that no module
declares is a :class:`ClaimsError`.
"""
from __future__ import annotations

import fnmatch
import importlib
import importlib.metadata
import pkgutil
import sys
from functools import lru_cache
from pathlib import Path

from verify.model.claim import Claim

BUILTIN = "verify.claims"
ENTRY_POINT_GROUP = "ftverify.claims"
#: module names never loaded from a claims folder or package: tests and build files
_SKIP = ("test_", "conftest", "setup")


class UnknownClaim(LookupError):
    """A pattern that matches no registered claim."""


class ClaimsError(ValueError):
    """Claims that cannot be loaded: a source that does not exist or fails to import, a claim whose paper is not
    declared, a duplicate id.  One line; the command line prints it and exits with status 2."""


_MODULE: dict[str, str] = {}  # claim id -> the module that declares it
_HOME: dict[str, str] = {}    # paper key -> the module whose PAPER declares it (its package: ledger, power results)
_EXTRA: list[str] = []        # --claims sources, in the order given
_TOGETHER: dict[str, tuple[str, ...]] = {}   # claim id -> its RUN_TOGETHER group


def _skipped(modname: str) -> bool:
    last = modname.rsplit(".", 1)[-1]
    return last.startswith(_SKIP) or last.endswith("_test")


def normalize(source: str) -> str:
    """A path source made absolute (worker processes and other folders see the same file); a dotted module
    name as it is."""
    p = Path(source).expanduser()
    return str(p.resolve()) if (p.exists() or source.endswith(".py") or "/" in source) else source


def use(sources) -> None:
    """Add ``--claims`` sources to every later :func:`all_claims` (and so to :func:`select`, runs, workers)."""
    changed = False
    for s in sources or ():
        s = normalize(str(s))
        if s not in _EXTRA:
            _EXTRA.append(s)
            changed = True
    if changed:
        all_claims.cache_clear()


def sources() -> tuple[str, ...]:
    """The ``--claims`` sources added with :func:`use` (what a worker process must :func:`use` too)."""
    return tuple(_EXTRA)


def _package_name(path: Path) -> tuple[Path, str]:
    """(folder to put on sys.path, dotted module name) of a ``.py`` file or package folder: the name runs
    from the outermost enclosing package, as Python itself would import it."""
    if path.is_dir():
        parts, here = [path.name], path.parent
    elif path.name == "__init__.py":
        parts, here = [path.parent.name], path.parent.parent
    else:
        parts, here = [path.stem], path.parent
    while (here / "__init__.py").exists():
        parts.insert(0, here.name)
        here = here.parent
    return here, ".".join(parts)


def _import(name: str, root: Path | None, what: str):
    if root is not None and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        return importlib.import_module(name)
    except ClaimsError:
        raise
    except Exception as e:  # noqa: BLE001 -- any failure of a user's module is one line naming it
        msg = str(e).splitlines()[0] if str(e) else ""
        raise ClaimsError(f"cannot load claims from {what}: {type(e).__name__}: {msg}") from None


def _walk(mod, what: str) -> list:
    """The module, and if it is a package every module inside it (tests and build files skipped)."""
    out = [mod]
    if hasattr(mod, "__path__"):
        for info in pkgutil.walk_packages(mod.__path__, mod.__name__ + ".", onerror=lambda name: None):
            if not _skipped(info.name):
                out.append(_import(info.name, None, what))
    return out


def _modules_of(source: str) -> list:
    """Every module a source names: a .py file, a folder, or a dotted module / package."""
    p = Path(source)
    if p.exists():
        p = p.resolve()
        if p.is_file():
            if p.suffix != ".py":
                raise ClaimsError(f"--claims {source}: not a .py file, a folder or a module name")
            root, name = _package_name(p)
            return _walk(_import(name, root, source), source)
        if (p / "__init__.py").exists():
            root, name = _package_name(p)
            return _walk(_import(name, root, source), source)
        mods = []
        for f in sorted(p.iterdir()):
            if f.name.startswith((".", "_")) or _skipped(f.stem):
                continue
            if (f.suffix == ".py" and f.is_file()) or (f.is_dir() and (f / "__init__.py").exists()):
                mods += _walk(_import(f.stem if f.is_file() else f.name, p, str(f)), str(f))
        return mods
    if all(part.isidentifier() for part in source.split(".")):
        return _walk(_import(source, None, source), source)
    raise ClaimsError(f"--claims {source}: no such file, folder or module")


def _place(mod) -> str:
    f = getattr(mod, "__file__", None)
    return f"{mod.__name__} ({f})" if f else mod.__name__


def _declare_papers(mod) -> None:
    """Declare the ``PAPER = Paper(...)`` of the module and of every package above it (a ``PAPER`` that is not
    a :class:`~verify.model.paper.Paper`, e.g. a module's key string, is no declaration)."""
    from verify.model.paper import Paper, declare

    parts = mod.__name__.split(".")
    for i in range(1, len(parts) + 1):
        m = sys.modules.get(".".join(parts[:i]))
        if m is not None and isinstance(getattr(m, "PAPER", None), Paper):
            declare(m.PAPER, _place(m))
            _HOME.setdefault(m.PAPER.key, m.__name__)


_WARNED: set[str] = set()


def _warn_once(text: str) -> None:
    """One warning line on stderr per process (claims are loaded again after a :func:`use`)."""
    if text not in _WARNED:
        _WARNED.add(text)
        print(f"warning: {text}", file=sys.stderr, flush=True)


def entry_points() -> list:
    """The installed ``ftverify.claims`` entry points, sorted by name."""
    return sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.name, ep.value))


def claims_from(srcs, entry_points_too: bool = False) -> tuple[Claim, ...]:
    """The claims of the given sources (and of the installed entry points), sorted by id: papers declared,
    ids unique, or :class:`ClaimsError`."""
    from verify.model.paper import UndeclaredPaper, paper_of

    found: dict[str, tuple[Claim, str]] = {}
    seen: set[str] = set()
    todo = [(s, s) for s in srcs]
    if entry_points_too:
        todo += [(ep.module, f"the entry point {ep.name} = {ep.value!r} (group {ENTRY_POINT_GROUP})")
                 for ep in entry_points()]
    for src, what in todo:
        try:
            mods = _modules_of(src)
        except ClaimsError as e:
            if src == what:     # a source the user named (--claims, a ClaimSet): one-line error, exit 2
                raise
            # an installed package the user did not name for this command: it must not stop the built-in claims
            _warn_once(f"skipped the installed claims package {what}: {e}")
            continue
        for mod in mods:
            if mod.__name__ in seen:
                continue
            seen.add(mod.__name__)
            _declare_papers(mod)
            for c in getattr(mod, "CLAIMS", ()):
                if not isinstance(c, Claim):
                    raise ClaimsError(f"{_place(mod)}: CLAIMS holds {type(c).__name__}, not a verify.kit.Claim")
                if c.id in found:
                    if found[c.id][0] is c:
                        continue
                    raise ClaimsError(f"duplicate claim id {c.id}: declared in {found[c.id][1]} and in {_place(mod)}")
                try:
                    paper_of(c.source.paper)
                except UndeclaredPaper:
                    raise ClaimsError(
                        f"claim {c.id} ({_place(mod)}) cites the paper {c.source.paper!r}, which no claims package "
                        f"declares: add PAPER = Paper({c.source.paper!r}, 'file or citation', 'title') to its "
                        "package's __init__.py") from None
                found[c.id] = (c, _place(mod))
                _MODULE[c.id] = mod.__name__
            for group in getattr(mod, "RUN_TOGETHER", ()):
                if isinstance(group, str) or not all(isinstance(x, str) for x in group):
                    raise ClaimsError(f"{_place(mod)}: RUN_TOGETHER holds {group!r}, not a tuple of claim ids")
                for cid in group:
                    if _TOGETHER.get(cid, tuple(group)) != tuple(group):
                        raise ClaimsError(f"{_place(mod)}: {cid} is in two RUN_TOGETHER groups ({_TOGETHER[cid]} and "
                                          f"{tuple(group)}): join them into one")
                    _TOGETHER[cid] = tuple(group)
    unknown = sorted(cid for cid in _TOGETHER if cid not in found and any(g in found for g in _TOGETHER[cid]))
    if unknown:
        raise ClaimsError(f"RUN_TOGETHER names {', '.join(unknown)}, which no module declares")
    return tuple(sorted((c for c, _ in found.values()), key=lambda c: c.id))


def run_together(ids) -> list[tuple[str, ...]]:
    """The claims ``ids`` as tasks of a parallel run: the members of a ``RUN_TOGETHER`` group that are among ``ids``
    form one task (in the group's order, placed where its first member comes in ``ids``), every other claim a task
    of its own."""
    wanted, placed, out = set(ids), set(), []
    for cid in ids:
        if cid in placed:
            continue
        group = tuple(x for x in _TOGETHER.get(cid, (cid,)) if x in wanted and x not in placed) or (cid,)
        placed.update(group)
        out.append(group)
    return out


@lru_cache(maxsize=1)
def all_claims() -> tuple[Claim, ...]:
    """Every claim: the built-in sources, the installed entry points, and the ``--claims`` sources."""
    return claims_from([BUILTIN, *_EXTRA], entry_points_too=True)


def builtin_claims() -> tuple[Claim, ...]:
    """The claims of the built-in sources only (:mod:`verify.claims`), whatever else is installed."""
    return claims_from([BUILTIN])


def module_of(claim_id: str) -> str:
    """The module whose ``CLAIMS`` declares ``claim_id`` (for the resume cache's code hash)."""
    if claim_id not in _MODULE:
        all_claims()
    return _MODULE[claim_id]


def home(paper: str) -> tuple[str, Path] | None:
    """(module name, folder) of the claims package that declares ``paper`` (its ``PAPER``): where the package's
    ledger (``<module>.ledger``) and its measured power (``<folder>/power/``) live, found as the built-in sources'
    are.  The folder is the package's own (or, for a single ``.py`` file, the folder holding it).  None for a paper
    no loaded claims package declares."""
    if paper not in _HOME:
        all_claims()
    name = _HOME.get(paper)
    mod = sys.modules.get(name) if name else None
    if mod is None or not getattr(mod, "__file__", None):
        return None
    f = Path(mod.__file__).resolve()
    return name, f.parent


def is_builtin(paper: str) -> bool:
    """Whether ``paper`` is one of the suite's own sources (``verify/claims/<paper>/``)."""
    h = home(paper)
    return h is not None and h[0].startswith(BUILTIN + ".")


def package_pins(paper: str) -> dict[str, str]:
    """The reviewed verdicts of a claims package of one's own: the ids of ``paper`` in the
    ``tests/expected_verdicts.json`` beside the package (where ``python -m verify new`` writes it) or inside it;
    {} for a built-in source (its pins are the suite's tests/expected_verdicts.json) or when there is none."""
    import json

    h = home(paper)
    if h is None or is_builtin(paper):
        return {}
    pins: dict[str, str] = {}
    for f in (h[1].parent / "tests" / "expected_verdicts.json", h[1] / "tests" / "expected_verdicts.json"):
        try:
            pins.update({k: v for k, v in json.loads(f.read_text()).items() if k.startswith(paper + ".")})
        except (OSError, ValueError, AttributeError):
            continue
    return pins


def package_papers() -> list[str]:
    """The paper keys of the ``--claims`` sources (:func:`use`), sorted: what a command selects when it is given
    ``--claims`` and no pattern (only the package's claims, not the built-in suite)."""
    return sorted({c.source.paper for c in claims_from(_EXTRA)}) if _EXTRA else []


def default_patterns(patterns) -> list[str] | None:
    """The selection of a command: its patterns when given; else, with ``--claims`` sources, their papers' keys
    (a paper key selects its claims); else None (every claim).  One rule for ``list``, ``run``, ``mutants``,
    ``stability``, ``calibrate`` and ``coverage``: ``--claims PKG`` alone means PKG's claims; ``'*'`` means all."""
    if patterns:
        return list(patterns)
    if not _EXTRA:
        return None
    keys = package_papers()
    if not keys:
        raise UnknownClaim(f"--claims {', '.join(_EXTRA)}: no CLAIMS found there (see docs/tutorial.md)")
    return keys


def select(patterns: list[str] | tuple[str, ...] | None = None, exact: bool = False) -> list[Claim]:
    """Claims whose id matches any glob pattern (all claims when none is given).

    A pattern without glob characters also matches its sub-claims: ``tahir2024.thm3.6``
    selects ``tahir2024.thm3.6.finite`` and ``tahir2024.thm3.6.asymptotic`` — unless it is itself
    a claim id and ``exact`` is set (as for ``--at``: a user point is meant for the claim named).
    """
    claims = all_claims()
    if not patterns:
        return list(claims)
    out: list[Claim] = []
    ids = {c.id for c in claims}
    for pat in patterns:
        if exact and pat in ids:
            out += [c for c in claims if c.id == pat and c not in out]
            continue
        hits = [c for c in claims if fnmatch.fnmatchcase(c.id, pat)
                or (not any(ch in pat for ch in "*?[") and c.id.startswith(pat + "."))]
        if not hits:
            raise UnknownClaim(f"no claim matches {pat!r} (see `python -m verify list`)")
        out += [c for c in hits if c not in out]
    return out
