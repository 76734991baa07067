"""pytest selection with the plugin (issue 38): ``-k`` and node ids simulate only the claims they select, and pins
of claims that no longer exist give a warning naming them.  A user's folder in tmp_path, pytest in a subprocess;
each claim's predicate notes its claim's label in a file, so what was simulated is seen, not timed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CLAIMS = '''
import os
import mpmath as mp
from verify.kit import Claim, Domain, Kind, Param, PropertySearch, Source

def _holds(label):
    def holds(p):
        with open(os.environ["FTVERIFY_SIMULATED"], "a") as f:
            f.write(label + "\\n")
        return mp.mpf(p["x"]) ** 2 + 1 >= 2 * mp.mpf(p["x"])
    return holds

CLAIMS = [Claim(id=f"pickpaper.{label}", kind=Kind.BOUND, source=Source("pickpaper", f"eq. ({label})"),
                statement="x^2 + 1 >= 2x", assumptions="x in [0, 10]", domain=Domain((Param("x", 0, 10),)),
                check=PropertySearch("x^2 + 1 >= 2x", holds=_holds(label)))
          for label in ("alpha", "beta", "gamma")]
'''


def _pytest(folder: Path, marker: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "FTVERIFY_SIMULATED": str(marker)}
    marker.unlink(missing_ok=True)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "verify.plugin", "-p", "no:cacheprovider",
                           "-q", "-rf", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def _simulated(marker: Path) -> set[str]:
    return set(marker.read_text().split()) if marker.exists() else set()


def test_k_and_node_ids_simulate_only_the_selected_claims_and_stale_pins_warn(tmp_path):
    pkg = tmp_path / "pickpaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('from verify.kit import Paper\nPAPER = Paper("pickpaper", "notes.pdf", "Mine")\n')
    (pkg / "bounds.py").write_text(textwrap.dedent(CLAIMS))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_pickpaper.py").write_text(
        'from verify.plugin import ClaimSet\ntest_claim = ClaimSet("../pickpaper")\n')
    pins = {f"pickpaper.{k}": "confirmed" for k in ("alpha", "beta", "gamma")}
    (tmp_path / "tests" / "expected_verdicts.json").write_text(json.dumps(pins))
    marker = tmp_path / "simulated.txt"

    run = _pytest(tmp_path, marker)
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout + run.stderr
    assert _simulated(marker) == {"alpha", "beta", "gamma"}
    assert "no longer exist" not in run.stdout

    run = _pytest(tmp_path, marker, "-k", "beta")
    assert run.returncode == 0 and "1 passed, 2 deselected" in run.stdout, run.stdout
    assert _simulated(marker) == {"beta"}          # the deselected claims are not simulated
    run = _pytest(tmp_path, marker, "tests/test_pickpaper.py::test_claim[pickpaper.gamma]")
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout
    assert _simulated(marker) == {"gamma"}

    # a claim deleted from the package, its pin left behind (and a pin of another paper, not this set's business)
    (tmp_path / "tests" / "expected_verdicts.json").write_text(
        json.dumps({**pins, "pickpaper.delta": "refuted", "otherpaper.thm1": "confirmed"}))
    run = _pytest(tmp_path, marker)
    assert run.returncode == 0 and "3 passed, 1 warning" in run.stdout, run.stdout
    assert "StalePins" in run.stdout and "pins 1 claim(s) that no longer exist: pickpaper.delta" in run.stdout
    assert "otherpaper.thm1" not in run.stdout
