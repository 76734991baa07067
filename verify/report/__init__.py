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

Everything is rendered from the JSON document of a run, so ``python -m verify report`` re-renders without
simulating.  Files are first written into a temporary folder and then moved into place, so an interrupted run
never leaves a half-written report (each source's folder is replaced whole).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from verify.report.figures import render_figures
from verify.report.latex import render_paper as render_paper_latex, render_summary
from verify.report.markdown import render_index, render_paper as render_paper_markdown
from verify.report.tables import papers

DEFAULT_OUT = "ftverify-out"
TEX_INSTALL = "apt-get install texlive-latex-base texlive-latex-recommended"
_OLD_LAYOUT = ("report.md", "report.tex", "report.pdf", "figures")   # one report for the whole run (before issue 26)


def check_writable(out: Path) -> None:
    """Raise OSError with a one-line message if ``out`` cannot take a report."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".probe-"):
            pass
    except OSError as e:
        raise OSError(f"cannot write reports to {out}: {e.strerror or e}") from None


def _subdoc(doc: dict, paper: str) -> dict:
    from verify.report.tables import paper_of

    return {**doc, "claims": [c for c in doc["claims"] if paper_of(c) == paper]}


def pdflatex() -> str | None:
    return shutil.which("pdflatex")


def compile_pdf(folder: Path, name: str = "report", passes: int = 2, timeout: int = 600) -> tuple[bool, str]:
    """Compile ``folder/name.tex`` with pdflatex (``passes`` runs: longtable widths and references settle on the
    second).  Returns (ok, the log text); the auxiliary files are removed, the log is kept only on failure."""
    exe = pdflatex()
    if exe is None:
        return False, ""
    log = ""
    ok = True
    for _ in range(passes):
        try:
            p = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=folder,
                               capture_output=True, timeout=timeout)
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
    sources whose LaTeX failed to compile.  ``notify(line)`` receives one-line messages (default: print)."""
    notify = notify or (lambda s: print(s, flush=True))
    out = Path(out)
    check_writable(out)
    old_papers = set()
    if (out / "results.json").exists():
        try:
            old_papers = set(papers(json.loads((out / "results.json").read_text())))
        except (ValueError, KeyError, TypeError, OSError):
            old_papers = set()
    tmp = Path(tempfile.mkdtemp(dir=out, prefix=".partial-"))
    status: object = None
    if pdf and pdflatex() is None:
        notify(f"no PDF: pdflatex is not installed (to compile report.pdf: {TEX_INSTALL}); "
               "the markdown and LaTeX reports are written")
        status = "missing"
    elif pdf:
        status = "ok"
    failed, compiled = [], set()
    try:
        (tmp / "results.json").write_text(json.dumps(doc, indent=1))
        srcs = papers(doc)
        for p in srcs:
            d = tmp / p
            d.mkdir()
            sub = _subdoc(doc, p)
            figs = render_figures(sub, d / "figures")
            (d / "report.md").write_text(render_paper_markdown(doc, p, figs))
            (d / "report.tex").write_text(render_paper_latex(doc, p, figs))
            if status == "ok":
                ok, log = compile_pdf(d)
                if ok:
                    compiled.add(p)
                else:
                    failed.append(p)
                    notify(f"warning: pdflatex failed on {p}/report.tex ({_first_error(log)}); "
                           f"its log is {out / p / 'report.log'}")
        (tmp / "summary.tex").write_text(render_summary(doc, srcs))
        if status == "ok":
            ok, log = compile_pdf(tmp, "summary")
            if ok:
                compiled.add("summary")
            else:
                failed.append("summary")
                notify(f"warning: pdflatex failed on summary.tex ({_first_error(log)})")
        (tmp / "index.md").write_text(render_index(doc, compiled))
        written = []
        trash = Path(tempfile.mkdtemp(dir=out, prefix=".old-"))
        try:
            # sources of an earlier run into this folder that this run does not cover, and the old one-document
            # layout, would be stale next to the new index: they go
            stale = [out / p for p in old_papers - set(srcs)]
            if (out / "results.json").exists():
                stale += [out / n for n in _OLD_LAYOUT]
            for k, path in enumerate(stale):
                if path.exists():
                    os.replace(path, trash / f"{k}-{path.name}")
            for p in srcs:
                if (out / p).exists():
                    os.replace(out / p, trash / p)
                os.replace(tmp / p, out / p)
                written.append(out / p)
            names = ["results.json", "summary.tex"] + (["summary.pdf"] if "summary" in compiled else []) + ["index.md"]
            if "summary" not in compiled and (out / "summary.pdf").exists():
                os.replace(out / "summary.pdf", trash / "summary.pdf")   # stale next to a new summary.tex
            for name in names:
                os.replace(tmp / name, out / name)
                written.append(out / name)
        finally:
            shutil.rmtree(trash, ignore_errors=True)
        if failed:
            status = failed
        return {"written": written, "pdf": status, "papers": srcs, "compiled": sorted(compiled - {"summary"}),
                "summary_pdf": "summary" in compiled}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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
        if c["verdict"] not in ("confirmed", "refuted", "does not extend", "inconclusive"):
            raise ValueError(f"{p}: claim {c['id']} has an unknown verdict {c['verdict']!r}")
        for k in ("severity", "root_cause"):
            if c.get(k) is not None and not isinstance(c[k], (dict, str)):
                raise ValueError(f"{p}: claim {c['id']} has a malformed {k!r} (an object or null expected)")
    if not isinstance(doc.get("meta", {}), dict):
        raise ValueError(f"{p}: 'meta' is not an object")
    return doc
