"""Issue 34, faults that lose finished work or hide an error, and bad input that runs anyway: every probe as a test.

A claims package is built in ``tmp_path`` (a fresh name per test: ``sys.modules`` keeps every module imported) with
one claim per fault: a check that raises, one that hangs, a search predicate that is NaN, a grid point outside the
claim's own domain, a simulation too large for any machine, and two sound claims.  Each test runs the command a user
would and asserts what it does now.
"""
from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

import verify.run.registry as registry
from verify import api
from verify.model.claim import DomainError
from verify.cli import _cap_jobs, main

ROOT = Path(__file__).resolve().parents[1]
_names = itertools.count()

CLAIMS = '''
import math
import time

import mpmath as mp
import torch
from verify.kit import (Claim, Constraint, Custom, Domain, Evidence, Expectation, Kind, Param, Paper, PropertySearch,
                        Source, Check)

PAPER = Paper("{key}", "faults.pdf", "A paper with faulty claims")
SRC = Source("{key}", "eq. (1)")
X = Domain((Param("x", 0, 10),))


def _raises(claim, ctx):
    risk = {{"risk": 1.0}}
    return risk["rsik"]   # RAISE-LINE


def _hangs(claim, ctx):
    while True:
        time.sleep(0.05)


def _claim(label, check, domain=X, kind=Kind.BOUND):
    return Claim(id="{key}." + label, kind=kind, source=SRC, statement="x", assumptions="x in [0, 10]",
                 domain=domain, check=check)


def _mean(p, trials, gen, ctx):
    return torch.zeros(trials, dtype=torch.float64).normal_(generator=gen) + p["n"]


CLAIMS = [
    _claim("a_ok", PropertySearch("x^2 + 1 >= 2x", holds=lambda p: mp.mpf(p["x"]) ** 2 + 1 >= 2 * mp.mpf(p["x"]))),
    _claim("b_mean", Expectation(points=[{{"n": 5}}, {{"n": 8}}], predicted=lambda p: p["n"], sampler=_mean,
                                 trials=4000), domain=Domain((Param("n", 3, 10, integer=True),)), kind=Kind.EXACT),
    _claim("c_fast", Custom(lambda claim, ctx: Evidence(checks=[Check("1 = 1", True, "exact")]))),
    _claim("raises", Custom(_raises)),
    _claim("hangs", Custom(_hangs)),
    _claim("nan", PropertySearch("0/0 >= 0", holds=lambda p: math.nan)),
    _claim("outside", Expectation(points=[{{"n": 1}}, {{"n": 4}}], predicted=lambda p: p["n"], sampler=_mean,
                                  trials=100),
           domain=Domain((Param("n", 2, 10, integer=True),), (Constraint(lambda p: p["n"] > 2, "n must exceed 2"),)),
           kind=Kind.EXACT),
    _claim("big", Expectation(points=[{{"n": 3, "d": 4}}], predicted=lambda p: 0.0, sampler=_mean, trials=100),
           domain=Domain((Param("n", 1, integer=True), Param("d", 1, integer=True))), kind=Kind.EXACT),
]
'''



@pytest.fixture
def pkg(tmp_path) -> SimpleNamespace:
    """A claims package ``faults<k>/`` in tmp_path: (path, key, the file and line of the raising statement)."""
    key = f"faults{os.getpid()}x{next(_names)}"
    d = tmp_path / key
    d.mkdir()
    (d / "__init__.py").write_text("")
    text = textwrap.dedent(CLAIMS.format(key=key))
    (d / "claims.py").write_text(text)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "RAISE-LINE" in s)
    return SimpleNamespace(path=d, key=key, raise_at=f"{d / 'claims.py'}:{line}", out=tmp_path / "out")


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _results(out: Path) -> dict:
    return {c["id"]: c for c in json.loads((out / "results.json").read_text())["claims"]}


