"""Claims from anywhere (issue 25): papers declare themselves, --claims loads a file, a folder or a module,
installed entry points are discovered, errors are one line before anything is simulated, and external claims run
like built-in ones (worker processes, the resume cache)."""
from __future__ import annotations

import itertools
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

import verify.run.registry as registry
from verify.cli import main

_names = itertools.count()

CLAIM = '''
import mpmath as mp
from verify.kit import Claim, Domain, Kind, Param, Paper, PropertySearch, Source
{paper}
def _holds(p):
    with mp.workdps(50):
        return {predicate}

CLAIMS = [Claim(id="{key}.{label}", kind=Kind.BOUND, source=Source("{key}", "eq. (1)"), statement=r"x^2 \\ge 0",
                assumptions="x real", domain=Domain((Param("x", -10, 10),)),
                check=PropertySearch("x^2 >= 0", holds=_holds))]
'''


def _module(folder: Path, key=None, label="sq", declare=True, predicate="mp.mpf(p['x']) ** 2 >= 0", name=None):
    """A claims module in ``folder`` with a fresh module name (sys.modules keeps every module imported)."""
    key = key or f"regtest{next(_names)}"
    paper = f'PAPER = Paper("{key}", "arXiv:0000.00000", "A test paper")\n' if declare else ""
    f = folder / f"{name or key}.py"
    f.write_text(textwrap.dedent(CLAIM.format(paper=paper, key=key, label=label, predicate=predicate)))
    return f, key



def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_builtin_papers_declare_themselves():
    from verify.model.paper import paper_of

    assert paper_of("tahir2024").file == "001_759117b8232d72ac.txt"
    c = next(c for c in registry.builtin_claims() if c.id == "tahir2024.thm3.6.finite")
    assert c.source.file == "001_759117b8232d72ac.txt" and "Features are fate" in c.source.title
    builtin = registry.builtin_claims()
    assert len(builtin) > 150 and all(registry.module_of(c.id).startswith("verify.claims.") for c in builtin)


def test_list_with_claims_file(capsys, tmp_path):
    f, key = _module(tmp_path)
    code, out, _ = _run(capsys, "list", "--claims", str(f))   # --claims alone: only its claims (issue 38)
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()] == [f"{key}.sq"]
    assert "arXiv:0000.00000: eq. (1)" in out
    code, out, _ = _run(capsys, "list", "*", "--claims", str(f))   # a pattern selects among every claim
    assert code == 0 and f"{key}.sq" in out
    assert any(line.startswith("tahir2024.thm3.6.finite") for line in out.splitlines())   # besides the built-in ones


def test_claims_folder_and_dotted_module(capsys, tmp_path, monkeypatch):
    pkg = tmp_path / "pkgs" / f"regpkg{next(_names)}"
    pkg.mkdir(parents=True)
    key = pkg.name
    (pkg / "__init__.py").write_text(f'from verify.kit import Paper\nPAPER = Paper("{key}", "doi:10/x", "A package")\n')
    _module(pkg, key=key, label="a", declare=False, name="topic_a")
    _module(pkg, key=key, label="b", declare=False, name="topic_b")
    (pkg / "test_ignored.py").write_text("raise RuntimeError('a test file is not a claims module')\n")
    code, out, _ = _run(capsys, "list", f"{key}.*", "--claims", str(pkg))
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()] == [f"{key}.a", f"{key}.b"]
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    registry._EXTRA.clear()
    registry.all_claims.cache_clear()
    code, out, _ = _run(capsys, "list", f"{key}.*", "--claims", key)
    assert code == 0 and len(out.splitlines()) == 2
    plain = tmp_path / "plain"
    plain.mkdir()
    _, k1 = _module(plain)
    _, k2 = _module(plain)
    code, out, _ = _run(capsys, "list", "--claims", str(plain))
    assert code == 0 and f"{k1}.sq" in out and f"{k2}.sq" in out


