"""A claims package of one's own is a source like the built-in ones (issue 38): ``--claims PKG`` alone selects its
claims in every command, ``coverage`` finds its ledger and its source text in the package, ``mutants --claims PKG``
keeps its power in the package where runs read it, ``mutants --no-progress`` is accepted.  Each on a package
written by ``python -m verify new`` into tmp_path (a fresh key per test: Python keeps every imported module)."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import verify.run.registry as registry
from verify.cli import main

_keys = itertools.count()


def _package(tmp_path: Path, key: str) -> tuple[str, Path]:
    """The scaffold's package under a key of the test's own (its claim ids, hence its draws, fixed whatever runs
    before it)."""
    assert main(["new", key, "--dir", str(tmp_path)]) == 0
    return key, tmp_path / key


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_claims_alone_selects_the_package(tmp_path, capsys):
    key, pkg = _package(tmp_path, "selpaperlist")
    capsys.readouterr()
    code, out, _ = _run(capsys, "list", "--claims", pkg)
    ids = [ln.split()[0] for ln in out.splitlines()]
    assert code == 0 and ids == [f"{key}.example.{k}" for k in ("asymptotic", "bound", "exact", "prob_bound")]
    code, out, _ = _run(capsys, "list", key)        # the paper key is a pattern: the same claims
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()] == ids
    tiny, f = _tiny(tmp_path)
    registry._EXTRA.clear()   # a new command line (one process each): only this --claims source
    registry.all_claims.cache_clear()
    code, out, _ = _run(capsys, "run", "--claims", f, "--profile", "quick", "--out", tmp_path / "r", "--no-progress")
    doc = json.loads((tmp_path / "r" / "results.json").read_text())
    assert code == 0 and [c["id"] for c in doc["claims"]] == [f"{tiny}.sq"]      # not the built-in suite
    assert doc["meta"]["patterns"] == [tiny]


def test_claims_without_claims_is_one_line(tmp_path, capsys):
    empty = tmp_path / "emptypkg"
    empty.mkdir()
    (empty / "__init__.py").write_text("")
    code, _, err = _run(capsys, "list", "--claims", empty)
    assert code == 2 and err.count("\n") == 1 and "no CLAIMS found" in err


def test_power_of_a_package_is_kept_in_it_and_read_by_its_run(tmp_path, capsys):
    key, pkg = _package(tmp_path, "selpaperpower")
    cid = f"{key}.example.exact"
    code, out, _ = _run(capsys, "mutants", cid, "--claims", pkg, "--no-progress")
    stored = pkg / "power" / "mutants_quick.json"
    assert code == 0 and stored.exists() and f"wrote {stored}" in out
    assert f"[1/1] {cid}" not in out                                   # --no-progress: no line per claim
    assert json.loads(stored.read_text())["claims"][cid]["refuted"] > 0
    assert not (Path("benchmarks/results") / "mutants_quick.json").exists() or \
        cid not in json.loads((Path("benchmarks/results") / "mutants_quick.json").read_text())["claims"]
    code, _, _ = _run(capsys, "run", cid, "--claims", pkg, "--profile", "quick", "--out", tmp_path / "r",
                      "--no-progress")
    c = json.loads((tmp_path / "r" / "results.json").read_text())["claims"][0]
    assert code == 0 and c["power"]["status"] == "shown" and c["power"]["measured"]["file"] == str(stored.resolve())
    assert "alternatives rejected" in (tmp_path / "r" / key / "report.md").read_text()
    code, _, _ = _run(capsys, "run", f"{key}.example.asymptotic", "--claims", pkg, "--profile", "standard",
                      "--out", tmp_path / "s", "--no-progress", "--at", "sigma=1")
    assert code == 0   # --at: no power record, nothing read


PAPER_TEXT = """A paper of one's own

Lemma 1. The sample variance is unbiased,
$$\\mathbb E s^2 = \\sigma^2. \\tag{3}$$