def test_a_raising_check_is_an_error_with_its_file_and_line(capsys, pkg):
    """Exit 3 (not 0), the claim, the exception and the raising line on stderr, verdict 'error' in results.json
    (counted, re-rendered by `report`, read by `compare`), and the sound claim of the run judged as usual."""
    code, out, err = _run(capsys, "run", f"{pkg.key}.raises", f"{pkg.key}.a_ok", "--claims", pkg.path,
                          "--profile", "quick", "--out", pkg.out, "--no-progress", "--fail-on-refuted")
    assert code == 3, err
    line = next(s for s in err.splitlines() if s.startswith(f"error: {pkg.key}.raises:"))
    assert "KeyError: 'rsik'" in line and pkg.raise_at in line, err
    res = _results(pkg.out)
    assert res[f"{pkg.key}.raises"]["verdict"] == "error" and res[f"{pkg.key}.a_ok"]["verdict"] == "confirmed"
    assert res[f"{pkg.key}.raises"]["error"]["where"] == pkg.raise_at
    tb = res[f"{pkg.key}.raises"]["evidence"]["details"]["error"]["traceback"]   # the one the console points to
    assert tb.startswith("Traceback") and "RAISE-LINE" in tb and tb.rstrip().endswith("KeyError: 'rsik'"), tb
    doc = json.loads((pkg.out / "results.json").read_text())
    assert doc["meta"]["counts"]["error"] == 1
    assert "! error" in out and (pkg.out / "index.md").exists()
    assert _run(capsys, "report", "--out", pkg.out)[0] == 0          # a saved error renders again
    code, out, _ = _run(capsys, "compare", pkg.out, pkg.out)
    assert code == 0 and "| error |" in out


def test_the_plugin_never_pins_an_error(pkg, tmp_path):
    """--ftverify-write-expected refuses to pin an error (the item fails with the file:line), and a pinned
    'error' is no pass either."""
    (pkg.path / "two.py").write_text("from .claims import PAPER, CLAIMS as _ALL\n"
                                     "CLAIMS = [c for c in _ALL if c.id.endswith(('.a_ok', '.raises'))]\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_faults.py").write_text(
        f'from verify.plugin import ClaimSet\ntest_claim = ClaimSet("../{pkg.key}/two.py")\n')
    expected = tests / "expected_verdicts.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def pytest_(*args):
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "verify.plugin", "-p", "no:cacheprovider", "-q",
                               *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)

    run = pytest_("--ftverify-write-expected")
    assert run.returncode == 1 and "1 failed, 1 passed" in run.stdout, run.stdout
    assert pkg.raise_at in run.stdout and "never pinned" in run.stdout
    assert "KeyError: 'rsik'" in run.stdout.split("its traceback is below", 1)[1] and "NoneType: None" not in run.stdout
    assert json.loads(expected.read_text()) == {f"{pkg.key}.a_ok": "confirmed"}
    expected.write_text(json.dumps({f"{pkg.key}.a_ok": "confirmed", f"{pkg.key}.raises": "error"}))
    run = pytest_()
    assert run.returncode == 1 and "1 failed, 1 passed" in run.stdout, run.stdout


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hanging_check_times_out_and_the_run_goes_on(capsys, pkg, jobs):
    """--claim-timeout in the serial run and in --jobs worker processes: the hung claim is an error 'timed out
    after 1 s', the others are judged, the reports are written."""
    code, _, err = _run(capsys, "run", f"{pkg.key}.hangs", f"{pkg.key}.c_fast", "--claims", pkg.path, "--profile",
                        "quick", "--out", pkg.out, "--no-progress", "--claim-timeout", "2", "--jobs", jobs)
    assert code == 3, err
    res = _results(pkg.out)
    hung = res[f"{pkg.key}.hangs"]
    assert hung["verdict"] == "error" and "timed out after 2 s" in hung["reason"] and hung["error"]["timed_out"]
    assert hung["error"]["where"].startswith(str(pkg.path / "claims.py"))   # where the check was when stopped
    assert "ClaimTimeout" in hung["evidence"]["details"]["error"]["traceback"]
    assert res[f"{pkg.key}.c_fast"]["verdict"] == "confirmed"
    assert f"error: {pkg.key}.hangs: timed out after 2 s" in err