@pytest.mark.parametrize("case, needle", [
    ("undeclared", "which no claims package declares"),
    ("duplicate", "duplicate claim id tahir2024.thm3.6.finite: declared in verify.claims.tahir2024.scratch"),
    ("missing", "no such file, folder or module"),
    ("broken", "cannot load claims from"),
])
def test_bad_claims_are_one_line_exit_2(capsys, tmp_path, case, needle):
    if case == "undeclared":
        f, _ = _module(tmp_path, declare=False)
    elif case == "duplicate":
        f, _ = _module(tmp_path, key="tahir2024", label="thm3.6.finite", declare=False, name=f"dup{next(_names)}")
    elif case == "missing":
        f = tmp_path / "nothing_here" / "x.py"
    else:
        f = tmp_path / f"broken{next(_names)}.py"
        f.write_text("import no_such_module_anywhere\n")
    for cmd in (["list"], ["run", "--out", str(tmp_path / "r")]):
        registry._EXTRA.clear()
        registry.all_claims.cache_clear()
        code, out, err = _run(capsys, *cmd, "--claims", str(f))
        assert code == 2 and err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
        assert not (tmp_path / "r" / "results.json").exists()   # nothing simulated, nothing written
    if case == "duplicate":
        assert str(f) in err   # both places are named