Theorem 2. The maximum-likelihood variance tends to sigma^2.
"""


def test_coverage_of_a_package_reads_its_ledger_and_its_text(tmp_path, capsys):
    key, pkg = _package(tmp_path, "selpapercov")
    (pkg / "paper.txt").write_text(PAPER_TEXT)     # the scaffold's ledger names paper.txt, beside it
    capsys.readouterr()
    code, out, _ = _run(capsys, "coverage", "--claims", pkg)
    assert code == 0 and out.startswith("paper") and f"{key}" in out and "paper.txt" in out
    code, out, _ = _run(capsys, "coverage", "--claims", pkg, "--check")
    assert code == 1 and f"{key}: parsed item missing from the ledger: Lemma 1" in out
    # --init over the untouched scaffold stub: the items of the text, its path relative to the ledger
    code, out, _ = _run(capsys, "coverage", "--claims", pkg, "--init", pkg / "paper.txt", "--write", pkg / "ledger.py")
    text = (pkg / "ledger.py").read_text()
    assert code == 0 and f"Ledger({key!r}, 'paper.txt'" in text and "E('Theorem 2', 6, 6, todo=\"\")" in text
    (pkg / "ledger.py").write_text(text.replace("E('Lemma 1', 3, 4, todo=\"\")", f"E('Lemma 1', 3, 4, '{key}.example.exact')")
                                   .replace("E('eq. (3)', 4, 4, todo=\"\")", "E('eq. (3)', 4, 4, reason='restatement')")
                                   .replace("E('Theorem 2', 6, 6, todo=\"\")",
                                            f"E('Theorem 2', 6, 6, '{key}.example.asymptotic')"))
    code, out, _ = _run(capsys, "coverage", key, "--claims", pkg, "--check", "--show", "covered")
    assert code == 0 and f"{key}.example.exact" in out, out
    assert "claims of these papers are named by no ledger entry" in out   # the other two examples: reported
    (pkg / "paper.txt").write_text("\n" + PAPER_TEXT)                     # the text moved by a line
    code, out, _ = _run(capsys, "coverage", "--claims", pkg, "--check")
    assert code == 1 and "Lemma 1 is at 4-5 in the source, 3-4 in the ledger" in out
    (pkg / "paper.txt").unlink()
    code, _, err = _run(capsys, "coverage", "--claims", pkg, "--check")
    assert code == 2 and err.count("\n") == 1 and "no source text at" in err and "relative to" in err
    code, _, err = _run(capsys, "coverage", "--claims", pkg, "--init", tmp_path / "x.txt", "--write", pkg / "ledger.py")
    assert code == 2   # a filled-in ledger is never written over (x.txt does not exist either)


def test_coverage_of_a_paper_without_ledger_is_one_line(tmp_path, capsys):
    key, pkg = _package(tmp_path, "selpapernoledger")
    (pkg / "ledger.py").unlink()
    capsys.readouterr()
    code, _, err = _run(capsys, "coverage", "--claims", pkg)
    assert code == 2 and err.count("\n") == 1 and f"{key} has no ledger yet" in err
    code, _, err = _run(capsys, "coverage", "nosuchpaper")
    assert code == 2 and "unknown paper 'nosuchpaper'" in err


TINY = """
import mpmath as mp
from verify.kit import Claim, Domain, Kind, Paper, Param, PropertySearch, Source

PAPER = Paper("{key}", "notes.pdf", "A one-claim paper")
CLAIMS = [Claim(id="{key}.sq", kind=Kind.BOUND, source=Source("{key}", "eq. (1)"), statement="x^2 >= 0",
                assumptions="x real", domain=Domain((Param("x", -10, 10),)),
                check=PropertySearch("x^2 >= 0", holds=lambda p: mp.mpf(p["x"]) ** 2 >= 0))]
"""


def _tiny(tmp_path: Path) -> tuple[str, Path]:
    """A one-claim paper in one file (a fast property search)."""
    key = f"tinypaper{next(_keys)}"   # claim ids are not what these tests judge: any unique key
    f = tmp_path / f"{key}.py"
    f.write_text(TINY.format(key=key))
    return key, f


def test_stability_and_calibrate_take_the_package_alone(tmp_path, capsys):
    key, pkg = _tiny(tmp_path)
    code, _, _ = _run(capsys, "stability", "--claims", pkg, "--seeds", "1", "--out", tmp_path / "st")
    doc = json.loads((tmp_path / "st" / "stability_quick.json").read_text())
    assert code == 0 and doc["patterns"] == [key] and doc["claims"] == 1
    code, _, _ = _run(capsys, "calibrate", "--claims", pkg, "--seeds", "1", "--profile", "quick",
                      "--out", tmp_path / "cal")
    doc = json.loads((tmp_path / "cal" / "calibration_suite_quick.json").read_text())
    assert code == 0 and doc["patterns"] == [key]


def test_a_package_keeps_its_pins_beside_it(tmp_path):
    from verify.run.registry import package_pins, use

    key, pkg = _package(tmp_path, "selpaperpins")
    use([str(pkg)])
    assert package_pins(key) == {f"{key}.example.{k}": "confirmed" for k in ("asymptotic", "bound", "exact",
                                                                            "prob_bound")}
    assert package_pins("tahir2024") == {}      # the built-in sources' pins are the suite's own file
