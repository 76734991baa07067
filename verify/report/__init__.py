"""Reports a referee reads: one report per source and an index, rendered from the run's ``results.json``.

Layout of an output folder ``OUT`` (default ``ftverify-out/``, which git ignores; the committed reference run lives
in ``reports/`` and is written only by an explicit ``--out reports``)::

    OUT/results.json             the whole run, one document
    OUT/index.md                 one line per source: claims, confirmed, errata by severity, does not extend, ...
    OUT/summary.tex (.pdf)       the first pages (body) of every source's report in one document
    OUT/<paper>/report.md        the source's report (errata first), every claim in its appendix
    OUT/<paper>/report.tex       the same as a LaTeX document (texlive-latex-base packages only)
    OUT/<paper>/report.pdf       with --pdf, when pdflatex is installed
    OUT/<paper>/figures/*.png

    OUT/.ftverify-manifest.json  what the suite wrote into OUT (top-level names)
    OUT/.ftverify.lock           held by the run writing into OUT

Everything is rendered from the JSON document of a run, so ``python -m verify report`` re-renders without
simulating.  Files are first written into a temporary folder and then moved into place, so an interrupted run
never leaves a half-written report (each source's folder is replaced whole).

Other people's files (issue 34).  The output folder may hold anything, so the writer **keeps every file it did
not write and refuses to replace one**: it replaces or removes only the names its manifest lists (written
atomically, before and after the reports move into place), and a name it would write that exists but is not listed
(the user's own ``index.md`` or ``hermite/``) is a one-line :class:`OutputFolderError` before anything is
simulated or written.  Refusing beats writing around such a file: a report beside a stranger's ``index.md``
would be silently incomplete.  A folder written before manifests existed is read from its own ``results.json``
(:func:`owned`).  Every path written or removed resolves inside ``OUT``
(:func:`verify.report.untrusted.inside`), every name from a results document is a plain key or id
(:func:`load_results`), ``OUT`` must be a folder of its own (:func:`check_out`: not ``/``, the home folder or a
repository root), one run at a time holds ``OUT/.ftverify.lock`` (:func:`locked`), and scratch folders of a
killed run are recognised by their marker file and swept by the next run (:func:`_sweep`).
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from verify.model.paper import plain_id, plain_key

from verify.report.figures import render_figures
from verify.report.latex import render_paper as render_paper_latex, render_summary
from verify.report.markdown import render_index, render_paper as render_paper_markdown
from verify.report.tables import papers
from verify.report.untrusted import inside

DEFAULT_OUT = "ftverify-out"
TEX_INSTALL = "apt-get install texlive-latex-base texlive-latex-recommended"
MANIFEST = ".ftverify-manifest.json"   # what the suite wrote into OUT: the only names it ever replaces or removes
LOCK = ".ftverify.lock"                # held (flock) by the one run writing into OUT
MARKER = ".ftverify-scratch"           # inside every .partial-*/.old-* folder the suite makes
TOP = ("results.json", "index.md", "summary.tex", "summary.pdf")
KEPT = (".cache",)                     # the resume cache (written by the run): listed, never removed here
_NAME = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_.+-]*")


class OutputFolderError(ValueError):
    """An output folder the suite will not write into (one line, exit status 2 at the command line)."""


def check_out(out: Path) -> None:
    """Refuse an output folder that is not dedicated to reports: the filesystem root, the user's home or a folder
    above it, the root of a git repository (this one included).  A report run writes top-level names
    (``results.json``, ``index.md``, one folder per source) and would mix them with everything there."""
    p = Path(out).expanduser().resolve()
    home = Path.home().resolve()
    why = ("the filesystem root" if p.parent == p else
           "your home folder" if p == home else
           "a folder above your home folder" if p in home.parents else
           "the root of a git repository" if (p / ".git").exists() else
           "this suite's own repository root" if p == Path(__file__).resolve().parents[2] else None)
    if why:
        raise OutputFolderError(f"--out {out} is {why}; give a folder of its own for the reports, e.g. "
                                f"--out {DEFAULT_OUT}")


def check_writable(out: Path) -> None:
    """Raise OSError with a one-line message if ``out`` cannot take a report (or OutputFolderError if it is not a
    folder of its own: :func:`check_out`)."""
    out = Path(out)
    check_out(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".probe-"):
            pass
    except OSError as e:
        raise OSError(f"cannot write reports to {out}: {e.strerror or e}") from None


_HELD: set[Path] = set()


@contextlib.contextmanager
def locked(out: Path):
    """Hold ``OUT/.ftverify.lock`` (an exclusive, non-blocking ``flock``) for the block: a second run into the
    same folder gets a one-line OutputFolderError before it simulates or writes anything.  Re-entrant within one
    process (``run`` holds it around the simulation, :func:`write_reports` takes it again)."""
    out = Path(out)
    key = out.resolve()
    if key in _HELD:
        yield
        return
    try:
        fd = os.open(inside(out, out / LOCK), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as e:
        raise OSError(f"cannot lock {out / LOCK}: {e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputFolderError(f"another ftverify run is writing into {out} (it holds {out / LOCK}); wait "
                                    "for it to finish or give another --out") from None
        _HELD.add(key)
        try:
            yield
        finally:
            _HELD.discard(key)
    finally:
        os.close(fd)   # closing the descriptor releases the lock


def _scratch(out: Path, prefix: str) -> Path:
    """A fresh ``.partial-*``/``.old-*`` folder in ``out``, marked as the suite's (:func:`_sweep` removes it if a
    killed run leaves it behind)."""
    d = Path(tempfile.mkdtemp(dir=out, prefix=prefix))
    (d / MARKER).write_text("a scratch folder of ftverify's report writer; safe to remove\n")
    return d


def _sweep(out: Path) -> None:
    """Remove the scratch folders a killed run left in ``out``: only real folders named ``.partial-*``/``.old-*``
    that hold the suite's marker file (called with the lock held, so no live run is using them)."""
    for d in list(out.glob(".partial-*")) + list(out.glob(".old-*")):
        if d.is_dir() and not d.is_symlink() and (d / MARKER).is_file():
            shutil.rmtree(inside(out, d), ignore_errors=True)


