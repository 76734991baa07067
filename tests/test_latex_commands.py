"""Commands printed in a PDF report can be copied into a shell (issue 37): straight quotes in the reproduce line,
``--profile`` never typeset as an en dash, quoted phrases with opening and closing quotes."""
from __future__ import annotations

from verify.report.latex import note_tex as _note_tex
from verify.report.latex import _cmd
from verify.report.tables import POWER_NOTE


def test_reproduce_command_keeps_straight_quotes():
    tex = _cmd("python -m verify run 'tahir2024.thm3.9' --profile standard")
    assert "'" not in tex and tex.count(r"\textquotesingle{}") == 2 and r"\texttt{" in tex


def test_power_note_command_is_code_and_quotes_open():
    tex = _note_tex(POWER_NOTE)
    assert r"\texttt{python -m verify mutants --profile P}" in tex   # typewriter: no en-dash ligature
    assert '"' not in tex and "``k of n alternatives rejected''" in tex and "*" not in tex and "`python" not in tex


def test_report_title_has_no_file_number():
    """A source's report is headed by the paper's title, not the suite's number of its text file ("001: ...")."""
    import json
    from pathlib import Path

    import pytest

    from verify.report.latex import render_paper
    from verify.report.markdown import render_paper as md_paper
    from verify.report.tables import source_info
    report = Path(__file__).resolve().parent.parent / "reports" / "results.json"
    if not report.exists():
        pytest.skip("no committed report")
    doc = json.loads(report.read_text())
    paper = next(c["source"]["paper"] for c in doc["claims"] if source_info(doc, c["source"]["paper"])["number"])
    num = source_info(doc, paper)["number"]
    tex, md = render_paper(doc, paper, {}), md_paper(doc, paper, {})
    assert r"\bfseries " + num not in tex
    assert not md.startswith(f"# {num}")