def test_a_bad_claim_timeout_is_one_line(capsys, pkg):
    code, _, err = _run(capsys, "run", f"{pkg.key}.a_ok", "--claims", pkg.path, "--profile", "quick", "--out",
                        pkg.out, "--claim-timeout", "-5")
    assert code == 2 and err.count("\n") == 1 and "--claim-timeout" in err


def test_every_profile_declares_a_claim_timeout():
    from verify.model.context import PROFILES

    assert PROFILES["quick"].claim_timeout and PROFILES["standard"].claim_timeout
    assert PROFILES["quick"].claim_timeout <= PROFILES["standard"].claim_timeout
    assert PROFILES["full"].claim_timeout is None


def test_sigterm_says_what_was_kept_and_resume_reuses_it(pkg):
    """SIGTERM during a hung claim: exit 143 and one line naming the cache and --resume; the finished claim is
    then read back by --resume."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "verify", "run", f"{pkg.key}.c_fast", f"{pkg.key}.hangs", "--claims", str(pkg.path),
           "--profile", "quick", "--out", str(pkg.out)]
    p = subprocess.Popen(cmd + ["--claim-timeout", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        for line in p.stdout:        # one line per finished claim (stdout is a pipe): c_fast finishes first
            if line.startswith("[1/2]"):
                break
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert p.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("terminated (SIGTERM)") and "1 finished claim(s) are kept in" in last and "--resume" in last
    again = subprocess.run(cmd + ["--resume", "--claim-timeout", "1", "--no-progress"], env=env, capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 3 and "resumed 1 claim(s)" in again.stdout, again.stdout + again.stderr


def test_a_nan_predicate_is_never_confirmed(pkg):
    """A search predicate that is NaN is an error of the check, reported with the point (never 'holds')."""
    registry.use([str(pkg.path)])
    (r,) = api.run([f"{pkg.key}.nan"], profile="quick", progress=False).claims
    assert r.verdict.value == "error", r.reason
    assert "the predicate is NaN at x=" in r.reason and "claims.py" in r.reason


def test_nan_is_recognised_in_every_number_type():
    import math

    import mpmath
    import numpy as np
    import sympy as sp
    import torch

    from verify.model.evidence import Check
    from verify.judge import is_nan

    assert all(is_nan(v) for v in (math.nan, np.float64("nan"), mpmath.mpf("nan"), sp.nan, torch.tensor(math.nan)))
    assert not any(is_nan(v) for v in (True, False, np.True_, 0.0, mpmath.mpf(1), sp.Integer(0), sp.true))
    with pytest.raises(ValueError, match="NaN"):
        Check("c", math.nan)        # bool(nan) is True: a NaN outcome must not pass


def test_a_grid_point_outside_its_domain_is_refused(capsys, pkg):
    """The claim's own grid holds n = 1, which its domain excludes: one line naming the claim and the point,
    exit 2, nothing simulated."""
    code, _, err = _run(capsys, "run", f"{pkg.key}.outside", "--claims", pkg.path, "--profile", "quick", "--out",
                        pkg.out)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{pkg.key}.outside" in err and "n=1" in err and "outside the claim's domain" in err
    assert not (pkg.out / "results.json").exists()
    assert _run(capsys, "list", f"{pkg.key}.*", "--claims", pkg.path)[0] == 0   # listing does not judge grids


@pytest.mark.parametrize("profile", ["quick", "standard", "full"])
def test_every_builtin_grid_point_lies_in_its_domain(profile):
    api.check_grids(registry.builtin_claims(), profile)


def test_an_installed_package_that_fails_to_import_is_skipped(capsys, tmp_path, monkeypatch):
    """One warning line naming the package; the built-in claims still list.  Named with --claims, it stays an
    error (exit 2)."""
    bad = f"brokenclaims{os.getpid()}x{next(_names)}"
    (tmp_path / f"{bad}.py").write_text("raise RuntimeError('half-installed')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "entry_points", lambda: [SimpleNamespace(name=bad, value=bad, module=bad)])
    registry.all_claims.cache_clear()
    code, out, err = _run(capsys, "list", "hermite.*")
    assert code == 0 and out.startswith("hermite."), err
    warns = [s for s in err.splitlines() if s.startswith("warning:")]
    assert len(warns) == 1 and bad in warns[0] and "RuntimeError: half-installed" in warns[0]
    registry._WARNED.clear()
    code, _, err = _run(capsys, "list", "--claims", tmp_path / f"{bad}.py")
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_dask_workers_load_the_claims_package(pkg):
    """--workers 2 --claims PKG: the workers load the package; results.json is the serial one."""
    pytest.importorskip("distributed")
    from verify.run.distributed import Cluster

    registry.use([str(pkg.path)])
    pats = [f"{pkg.key}.b_mean", f"{pkg.key}.c_fast"]
    serial = api.run(pats, profile="quick", progress=False).to_json()
    with Cluster(workers=2) as cl:
        dist = api.run(pats, profile="quick", progress=False, cluster=cl).to_json()
    serial.pop("timing"), dist.pop("timing")
    why = [(c["id"], c["reason"]) for c in dist["claims"] if c["verdict"] != "confirmed"]
    assert [c["verdict"] for c in dist["claims"]] == ["confirmed", "confirmed"], why
    assert json.dumps(dist, sort_keys=True) == json.dumps(serial, sort_keys=True)


def test_an_at_point_too_large_for_memory_is_refused(capsys, pkg):
    """--at n=1e7,d=1e6: one n x d float64 matrix alone is 72.8 TiB: refused with the estimate, nothing run."""
    code, _, err = _run(capsys, "run", f"{pkg.key}.big", "--claims", pkg.path, "--profile", "quick", "--out",
                        pkg.out, "--at", "n=1e7,d=1e6")
    assert code == 2 and err.count("\n") == 1, err
    assert "72.8 TiB" in err and "refused before simulating" in err
    assert not (pkg.out / "results.json").exists()


def test_an_at_point_that_takes_long_is_warned_of(capsys, pkg):
    registry.use([str(pkg.path)])
    (c,) = registry.select([f"{pkg.key}.big"])
    api.check_cost([c], [{"n": 20000, "d": 5000}], "quick", memory=1e15)
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and err.count("\n") == 1 and "will take about" in err
    api.check_cost([c], [{"n": 30, "d": 40}], "quick", memory=1e15)   # small: no word
    assert capsys.readouterr().err == ""
    with pytest.raises(DomainError, match="refused before simulating"):
        api.check_cost([c], [{"n": 3000, "d": 3000}], "quick", memory=1e6)


def test_jobs_above_the_core_count_are_capped(capsys, pkg):
    code, _, err = _run(capsys, "run", f"{pkg.key}.a_ok", "--claims", pkg.path, "--profile", "quick", "--out",
                        pkg.out, "--no-progress", "--jobs", "1000")
    cores = os.cpu_count() or 1
    assert code == 0 and f"warning: --jobs 1000 is more than the {cores} cores" in err, err
    for cmd in ("stability", "mutants", "calibrate"):   # the same helper caps the other commands
        args = SimpleNamespace(jobs=1000, cmd=cmd)
        _cap_jobs(args)
        assert args.jobs == cores


def test_a_failed_cache_write_is_a_warning_and_the_run_goes_on(capsys, pkg, monkeypatch):
    """A full disk when the resume cache is written: one warning line per claim (its id, the reason), the run
    finishes and writes its reports."""
    from verify.run import cache
    def full(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache.Cache, "put", full)
    code, _, err = _run(capsys, "run", f"{pkg.key}.a_ok", f"{pkg.key}.b_mean", "--claims", pkg.path, "--profile",
                        "quick", "--out", pkg.out, "--no-progress")
    assert code == 0, err
    warns = [s for s in err.splitlines() if s.startswith("warning:")]
    assert len(warns) == 2 and all("No space left on device" in w for w in warns)
    assert f"{pkg.key}.a_ok" in warns[0] + warns[1] and f"{pkg.key}.b_mean" in warns[0] + warns[1]
    assert set(_results(pkg.out)) == {f"{pkg.key}.a_ok", f"{pkg.key}.b_mean"}