def _foreign_in(d: Path) -> Path | None:
    """The first entry of the source folder ``d`` that the report writer does not write (anything but report.*
    files and figures/<slug>_<k>.png, or a symlink), None if there is none."""
    for f in sorted(d.iterdir()):
        if f.is_symlink():
            return f
        if f.name == "figures" and f.is_dir():
            for g in sorted(f.iterdir()):
                if not (g.is_file() and not g.is_symlink() and re.fullmatch(r"\w+_\d+\.png", g.name)):
                    return g
        elif f.name not in ("report.md", "report.tex", "report.pdf", "report.log"):
            return f
    return None


def _looks_like_a_report_folder(d: Path) -> bool:
    """A source folder as the suite writes it: only report.* files and figures/<slug>_<k>.png.  Required of a
    folder written before manifests existed, and of one the manifest lists (it is replaced whole, so a file the
    user put in it since, ``hermite/notes.txt``, makes it someone else's: refused, or kept if the run no longer
    writes that source)."""
    return d.is_dir() and not d.is_symlink() and _foreign_in(d) is None


def owned(out: Path) -> set[str]:
    """The top-level names in ``out`` that the suite wrote: those its manifest lists; in a folder written before
    manifests existed (no manifest, but a results document of this tool), results.json, index.md, summary.* and
    the cache beside it, and the folders of its sources that hold nothing but report files."""
    out = Path(out)
    m = out / MANIFEST
    if m.exists() or m.is_symlink():
        try:
            names = json.loads(m.read_text()).get("written") if m.is_file() and not m.is_symlink() else None
        except (ValueError, OSError, AttributeError):
            names = None
        if not isinstance(names, list):
            raise OutputFolderError(f"{m} is not a manifest of ftverify; remove it or give another --out")
        # a listed name that is now a symlink was not written by us (the suite writes none): never ours; nor is a
        # listed source folder that now holds a file the suite does not write (the user's own notes or figure)
        return {n for n in names if isinstance(n, str) and _NAME.fullmatch(n) and n not in (".", "..")
                and not (out / n).is_symlink()
                and (n in KEPT or not (out / n).is_dir() or _looks_like_a_report_folder(out / n))}
    try:
        doc = load_results(out)
    except (OSError, ValueError):
        return set()
    return ({n for n in TOP + KEPT if (out / n).exists() and not (out / n).is_symlink()}
            | {p for p in papers(doc) if _looks_like_a_report_folder(out / p)})


