"""The resume cache: finished claims of an earlier or interrupted run, reused by ``run --resume``.

A claim's entry is keyed by its id, the profile, the seed, the ``--at`` points, the library
versions and a hash of the source code the claim depends on: its own module and every module of
``derivations/``, ``numerics/`` and ``verify/`` (and, for a claim from outside the project, of its own
top-level package) it imports, transitively (found by reading the
import statements), plus the judge itself.  A changed claim, sampler, closed form or judge is
therefore recomputed; an unchanged one is read back.

What is cached is the claim's raw evidence, before the run-wide steps (Holm's correction, the
replication of rejections, the verdict), which are always redone over the whole run.  Each entry
is written to a temporary file and renamed into place, so a kill at any moment leaves every
earlier entry whole (and a half-written one never exists).
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from verify.model.evidence import Check, Evidence, StatTest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("derivations", "numerics", "verify")
#: the judge's own modules: every verdict depends on them
CORE = ("verify/judge/base.py", "verify/judge/points.py", "verify/judge/figures.py", "verify/judge/expectation.py",
        "verify/judge/asymptotic.py", "verify/judge/search.py", "verify/judge/composite.py", "verify/model/evidence.py", "verify/model/stats.py", "verify/model/context.py", "verify/model/claim.py",
        "verify/judge/budget.py", "verify/kit.py")


def _module_file(name: str, external: str | None = None) -> Path | None:
    """The source file of one of our modules or, when ``external`` names the top-level package of a claims
    module outside this project (``--claims``, an entry point), of a module of that package."""
    top = name.split(".")[0]
    if external is not None and top == external and top not in PACKAGES:
        mod = sys.modules.get(name)
        f = getattr(mod, "__file__", None)
        if f is None:
            try:
                import importlib.util

                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError, AttributeError):
                return None
            f = getattr(spec, "origin", None) if spec is not None else None
        return Path(f) if f and f.endswith(".py") and Path(f).exists() else None
    if top not in PACKAGES:
        return None
    base = ROOT.joinpath(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


def _imports(path: Path, package: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(parts + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}  # `from pkg import module`
    return out


@lru_cache(maxsize=None)
def dependency_files(module: str) -> tuple[str, ...]:
    """Our source files a module depends on, transitively (sorted, relative to the project root).  For a claims
    module outside the project (``--claims``, an entry point), its own package's files count too (absolute
    paths): editing a user's claim recomputes it on ``--resume``."""
    seen: dict[str, Path] = {}
    todo = [module]
    external = module.split(".")[0] if module.split(".")[0] not in PACKAGES else None
    while todo:
        name = todo.pop()
        f = _module_file(name, external)
        if f is None or name in seen:
            continue
        seen[name] = f
        pkg = name if f.name == "__init__.py" else name.rsplit(".", 1)[0]
        todo += sorted(_imports(f, pkg))
    files = {str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in seen.values()} | set(CORE)
    return tuple(sorted(files))


def code_hash(module: str) -> str:
    h = hashlib.sha256()
    for rel in dependency_files(module):
        h.update(rel.encode() + b"\0" + (ROOT / rel).read_bytes() + b"\0")
    return h.hexdigest()


def key(claim, ctx, versions: dict) -> str:
    parts = {"id": claim.id, "profile": ctx.profile.name, "seed": ctx.seed, "at": ctx.at, "device": str(ctx.device),
             "dtype": str(ctx.dtype), "versions": {k: v for k, v in versions.items() if k != "platform"},
             "code": code_hash(_claim_module(claim))}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _claim_module(claim) -> str:
    """The module that declares the claim (where its CLAIMS list lives)."""
    from verify.run.registry import module_of

    return module_of(claim.id)


class Cache:
    """One folder of JSON entries, ``<claim id>.<key>.json``."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _path(self, claim, k: str) -> Path:
        return self.folder / f"{claim.id}.{k}.json"

    def get(self, claim, k: str) -> tuple[Evidence, float] | None:
        doc = self.get_doc(claim, k)
        try:
            return evidence_from_json(doc["evidence"]), float(doc["seconds"])
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, claim, k: str, ev: Evidence, seconds: float) -> None:
        self.put_doc(claim, k, {"id": claim.id, "seconds": seconds, "evidence": ev.to_json()})

    def get_doc(self, claim, k: str) -> dict | None:
        """The claim's entry under key ``k`` as written by :meth:`put_doc`, or None (missing, unreadable, another
        claim's)."""
        try:
            doc = json.loads(self._path(claim, k).read_text())
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) and doc.get("id") == claim.id else None

    def put_doc(self, claim, k: str, doc: dict) -> None:
        """Write the claim's entry whole (a temporary file renamed into place: a kill leaves every earlier entry
        whole) and remove its entries under other keys (one entry per claim: the newest code)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob(f"{claim.id}.*.json"):
            if old.name != self._path(claim, k).name and old.name.count(".") == claim.id.count(".") + 2:
                old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".partial-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, default=str)
        os.replace(tmp, self._path(claim, k))


def _num(x):
    return float(x) if isinstance(x, str) and x in ("inf", "-inf", "nan") else x


def evidence_from_json(d: dict) -> Evidence:
    """Rebuild raw :class:`Evidence` from its JSON form (non-finite floats were written as strings)."""
    tests = []
    for t in d.get("tests", []):
        t = {k: _num(v) for k, v in t.items()}
        t["ci"] = tuple(_num(x) for x in t["ci"])
        tests.append(StatTest(**t))
    checks = [Check(**c) for c in d.get("checks", [])]
    return Evidence(tests=tests, checks=checks, figures=d.get("figures", []), details=d.get("details", {}),
                    seeds=list(d.get("seeds", [])))