def test_entry_points_are_discovered(capsys, tmp_path, monkeypatch):
    f, key = _module(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = SimpleNamespace(name=key, value=key, module=key)
    monkeypatch.setattr(registry, "entry_points", lambda: [ep])
    registry.all_claims.cache_clear()
    code, out, _ = _run(capsys, "list", f"{key}.*")
    assert code == 0 and out.startswith(f"{key}.sq")
    ep.module = ep.value = "no_such_claims_package_xyz"   # a broken installed package is skipped, with one line
    registry.all_claims.cache_clear()
    code, out, err = _run(capsys, "list")
    assert code == 0 and "tahir2024.thm3.6.finite" in out
    assert err.startswith("warning: skipped") and "the entry point" in err and "no_such_claims_package_xyz" in err


def test_external_claims_run_in_workers_and_cache(tmp_path):
    """--jobs 2: the worker processes load the same --claims file; --resume reuses the entry until the code the
    claims reach changes (the key covers the external module's code; a comment is not code)."""
    import importlib

    from verify import api

    f, key = _module(tmp_path, label="sq")
    text = f.read_text()
    f.write_text(text + text.replace(f'id="{key}.sq"', f'id="{key}.cube"').replace("CLAIMS = [", "CLAIMS += ["))
    registry.use([str(f)])
    res = api.run([f"{key}.*"], profile="quick", seed=0, progress=False, jobs=2, cache_dir=tmp_path / "cache")
    assert [(r.claim.id, r.verdict.value) for r in res.claims] == [(f"{key}.cube", "confirmed"),
                                                                     (f"{key}.sq", "confirmed")]
    again = api.run([f"{key}.*"], profile="quick", seed=0, progress=False, cache_dir=tmp_path / "cache", resume=True)
    assert sorted(again.timing["resumed_from_cache"]) == [f"{key}.cube", f"{key}.sq"]
    # the timing block splits the run's seconds into its phases (benchmarks/README.md section 3 reads them)
    assert again.timing["replications"] == {} and 0 <= again.timing["first_stage_seconds"] <= again.timing["seconds"]

    def edit(old, new):   # the file edited, then loaded afresh (as the next command's process would)
        f.write_text(f.read_text().replace(old, new))
        sys.modules.pop(f.stem, None)
        importlib.invalidate_caches()
        registry.all_claims.cache_clear()
        return api.run([f"{key}.*"], profile="quick", seed=0, progress=False, cache_dir=tmp_path / "cache",
                       resume=True).timing["resumed_from_cache"]

    assert sorted(edit("CLAIMS = [", "# a comment\nCLAIMS = [")) == [f"{key}.cube", f"{key}.sq"]
    assert edit("** 2 >= 0", "** 2 >= -1") == []


def test_run_together_groups_claims_that_share_runs(tmp_path):
    """RUN_TOGETHER: a group of claims that read the same cached runs is one task of a --jobs run (in the group's
    order, where its first member comes), the other claims one task each; a --jobs 2 run of a grouped module gives
    the verdicts of a serial one."""
    from verify import api

    f, key = _module(tmp_path, label="sq")
    text = f.read_text()
    f.write_text(text + text.replace(f'id="{key}.sq"', f'id="{key}.cube"').replace("CLAIMS = [", "CLAIMS += [")
                 + f'\nRUN_TOGETHER = (("{key}.sq", "{key}.cube"),)\n')
    registry.use([str(f)])
    ids = [f"{key}.alone", f"{key}.cube", "x.other", f"{key}.sq"]
    registry.all_claims()
    assert registry.run_together(ids) == [(f"{key}.alone",), (f"{key}.sq", f"{key}.cube"), ("x.other",)]
    assert registry.run_together([f"{key}.cube"]) == [(f"{key}.cube",)]   # a member alone runs alone
    res = api.run([f"{key}.*"], profile="quick", seed=0, progress=False, jobs=2)
    assert [(r.claim.id, r.verdict.value) for r in res.claims] == [(f"{key}.cube", "confirmed"),
                                                                     (f"{key}.sq", "confirmed")]


@pytest.mark.parametrize("groups, needle", [
    ('(("{k}.sq", "{k}.nowhere"),)', "which no module declares"),
    ('(("{k}.sq",), ("{k}.sq", "{k}.sq2"))', "is in two RUN_TOGETHER groups"),
    ('("{k}.sq",)', "not a tuple of claim ids"),
])
def test_bad_run_together_is_one_line_exit_2(capsys, tmp_path, groups, needle):
    f, key = _module(tmp_path)
    f.write_text(f.read_text() + "\nRUN_TOGETHER = " + groups.format(k=key) + "\n")
    registry._EXTRA.clear()
    registry.all_claims.cache_clear()
    code, _, err = _run(capsys, "list", "--claims", str(f))
    assert code == 2 and err.count("\n") == 1 and needle in err, err


def test_longest_first_orders_tasks_by_earlier_seconds():
    from verify.run.runner import _longest_first

    tasks = [("a",), ("b", "c"), ("d",), ("e",)]
    assert _longest_first(tasks, {"a": 1.0, "b": 2.0, "c": 3.0, "d": 9.0, "e": 0.5}) == [("d",), ("b", "c"), ("a",), ("e",)]
    assert _longest_first(tasks, {"a": 1.0, "b": 2.0, "c": 3.0, "d": 9.0})[0] == ("e",)   # unknown cost first
    assert _longest_first(tasks, {}) == tasks


def test_a_run_into_a_new_folder_is_ordered_by_the_reference_run(tmp_path, monkeypatch):
    """--jobs orders its tasks by the seconds of the output folder's earlier results.json, else by the committed
    reference run's (a new folder in the registry's order ends on tahir2024's heaviest claims), else not at all."""
    import json

    from verify import cli

    ref = tmp_path / "ref.json"
    ref.write_text(json.dumps({"timing": {"claims": {"a": 2.0, "b": 1.0}}}), encoding="utf-8")
    monkeypatch.setattr(cli, "REFERENCE_RESULTS", ref)
    out = tmp_path / "out"
    out.mkdir()
    assert cli._earlier_seconds(out) == {"a": 2.0, "b": 1.0}
    (out / "results.json").write_text(json.dumps({"timing": {"claims": {"c": 3.0}}}), encoding="utf-8")
    assert cli._earlier_seconds(out) == {"c": 3.0}
    (out / "results.json").write_text("not json", encoding="utf-8")
    assert cli._earlier_seconds(out) == {"a": 2.0, "b": 1.0}
    monkeypatch.setattr(cli, "REFERENCE_RESULTS", tmp_path / "missing.json")
    assert cli._earlier_seconds(out) == {}
