"""The command-line contract: exit codes, one-line errors, nothing half-written."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verify.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list(capsys):
    code, out, _ = _run(capsys, "list", "tahir2024.thm3.6*")
    assert code == 0 and "tahir2024.thm3.6.finite" in out


@pytest.mark.parametrize("argv, needle", [
    (["list", "nosuchpaper.*"], "no claim matches"),
    (["run", "tahir2024.nothing"], "no claim matches"),
    (["run", "tahir2024.thm3.6.finite", "--at", "n=5,d=20,sigma=-1"], "sigma=-1"),
    (["run", "tahir2024.thm3.6.finite", "--at", "n=20,d=20,sigma=1"], "infinite"),
    (["run", "tahir2024.thm3.6.asymptotic", "--at", "gamma=1,sigma=0.5"], "gamma = 1"),
    (["run", "tahir2024.thm3.6.finite", "--at", "n=5,d=20,foo=1,sigma=0"], "unknown parameter"),
    (["run", "--profile", "huge"], "invalid choice"),
    (["run", "tahir2024.thm3.6.stieltjes", "--at", "gamma=import os"], "cannot read"),
    (["calibrate", "--seeds", "0"], "at least 1"),
    (["calibrate", "--seeds", "two"], "invalid int"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, argv, needle):
    code, out, err = _run(capsys, *argv, *(["--out", str(tmp_path / "r")] if argv[0] in ("run", "calibrate") else []))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err
    assert "Traceback" not in err
    assert not (tmp_path / "r" / "results.json").exists()


def test_unwritable_out_is_exit_2(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = _run(capsys, "run", "tahir2024.thm3.6.stieltjes", "--out", str(blocker / "sub"))
    assert code == 2 and err.startswith("error: cannot write reports")


def test_run_at_point_writes_reports_and_rerenders(capsys, tmp_path):
    out = tmp_path / "rep"
    code, stdout, _ = _run(capsys, "run", "tahir2024.thm3.6.finite", "--profile", "quick",
                           "--at", "n=5,d=20,sigma=0.5", "--out", str(out), "--no-progress")
    assert code == 0 and "tahir2024.thm3.6.finite" in stdout
    doc = json.loads((out / "results.json").read_text())
    (c,) = doc["claims"]
    assert {"id", "kind", "source", "verdict", "evidence"} <= set(c)
    assert c["verdict"] in {"confirmed", "refuted", "inconclusive"}
    assert (out / "index.md").exists()
    assert (out / "tahir2024" / "report.md").exists() and (out / "tahir2024" / "report.tex").exists()
    before = (out / "results.json").read_text()
    code, _, _ = _run(capsys, "report", "--out", str(out))
    assert code == 0 and (out / "results.json").read_text() == before
    assert not list(out.glob(".partial-*"))


def test_same_seed_same_numbers(capsys, tmp_path):
    docs = []
    for k in range(2):
        out = tmp_path / f"r{k}"
        _run(capsys, "run", "tahir2024.thm3.6.finite", "--profile", "quick", "--seed", "7",
             "--at", "n=5,d=20,sigma=1", "--out", str(out), "--no-progress")
        docs.append(json.loads((out / "results.json").read_text())["claims"][0]["evidence"]["tests"])
    assert docs[0] == docs[1]


def test_report_without_results_is_exit_2(capsys, tmp_path):
    code, _, err = _run(capsys, "report", "--out", str(tmp_path))
    assert code == 2 and "no results.json" in err


def test_python_dash_m_entry_point(tmp_path):
    p = subprocess.run([sys.executable, "-m", "verify", "list", "tahir2024.thm3.6.stieltjes"],
                       capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert p.returncode == 0 and "stieltjes" in p.stdout


def test_progress_lines_without_a_terminal(capsys, tmp_path):
    """stdout is not a terminal under pytest: one flushed line per finished claim (id, verdict, seconds, k of n)."""
    out = tmp_path / "rep"
    code, stdout, _ = _run(capsys, "run", "tahir2024.eq13.roots", "hermite.dual.truncation", "--profile", "quick",
                           "--out", str(out))
    assert code == 0
    lines = [l for l in stdout.splitlines() if l.startswith("[")]
    assert len(lines) == 2 and lines[0].startswith("[1/2] ") and lines[1].startswith("[2/2] ")
    assert all(" s " in l and "confirmed" in l for l in lines)
    code, stdout, _ = _run(capsys, "run", "tahir2024.eq13.roots", "--profile", "quick", "--out", str(out),
                           "--no-progress")
    assert not [l for l in stdout.splitlines() if l.startswith("[")]


def test_default_out_is_not_reports(monkeypatch, tmp_path, capsys):
    from verify.cli import build_parser

    for cmd in (["run"], ["report"]):
        a = build_parser().parse_args(cmd)
        assert a.out is None   # resolved to verify.report.DEFAULT_OUT, a folder git ignores
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "report")
    assert code == 2 and "ftverify-out" in err


def test_report_pdf_rerenders_without_simulation(capsys, tmp_path, monkeypatch):
    import verify.report as R

    out = tmp_path / "rep"
    assert _run(capsys, "run", "tahir2024.eq13.roots", "--profile", "quick", "--out", str(out), "--no-progress")[0] == 0
    monkeypatch.setattr(R, "pdflatex", lambda: None)
    monkeypatch.setattr("verify.run.runner.run", lambda *a, **k: pytest.fail("report must not simulate"))
    code, stdout, _ = _run(capsys, "report", "--pdf", "--out", str(out))
    assert code == 0 and "apt-get install texlive-latex-base" in stdout
