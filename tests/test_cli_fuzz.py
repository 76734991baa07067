"""Fuzzing the command line: any argument list gives an exit status, never a traceback; bad input is
one line `error: ...` with exit 2; a failed command leaves the existing reports byte-identical.

The registry is narrowed to two cheap claims and `calibrate` is stubbed, so that an argument list that
happens to be valid runs in a second instead of an hour.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verify.audit.calibration
import verify.run.registry
from verify import api
from verify.cli import main
from verify.report import write_reports

CHEAP = ("tahir2024.thm3.6.stieltjes", "tahir2024.thm3.8.monotone")

TOKENS = st.sampled_from([
    "run", "list", "report", "calibrate", "stability", "--profile", "quick", "standard", "huge", "--seed", "-1", "1e3",
    "99999999999999999999999", "--seeds", "0", "two", "--at", "--out", "--bogus", "--fail-on-refuted", "--device",
    "cuda:7", "nope", *CHEAP, "tahir2024.thm3.6", "nosuch.*", "", "*", "[", "n=", "gamma=nan", "gamma=inf",
    "gamma=1e999", "sigma=-0", "x=1", "gamma=((", "gamma=0.5,gamma=0.6", "gamma=9**9**9", "gamma=0.5", "theta=pi/3",
    "lam=1,theta=0.1,sigma=0", "=", ",,,", "-", "--", "BADDIR", "FILEDIR", "--merge"])


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    good = root / "good"
    write_reports(api.run(["tahir2024.thm3.6.stieltjes"], profile="quick", seed=0, progress=False).to_json(), good)
    (root / "afile").write_text("not a folder")
    return root


def _snapshot(d: Path) -> dict:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(argv=st.lists(TOKENS | st.text(max_size=8), max_size=7), broken=st.sampled_from(["", "{", "[]", '{"claims": 5}',
                                                                                        '{"claims": [{"id": 1}]}']))
def test_cli_never_tracebacks(base, argv, broken, monkeypatch, capsys):
    cheap = tuple(c for c in verify.run.registry.all_claims() if c.id in CHEAP)
    monkeypatch.setattr(verify.run.registry, "all_claims", lambda: cheap)
    monkeypatch.setattr(verify.audit.calibration, "calibrate", lambda **kw: 0)
    monkeypatch.setattr(verify.audit.calibration, "verdict_stability", lambda *a, **kw: {})
    work = base / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(base / "good", work)
    if broken and "report" in argv:
        (work / "results.json").write_text(broken)
    argv = [str(work) if a == "BADDIR" else str(base / "afile" / "sub") if a == "FILEDIR" else a for a in argv]
    if "--out" not in argv:
        argv += ["--out", str(work)]
    before = _snapshot(work)
    code = main(argv)  # must return, whatever argv is
    err = capsys.readouterr().err
    assert code in (0, 1, 2, 130)
    assert "Traceback" not in err
    if code == 2:
        lines = [l for l in err.splitlines() if l.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert _snapshot(work) == before, "a failed command changed the existing reports"
    else:
        json.loads((work / "results.json").read_text())  # still a readable document
