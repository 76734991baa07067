"""The architecture as a test: ``verify/`` in layers whose imports point down only, no import circle, no module
over 700 lines (docs/architecture.md draws the picture).

Every import counts, also one inside a function (a lazy import is a dependency all the same).  Layers, bottom up::

    derivations, numerics      closed forms (sympy) and literal procedures (torch): no verify import
    verify.model               the claim model: claim, paper, context (profiles, seeds), evidence, stats
    verify.judge               the judge's strategies, the stated form as a number, orders, severity
    verify.run                 running claims: runner, registry, resume cache and keys, Dask, stored power
    verify.audit               audits of the suite itself: mutants, calibration, coverage ledgers
    verify.report              what a reader gets: markdown, LaTeX, figures, console summary, compare
    surfaces                   verify.cli, verify.api, verify.kit, verify.plugin, verify.scaffold

Claims packages (``verify/claims/<paper>/``) sit beside the surfaces: they import :mod:`verify.kit` only (and their
own package, another paper's ``common``), and are loaded by the registry at run time, never imported by a layer.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["derivations|numerics", "verify.model", "verify.judge", "verify.run", "verify.audit", "verify.report",
          "verify.cli|verify.api|verify.kit|verify.plugin|verify.scaffold|verify.__main__|verify"]
MAX_LINES = 700


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(mod: str) -> int | None:
    best = None
    for i, spec in enumerate(LAYERS):
        for prefix in spec.split("|"):
            if mod == prefix or mod.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (i, len(prefix))
    return None if best is None else best[0]


def _imports(path: Path) -> set[str]:
    mod = _module(path)
    pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = pkg[: len(pkg) - node.level + 1] if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            # `from pkg import module` names a module when it is one of ours
            for a in node.names:
                sub = f"{name}.{a.name}"
                out.add(sub if _file_of(sub) is not None else name)
    return {m for m in out if m.split(".")[0] in ("verify", "derivations", "numerics")}


def _file_of(mod: str) -> Path | None:
    base = ROOT.joinpath(*mod.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


SOURCES = sorted(p for top in ("verify", "derivations", "numerics") for p in (ROOT / top).rglob("*.py")
                 if "claims" not in p.relative_to(ROOT).parts)
CLAIMS = sorted((ROOT / "verify" / "claims").rglob("*.py"))


def _resolve(mod: str) -> str:
    """The module itself, or the package that defines the name (``verify.judge.Tol`` -> ``verify.judge``)."""
    while mod and _file_of(mod) is None:
        mod = mod.rpartition(".")[0]
    return mod


def test_imports_point_down():
    bad = []
    for p in SOURCES:
        me = _module(p)
        mine = _layer(me)
        for dep in sorted(_imports(p)):
            dep = _resolve(dep)
            if dep.startswith("verify.claims"):
                bad.append(f"{me} imports the claims package {dep} (claims are loaded by the registry)")
                continue
            theirs = _layer(dep)
            if theirs is not None and mine is not None and theirs > mine:
                bad.append(f"{me} ({LAYERS[mine]}) imports {dep} ({LAYERS[theirs]}), a layer above it")
    assert not bad, "\n".join(bad)


def test_no_import_circles():
    graph = {_module(p): {_resolve(d) for d in _imports(p)} - {_module(p)} for p in SOURCES}
    # a package's __init__ re-exporting its modules is no circle with them: only module -> module edges count,
    # plus edges into a package from outside it
    def edges(m):
        return {d for d in graph.get(m, ()) if d in graph and not (m.startswith(d + ".") and _file_of(d).name == "__init__.py")}
    cycles, state = [], {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for d in sorted(edges(m)):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert not cycles, "import circles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("path", SOURCES + CLAIMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_700_lines(path):
    n = len(path.read_text().splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines; split it by responsibility"


@pytest.mark.parametrize("path", [p for p in CLAIMS if p.name != "__init__.py"], ids=lambda p: str(p.relative_to(ROOT)))
def test_claim_modules_import_only_the_kit(path):
    """A claims module holds declarations: it imports verify.kit, its own package and another paper's ``common``
    (a root cause shared across papers), never the layers below the kit."""
    bad = [m for m in _imports(path) if m.startswith("verify.") and _resolve(m) != "verify.kit"
           and not m.startswith("verify.claims.")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}; import from verify.kit instead"


def test_derivations_and_numerics_are_named_by_mathematical_object():
    # a paper's key is its first author's name and year (tahir2024); a module named by that name belongs in
    # verify/claims/<paper>/, not beside the mathematical objects (``hermite``, the general identities, is no paper)
    authors = {p.name.rstrip("0123456789") for p in (ROOT / "verify" / "claims").iterdir()
               if p.is_dir() and p.name[-4:].isdigit()}
    named = sorted(str(p.relative_to(ROOT)) for top in ("derivations", "numerics") for p in (ROOT / top).glob("*.py")
                   if p.stem.split("_")[0] in authors)
    assert not named, f"modules of derivations/ or numerics/ named after a paper: {named}"
