"""The pytest plugin (verify.plugin) in a user's repository, and the scaffold (`python -m verify new`), each run as a
new user would: a fresh folder outside the suite, pytest in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify.cli import main

ROOT = Path(__file__).resolve().parents[1]

CLAIMS = '''
import mpmath as mp
from verify.kit import Claim, Domain, Kind, Param, PropertySearch, Source

def _claim(label, statement, holds):
    return Claim(id=f"userpaper.{label}", kind=Kind.BOUND, source=Source("userpaper", f"eq. ({label})"),
                 statement=statement, assumptions="x in [0, 10]", domain=Domain((Param("x", 0, 10),)),
                 check=PropertySearch(statement, holds=holds))

CLAIMS = [
    _claim("true", "x^2 + 1 >= 2x", lambda p: mp.mpf(p["x"]) ** 2 + 1 >= 2 * mp.mpf(p["x"])),
    _claim("misprint", "x^2 >= 2x", lambda p: mp.mpf(p["x"]) ** 2 >= 2 * mp.mpf(p["x"])),
]
'''


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "verify.plugin", "-p", "no:cacheprovider",
                           "-q", "-rf", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def test_claims_are_items_pinned_written_and_explained(tmp_path):
    pkg = tmp_path / "userpaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('from verify.kit import Paper\nPAPER = Paper("userpaper", "notes.pdf", "Mine")\n')
    (pkg / "bounds.py").write_text(textwrap.dedent(CLAIMS))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_userpaper.py").write_text(
        'from verify.plugin import ClaimSet\ntest_claim = ClaimSet("../userpaper")\n')
    expected = tmp_path / "tests" / "expected_verdicts.json"

    first = _pytest(tmp_path)   # nothing pinned yet: each item fails and says how to pin
    assert first.returncode == 1 and "no verdict is pinned" in first.stdout, first.stdout
    wrote = _pytest(tmp_path, "--ftverify-write-expected")
    assert wrote.returncode == 0 and "2 passed" in wrote.stdout, wrote.stdout
    assert json.loads(expected.read_text()) == {"userpaper.misprint": "refuted", "userpaper.true": "confirmed"}

    expected.write_text(json.dumps({"userpaper.misprint": "confirmed", "userpaper.true": "confirmed"}))
    run = _pytest(tmp_path, "-k", "misprint", "-m", "ftverify")
    out = run.stdout
    assert run.returncode == 1 and "1 failed, 1 deselected" in out, out
    assert "test_claim[userpaper.misprint]" in out
    assert "verdict 'refuted' at quick (seed 0), pinned 'confirmed'" in out     # verdict against the pin
    assert "counterexample" in out and "notes.pdf: eq. (misprint)" in out        # its reason, evidence, source
    assert "Traceback" not in out
    assert json.loads(expected.read_text())["userpaper.misprint"] == "confirmed"   # a pin is never overwritten


def test_scaffold_runs_green_as_written(tmp_path, capsys):
    assert main(["new", "scaffoldpaper", "--dir", str(tmp_path)]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["scaffoldpaper/__init__.py", "scaffoldpaper/claims.py", "scaffoldpaper/ledger.py",
                       "tests/expected_verdicts.json", "tests/test_scaffoldpaper.py"]
    run = _pytest(tmp_path)
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout + run.stderr
    capsys.readouterr()
    assert main(["new", "scaffoldpaper", "--dir", str(tmp_path)]) == 2   # nothing is overwritten
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists already" in err


@pytest.mark.parametrize("key, needle", [("Bad-Key", "lower-case identifier"), ("tahir2024", "built-in source"),
                                         ("json", "already importable")])
def test_scaffold_refuses_bad_keys(tmp_path, capsys, key, needle):
    assert main(["new", key, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    assert not any(tmp_path.iterdir())