def _write_manifest(out: Path, names, scratch: Path) -> None:
    f = scratch / MANIFEST
    f.write_text(json.dumps({"tool": "ftverify", "written": sorted(set(names))}, indent=1) + "\n")
    os.replace(f, inside(out, out / MANIFEST))


def refuse_foreign(out: Path, names, mine: set[str]) -> None:
    """OutputFolderError naming the first of ``names`` that exists in ``out`` but was not written by the suite (a
    user's file is never replaced; the folder's other files are never touched)."""
    for n in names:
        p = Path(out) / n
        if (p.exists() or p.is_symlink()) and n not in mine:
            f = _foreign_in(p) if n not in KEPT and p.is_dir() and not p.is_symlink() else None
            if f is not None:
                raise OutputFolderError(f"{f} was not written by ftverify; {p} is replaced whole by the report, so "
                                        "it is not: move the file or give another --out")
            raise OutputFolderError(f"{p} was not written by ftverify (no {MANIFEST} lists it); it is not replaced: "
                                    "move it or give another --out")


def prepare(out: Path, sources, pdf: bool = False, cache: bool = True) -> None:
    """Before a run simulates (call with :func:`locked` held): the folder is writable and dedicated, holds no
    file of someone else's where the run will write (its top-level files, ``sources``' folders, ``.cache``), and
    the manifest names the cache before the run writes into it (so an interrupted first run can resume)."""
    out = Path(out)
    check_writable(out)
    _sweep(out)
    bad = [s for s in sources if not plain_key(s)]
    if bad:
        raise OutputFolderError(f"paper key {bad[0]!r} is not a plain key (letters, digits, underscores)")
    mine = owned(out)
    refuse_foreign(out, [*TOP[:3], *(TOP[3:] if pdf else ()), *sources, *(KEPT if cache else ())], mine)
    if cache and not set(KEPT) <= mine:
        scratch = _scratch(out, ".partial-")
        try:
            _write_manifest(out, mine | set(KEPT), scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def _subdoc(doc: dict, paper: str) -> dict:
    from verify.report.tables import paper_of

    return {**doc, "claims": [c for c in doc["claims"] if paper_of(c) == paper]}


def pdflatex() -> str | None:
    return shutil.which("pdflatex")


# paranoid file access: TeX reads and writes only below the folder it runs in (no absolute paths, no ../, no dot
# files), whatever its site configuration says; with -no-shell-escape, no \\write18 either
_TEX_ENV = {**os.environ, "openout_any": "p", "openin_any": "p"}


def compile_pdf(folder: Path, name: str = "report", passes: int = 2, timeout: int = 600) -> tuple[bool, str]:
    """Compile ``folder/name.tex`` with pdflatex (``passes`` runs: longtable widths and references settle on the
    second), always with ``-no-shell-escape`` and ``openout_any=p``/``openin_any=p`` (a hostile report cannot run
    a command or read or write a file outside ``folder``).  Returns (ok, the log text); the auxiliary files are
    removed, the log is kept only on failure."""
    exe = pdflatex()
    if exe is None:
        return False, ""
    log = ""
    ok = True
    for _ in range(passes):
        try:
            p = subprocess.run([exe, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error",
                                f"{name}.tex"], cwd=folder, capture_output=True, timeout=timeout, env=_TEX_ENV)
        except subprocess.TimeoutExpired:
            ok = False
            break
        logf = Path(folder) / f"{name}.log"
        log = logf.read_bytes().decode("utf-8", errors="replace") if logf.exists() else ""
        if p.returncode != 0:
            ok = False
            break
    for ext in ("aux", "out", "toc") + (("log",) if ok else ()):
        (Path(folder) / f"{name}.{ext}").unlink(missing_ok=True)
    return ok and (Path(folder) / f"{name}.pdf").exists(), log


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if line.startswith("!"):
            return line[1:].strip()
    return "see the .log"


def write_reports(doc: dict, out: Path, pdf: bool = False, notify=None) -> dict:
    """Write ``results.json``, ``index.md`` and one folder per source (``report.md``, ``report.tex``, figures, and
    with ``pdf`` ``report.pdf``) into ``out`` atomically.  Returns ``{"written": [paths], "pdf": status}`` where
    status is None (not asked), "missing" (no pdflatex: one line says what to install), "ok", or a list of
    sources whose LaTeX failed to compile.  ``notify(line)`` receives one-line messages (default: print).

    Only what the suite wrote is replaced or removed (the manifest, :func:`owned`): a file of someone else's where
    a report would go is an OutputFolderError before anything is written, every other file in ``out`` is kept,
    and every path written or removed resolves inside ``out`` (:func:`~verify.report.untrusted.inside`)."""
    notify = notify or (lambda s: print(s, flush=True))
    out = Path(out)
    check_writable(out)
    srcs = papers(doc)
    _check_names(doc, "the results document")
    with locked(out):
        _sweep(out)
        mine = owned(out)
        status: object = None
        if pdf and pdflatex() is None:
            notify(f"no PDF: pdflatex is not installed (to compile report.pdf: {TEX_INSTALL}); "
                   "the markdown and LaTeX reports are written")
            status = "missing"
        elif pdf:
            status = "ok"
        refuse_foreign(out, [*TOP[:3], *(TOP[3:] if status == "ok" else ()), *srcs], mine)
        tmp = _scratch(out, ".partial-")
        try:
            return _write(doc, out, tmp, srcs, mine, status, notify)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


#: figures of a run above which each source's are drawn in a process of its own (one per core): a standard run draws
#: a few hundred (about 50 s on one core); a small run is drawn here (a process costs ~2 s of imports)
PARALLEL_FIGURES = 60


def _render_all(doc, tmp: Path, srcs) -> dict:
    """Each source's folder made in ``tmp`` and its figures drawn ({source: {claim id: [paths]}}), the sources side by
    side in worker processes when the run has more than PARALLEL_FIGURES figures (the same files either way)."""
    dirs = {p: inside(tmp, tmp / p) for p in srcs}
    for d in dirs.values():
        d.mkdir()
    subs = {p: _subdoc(doc, p) for p in srcs}
    count = {p: sum(len(c["evidence"].get("figures", [])) for c in subs[p]["claims"]) for p in srcs}
    workers = min(len(srcs), os.cpu_count() or 1)
    if workers < 2 or sum(count.values()) <= PARALLEL_FIGURES:
        return {p: render_figures(subs[p], dirs[p] / "figures") for p in srcs}
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as ex:
        futs = {p: ex.submit(render_figures, subs[p], dirs[p] / "figures")
                for p in sorted(srcs, key=lambda p: -count[p])}     # the largest first
        return {p: futs[p].result() for p in srcs}


def _write(doc, out, tmp, srcs, mine, status, notify) -> dict:
    failed, compiled = [], set()
    (tmp / "results.json").write_text(json.dumps(doc, indent=1))
    figs_of = _render_all(doc, tmp, srcs)
    for p in srcs:
        d = inside(tmp, tmp / p)
        figs = figs_of[p]
        (d / "report.md").write_text(render_paper_markdown(doc, p, figs))
        (d / "report.tex").write_text(render_paper_latex(doc, p, figs))
    (tmp / "summary.tex").write_text(render_summary(doc, srcs))
    if status == "ok":   # each document in its own folder: the pdflatex processes run side by side, one per core
        from concurrent.futures import ThreadPoolExecutor

        jobs = [(p, inside(tmp, tmp / p), "report") for p in srcs] + [("summary", tmp, "summary")]
        with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            logs = list(pool.map(lambda j: compile_pdf(j[1], j[2]), jobs))
        for (p, _, name), (ok, log) in zip(jobs, logs):
            if ok:
                compiled.add(p)
                continue
            failed.append(p)
            notify(f"warning: pdflatex failed on {p}/report.tex ({_first_error(log)}); its log is "
                   f"{out / p / 'report.log'}" if name == "report" else
                   f"warning: pdflatex failed on summary.tex ({_first_error(log)})")
    (tmp / "index.md").write_text(render_index(doc, compiled))
    names = ["results.json", "summary.tex"] + (["summary.pdf"] if "summary" in compiled else []) + ["index.md"]
    new = set(srcs) | set(names)
    written = []
    trash = _scratch(out, ".old-")
    try:
        # listed before anything moves: a kill in between leaves nothing of ours unlisted
        _write_manifest(out, mine | new, tmp)
        # what an earlier run wrote that this one does not (a source it does not cover, a summary.pdf it did not
        # compile) would be stale beside the new index: it goes; the cache stays
        for n in sorted(mine - new - set(KEPT)):
            if (out / n).exists() or (out / n).is_symlink():
                os.replace(inside(out, out / n), trash / n)
        for p in srcs:
            dest = inside(out, out / p)
            if dest.exists():
                os.replace(dest, trash / p)
            os.replace(tmp / p, dest)
            written.append(out / p)
        for name in names:
            os.replace(tmp / name, inside(out, out / name))
            written.append(out / name)
        _write_manifest(out, new | (mine & set(KEPT)), tmp)
    finally:
        shutil.rmtree(trash, ignore_errors=True)
    return {"written": written, "pdf": failed or status, "papers": srcs, "compiled": sorted(compiled - {"summary"}),
            "summary_pdf": "summary" in compiled,
            "figures": [p for p in srcs if (out / p / "figures").is_dir() and any((out / p / "figures").iterdir())]}


def _check_names(doc: dict, where) -> None:
    """Every name of a results document that becomes part of a path must be plain: the paper keys (folder names)
    and the claim ids (figure file names, anchors).  ValueError with one line otherwise."""
    for i, c in enumerate(doc["claims"]):
        if not plain_id(c.get("id")):
            raise ValueError(f"{where}: claim {i} has the id {c.get('id')!r}, not a plain claim id "
                             "(letters, digits, _+- parts separated by dots)")
        paper = c["source"].get("paper") if isinstance(c.get("source"), dict) else None
        if paper is not None and not plain_key(paper):
            raise ValueError(f"{where}: claim {c['id']} names the paper {paper!r}, not a plain key (letters, "
                             "digits, underscores); it would become a folder name")


def load_results(out: Path) -> dict:
    p = Path(out) / "results.json"
    if not p.exists():
        raise FileNotFoundError(f"no results.json in {out}: run `python -m verify run` first")
    try:
        doc = json.loads(p.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{p} is not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise ValueError(f"{p} has no 'claims' list")
    need = {"id": str, "kind": str, "source": dict, "statement": str, "verdict": str, "evidence": dict}
    for i, c in enumerate(doc["claims"]):
        bad = [k for k, t in need.items() if not isinstance(c, dict) or not isinstance(c.get(k), t)]
        if bad:
            raise ValueError(f"{p}: claim {i} lacks {', '.join(bad)}; not a results document of this tool")
        if c["verdict"] not in ("confirmed", "refuted", "does not extend", "inconclusive", "error"):
            raise ValueError(f"{p}: claim {c['id']} has an unknown verdict {c['verdict']!r}")
        for k in ("severity", "root_cause"):
            if c.get(k) is not None and not isinstance(c[k], (dict, str)):
                raise ValueError(f"{p}: claim {c['id']} has a malformed {k!r} (an object or null expected)")
    _check_names(doc, p)
    if not isinstance(doc.get("meta", {}), dict):
        raise ValueError(f"{p}: 'meta' is not an object")
    return doc
