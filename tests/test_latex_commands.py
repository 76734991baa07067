"""Commands printed in a PDF report can be copied into a shell (issue 37): straight quotes in the reproduce line,
``--profile`` never typeset as an en dash, quoted phrases with opening and closing quotes."""
from __future__ import annotations

from verify.report.latex import _cmd, _note_tex
from verify.report.tables import POWER_NOTE


def test_reproduce_command_keeps_straight_quotes():
    tex = _cmd("python -m verify run 'tahir2024.thm3.9' --profile standard")
    assert "'" not in tex and tex.count(r"\textquotesingle{}") == 2 and r"\texttt{" in tex


def test_power_note_command_is_code_and_quotes_open():
    tex = _note_tex(POWER_NOTE)
    assert r"\texttt{python -m verify mutants --profile P}" in tex   # typewriter: no en-dash ligature
    assert '"' not in tex and "``k of n alternatives rejected''" in tex and "*" not in tex and "`python" not in tex
