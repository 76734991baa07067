"""Reports: markdown structure, errata first, and the LaTeX compiles with pdflatex."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from verify.report import write_reports

pytestmark = pytest.mark.claims  # uses the quick run of every claim


def _doc(quick_run):
    return quick_run.to_json()


def test_markdown_has_summary_errata_and_every_claim(quick_run, tmp_path):
    doc = _doc(quick_run)
    write_reports(doc, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert md.index("## Summary") < md.index("## Errata") < md.index("## Claims")
    for c in doc["claims"]:
        assert f"`{c['id']}`" in md
    for c in doc["claims"]:
        if c["verdict"] == "refuted":
            errata = md[md.index("## Errata"):md.index("## Claims")]
            assert c["id"] in errata
    for line in md.splitlines():
        if line.startswith("!["):
            path = line[line.index("(") + 1:-1]
            assert (tmp_path / path).exists()


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX toolchain (apt-get install texlive-latex-base)")
def test_latex_compiles(quick_run, tmp_path):
    write_reports(_doc(quick_run), tmp_path)
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                       cwd=tmp_path, capture_output=True, timeout=300)
    # pdflatex's log is not UTF-8 (it prints some glyphs as raw 8-bit bytes): decode leniently
    assert p.returncode == 0, p.stdout.decode("utf-8", errors="replace")[-3000:]
    assert (tmp_path / "report.pdf").stat().st_size > 1000
