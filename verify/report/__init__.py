"""Reports a researcher reads: ``results.json``, ``report.md``, ``report.tex`` and PNG figures.

Everything is rendered from the JSON document of a run, so ``python -m verify report``
can re-render without simulating.  Files are first written into a temporary folder and
then moved into place, so an interrupted run never leaves a half-written report.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .figures import render_figures
from .latex import render_latex
from .markdown import render_markdown


def check_writable(out: Path) -> None:
    """Raise OSError with a one-line message if ``out`` cannot take a report."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".probe-"):
            pass
    except OSError as e:
        raise OSError(f"cannot write reports to {out}: {e.strerror or e}") from None


def write_reports(doc: dict, out: Path) -> list[Path]:
    """Write results.json, report.md, report.tex and figures/ into ``out`` atomically."""
    out = Path(out)
    check_writable(out)
    tmp = Path(tempfile.mkdtemp(dir=out, prefix=".partial-"))
    try:
        figs = render_figures(doc, tmp / "figures")
        (tmp / "results.json").write_text(json.dumps(doc, indent=1))
        (tmp / "report.md").write_text(render_markdown(doc, figs))
        (tmp / "report.tex").write_text(render_latex(doc, figs))
        written = []
        if (tmp / "figures").exists():
            old = out / "figures"
            if old.exists():
                shutil.rmtree(old)
            os.replace(tmp / "figures", old)
            written.append(old)
        for name in ("results.json", "report.md", "report.tex"):
            os.replace(tmp / name, out / name)
            written.append(out / name)
        return written
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
    if not isinstance(doc.get("meta", {}), dict):
        raise ValueError(f"{p}: 'meta' is not an object")
    return doc
